"""Randomly generated kernels (scalar accumulations, running maxima, overwritten temporaries,
branches, nested and triangular loops, several stores to one output): none is refused, the
derived gradient equals central differences and compiled equals the Python emulation. Fixed
seeds: the same kernels every run."""
from __future__ import annotations

import random

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid.autodiff import backward_kernel

LEAVES = ["x[i]", "w[i]", "t[i]", "s", "0.5", "x[(i + 1) % x.shape[0]]", "y[i]", "t[(i + 2) % x.shape[0]]"]
INNER = LEAVES + ["x[j]", "w[j]", "t[j]"]


def _expr(r: random.Random, leaves: list[str], depth: int = 0) -> str:
    if depth > 2 or r.random() < 0.3:
        return r.choice(leaves)
    a, b = _expr(r, leaves, depth + 1), _expr(r, leaves, depth + 1)
    return r.choice([f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} / (1.0 + {b} * {b}))", f"sin({a})",
                     f"tanh({a})", f"max({a}, {b})", f"min({a}, {b} * 0.5)", f"({a} if {b} > 0.1 else {b} * 2.0)"])


def _statement(r: random.Random) -> list[str]:
    e = lambda leaves=LEAVES: _expr(r, leaves)  # noqa: E731
    return r.choice([
        lambda: [f"s = s + {e()}"],
        lambda: [f"s = max(s, {e()})"],
        lambda: [f"s = s * {e()}"],
        lambda: [f"t[i] = {e()}"],
        lambda: [f"y[i] = y[i] + {e()}"],
        lambda: [f"y[(i * 2) % x.shape[0]] = {e()}"],
        lambda: [f"if {e()} > 0.2:", f"    y[i] = {e()}", "else:", f"    t[(i + 1) % x.shape[0]] = {e()}"],
        lambda: ["for j in range(x.shape[0]):", f"    s = s * 0.5 + {e(INNER)}"],
        lambda: ["for j in parallel(x.shape[0]):", f"    t[j] = t[j] * 0.9 + {e(INNER)}"],
        lambda: ["for j in range(i + 1):", f"    s = s + {e(INNER)}"],
    ])()


def random_kernel(seed: int) -> str:
    r = random.Random(seed)
    body = ["s = 0.0"] + [line for _ in range(r.randint(1, 4)) for line in _statement(r)]
    body.append(f"y[i] = y[i] + s * {_expr(r, ['x[i]', 'w[i]', 't[i]', '1.0'])}")
    return ("def rk(x, w):\n    y = output_tensor(x.shape, x.dtype)\n    t = allocate(x.shape, x.dtype)\n"
            "    for i in range(x.shape[0]):\n" + "".join(f"        {line}\n" for line in body) + "    return y\n")


@pytest.mark.parametrize("seed", range(1000, 1030))
def test_random_kernel_gradient_is_right(seed: int) -> None:
    hk = HybridKernel.from_source(random_kernel(seed), "rk", filename=f"<random kernel {seed}>")
    rng = np.random.default_rng(seed)
    x, w, dy = rng.uniform(-2, 2, 5), rng.uniform(-2, 2, 5), rng.standard_normal(5)
    bk, _ = backward_kernel(hk, hk.signature(["float64", "float64"], [1, 1]))
    y = hk.run([x, w])[0]
    grads = bk.run([x, w, y, dy])
    emulated = bk.run_python([x, w, y, dy])
    for k, base in enumerate((x, w)):
        numeric = np.zeros(5)
        for i in range(5):
            plus, minus = [x.copy(), w.copy()], [x.copy(), w.copy()]
            plus[k][i] += 1e-6
            minus[k][i] -= 1e-6
            loss = lambda a: float(np.sum(hk.run_python(a)[0] * dy))  # noqa: E731
            numeric[i] = (loss(plus) - loss(minus)) / 2e-6
        np.testing.assert_allclose(grads[k], numeric, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(grads[k], emulated[k], rtol=1e-12, atol=1e-12)
