"""Gradients of the special functions and math helpers (table modules special.py, numeric.py, complexnum.py)
against float64 central differences of scipy's and numpy's own functions (tests/central_differences.py), first
order for every differentiable entry, second order where the backward is built from differentiable ops; values
against scipy where scipy is the natural oracle."""
from __future__ import annotations

from typing import Callable, Dict

import numpy as np
import pytest
import scipy.special as sp

import mskernel as ms
from mskernel import ops
from central_differences import derivative_along, gradient

_R = np.random.default_rng(7)
POS = _R.uniform(0.3, 3.0, (2, 3))          # inside every function's domain
SIGNED = _R.uniform(-2.5, 2.5, (2, 3))
SIGNED = np.where(np.abs(SIGNED) < 0.2, 0.4, SIGNED)
POS2 = _R.uniform(0.3, 3.0, (2, 3))
UNIT = _R.uniform(0.1, 0.9, (2, 3))


def _mvlgamma3(x: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda v: sp.multigammaln(v, 3))(x)


def _logcumsumexp(x: np.ndarray) -> np.ndarray:
    return np.logaddexp.accumulate(x, axis=1)


#: name -> (mskernel function of Tensors, the same function in numpy/scipy, inputs, second order?)
CASES: Dict[str, tuple] = {
    "bessel_i0": (ops.bessel_i0, sp.i0, (SIGNED,), True),
    "bessel_i0e": (ops.bessel_i0e, sp.i0e, (SIGNED,), True),
    "bessel_i1": (ops.bessel_i1, sp.i1, (SIGNED,), True),
    "bessel_i1e": (ops.bessel_i1e, sp.i1e, (SIGNED,), True),
    "bessel_j0": (ops.bessel_j0, sp.j0, (SIGNED,), True),
    "bessel_j1": (ops.bessel_j1, sp.j1, (SIGNED,), True),
    "bessel_y0": (ops.bessel_y0, sp.y0, (POS,), True),
    "bessel_y1": (ops.bessel_y1, sp.y1, (POS,), True),
    "bessel_k0": (ops.bessel_k0, sp.k0, (POS,), True),
    "bessel_k0e": (ops.bessel_k0e, sp.k0e, (POS,), True),
    "bessel_k1": (ops.bessel_k1, sp.k1, (POS,), True),
    "bessel_k1e": (ops.bessel_k1e, sp.k1e, (POS,), True),
    "digamma": (ops.digamma, sp.psi, (POS,), True),
    "lgamma": (ops.lgamma, sp.gammaln, (POS,), True),
    "polygamma2": (lambda x: ops.polygamma(ms.Tensor(2), x), lambda x: sp.polygamma(2, x), (POS,), True),
    "igamma": (ops.igamma, sp.gammainc, (POS, POS2), False),
    "igammac": (ops.igammac, sp.gammaincc, (POS, POS2), False),
    "zeta_q": (lambda q: ops.zeta(ms.Tensor(np.full((2, 3), 3.5)), q), lambda q: sp.zeta(3.5, q), (POS,), True),
    "mvlgamma": (lambda x: ops.mvlgamma(x, 3), _mvlgamma3, (POS + 1.5,), True),
    "sinc": (ops.sinc, np.sinc, (SIGNED,), True),
    "betainc_x": (lambda x: ops.Betainc()(ms.Tensor(POS), ms.Tensor(POS2), x),
                  lambda x: sp.betainc(POS, POS2, x), (UNIT,), False),
    "ldexp": (ops.ldexp, lambda x, e: x * np.exp2(e), (SIGNED, SIGNED), True),
    "xdivy": (ops.xdivy, lambda x, y: x / y, (SIGNED, POS), True),
    "float_power": (ops.float_power, np.power, (POS, SIGNED), True),
    "deg2rad": (ops.deg2rad, np.deg2rad, (SIGNED,), False),
    "rad2deg": (ops.rad2deg, np.rad2deg, (SIGNED,), False),
    "inv": (ops.inv, np.reciprocal, (SIGNED,), True),
    "logcumsumexp": (lambda x: ops.logcumsumexp(x, 1), _logcumsumexp, (SIGNED,), True),
    "fmax": (ops.fmax, np.fmax, (SIGNED, POS), False),
    "div_no_nan": (ops.DivNoNan(), np.divide, (SIGNED, POS), True),
    "mul_no_nan": (ops.MulNoNan(), np.multiply, (SIGNED, POS), True),
    "polar_real": (lambda r, t: ops.real(ops.polar(r, t)) + 2 * ops.imag(ops.polar(r, t)),
                   lambda r, t: r * np.cos(t) + 2 * r * np.sin(t), (POS, SIGNED), False),
}


def _numpy_loss(fn: Callable, cot: np.ndarray) -> Callable:
    return lambda p: float((fn(*[p[str(k)] for k in range(len(p))]) * cot).sum())


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_against_the_reference(name: str) -> None:
    f, ref, inputs, _ = CASES[name]
    got = f(*[ms.Tensor(a) for a in inputs])
    np.testing.assert_allclose(got.asnumpy(), ref(*inputs), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_order_gradient(name: str) -> None:
    f, ref, inputs, _ = CASES[name]
    cot = np.random.default_rng(1).standard_normal(inputs[0].shape)
    want = gradient(_numpy_loss(ref, cot), {str(k): a for k, a in enumerate(inputs)})
    pos = tuple(range(len(inputs)))
    got = ms.grad(lambda *ts: (f(*ts) * ms.Tensor(cot)).sum(), pos)(*[ms.Tensor(a) for a in inputs])
    got = (got,) if isinstance(got, ms.Tensor) else got
    for k, g in enumerate(got):
        assert g.dtype == ms.float64
        np.testing.assert_allclose(g.asnumpy(), want[str(k)], rtol=1e-6, atol=1e-8, err_msg=f"input {k}")


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c[3]))
def test_second_order_gradient(name: str) -> None:
    f, ref, inputs, _ = CASES[name]
    rng = np.random.default_rng(2)
    cot = rng.standard_normal(inputs[0].shape)
    v = {str(k): rng.standard_normal(a.shape) for k, a in enumerate(inputs)}
    loss = _numpy_loss(ref, cot)
    want = gradient(lambda p: derivative_along(loss, p, v), {str(k): a for k, a in enumerate(inputs)})
    pos = tuple(range(len(inputs)))

    def along(*ts):
        gs = ms.grad(lambda *xs: (f(*xs) * ms.Tensor(cot)).sum(), pos)(*ts)
        gs = (gs,) if isinstance(gs, ms.Tensor) else gs
        return sum((g * ms.Tensor(v[str(k)])).sum() for k, g in enumerate(gs))

    got = ms.grad(along, pos)(*[ms.Tensor(a) for a in inputs])
    got = (got,) if isinstance(got, ms.Tensor) else got
    for k, g in enumerate(got):
        np.testing.assert_allclose(g.asnumpy(), want[str(k)], rtol=1e-5, atol=1e-6, err_msg=f"input {k}")
