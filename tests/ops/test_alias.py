"""In-place writes and views while gradients are recorded (mskernel/ops/alias.py).

Values are checked against numpy doing the same writes; gradients against float64 central differences of the
same program run on numpy alone (the oracle shares no code with the engine).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

import mskernel as ms
from central_differences import derivative_along, gradient
from mskernel import ops

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
Y = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -2.0]])


def central_differences(f: Callable[[np.ndarray, np.ndarray], float], k: int) -> np.ndarray:
    """d f(X, Y) / d (X, Y)[k] by central differences, in float64 (tests/central_differences.py)."""
    return gradient(lambda p: f(p["x"], p["y"]), {"x": X.copy(), "y": Y.copy()})["xy"[k]]


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-a))


# (mskernel program, the same program on numpy): each writes in place while gradients are recorded
PROGRAMS = {
    "slice_times": (lambda x, y: _t(lambda a: a.__setitem__((1, slice(None, None, 2)), a[1, ::2] * y[0, ::2]), x),
                    lambda x, y: _n(lambda a: a.__setitem__((1, slice(None, None, 2)), a[1, ::2] * y[0, ::2]), x)),
    "shifted": (lambda x, y: _t(lambda a: a.__setitem__((slice(None), slice(1, None)), a[:, :-1] * y[:, 1:]), x),
                lambda x, y: _n(lambda a: a.__setitem__((slice(None), slice(1, None)), a[:, :-1] * y[:, 1:]), x)),
    "through_view": (lambda x, y: _t(lambda a: a[0].__setitem__(1, y[0, 0]), x),
                     lambda x, y: _n(lambda a: a[0].__setitem__(1, y[0, 0]), x)),
    "through_reshape": (lambda x, y: _t(lambda a: a.reshape((3, 2)).__setitem__((0, 1), y[1, 1]), x),
                        lambda x, y: _n(lambda a: a.reshape((3, 2)).__setitem__((0, 1), y[1, 1]), x)),
    "through_transpose": (lambda x, y: _t(lambda a: a.T.__setitem__((2, 0), y[0, 2] * a[0, 0]), x),
                          lambda x, y: _n(lambda a: a.T.__setitem__((2, 0), y[0, 2] * a[0, 0]), x)),
    "view_of_view": (lambda x, y: _t(lambda a: a[1][1:].__setitem__(0, y[1, 0]), x),
                     lambda x, y: _n(lambda a: a[1][1:].__setitem__(0, y[1, 0]), x)),
    "mul_method": (lambda x, y: _t(lambda a: a.mul_(y), x), lambda x, y: _n(lambda a: a.__imul__(y), x)),
    "div_method": (lambda x, y: _t(lambda a: a.div_(y + 3.0), x),
                   lambda x, y: _n(lambda a: a.__itruediv__(y + 3.0), x)),
    "method_on_view": (lambda x, y: _t(lambda a: a[0].mul_(y[0]), x),
                       lambda x, y: _n(lambda a: a[0].__imul__(y[0]), x)),
}


def _t(write, x):
    a = x * 1.0
    write(a)
    return a


def _n(write, x):
    a = x * 1.0
    write(a)
    return a


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_in_place_writes_give_numpys_values_and_the_gradients_of_what_was_computed(name):
    ms_write, np_write = PROGRAMS[name]

    def f(x, y):
        a = ms_write(x, y)
        return (a * a).sum() + ops.tanh(a).sum()

    def f_np(x, y):
        a = np_write(x, y)
        return float((a * a).sum() + np.tanh(a).sum())

    x, y = ms.Tensor(X), ms.Tensor(Y)
    np.testing.assert_allclose(ms_write(x, y).asnumpy(), np_write(X.copy(), Y.copy()))
    gx, gy = ms.grad(f, (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), central_differences(f_np, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), central_differences(f_np, 1), rtol=1e-6, atol=1e-8)


def test_an_ops_saved_output_survives_a_later_write():
    def f(x, y):
        a = ops.sigmoid(x)  # its backward reads its output
        a[0] += y[0]
        return (a * a).sum()

    def f_np(x, y):
        a = _sigmoid(x)
        a[0] += y[0]
        return float((a * a).sum())

    gx, gy = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), central_differences(f_np, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), central_differences(f_np, 1), rtol=1e-6, atol=1e-8)


def test_a_value_read_before_a_write_keeps_its_gradient():
    # b read a before the write: the write must not change b's gradient (torch raises here; MindSpore 2.10 gives
    # the derivative as if the write had gone into b's operands)
    def f(x, y):
        a = x * 1.0
        b = a * a
        a[0] = y[0]
        return (b + a).sum()

    def f_np(x, y):
        a = x * 1.0
        b = a * a
        a[0] = y[0]
        return float((b + a).sum())

    gx, gy = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), central_differences(f_np, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), central_differences(f_np, 1), rtol=1e-6, atol=1e-8)


def test_views_see_writes_into_their_base_and_are_differentiated_through_them():
    def f(x, y):
        a = x * 1.0
        s = a[0]            # a view, made before the write
        r = a.reshape((3, 2))
        a[0, 1] = y[0, 0]   # written into the base
        return (s * s).sum() + (r * 3.0).sum()

    def f_np(x, y):
        a = x * 1.0
        s = a[0]
        r = a.reshape((3, 2))
        a[0, 1] = y[0, 0]
        return float((s * s).sum() + (r * 3.0).sum())

    seen = {}

    def probe(x, y):
        a = x * 1.0
        s = a[0]
        a[0, 1] = y[0, 0]
        seen["s"] = s.asnumpy().copy()
        return s.sum()

    ms.grad(probe, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    assert seen["s"].tolist() == [1.0, 0.5, 3.0]  # the view shows the write, as numpy's (and MindSpore's) do
    gx, gy = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_allclose(gx.asnumpy(), central_differences(f_np, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gy.asnumpy(), central_differences(f_np, 1), rtol=1e-6, atol=1e-8)


def test_writes_through_views_are_also_right_differentiated_twice():
    v = np.array([[0.3, -0.2, 0.1], [0.5, 0.4, -0.6]])

    def f(x, y):
        a = x * x
        a[0].mul_(y[0])
        return (a * a).sum()

    def f_np(x, y):
        a = x * x
        a[0] *= y[0]
        return float((a * a).sum())

    got = ms.grad(lambda x, y: (ms.grad(f, 1)(x, y) * ms.Tensor(v)).sum(), 0)(ms.Tensor(X), ms.Tensor(Y))
    # d/dx of <grad_y f, v>: central differences of the derivative along v in y, on numpy
    want = gradient(lambda p: derivative_along(lambda q: f_np(q["x"], q["y"]), p, {"y": v}),
                    {"x": X.copy(), "y": Y.copy()})["x"]
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-6)


def test_outside_a_grad_call_writes_go_into_the_memory_views_share():
    a = ms.Tensor(X.copy())
    s = a[0]
    buffer = a._data
    a[0, 1] = 9.0
    assert a._data is buffer and s.asnumpy().tolist() == [1.0, 9.0, 3.0]
    s[2] = -1.0
    assert a.asnumpy()[0].tolist() == [1.0, 9.0, -1.0]
    a.add_(1.0)
    assert a._data is buffer and s.asnumpy().tolist() == [2.0, 10.0, 0.0]


def test_a_tracked_leaf_cannot_be_written_in_place_while_recorded():
    def f(x):
        x[0, 0] = 1.0
        return x.sum()
    with pytest.raises(RuntimeError, match="A leaf tensor that need grad is being used in an inplace operator"):
        ms.grad(f)(ms.Tensor(X))

    def g(x):
        x[0].add_(1.0)  # through a view of the leaf
        return x.sum()
    with pytest.raises(RuntimeError, match="A leaf tensor that need grad is being used in an inplace operator"):
        ms.grad(g)(ms.Tensor(X))
