"""Loops whose trip counts vary (triangular, ragged): values the backward needs are recorded on
a stack (pushed by the replay, popped by the reverse sweep), sized by counting first."""
from __future__ import annotations

import re

import numpy as np

import mskernel as ms
from mskernel import ops


def prefix_products(x):  # y[i] = x[0] * ... * x[i-1]: p is overwritten in a triangular loop
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        p = 1.0
        for j in range(i):
            p = p * x[j]
        y[i] = p
    return y


def ragged_recurrence(x, lens):  # a recurrence over a per-row number of columns
    y = output_tensor((x.shape[0],), x.dtype)
    for i in range(x.shape[0]):
        acc = 0.0
        for j in range(lens[i]):
            acc = acc * x[i, j] + 1.0
        y[i] = acc
    return y


def lower_solve(a, b):  # forward substitution: x = L^-1 b with L = tril(a)
    x = output_tensor(b.shape, b.dtype)
    for i in range(a.shape[0]):
        s = b[i]
        for j in range(i):
            s = s - a[i, j] * x[j]
        x[i] = s / a[i, i]
    return x


def test_triangular_loop_records_on_a_stack_and_passes_gradcheck() -> None:
    op = ops.Custom(prefix_products, func_type="akg")
    src = op.backward_source(np.ones(3))
    assert re.search(r"(_k\d+) = \1 \+ 1\n", src) and re.search(r"(_k\d+) = \1 - 1\n", src)  # push, pop
    x = ms.Tensor(np.array([1.5, -2.0, 0.5, 3.0]))
    assert ms.gradcheck(op, (x,), raise_exception=False).passed


def test_ragged_loop_passes_gradcheck() -> None:
    op = ops.Custom(ragged_recurrence, func_type="akg")
    x = ms.Tensor(np.random.default_rng(2).uniform(-1, 1, (3, 4)))
    lens = ms.Tensor(np.array([4, 0, 2], np.int64))
    assert ms.gradcheck(lambda x: op(x, lens), (x,), raise_exception=False).passed


def test_triangular_solve_matches_the_analytic_gradient() -> None:
    rng = np.random.default_rng(4)
    a = np.tril(rng.uniform(0.5, 1.5, (4, 4))) + 2 * np.eye(4)
    b = rng.standard_normal(4)
    op = ops.Custom(lower_solve, func_type="akg")
    w = rng.standard_normal(4)
    ga, gb = ms.grad(lambda a, b: (op(a, b) * ms.Tensor(w)).sum(), grad_position=(0, 1))(ms.Tensor(a), ms.Tensor(b))
    lower = np.tril(a)
    x = np.linalg.solve(lower, b)
    lam = np.linalg.solve(lower.T, w)  # d(w.x)/db = L^-T w, d/dL = -lam x^T on the lower triangle
    np.testing.assert_allclose(gb.asnumpy(), lam, rtol=1e-10)
    np.testing.assert_allclose(ga.asnumpy(), np.tril(-np.outer(lam, x)), rtol=1e-10, atol=1e-12)
