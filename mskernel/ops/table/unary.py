"""Op table: elementwise functions of one tensor, each backward beside its forward.

dtype rules measured on MindSpore 2.10's CPU wheel: transcendental functions take floating inputs
only (``float``); ``sqrt``/``reciprocal`` turn integers into Float32 (``to_float``); ``abs``, ``neg``,
``sign``, ``square``, ``round`` keep integers (``any``). Derivatives at kinks follow MindSpore
(``abs``/``relu``/``sign`` give 0 at 0).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([0.25, 0.5])
    >>> print(ops.log1p(x), x.rsqrt(), ops.clamp(x, 0.3, 0.4))
    [0.22314356 0.40546513] [2.        1.4142135] [0.3 0.4]
    >>> print(ms.grad(lambda a: ops.erf(a).sum())(x))
    [1.0600142 0.8787826]
"""
from __future__ import annotations

import functools
import math
from typing import Any, List

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F, Op

_FLOAT = dict(dtype="float", method=True)


def in_float32(rule: Any) -> Any:
    """A backward rule that, for float16 gradients, runs in float32 and rounds its result to float16 once (as
    MindSpore's CPU grad kernels compute half precision), recorded like any rule (casts are ops).

    Example:
        >>> import mskernel as ms
        >>> rule = in_float32(lambda g, out: (g * (1 - out * out),))
        >>> rule(ms.Tensor([1.0], ms.float16), ms.Tensor([0.5], ms.float16))[0].dtype
        mindspore.float16
    """
    @functools.wraps(rule)  # the engine reads what the rule reads from its parameter names
    def run(g: Tensor, *args: Any) -> tuple:
        if g._data.dtype != np.float16:
            return rule(g, *args)
        up = [a.astype(mstype.float32) if isinstance(a, Tensor) and a._data.dtype == np.float16 else a for a in args]
        return tuple(r.astype(mstype.float16) if isinstance(r, Tensor) else r
                     for r in rule(g.astype(mstype.float32), *up))
    return run
_erf = np.frompyfunc(math.erf, 1, 1)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _np_erf(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erf(x), dtype=x.dtype)


def _np_erfinv(y: np.ndarray) -> np.ndarray:
    """Inverse error function: a rational first guess, then Newton steps on erf in float64."""
    y64 = np.asarray(y, np.float64)
    a = 0.147
    ln = np.log1p(-y64 * y64)
    t = 2 / (math.pi * a) + ln / 2
    x = np.sign(y64) * np.sqrt(np.sqrt(t * t - ln / a) - t)
    for _ in range(3):
        err = np.asarray(_erf(x), np.float64) - y64
        x = x - err / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    x = np.where(y64 == 1, np.inf, np.where(y64 == -1, -np.inf, x))
    return x.astype(y.dtype)


def _np_sigmoid(a: np.ndarray) -> np.ndarray:
    """1 / (1 + e**-a), without overflow for large |a|. float16 goes as MindSpore's CPU kernel computes it: the
    exponential rounded to float16, then ``1 / (1 + e)`` in float16 arithmetic."""
    if a.dtype == np.float16:
        with np.errstate(over="ignore"):
            return np.float16(1) / (np.float16(1) + np.exp(-a))
    out = np.empty_like(a)
    pos = a >= 0
    np.divide(1, 1 + np.exp(-a, where=pos, out=np.zeros_like(a)), where=pos, out=out)
    e = np.exp(a, where=~pos, out=np.zeros_like(a))
    np.divide(e, 1 + e, where=~pos, out=out)
    return out


def _mask(cond: np.ndarray, like: Tensor) -> Tensor:
    return Tensor._wrap(cond.astype(like._data.dtype))


def _keep(g: Tensor, cond: np.ndarray) -> Tensor:
    """``g`` where ``cond``, else 0 -- a select, so an inf or NaN arriving where the input is cut off gives 0 (as
    MindSpore 2.10's ReluGrad and its kin), where ``g * mask`` would give NaN."""
    return F.where(Tensor._wrap(np.asarray(cond, bool)), g, 0.0)


def _clamp(x: np.ndarray, min: Any = None, max: Any = None) -> np.ndarray:
    lo = min._data if isinstance(min, Tensor) else min
    hi = max._data if isinstance(max, Tensor) else max
    if lo is None and hi is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None.")
    out = x
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    return out.astype(x.dtype, copy=False)


def _clamp_grad(g: Tensor, input: Tensor, min: Any, max: Any) -> tuple:
    x = input._data
    keep = np.ones(x.shape, bool)
    if min is not None:
        keep &= x >= (min._data if isinstance(min, Tensor) else min)
    if max is not None:
        keep &= x <= (max._data if isinstance(max, Tensor) else max)
    return (_keep(g, keep),)


def _logit(x: np.ndarray, eps: Any = None) -> np.ndarray:
    if eps is not None and eps >= 0:
        x = np.clip(x, eps, 1 - eps)
    return (np.log(x / (1 - x))).astype(x.dtype)


def _logit_grad(g: Tensor, input: Tensor, eps: Any) -> tuple:
    d = g / (input * (1 - input))
    if eps is not None and eps >= 0:
        d = d * _mask((input._data >= eps) & (input._data <= 1 - eps), g)
    return (d,)


def _inplace(method: str) -> Any:
    """The functional in-place op ``ops.<method>(input)``: the Tensor method, which writes into ``input``."""
    def run(input: Tensor) -> Tensor:
        return getattr(input, method)()
    run.__name__ = run.__qualname__ = method
    return run


OPS: List[Op] = [
    Op("neg", "input", np.negative, lambda g: (-g,), prim="Neg", method=("neg", "negative"), aliases=("negative",)),
    Op("exp", "input", np.exp, lambda g, out: (g * out,), prim="Exp", inplace=True, aliases=("tensor_exp",), **_FLOAT),
    # + 0.0 turns -0 into +0: log's slope at either zero is +inf, as MindSpore 2.10 gives
    Op("log", "input", np.log, lambda g, input: (g / (input + 0.0),), prim="Log", inplace=True, **_FLOAT),
    Op("sqrt", "input", np.sqrt, lambda g, out: (g / (out * 2),), dtype="to_float", prim="Sqrt", method=True),
    Op("sin", "input", np.sin, lambda g, input: (g * F.cos(input),), prim="Sin", **_FLOAT),
    Op("cos", "input", np.cos, lambda g, input: (-g * F.sin(input),), prim="Cos", **_FLOAT),
    Op("tanh", "input", np.tanh, in_float32(lambda g, out: (g * (1 - out * out),)), prim="Tanh", inplace=True,
       **_FLOAT),
    # the order of MindSpore's SigmoidGrad (in float16 each product rounds: g * (y * (1 - y)))
    Op("sigmoid", "input", _np_sigmoid, lambda g, out: (g * (out * (1 - out)),), prim="Sigmoid", inplace=True,
       **_FLOAT),
    Op("relu", "input", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
       lambda g, input: (_keep(g, input._data > 0),), prim="ReLU"),
    # for a complex input the sign is z / |z| (the gradient is complex: g z / |z|)
    Op("abs", "input", np.abs, lambda g, input: (g * Tensor._wrap(np.sign(input._data).astype(
        input._data.dtype if input._data.dtype.kind == "c" else g._data.dtype)),),
       prim="Abs", method=("abs", "absolute"), aliases=("absolute",)),
    Op("sign", "input", np.sign, prim="Sign", method=True, inplace=True),
    Op("square", "input", np.square, lambda g, input: (g * input * 2,), prim="Square", method=True),
    # table-defined
    Op("tan", "input", np.tan, lambda g, out: (g * (1 + out * out),), prim="Tan", **_FLOAT),
    Op("asin", "input", np.arcsin, lambda g, input: (g * F.rsqrt(1 - input * input),), prim="Asin",
       aliases=("arcsin",), **{**_FLOAT, "method": ("asin", "arcsin")}),
    Op("acos", "input", np.arccos, lambda g, input: (-g * F.rsqrt(1 - input * input),), prim="ACos",
       aliases=("arccos",), **{**_FLOAT, "method": ("acos", "arccos")}),
    Op("atan", "input", np.arctan, lambda g, input: (g / (1 + input * input),), prim="Atan",
       aliases=("arctan",), **{**_FLOAT, "method": ("atan", "arctan")}),
    Op("sinh", "input", np.sinh, lambda g, input: (g * F.cosh(input),), prim="Sinh", **_FLOAT),
    Op("cosh", "input", np.cosh, lambda g, input: (g * F.sinh(input),), prim="Cosh", **_FLOAT),
    Op("asinh", "input", np.arcsinh, lambda g, input: (g * F.rsqrt(input * input + 1),), prim="Asinh",
       aliases=("arcsinh",), **{**_FLOAT, "method": ("asinh", "arcsinh")}),
    Op("acosh", "input", np.arccosh, lambda g, input: (g * F.rsqrt(input * input - 1),), prim="Acosh",
       aliases=("arccosh",), **{**_FLOAT, "method": ("acosh", "arccosh")}),
    Op("atanh", "input", np.arctanh, lambda g, input: (g / (1 - input * input),), prim="Atanh",
       aliases=("arctanh",), **{**_FLOAT, "method": ("atanh", "arctanh")}),
    Op("log1p", "input", np.log1p, lambda g, input: (g / (1 + input),), prim="Log1p", **_FLOAT),
    Op("expm1", "input", np.expm1, lambda g, out: (g * (out + 1),), prim="Expm1", aliases=("tensor_expm1",),
       **_FLOAT),
    Op("log2", "input", np.log2, lambda g, input: (g / (input * math.log(2)),), **_FLOAT),
    Op("log10", "input", np.log10, lambda g, input: (g / (input * math.log(10)),), **_FLOAT),
    Op("exp2", "input", np.exp2, lambda g, out: (g * out * math.log(2),), dtype="to_float"),
    Op("erf", "input", _np_erf, lambda g, input: (g * (_TWO_OVER_SQRT_PI * F.exp(-(input * input))),), prim="Erf",
       **_FLOAT),
    Op("erfc", "input", lambda x: (1 - _np_erf(x)).astype(x.dtype),
       lambda g, input: (-g * _TWO_OVER_SQRT_PI * F.exp(-input * input),), prim="Erfc", **_FLOAT),
    Op("erfinv", "input", _np_erfinv, lambda g, out: (g * (math.sqrt(math.pi) / 2) * F.exp(out * out),),
       prim="Erfinv", inplace=True, **_FLOAT),
    Op("rsqrt", "input", lambda x: 1 / np.sqrt(x), lambda g, out: (g * -0.5 * out * out * out,), prim="Rsqrt",
       **_FLOAT),
    Op("reciprocal", "input", lambda x: np.reciprocal(x), lambda g, out: (-g * (out * out),), dtype="to_float",
       prim="Reciprocal", method=True),
    Op("floor", "input", np.floor, lambda g: (F.zeros_like(g),), prim="Floor", inplace=True, **_FLOAT),
    # ceil and round record no backward (as the wheel's, which sends nothing back through them, where floor and
    # trunc send zeros: a NaN derivative before them shows the difference)
    Op("ceil", "input", np.ceil, prim="Ceil", **_FLOAT),
    Op("trunc", "input", np.trunc, lambda g: (F.zeros_like(g),), prim="Trunc", method=True),
    Op("round", "input, *, decimals=0", lambda x, decimals: np.round(x, decimals), prim="Round", method=True),
    Op("frac", "input", lambda x: x - np.trunc(x), lambda g: (g,), method=True),
    Op("clamp", "input, min=None, max=None", _clamp, _clamp_grad, method=("clamp", "clip"), aliases=("clip",),
       inplace=True),
    Op("nan_to_num", "input, nan=0.0, posinf=None, neginf=None",
       lambda x, nan, posinf, neginf: np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf),
       lambda g, input: (_keep(g, np.isfinite(input._data)),), method=True),
    Op("logit", "input, eps=None", _logit, _logit_grad, prim="Logit(eps=-1.0)(x) -> x, eps", **_FLOAT),
    Op("isnan", "input", np.isnan, prim="IsNan", method=True, aliases=("isnan_ext",)),
    Op("isinf", "input", np.isinf, prim="IsInf", method=True),
    Op("isfinite", "input", np.isfinite, prim="IsFinite", method=True),
    Op("signbit", "input", np.signbit, method=True),
    Op("tanh_", "input", fn=_inplace("tanh_")),
    Op("erfinv_", "input", fn=_inplace("erfinv_")),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "neg": ("ops.neg(ms.Tensor([1.0, -2.0]))", "[-1.  2.]"),
    "exp": ("ops.exp(ms.Tensor([0.0, 1.0]))", "[1.       2.718282]"),
    "log": ("ops.log(ms.Tensor([1.0, 10.0]))", "[0.        2.3025851]"),
    "sqrt": ("ops.sqrt(ms.Tensor([4, 2]))", "[2.        1.4142135]"),
    "sin": ("ops.sin(ms.Tensor([0.0, 1.5707964]))", "[0. 1.]"),
    "cos": ("ops.cos(ms.Tensor([0.0, 3.1415927]))", "[ 1. -1.]"),
    "tanh": ("ops.tanh(ms.Tensor([0.0, 1.0]))", "[0.        0.7615942]"),
    "sigmoid": ("ops.sigmoid(ms.Tensor([0.0, 2.0]))", "[0.5      0.880797]"),
    "relu": ("ops.relu(ms.Tensor([-1.0, 0.0, 2.0]))", "[0. 0. 2.]"),
    "abs": ("ops.abs(ms.Tensor([-3, 0, 2]))", "[3 0 2]"),
    "sign": ("ops.sign(ms.Tensor([-3.0, 0.0, 2.0]))", "[-1.  0.  1.]"),
    "square": ("ops.square(ms.Tensor([-3, 2]))", "[9 4]"),
    "tan": ("ops.tan(ms.Tensor([0.0, 0.7853982]))", "[0. 1.]"),
    "asin": ("ops.asin(ms.Tensor([0.0, 1.0]))", "[0.        1.5707964]"),
    "acos": ("ops.acos(ms.Tensor([1.0, 0.0]))", "[0.        1.5707964]"),
    "atan": ("ops.atan(ms.Tensor([0.0, 1.0]))", "[0.        0.7853982]"),
    "sinh": ("ops.sinh(ms.Tensor([0.0, 1.0]))", "[0.        1.1752012]"),
    "cosh": ("ops.cosh(ms.Tensor([0.0, 1.0]))", "[1.        1.5430806]"),
    "asinh": ("ops.asinh(ms.Tensor([0.0, 1.0]))", "[0.        0.8813736]"),
    "acosh": ("ops.acosh(ms.Tensor([1.0, 2.0]))", "[0.       1.316958]"),
    "atanh": ("ops.atanh(ms.Tensor([0.0, 0.5]))", "[0.         0.54930615]"),
    "log1p": ("ops.log1p(ms.Tensor([0.0, 1.0]))", "[0.        0.6931472]"),
    "expm1": ("ops.expm1(ms.Tensor([0.0, 1.0]))", "[0.        1.7182817]"),
    "log2": ("ops.log2(ms.Tensor([1.0, 8.0]))", "[0. 3.]"),
    "log10": ("ops.log10(ms.Tensor([1.0, 1000.0]))", "[0. 3.]"),
    "exp2": ("ops.exp2(ms.Tensor([0, 3]))", "[1. 8.]"),
    "erf": ("ops.erf(ms.Tensor([0.0, 1.0]))", "[0.        0.8427008]"),
    "erfc": ("ops.erfc(ms.Tensor([0.0, 1.0]))", "[1.         0.15729922]"),
    "erfinv": ("ops.erfinv(ms.Tensor([0.0, 0.5]))", "[0.         0.47693628]"),
    "rsqrt": ("ops.rsqrt(ms.Tensor([4.0, 0.25]))", "[0.5 2. ]"),
    "reciprocal": ("ops.reciprocal(ms.Tensor([4, 2]))", "[0.25 0.5 ]"),
    "floor": ("ops.floor(ms.Tensor([-1.5, 1.5]))", "[-2.  1.]"),
    "ceil": ("ops.ceil(ms.Tensor([-1.5, 1.5]))", "[-1.  2.]"),
    "trunc": ("ops.trunc(ms.Tensor([-1.5, 1.5]))", "[-1.  1.]"),
    "round": ("ops.round(ms.Tensor([0.5, 1.5, 2.25]))", "[0. 2. 2.]"),
    "frac": ("ops.frac(ms.Tensor([-1.25, 1.5]))", "[-0.25  0.5 ]"),
    "clamp": ("ops.clamp(ms.Tensor([-2.0, 0.5, 3.0]), -1.0, 1.0)", "[-1.   0.5  1. ]"),
    "nan_to_num": ("ops.nan_to_num(ms.Tensor([float('nan'), float('inf'), 1.0]), posinf=100.0)", "[  0. 100.   1.]"),
    "logit": ("ops.logit(ms.Tensor([0.5, 0.75]))", "[0.        1.0986123]"),
    "Logit": ("ops.Logit(eps=0.1)(ms.Tensor([0.0, 0.5]))", "[-2.1972246  0.       ]"),
    "isnan": ("ops.isnan(ms.Tensor([float('nan'), 1.0]))", "[ True False]"),
    "isinf": ("ops.isinf(ms.Tensor([float('inf'), 1.0]))", "[ True False]"),
    "isfinite": ("ops.isfinite(ms.Tensor([float('inf'), 1.0]))", "[False  True]"),
    "tanh_": ("x = ms.Tensor([0.0, 1.0])", "y = ops.tanh_(x)", "x", "[0.        0.7615942]"),
    "erfinv_": ("ops.erfinv_(ms.Tensor([0.0, 0.5]))", "[0.         0.47693628]"),
    "signbit": ("ops.signbit(ms.Tensor([-0.0, 2.0, -3.0]))", "[ True False  True]"),
}
