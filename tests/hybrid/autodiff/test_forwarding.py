"""Values read back from the store that wrote them: an intrinsic's derivative from its stored
result, and a reused buffer's element from the record made right after it was written -- only
when that is provably the value read (else the value is recorded where it is read)."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops

from ..corpus import CASES


def test_softmax_backward_reads_its_exponentials_back() -> None:
    src = ops.Custom(CASES["softmax"].func, func_type="akg").backward_source(np.ones((2, 3)))
    replay, reverse = src.split("# reverse sweep")
    assert reverse.count("exp(") == 0 and replay.count("exp(") == 1
    lines = replay.splitlines()
    k = next(n for n, line in enumerate(lines) if "row[j] = exp(" in line)
    after = lines[k + 1].strip()
    assert after.startswith("tape") and after.endswith("= row[j]")  # recorded right after the store


def test_elementwise_exp_reads_the_output() -> None:
    def expo(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = exp(x[i] * 2.0)
        return y

    op = ops.Custom(expo, func_type="akg")
    src = op.backward_source(np.ones(3))
    assert "exp(" not in src and "y[i]" in src  # the final output holds exp(2x)
    x = ms.Tensor(np.array([0.1, -0.4, 0.7]))
    np.testing.assert_allclose(ms.grad(lambda x: op(x).sum())(x).asnumpy(), 2 * np.exp(2 * x.asnumpy()))


def shifted_rows(x):  # the second loop reads row[0], which the first loop does not write for this i
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        for j in range(1, x.shape[1]):
            row[j] = x[i, j] * x[i, j - 1]
        for j in range(x.shape[1]):
            y[i, j] = row[j] * x[i, j]
        row[0] = x[i, 0] * 3.0
    return y


def conditional_rows(x):  # the write is under a branch: a row element may keep an older value
    y = output_tensor(x.shape, x.dtype)
    row = allocate((x.shape[1],), x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if x[i, j] > 0:
                row[j] = x[i, j] * x[i, j]
        for j in range(x.shape[1]):
            y[i, j] = row[j] * x[i, j]
    return y


@pytest.mark.parametrize("func", [shifted_rows, conditional_rows])
def test_not_forwarded_when_the_store_may_not_have_written_the_element(func) -> None:
    op = ops.Custom(func, func_type="akg")
    x = ms.Tensor(np.random.default_rng(3).uniform(-1, 1, (4, 5)))
    assert ms.gradcheck(op, (x,), raise_exception=False).passed
