"""Op table: special functions — the Bessel family, the gamma family (digamma, lgamma, polygamma, the
regularized incomplete gammas, Hurwitz zeta, the multivariate log-gamma), the incomplete beta and sinc.

Values come from :mod:`scipy.special` (imported when an op first runs: numpy has none of these but ``i0`` and
``sinc``), computed in float64 and rounded to the input's dtype. dtype checks and their error texts are
MindSpore 2.10's (each primitive names its own argument, e.g. ``BesselI0``'s ``x``). Each backward is written
with the table's ops beside its forward, so higher derivatives work; the incomplete gamma's derivative in its
first argument has no closed form and is a float64 central difference (MindSpore's ``IgammaGradA`` is a kernel of
its own too).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([0.5, 1.0, 2.0])
    >>> print(ops.bessel_j0(x), ops.lgamma(x))
    [0.9384698  0.7651977  0.22389078] [0.5723649 0.        0.       ]
    >>> print(ms.grad(lambda a: ops.digamma(a).sum())(x))
    [4.934802   1.644934   0.64493406]
"""
from __future__ import annotations

import math
from typing import Any, Callable, List, Sequence

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F, Op

_F = ("Float16", "Float32", "Float64")
_F3264 = ("Float32", "Float64")


def _sp() -> Any:
    import scipy.special  # lazily: only these ops need it
    return scipy.special


def _name(a: np.ndarray) -> str:
    return str(mstype.to_dtype(a.dtype))


def check_types(prim: str, names: Sequence[str], arrays: Sequence[np.ndarray], allowed: Sequence[str],
                same: bool = True) -> None:
    """MindSpore's type check of a primitive's inputs: each dtype among ``allowed``, and (``same``) all alike.

    Example:
        >>> check_types("Zeta", ("q",), (np.zeros(1, np.int32),), _F3264)
        Traceback (most recent call last):
        ...
        TypeError: For primitive[Zeta], the input argument[q] must be a type of {Tensor[Float32], \
Tensor[Float64]}, but got Tensor[Int32].
    """
    if same and len({a.dtype for a in arrays}) > 1:
        lines = "".join(f"\nname:[{n}]:Tensor[{_name(a)}]." for n, a in sorted(zip(names, arrays)))
        raise TypeError(f"For primitive[{prim}], the input type must be same.{lines}")
    for n, a in zip(names, arrays):
        if _name(a) not in allowed:
            kinds = ", ".join(f"Tensor[{t}]" for t in allowed)
            raise TypeError(f"For primitive[{prim}], the input argument[{n}] must be a type of {{{kinds}}}, but got "
                            f"Tensor[{_name(a)}].")


def _unary(fn: str, prim: str, arg: str = "x", allowed: Sequence[str] = _F) -> Callable:
    """The forward of a one-input special function: MindSpore's dtype check, scipy's value in float64, rounded to
    the input's dtype (integers to Float32 where ``to_float``)."""
    def forward(x: np.ndarray) -> np.ndarray:
        check_types(prim, (arg,), (x,), allowed)
        out_dtype = np.float32 if x.dtype.kind in "biu" else x.dtype
        return np.asarray(getattr(_sp(), fn)(x.astype(np.float64)), out_dtype)
    return forward


def _hurwitz_zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``sum_k (k + q) ** -x``; at ``x = +inf`` its limit (0 for ``q > 1``, 1 at ``q = 1``, inf for ``0 < q < 1``),
    where scipy gives NaN for ``q > 1``."""
    x, q = np.broadcast_arrays(x, q)
    out = np.asarray(_sp().zeta(x, q), np.float64)
    at_inf = np.isposinf(x) & (q > 0)
    return np.where(at_inf, np.where(q > 1, 0.0, np.where(q == 1, 1.0, np.inf)), out)


def _binary(fn: Callable, prim: str, names: Sequence[str], allowed: Sequence[str] = _F3264,
            same_shape: bool = False) -> Callable:
    """The forward of a two-input special function (``names`` in the order MindSpore checks them; ``("q", "x")``
    checks the second input first)."""
    def forward(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        check_types(prim, names, (a, b) if names[0] != "q" else (b, a), allowed)
        if same_shape and a.shape != b.shape:
            raise ValueError(f"{prim}Shape of x{_shape(a)} are not consistent with the shape q{_shape(b)}")
        return np.asarray(fn(a.astype(np.float64), b.astype(np.float64)), a.dtype)
    return forward


def _shape(a: np.ndarray) -> str:
    return f"({', '.join(map(str, a.shape))})"


def _zero_safe(x: Tensor, value: float, expr: Callable[[Tensor], Tensor]) -> Tensor:
    """``expr(x)``, and ``value`` where ``x`` is 0 (the limit of an ``f(x) / x`` term)."""
    zero = x == 0
    safe = F.where(zero, F.ones_like(x), x)
    return F.where(zero, F.full_like(x, value), expr(safe))


def _i1_grad(g: Tensor, x: Tensor, out: Tensor) -> tuple:
    """i0(x) - i1(x) / x; at 0 MindSpore 2.10 gives i0(0) = 1 (the limit is 1/2; its i1e and j1 give 1/2)."""
    return (g * _zero_safe(x, 1.0, lambda s: F.bessel_i0(s) - F.bessel_i1(s) / s),)


def _i1e_grad(g: Tensor, x: Tensor, out: Tensor) -> tuple:
    return (g * _zero_safe(x, 0.5, lambda s: F.bessel_i0e(s) - F.bessel_i1e(s) * (F.sign(s) + 1 / s)),)


def _j1_grad(g: Tensor, x: Tensor) -> tuple:
    return (g * _zero_safe(x, 0.5, lambda s: F.bessel_j0(s) - F.bessel_j1(s) / s),)


def _igamma_grad_a(a: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """d/da of the regularized lower (or upper) incomplete gamma, as a float64 central difference."""
    a64, x64 = a.astype(np.float64), x.astype(np.float64)
    h = 1e-6 * np.maximum(np.abs(a64), 1.0)
    sp = _sp()
    d = (sp.gammainc(a64 + h, x64) - sp.gammainc(a64 - h, x64)) / (2 * h)
    return np.asarray(-d if upper else d, np.result_type(a, x))


def _igamma_dx(g: Tensor, a: Tensor, x: Tensor) -> Tensor:
    """g * x^(a-1) e^-x / Gamma(a), the derivative of the lower regularized gamma in ``x``."""
    return g * F.exp((a - 1) * F.log(x) - x - F.lgamma(a))


def _mvlgamma(x: np.ndarray, p: int) -> np.ndarray:
    if not isinstance(p, int) or isinstance(p, bool) or p < 1:
        raise ValueError(f"For 'Mvlgamma', the 'p' must be int and must > 0, but got '{p}' with type "
                         f"'{type(p).__name__}'.")
    check_types("Mvlgamma", ("x",), (x,), _F3264)
    if np.any(x <= (p - 1) / 2):
        raise ValueError("For Mvlgamma, all elements of 'x' must be greater than (p-1)/2.")
    return np.asarray(_sp().multigammaln(x.astype(np.float64), p) if x.ndim == 0 else
                      np.vectorize(lambda v: _sp().multigammaln(v, p))(x.astype(np.float64)), x.dtype)


def _mvlgamma_grad(g: Tensor, input: Tensor, p: int) -> tuple:
    total = F.digamma(input)
    for i in range(1, p):
        total = total + F.digamma(input - i / 2)
    return (g * total,)


def _polygamma(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    if n.dtype.kind not in "iu":
        raise TypeError(f"For primitive[Polygamma], the input argument[a] must be a type of {{Tensor[Int32], "
                        f"Tensor[Int64]}}, but got Tensor[{_name(n)}].")
    check_types("Polygamma", ("x",), (x,), _F)
    return np.asarray(_sp().polygamma(n.astype(np.int64), x.astype(np.float64)), x.dtype)


def _sinc(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.bool_:  # MindSpore 2.10 divides sin(pi x) by pi x in Float32 here: nan at False
        xf = x.astype(np.float32) * np.float32(math.pi)
        with np.errstate(invalid="ignore"):
            return np.sin(xf) / xf
    out = np.float32 if x.dtype.kind in "iu" else x.dtype
    return np.asarray(np.sinc(x.astype(np.float64)), out)


def _sinc_grad(g: Tensor, input: Tensor, out: Tensor) -> tuple:
    """(cos(pi x) - sinc(x)) / x, 0 at 0."""
    return (g * _zero_safe(input, 0.0, lambda s: (F.cos(s * math.pi) - F.sinc(s)) / s),)


def _betainc(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    check_types("Betainc", ("a", "b", "x"), (a, b, x), _F3264)
    return np.asarray(_sp().betainc(a.astype(np.float64), b.astype(np.float64), x.astype(np.float64)), a.dtype)


def _betainc_grad(g: Tensor, a: Tensor, b: Tensor, x: Tensor) -> tuple:
    """Only ``x`` has a gradient (as MindSpore's BetaincGrad): x^(a-1) (1-x)^(b-1) / B(a, b)."""
    log_beta = F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)
    return (None, None, g * F.exp((a - 1) * F.log(x) + (b - 1) * F.log1p(-x) - log_beta))


OPS: List[Op] = [
    Op("bessel_i0", "x", _unary("i0", "BesselI0"), lambda g, x: (g * F.bessel_i1(x),), prim="BesselI0",
       aliases=("i0",), method="i0"),
    Op("bessel_i0e", "x", _unary("i0e", "BesselI0e", "input_x"),
       lambda g, x, out: (g * (F.bessel_i1e(x) - F.sign(x) * out),), prim="BesselI0e"),
    Op("bessel_i1", "x", _unary("i1", "BesselI1"), _i1_grad, prim="BesselI1"),
    Op("bessel_i1e", "x", _unary("i1e", "BesselI1e", "input_x"), _i1e_grad, prim="BesselI1e"),
    Op("bessel_j0", "x", _unary("j0", "BesselJ0"), lambda g, x: (-g * F.bessel_j1(x),), prim="BesselJ0"),
    Op("bessel_j1", "x", _unary("j1", "BesselJ1"), _j1_grad, prim="BesselJ1"),
    Op("bessel_y0", "x", _unary("y0", "BesselY0"), lambda g, x: (-g * F.bessel_y1(x),), prim="BesselY0"),
    Op("bessel_y1", "x", _unary("y1", "BesselY1"),
       lambda g, x, out: (g * (F.bessel_y0(x) - out / x),), prim="BesselY1"),
    Op("bessel_k0", "x", _unary("k0", "BesselK0"), lambda g, x: (-g * F.bessel_k1(x),), prim="BesselK0"),
    Op("bessel_k0e", "x", _unary("k0e", "BesselK0e"),
       lambda g, x, out: (g * (out - F.bessel_k1e(x)),), prim="BesselK0e"),
    Op("bessel_k1", "x", _unary("k1", "BesselK1"),
       lambda g, x, out: (-g * (F.bessel_k0(x) + out / x),), prim="BesselK1"),
    Op("bessel_k1e", "x", _unary("k1e", "BesselK1e"),
       lambda g, x, out: (g * (out * (1 - 1 / x) - F.bessel_k0e(x)),), prim="BesselK1e"),
    Op("digamma", "input", _unary("psi", "Digamma", "input"),
       lambda g, input: (g * F.polygamma(Tensor._wrap(np.array(1, np.int64)), input),), prim="Digamma",
       method=True),
    Op("lgamma", "input", _unary("gammaln", "Lgamma", "x", _F + ("Int32",)),
       lambda g, input: (g * F.digamma(input),), prim="Lgamma", method=True),
    Op("polygamma", "n, input", _polygamma,
       lambda g, n, input: (None, g * F.polygamma(n + 1, input)), inputs=2, prim="Polygamma"),
    Op("igamma", "input, other", _binary(lambda a, x: _sp().gammainc(a, x), "Igamma", ("a", "x")),
       (lambda g, input, other: g * Tensor._wrap(_igamma_grad_a(input._data, other._data, False)),
        lambda g, input, other: _igamma_dx(g, input, other)),
       inputs=2, prim="Igamma", method=True),
    Op("igammac", "input, other", _binary(lambda a, x: _sp().gammaincc(a, x), "Igammac", ("a", "x")),
       (lambda g, input, other: g * Tensor._wrap(_igamma_grad_a(input._data, other._data, True)),
        lambda g, input, other: -_igamma_dx(g, input, other)),
       inputs=2, prim="Igammac", method=True),
    # the functional op broadcasts; the primitive wants both shapes alike
    Op("zeta", "input, other", _binary(_hurwitz_zeta, "Zeta", ("q", "x")),
       lambda g, input, other: (None, -g * input * F.zeta(input + 1, other)), inputs=2),
    Op("_zeta", "x, q", _binary(_hurwitz_zeta, "Zeta", ("q", "x"), same_shape=True),
       lambda g, x, q: (None, -g * x * F.zeta(x + 1, q)), inputs=2, prim="Zeta"),
    Op("mvlgamma", "input, p", _mvlgamma, _mvlgamma_grad, prim="Mvlgamma(p)(x) -> x, p", method=True),
    Op("sinc", "input", _sinc, _sinc_grad, prim="Sinc", method=True),
    Op("_betainc", "a, b, x", _betainc, _betainc_grad, inputs=3, prim="Betainc()(a, b, x) -> a, b, x"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "bessel_i0": ("ops.bessel_i0(ms.Tensor([-1.0, 0.5]))", "[1.2660658 1.0634834]"),
    "bessel_i0e": ("ops.bessel_i0e(ms.Tensor([-1.0, 0.5]))", "[0.4657596  0.64503527]"),
    "bessel_i1": ("ops.bessel_i1(ms.Tensor([-1.0, 0.5]))", "[-0.5651591  0.2578943]"),
    "bessel_i1e": ("ops.bessel_i1e(ms.Tensor([-1.0, 0.5]))", "[-0.20791042  0.1564208 ]"),
    "bessel_j0": ("ops.bessel_j0(ms.Tensor([0.5, 4.0]))", "[ 0.9384698 -0.3971498]"),
    "bessel_j1": ("ops.bessel_j1(ms.Tensor([0.5, 4.0]))", "[ 0.24226846 -0.06604332]"),
    "bessel_y0": ("ops.bessel_y0(ms.Tensor([0.5, 4.0]))", "[-0.44451874 -0.01694074]"),
    "bessel_y1": ("ops.bessel_y1(ms.Tensor([0.5, 4.0]))", "[-1.4714724  0.3979257]"),
    "bessel_k0": ("ops.bessel_k0(ms.Tensor([0.5, 4.0]))", "[0.92441905 0.01115968]"),
    "bessel_k0e": ("ops.bessel_k0e(ms.Tensor([0.5, 4.0]))", "[1.5241094 0.6092977]"),
    "bessel_k1": ("ops.bessel_k1(ms.Tensor([0.5, 4.0]))", "[1.6564411 0.0124835]"),
    "bessel_k1e": ("ops.bessel_k1e(ms.Tensor([0.5, 4.0]))", "[2.7310097  0.68157595]"),
    "digamma": ("ops.digamma(ms.Tensor([1.5, 0.5, 9.0]))", "[ 0.03648997 -1.96351     2.1406415 ]"),
    "lgamma": ("ops.lgamma(ms.Tensor([0.5, 3.2, 8.5]))", "[0.5723649 0.8854049 9.549267 ]"),
    "polygamma": ("ops.polygamma(ms.Tensor(1), ms.Tensor([1.0, -0.5]))", "[1.644934 8.934802]"),
    "igamma": ("ops.igamma(ms.Tensor([2.0, 4.0]), ms.Tensor([2.0, 3.0]))", "[0.59399414 0.35276812]"),
    "igammac": ("ops.igammac(ms.Tensor([2.0, 4.0]), ms.Tensor([2.0, 3.0]))", "[0.40600586 0.6472319 ]"),
    "zeta": ("ops.zeta(ms.Tensor([10.0, 2.0]), ms.Tensor([1.0, 1.0]))", "[1.0009946 1.644934 ]"),
    "Zeta": ("ops.Zeta()(ms.Tensor([10.0, 2.0]), ms.Tensor([1.0, 1.0]))", "[1.0009946 1.644934 ]"),
    "mvlgamma": ("ops.mvlgamma(ms.Tensor([3.0, 4.0]), 3)", "[2.6949248 5.402975 ]"),
    "Mvlgamma": ("ops.Mvlgamma(p=2)(ms.Tensor([1.0, 2.5]))", "[1.1447299 0.8570478]"),
    "sinc": ("ops.sinc(ms.Tensor([0.0, 0.5, 1.0]))", "[1.0000000e+00 6.3661975e-01 3.8981717e-17]"),
    "Betainc": ("ops.Betainc()(ms.Tensor([0.3, 0.1]), ms.Tensor([0.4, 0.5]), ms.Tensor([0.2, 0.6]))",
                "[0.41462696 0.87060344]"),
}
