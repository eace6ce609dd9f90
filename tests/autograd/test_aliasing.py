"""Gradients that reach several inputs through one buffer stay separate (the aliasing of issue [17]).

A pass-through rule (Add's backward hands the same gradient to both inputs) gives one buffer to two
inputs; the engine must never accumulate into it in place afterwards. The expected values come from
float64 central differences computed with numpy alone, not from the engine.
"""
from __future__ import annotations

import numpy as np

import mskernel as ms
from mskernel import ops


def _residual_np(w: np.ndarray, b: np.ndarray, x: np.ndarray) -> float:
    h = w @ x
    z = h + b
    return float((np.maximum(z, 0) + z + h * 0.5).sum())


def _central_differences(f, arrays, k, eps=1e-6):
    a = arrays[k]
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        hi = [v.copy() for v in arrays]
        lo = [v.copy() for v in arrays]
        hi[k][i] += eps
        lo[k][i] -= eps
        g[i] = (f(*hi) - f(*lo)) / (2 * eps)
    return g


def test_residual_network_bias_gradient():
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    b = np.array([[0.5], [-0.5]])
    x = np.array([[1.0], [1.0]])

    def f(wt, bt):
        h = ops.matmul(wt, ms.Tensor(x))
        s = h * 0.5
        z = h + bt
        return (ops.relu(z) + z + s).sum()

    gw, gb = ms.grad(f, (0, 1))(ms.Tensor(w), ms.Tensor(b))
    np.testing.assert_allclose(gb.asnumpy(), _central_differences(_residual_np, [w, b, x], 1), rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), _central_differences(_residual_np, [w, b, x], 0), rtol=1e-6)
    assert gb.asnumpy().tolist() == [[2.0], [2.0]]
