"""MindSpore's akg test scenarios, written for mskernel: undecorated ``func_type="akg"``
functions with akg's extras, their forward, their automatic backward through
``GradOperation(sens_param=True, get_all=True)`` on Cells, and a bprop that is itself an akg op."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel.ops as ops
from mskernel import Tensor
from mskernel.hybrid import HybridError
from mskernel.nn import Cell


def mat_product(a, b):  # c = a @ b for square a, b, accumulated in place in the output
    c = output_tensor(a.shape, a.dtype)
    for r in range(a.shape[0]):
        for k in range(b.shape[1]):
            c[r, k] = 0.0
            for m in range(a.shape[1]):
                c[r, k] = c[r, k] + a[r, m] * b[m, k]
    return c


def cube_local(a):  # a scratch buffer in akg's "local" scope
    out = output_tensor(a.shape, a.dtype)
    sq = allocate(a.shape, a.dtype, "local")
    for r in range(a.shape[0]):
        for k in range(a.shape[1]):
            sq[r, k] = a[r, k] * a[r, k]
            out[r, k] = sq[r, k] * a[r, k]
    return out


def sum_and_product(a, b):
    s = output_tensor(a.shape, a.dtype)
    p = output_tensor(a.shape, a.dtype)
    for r in range(a.shape[0]):
        for k in range(a.shape[1]):
            s[r, k] = a[r, k] + b[r, k]
            p[r, k] = a[r, k] * b[r, k]
    return s, p


def update_in_place(a, b):  # a <- (a + b) * b through a local buffer
    t = allocate(a.shape, a.dtype, scope="local")
    for r in range(a.shape[0]):
        for k in range(a.shape[1]):
            t[r, k] = a[r, k] + b[r, k]
            a[r, k] = t[r, k] * b[r, k]
    return a


def cube_grad(a, dout):
    da = output_tensor(a.shape, a.dtype)
    for r in range(a.shape[0]):
        for k in range(a.shape[1]):
            da[r, k] = 3.0 * a[r, k] * a[r, k] * dout[r, k]
    return da


class Program(Cell):
    def __init__(self, func, n_inputs: int, bprop=None):
        super().__init__()
        same = (lambda x: x) if n_inputs == 1 else (lambda x, _: x)
        self.program = ops.Custom(func, out_shape=same, out_dtype=same, func_type="akg", bprop=bprop)

    def construct(self, *xs):
        return self.program(*xs)


class SumTimes(Cell):  # uses both outputs of sum_and_product
    def __init__(self):
        super().__init__()
        self.program = ops.Custom(sum_and_product, out_shape=lambda x, _: (x, x), out_dtype=lambda x, _: (x, x),
                                  func_type="akg")

    def construct(self, x, y):
        s, p = self.program(x, y)
        return ops.Add()(p, ops.Mul()(s, y))


RNG = np.random.default_rng(5)
X, Y, SENS = (RNG.normal(0, 1, (4, 4)).astype(np.float32) for _ in range(3))
ALL = ops.GradOperation(sens_param=True, get_all=True)


def test_forward_and_auto_backward_of_a_product_match_matmul() -> None:
    net = Program(mat_product, 2)
    np.testing.assert_allclose(net(Tensor(X), Tensor(Y)).asnumpy(), X @ Y, rtol=1e-5, atol=1e-5)
    dx, dy = ALL(net)(Tensor(X), Tensor(Y), Tensor(SENS))
    ex, ey = ALL(_MatMul())(Tensor(X), Tensor(Y), Tensor(SENS))
    np.testing.assert_allclose(dx.asnumpy(), ex.asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dy.asnumpy(), ey.asnumpy(), rtol=1e-5, atol=1e-5)


class _MatMul(Cell):
    def construct(self, x, y):
        return ops.MatMul()(x, y)


class _Cube(Cell):
    def construct(self, x):
        return ops.Pow()(x, 3)


def test_local_scope_allocate_and_auto_backward_match_pow() -> None:
    net = Program(cube_local, 1)
    np.testing.assert_allclose(net(Tensor(X)).asnumpy(), X ** 3, rtol=1e-6)
    got = ops.GradOperation(sens_param=True)(net)(Tensor(X), Tensor(SENS))
    want = ops.GradOperation(sens_param=True)(_Cube())(Tensor(X), Tensor(SENS))
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)


def test_two_outputs_feeding_other_ops() -> None:
    dx, dy = ALL(SumTimes())(Tensor(X), Tensor(Y), Tensor(SENS))
    np.testing.assert_allclose(dx.asnumpy(), 2 * Y * SENS, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dy.asnumpy(), 2 * X * SENS + 2 * Y * SENS, rtol=1e-5, atol=1e-6)


def test_in_place_output_forward_and_its_refused_backward() -> None:
    net = Program(update_in_place, 2)
    np.testing.assert_allclose(net(Tensor(X.copy()), Tensor(Y)).asnumpy(), X * Y + Y * Y, rtol=1e-5, atol=1e-6)
    with pytest.raises(HybridError, match="the input a is overwritten in place and the backward needs its values"):
        ALL(net)(Tensor(X.copy()), Tensor(Y), Tensor(SENS))


def test_bprop_given_as_an_akg_op() -> None:
    grad_op = ops.Custom(cube_grad, out_shape=lambda a, _: a, out_dtype=lambda a, _: a, func_type="akg")
    net = Program(cube_local, 1, bprop=lambda a, out, dout: (grad_op(a, dout),))
    got = ops.GradOperation(sens_param=True)(net)(Tensor(X), Tensor(SENS))
    np.testing.assert_allclose(got.asnumpy(), 3 * X * X * SENS, rtol=1e-5, atol=1e-6)


def test_scope_must_be_a_string_and_kernel_decorated_functions_keep_the_strict_rule() -> None:
    def bad_scope(a):
        t = allocate(a.shape, a.dtype, 3)
        return a

    with pytest.raises(HybridError, match="the scope of allocate must be a string such as 'local'"):
        ops.Custom(bad_scope, func_type="akg")
    from mskernel.ops import kernel

    with pytest.raises(HybridError, match=r"allocate takes 2 arguments, but got 3: write allocate\(shape, dtype\)"):
        ops.Custom(kernel(cube_local), func_type="hybrid")
