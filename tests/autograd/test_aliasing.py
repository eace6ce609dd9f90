"""Gradients that reach several inputs through one buffer stay separate (the aliasing of issue [17]).

A pass-through rule (Add's backward hands the same gradient to both inputs, a reshape's or a view's
backward hands back a view of it) gives one buffer to several places; the engine must never
accumulate into such a buffer in place afterwards. Each program here uses a value several times
(fan-out) through one pass-through or view op; the expected gradients come from float64 central
differences computed with numpy alone, not from the engine.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import mskernel as ms
from central_differences import derivative_along, gradient
from mskernel import ops


def central_differences(f: Callable[..., float], arrays: List[np.ndarray], k: int) -> np.ndarray:
    """d f(*arrays) / d arrays[k] by central differences, in float64 (tests/central_differences.py)."""
    names = [f"a{i}" for i in range(len(arrays))]
    return gradient(lambda p: f(*[p[n] for n in names]), dict(zip(names, arrays)))[names[k]]


def hvp_differences(f: Callable[..., float], arrays: List[np.ndarray], k: int, v: np.ndarray) -> np.ndarray:
    """(d^2 f / d arrays[k]^2) @ v: central differences of the directional derivative along v, in float64."""
    names = [f"a{i}" for i in range(len(arrays))]

    def along(p):
        return derivative_along(lambda q: f(*[q[n] for n in names]), p, {names[k]: v})
    return gradient(along, dict(zip(names, arrays)))[names[k]]


def test_residual_network_bias_gradient():
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    b = np.array([[0.5], [-0.5]])
    x = np.array([[1.0], [1.0]])

    def f_np(w_, b_):
        h = w_ @ x
        z = h + b_
        return float((np.maximum(z, 0) + z + h * 0.5).sum())

    def f(wt, bt):
        h = ops.matmul(wt, ms.Tensor(x))
        s = h * 0.5
        z = h + bt
        return (ops.relu(z) + z + s).sum()

    gw, gb = ms.grad(f, (0, 1))(ms.Tensor(w), ms.Tensor(b))
    np.testing.assert_allclose(gb.asnumpy(), central_differences(f_np, [w, b], 1), rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), central_differences(f_np, [w, b], 0), rtol=1e-6)
    assert gb.asnumpy().tolist() == [[2.0], [2.0]]


# Each pass-through or view op, written for mskernel and for numpy: h and b are (2, 3). Where b keeps its shape,
# the gradient a pass-through rule hands to h is the very buffer it hands to b.
PASS: Dict[str, Tuple[Callable, Callable]] = {
    "add": (lambda h, b: h + b, lambda h, b: h + b),
    "add_reflected": (lambda h, b: b + h, lambda h, b: b + h),
    "add_broadcast": (lambda h, b: h + b[0], lambda h, b: h + b[0]),
    "sub": (lambda h, b: h - b, lambda h, b: h - b),
    "rsub": (lambda h, b: b - h, lambda h, b: b - h),
    "sub_broadcast": (lambda h, b: b[:, :1] - h, lambda h, b: b[:, :1] - h),
    "ops_add": (lambda h, b: ops.add(h, b), lambda h, b: h + b),
    "python_scalar": (lambda h, b: (h + 1.5) + b, lambda h, b: (h + 1.5) + b),
    "reshape": (lambda h, b: h.reshape((3, 2)).reshape((2, 3)) + b, lambda h, b: h + b),
    "reshape_both": (lambda h, b: (h.reshape((6,)) + b.reshape((6,))).reshape((2, 3)), lambda h, b: h + b),
    "transpose": (lambda h, b: (ops.transpose(h, (1, 0)) + b.T).T, lambda h, b: h + b),
    "slice": (lambda h, b: h[:, 1:] + b[:, 1:], lambda h, b: h[:, 1:] + b[:, 1:]),
    "index": (lambda h, b: h[0] + b[1], lambda h, b: h[0] + b[1]),
    "expand_squeeze": (lambda h, b: ops.squeeze(ops.expand_dims(h, 0), 0) + b, lambda h, b: h + b),
    "broadcast_to": (lambda h, b: ops.broadcast_to(b[0], (2, 3)) + h, lambda h, b: b[0] + h),
    "identity": (lambda h, b: ops.identity(h) + ops.identity(b), lambda h, b: h + b),
    "same_dtype_cast": (lambda h, b: ops.cast(h, ms.float64) + b, lambda h, b: h + b),
    "astype_same": (lambda h, b: h.astype(ms.float64) + b.astype(ms.float64), lambda h, b: h + b),
    "neg_neg": (lambda h, b: -(-h) + b, lambda h, b: h + b),
    "sum_keepdims": (lambda h, b: h.sum(axis=1, keepdims=True) + h + b, lambda h, b: h.sum(1, keepdims=True) + h + b),
    "flatten": (lambda h, b: (h.flatten() + b.flatten()).reshape((2, 3)), lambda h, b: h + b),
}

W0 = np.array([[0.7, -1.2], [0.4, 0.9]])
X0 = np.array([[1.0, 0.5, -2.0], [0.3, -0.8, 1.1]])
B0 = np.array([[0.25, -0.6, 1.3], [-0.4, 0.8, 0.1]])


def _program(p, np_mode: bool, order: str = "residual"):
    """loss(w, b): h = w @ x is used several times -- through the pass-through op (whose result is used three
    times) and once scaled -- so its gradient is a sum of several, one of them handed on by a pass-through rule.
    ``order``: "residual" uses h scaled before the op and b nowhere else (so b's first gradient is the one the
    pass-through rule hands on, and h's slot is added to afterwards); "regularized" also uses b on its own before
    everything, and h scaled after the op."""
    def loss(w, b):
        if np_mode:
            h = w @ X0
            z = p(h, b)
            reg = (b * b).sum() if order == "regularized" else 0.0
            return float(reg + (np.maximum(z, 0) + z * z * 0.5 + np.tanh(z)).sum() + (h * 0.5).sum())
        reg = (b * b).sum() if order == "regularized" else None
        h = ops.matmul(w, ms.Tensor(X0))
        s = h * 0.5 if order == "residual" else None
        z = p(h, b)
        out = (ops.relu(z) + z * z * 0.5 + ops.tanh(z)).sum()
        out = out + (s if s is not None else h * 0.5).sum()
        return out + reg if reg is not None else out
    return loss


@pytest.mark.parametrize("name", list(PASS))
@pytest.mark.parametrize("weights", ["tensors", "parameters"])
@pytest.mark.parametrize("order", ["residual", "regularized"])
def test_fan_out_through_pass_through_and_view_rules(name, weights, order):
    ms_p, np_p = PASS[name]
    f, f_np = _program(ms_p, False, order), _program(np_p, True, order)
    want_w = central_differences(f_np, [W0, B0], 0)
    want_b = central_differences(f_np, [W0, B0], 1)
    if weights == "tensors":
        gw, gb = ms.grad(f, (0, 1))(ms.Tensor(W0), ms.Tensor(B0))
    else:
        w, b = ms.Parameter(ms.Tensor(W0), name="w"), ms.Parameter(ms.Tensor(B0), name="b")
        gw, gb = ms.grad(lambda: f(w, b), None, [w, b])()
        assert np.array_equal(w.asnumpy(), W0) and np.array_equal(b.asnumpy(), B0)  # the weights are untouched
    np.testing.assert_allclose(gw.asnumpy(), want_w, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gb.asnumpy(), want_b, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ["add", "sub", "reshape", "slice", "identity", "broadcast_to", "sum_keepdims"])
def test_second_order_through_pass_through_and_view_rules(name):
    ms_p, np_p = PASS[name]
    f, f_np = _program(ms_p, False), _program(np_p, True)
    v = np.array([[0.3, -1.0], [0.5, 0.2]])

    def directional(w, b):  # d/dw of this is the Hessian (w.r.t. w) times v
        return (ms.grad(f, 0)(w, b) * ms.Tensor(v)).sum()

    got = ms.grad(directional, 0)(ms.Tensor(W0), ms.Tensor(B0))
    np.testing.assert_allclose(got.asnumpy(), hvp_differences(f_np, [W0, B0], 0, v), rtol=1e-4, atol=1e-6)


def test_one_buffer_handed_to_two_inputs_is_not_written_through_either():
    # z = a + a: Add's backward returns the same gradient object for both inputs; both land on one leaf
    # and on an intermediate, and further gradients then accumulate into each slot.
    a = ms.Tensor(np.array([1.0, 2.0]))

    def f(t):
        u = t * 1.0
        z = u + u          # one buffer to both inputs of Add, both the same producer
        y = z + t          # and z's own gradient handed to t and z
        return (y * y).sum() + (u * 3.0).sum()

    def f_np(t):
        u = t * 1.0
        z = u + u
        y = z + t
        return float((y * y).sum() + (u * 3.0).sum())

    np.testing.assert_allclose(ms.grad(f)(a).asnumpy(), central_differences(f_np, [a.asnumpy()], 0), rtol=1e-6)
