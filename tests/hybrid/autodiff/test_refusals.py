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


def running_count(x):  # the inner loop's length is a running count
    y = output_tensor(x.shape, x.dtype)
    n = 0
    for i in range(x.shape[0]):
        n = n + 1
        acc = 0.0
        for j in range(n):
            acc = acc + x[j] * x[j]
        y[i] = acc
    return y


def counts_from_output(x, k):  # loop lengths read from an output the kernel clears afterwards
    c = output_tensor(k.shape, k.dtype)
    y = output_tensor(x.shape, x.dtype)
    for i in range(k.shape[0]):
        c[i] = k[i]
    for i in range(k.shape[0]):
        for j in range(c[i]):
            y[i] = y[i] + x[i] * x[i]
        c[i] = 0
    return y, c


def _line(func, text: str) -> int:
    lines, first = inspect.getsourcelines(func)
    return first + next(k for k, line in enumerate(lines) if text in line)


CASES = [
    (square_inplace, (np.array([1.0, 2.0]),), "x[i] = x[i] * x[i]",
     "the input x is overwritten in place and the backward needs its values from before the kernel wrote it"),
    (strided, (np.array([1.0, 2.0]), 1), "for i in range(0, x.shape[0], s)",
     "has a step that is not a constant, so it cannot be run backwards"),
    (running_count, (np.array([1.0, 2.0, 3.0]),), "for j in range(n)",
     "the bounds of the loop at line {line} come from the variable n, which is assigned more than once, so the "
     "backward cannot run the loop again"),
    (counts_from_output, (np.ones(2), np.array([1, 2], np.int64)), "for j in range(c[i])",
     "the bounds of the loop at line {line} come from c, which the kernel overwrites afterwards"),
]


@pytest.mark.parametrize("func, args, line_text, reason", CASES, ids=[c[0].__name__ for c in CASES])
def test_refusal_names_kernel_line_and_suggests_bprop(func, args, line_text, reason) -> None:
    op = ops.Custom(func, func_type="akg")
    with pytest.raises(HybridError) as info:
        op.backward_source(*args)
    err = info.value
    assert f"cannot derive the backward of {func.__name__} automatically" in str(err)
    assert reason.format(line=_line(func, line_text)) in str(err)
    assert "Give the op a bprop" in str(err)
    assert err.location is not None and err.location.line == _line(func, line_text)
    assert line_text in str(err)


def test_refusal_surfaces_through_grad_and_a_bprop_fixes_it() -> None:
    x = ms.Tensor(np.array([1.0, 2.0, 3.0]))
    auto = ops.Custom(running_count, func_type="akg")
    np.testing.assert_allclose(auto(x).asnumpy(), [1.0, 5.0, 14.0])  # the forward is fine
    with pytest.raises(HybridError, match="cannot derive the backward of running_count"):
        ms.grad(lambda x: auto(x).sum())(x)

    def bprop(x, out, dout):  # y[i] = sum(x[:i+1]**2): dx[j] = 2 x[j] * sum(dout[j:])
        v, d = x.asnumpy(), dout.asnumpy()
        return (ms.Tensor(2 * v * np.cumsum(d[::-1])[::-1]),)

    given = ops.Custom(running_count, func_type="akg", bprop=bprop)
    np.testing.assert_allclose(ms.grad(lambda x: given(x).sum())(x).asnumpy(), [6.0, 8.0, 6.0])


def test_backward_source_is_for_dsl_kernels_only() -> None:
    op = ops.Custom(lambda x: x, lambda x: x, lambda x: x, func_type="pyfunc")
    with pytest.raises(TypeError, match="backward_source\\(\\) is for func_type 'hybrid'/'akg'"):
        op.backward_source(ms.Tensor([1.0]))
