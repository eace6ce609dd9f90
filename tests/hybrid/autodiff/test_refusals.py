"""What the automatic backward cannot differentiate correctly is refused at the forward line,
with the kernel's name and a suggestion to give a bprop -- never a silently wrong gradient."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.hybrid import HybridError


def square_inplace(x):
    for i in range(x.shape[0]):
        x[i] = x[i] * x[i]
    return x


def strided(x, s):
    y = output_tensor(x.shape, x.dtype)
    for i in range(0, x.shape[0], s):
        y[i] = x[i] * 2.0
    return y


def prefix_products(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        p = 1.0
        for j in range(i):
            p = p * x[j]
        y[i] = p
    return y


def ragged(x, lens):
    y = output_tensor((x.shape[0],), x.dtype)
    for i in range(x.shape[0]):
        acc = 0.0
        for j in range(lens[i]):
            acc = acc * x[i, j] + 1.0
        y[i] = acc
    return y


def _line(func, text: str) -> int:
    lines, first = inspect.getsourcelines(func)
    return first + next(k for k, line in enumerate(lines) if text in line)


CASES = [
    (square_inplace, (np.array([1.0, 2.0]),), "x[i] = x[i] * x[i]",
     "the input x is overwritten in place and the backward needs its values from before the kernel wrote it"),
    (strided, (np.array([1.0, 2.0]), 1), "for i in range(0, x.shape[0], s)",
     "has a step that is not a constant, so it cannot be run backwards"),
    (prefix_products, (np.array([1.0, 2.0, 3.0]),), "for j in range(i)",
     "has bounds that depend on another loop or a variable, so the backward cannot record p"),
    (ragged, (np.ones((2, 3)), np.array([2, 3], np.int64)), "for j in range(lens[i])",
     "has bounds that depend on data, so the backward cannot record acc"),
]


@pytest.mark.parametrize("func, args, line_text, reason", CASES, ids=[c[0].__name__ for c in CASES])
def test_refusal_names_kernel_line_and_suggests_bprop(func, args, line_text, reason) -> None:
    op = ops.Custom(func, func_type="akg")
    with pytest.raises(HybridError) as info:
        op.backward_source(*args)
    err = info.value
    assert f"cannot derive the backward of {func.__name__} automatically" in str(err)
    assert reason in str(err)
    assert "Give the op a bprop" in str(err)
    assert err.location is not None and err.location.line == _line(func, line_text)
    assert line_text in str(err)


def test_refusal_surfaces_through_grad_and_a_bprop_fixes_it() -> None:
    x = ms.Tensor(np.array([1.0, 2.0, 3.0]))
    auto = ops.Custom(prefix_products, func_type="akg")
    assert np.allclose(auto(x).asnumpy(), [1.0, 1.0, 2.0])  # the forward is fine
    with pytest.raises(HybridError, match="cannot derive the backward of prefix_products"):
        ms.grad(lambda x: auto(x).sum())(x)

    def bprop(x, out, dout):
        v, d = x.asnumpy(), dout.asnumpy()
        g = np.array([sum(d[i] * np.prod(np.delete(v[:i], j)) for i in range(len(v)) if j < i)
                      for j in range(len(v))])
        return (ms.Tensor(g),)

    given = ops.Custom(prefix_products, func_type="akg", bprop=bprop)
    np.testing.assert_allclose(ms.grad(lambda x: given(x).sum())(x).asnumpy(), [3.0, 1.0, 0.0])


def test_backward_source_is_for_dsl_kernels_only() -> None:
    op = ops.Custom(lambda x: x, lambda x: x, lambda x: x, func_type="pyfunc")
    with pytest.raises(TypeError, match="backward_source\\(\\) is for func_type 'hybrid'/'akg'"):
        op.backward_source(ms.Tensor([1.0]))
