"""Auto-derived gradients equal the built-in ops' gradients and hand-written bprops, and
higher-order gradients flow through the derived backward kernel."""
from __future__ import annotations

import numpy as np

import mskernel as ms
from mskernel import ops

from ..corpus import CASES

RNG = np.random.default_rng(11)


def _t(*shape):
    return ms.Tensor(RNG.standard_normal(shape))


def test_outer_product_gradient_equals_matmul_gradient() -> None:
    outer = ops.Custom(CASES["outer"].func, func_type="akg")
    a, b, w = _t(5), _t(4), _t(5, 4)
    got = ms.grad(lambda a, b: (outer(a, b) * w).sum(), grad_position=(0, 1))(a, b)
    want = ms.grad(lambda a, b: (ops.matmul(a.reshape(5, 1), b.reshape(1, 4)) * w).sum(),
                   grad_position=(0, 1))(a, b)
    for g, r in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), r.asnumpy(), rtol=1e-12)


def test_cube_gradient_equals_pow_gradient() -> None:
    def cube(x):
        y = output_tensor(x.shape, x.dtype)
        for i, j in grid(x.shape):
            y[i, j] = x[i, j] * x[i, j] * x[i, j]
        return y

    op, x, w = ops.Custom(cube, func_type="akg"), _t(3, 4), _t(3, 4)
    got = ms.grad(lambda x: (op(x) * w).sum())(x)
    want = ms.grad(lambda x: (ops.pow(x, 3.0) * w).sum())(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-12)


def test_softmax_gradient_equals_composed_ops() -> None:
    op, x, w = ops.Custom(CASES["softmax"].func, func_type="akg"), _t(4, 6), _t(4, 6)

    def composed(x):
        e = ops.exp(x - ops.stop_gradient(ops.amax(x, axis=1, keepdims=True)))
        return e / e.sum(axis=1, keepdims=True)

    np.testing.assert_allclose(op(x).asnumpy(), composed(x).asnumpy(), rtol=1e-12)
    got = ms.grad(lambda x: (op(x) * w).sum())(x)
    want = ms.grad(lambda x: (composed(x) * w).sum())(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-9, atol=1e-12)


def _branchy(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        if x[i] > 1.0:
            y[i] = log(x[i]) + 1.0
        elif x[i] > -1.0:
            y[i] = x[i] * x[i] * 0.5 + 0.5 if x[i] > 0 else sin(x[i])
        else:
            y[i] = max(exp(x[i]), -x[i] * 0.1)
    return y


def _branchy_bprop(x, out, dout):
    v = x.asnumpy()
    d = np.where(v > 1, 1 / v, np.where(v > -1, np.where(v > 0, v, np.cos(v)),
                                        np.where(np.exp(v) >= -v * 0.1, np.exp(v), -0.1)))
    return (ms.Tensor(d * dout.asnumpy()),)


def test_branchy_elementwise_gradient_equals_hand_written_bprop() -> None:
    auto = ops.Custom(_branchy, func_type="akg")
    hand = ops.Custom(_branchy, func_type="akg", bprop=_branchy_bprop)
    x = ms.Tensor(np.array([-3.0, -2.5, -1.5, -0.5, 0.25, 0.75, 1.5, 3.0, 40.0, -40.0]))
    w = _t(10)
    got = ms.grad(lambda x: (auto(x) * w).sum())(x)
    want = ms.grad(lambda x: (hand(x) * w).sum())(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-12)


def test_second_order_gradient_through_the_derived_backward() -> None:
    def cube(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            y[i] = x[i] * x[i] * x[i]
        return y

    op, x = ops.Custom(cube, func_type="akg"), ms.Tensor(np.array([1.0, -2.0, 0.5]))
    first = ms.grad(lambda x: op(x).sum())
    second = ms.grad(lambda x: first(x).sum())
    np.testing.assert_allclose(first(x).asnumpy(), 3 * x.asnumpy() ** 2)
    np.testing.assert_allclose(second(x).asnumpy(), 6 * x.asnumpy())


def test_multiple_outputs_and_an_unused_output() -> None:
    op, a, b = ops.Custom(CASES["multi_output"].func, func_type="akg"), _t(3, 2), _t(3, 2)
    ga, gb = ms.grad(lambda a, b: op(a, b)[1].sum(), grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(ga.asnumpy(), b.asnumpy())
    np.testing.assert_allclose(gb.asnumpy(), a.asnumpy())
