"""Op table: number-theoretic, bit-level and floating-point helpers — gcd/lcm, shifts and bit counts,
ldexp/copysign/nextafter, heaviside, fmax/fmin, float_power, truncating and NaN-free division, degree
conversion, the infinity tests, ``logcumsumexp`` and ``approximate_equal``.

dtype rules and error texts as MindSpore 2.10's CPU wheel gives them (measured per op: ``float_power`` computes
in Float64, ``copysign`` keeps its first operand's floating dtype, ``inv`` keeps integers, the shifts and
``heaviside`` want both operands of one dtype).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.gcd(ms.Tensor([7, 8, 9]), ms.Tensor([14, 6, 12])), ops.float_power(ms.Tensor([2, 3]), 2))
    [7 2 3] [4. 9.]
    >>> print(ms.grad(lambda a: ops.logcumsumexp(a, 0).sum())(ms.Tensor([0.0, 1.0])))
    [1.2689413 0.7310585]
"""
from __future__ import annotations

import math
from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.special import _name, check_types

_INTS = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64")
_DEG = math.pi / 180


def _gcd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind not in "iu":
        raise TypeError(f"For Primitive[Gcd], the type of the input tensor must be [Int16, Int32, Int64], but got "
                        f"{_name(x)}!")
    return np.gcd(x, y)


def _lcm(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    check_types("Lcm", ("x1",), (x,), ("Int32", "Int64"))
    return np.lcm(x, y)


def _shift(left: bool) -> Any:
    prim = "LeftShift" if left else "RightShift"

    def forward(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if x.dtype != y.dtype and x.dtype.kind in "iu" and y.dtype.kind in "iu" or x.dtype.kind not in "iu":
            if x.dtype.kind in "iu" and y.dtype.kind in "iu" or x.dtype != y.dtype:
                raise TypeError(f"For '{prim}', the dtype of two args should be same, but the first arg dtype "
                                f"{_name(x)} are not consistent with second arg dtype {_name(y)}")
            raise TypeError(f"For '{prim}', the dtype of input should be one of [{', '.join(_INTS)}], but got "
                            f"{_name(x)}.")
        bits = x.dtype.itemsize * 8
        out_of_range = (y < 0) | (y >= bits)
        s = np.where(out_of_range, 0, y).astype(x.dtype)
        shifted = np.left_shift(x, s) if left else np.right_shift(x, s)
        fill = 0 if left else np.where(x < 0, -1, 0).astype(x.dtype)
        return np.where(out_of_range, fill, shifted).astype(x.dtype)
    return forward


def _shift_args(x: Any, other: Any) -> Any:
    """A Python int shift count becomes a Tensor of the input's dtype (MindSpore's functional form)."""
    if isinstance(other, float):
        raise TypeError(f"For 'bitwise_left_shift', 'other' must be an integer, but got other:{type(other)}.")
    if isinstance(other, (int, np.integer)) and isinstance(x, Tensor):
        other = Tensor._wrap(np.array(other, x._data.dtype))
    return other


def bitwise_left_shift(input: Any, other: Any) -> Tensor:
    """``input << other`` elementwise (counts outside ``[0, bits)`` give 0).

    Example:
        >>> import mskernel as ms
        >>> print(bitwise_left_shift(ms.Tensor([1, 2, 4]), 1))
        [2 4 8]
    """
    return F._left_shift(input, _shift_args(input, other))


def bitwise_right_shift(input: Any, other: Any) -> Tensor:
    """``input >> other`` elementwise (arithmetic for signed integers).

    Example:
        >>> import mskernel as ms
        >>> print(bitwise_right_shift(ms.Tensor([1, 2, 4]), 1))
        [0 1 2]
    """
    return F._right_shift(input, _shift_args(input, other))


def _popcount(x: np.ndarray) -> np.ndarray:
    check_types("PopulationCount", ("input_x",), (x,), ("Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32",
                                                         "UInt64", "UInt8"))
    unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return np.bitwise_count(unsigned).astype(np.uint8)


def _ldexp_grad(g: Tensor, x: Tensor, other: Tensor, out: Tensor) -> tuple:
    return (g * F.exp2(other.astype(g.dtype)), g * out * math.log(2))


def _copysign(x: np.ndarray, other: np.ndarray) -> np.ndarray:
    out = np.float32 if x.dtype.kind in "biu" else x.dtype
    return np.copysign(x.astype(out), other).astype(out)


def _copysign_args(x: Any, other: Any) -> Any:
    return other if isinstance(other, Tensor) else Tensor._wrap(np.asarray(other))


def copysign(x: Any, other: Any) -> Tensor:
    """``|x|`` with the sign of ``other`` (a Tensor or a number); integers become Float32.

    Example:
        >>> import mskernel as ms
        >>> print(copysign(ms.Tensor([0.3, -0.7]), ms.Tensor([-0.4, 0.6])), copysign(ms.Tensor([-1.0]), 2))
        [-0.3  0.7] [1.]
    """
    return F._copysign(x, _copysign_args(x, other))


def _copysign_grad(g: Tensor, x: Tensor, out: Tensor) -> tuple:
    same = np.signbit(x._data) == np.signbit(out._data)
    return (g * Tensor._wrap(np.where(same, 1, -1).astype(g._data.dtype)), None)


def _nextafter(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The next double after ``x`` towards ``y``, rounded to ``x``'s dtype: MindSpore 2.10's CPU kernel steps in
    double precision, so a Float32 input comes back unchanged (numpy's float32 step would move it)."""
    check_types("NextAfter", ("x1", "x2"), (x, y), ("Float32", "Float64"))
    return np.nextafter(x.astype(np.float64), y.astype(np.float64)).astype(x.dtype)


def _heaviside(x: np.ndarray, values: np.ndarray) -> np.ndarray:
    check_types("Heaviside", ("x", "values"), (x, values), [_name(x)])
    return np.heaviside(x, values).astype(x.dtype) if x.dtype.kind == "f" else \
        np.where(x == 0, values, (x > 0).astype(x.dtype)).astype(x.dtype)


def _fminmax_grad(pick_first: Any) -> Any:
    def grad(g: Tensor, input: Tensor, other: Tensor) -> tuple:
        first = pick_first(input._data, other._data)
        return (F.where(Tensor._wrap(first), g, 0.0), F.where(Tensor._wrap(~first), g, 0.0))
    return grad


def _float_power(x: np.ndarray, e: np.ndarray) -> np.ndarray:
    return np.power(x.astype(np.float64), e.astype(np.float64))


def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` in Float64 (either may be a number).

    Example:
        >>> import mskernel as ms
        >>> print(float_power(ms.Tensor([-1.5, 0.0, 2.0]), 2))
        [2.25 0.   4.  ]
    """
    a = input if isinstance(input, Tensor) else Tensor._wrap(np.asarray(input, np.float64))
    b = exponent if isinstance(exponent, Tensor) else Tensor._wrap(np.asarray(exponent, np.float64))
    return F._float_power(a.astype("float64") if a._data.dtype != np.float64 else a,
                          b.astype("float64") if b._data.dtype != np.float64 else b)


def _xdivy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    check_types("Xdivy", ("x",), (x,), ("Complex128", "Complex64", "Float16", "Float32", "Float64"))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, np.zeros((), x.dtype), x / y).astype(x.dtype)


def _xdivy_grad(g: Tensor, x: Tensor, y: Tensor) -> tuple:
    nz = Tensor._wrap(x._data != 0)
    return (F.where(nz, g / y, 0.0), F.where(nz, -g * x / (y * y), 0.0))


def _truncate_div(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        q = np.floor_divide(x, y)
        return (q + ((x % y != 0) & ((x < 0) != (y < 0)))).astype(x.dtype)
    return np.trunc(x / y).astype(x.dtype)


def _degrees(scale: float, name: str) -> Any:
    def forward(x: np.ndarray) -> np.ndarray:
        if x.dtype.kind != "f":
            raise TypeError(f"The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                            f"but got 'mindspore.{_name(x).lower()}'.")
        return (x * x.dtype.type(scale)).astype(x.dtype)
    forward.__name__ = name
    return forward


def _inv(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.bool_:
        raise TypeError("Select CPU operator[Inv] fail! Unsupported data type!")
    if x.dtype.kind in "iu":
        with np.errstate(divide="ignore"):
            return np.where(x == 0, 0, np.trunc(1 / np.where(x == 0, 1, x))).astype(x.dtype)
    return np.reciprocal(x)


def _isinf_sign(positive: bool) -> Any:
    def forward(x: np.ndarray) -> np.ndarray:
        if x.dtype.kind not in "f":
            raise TypeError("Select CPU operator[IsInf] fail! Unsupported data type!")
        return np.isposinf(x) if positive else np.isneginf(x)
    return forward


def _logcumsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    check_types("CumulativeLogsumexp", ("x",), (x,), ("Float16", "Float32", "Float64"))
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For 'logcumsumexp', 'axis' must be an int, but got {type(axis).__name__}.")
    return np.logaddexp.accumulate(x, axis=int(axis)).astype(x.dtype)


def _logcumsumexp_grad(g: Tensor, input: Tensor, out: Tensor, axis: int) -> tuple:
    """d/dx_j = sum_{i >= j} g_i exp(x_j - out_i), as a reverse running sum about a constant shift."""
    shift = float(np.max(out._data)) if out._data.size else 0.0
    tail = F._cumsum(g * F.exp(shift - out), axis, False, True)
    return (F.exp(input - shift) * tail,)


def _approx_equal(x: np.ndarray, y: np.ndarray, tolerance: float) -> np.ndarray:
    check_types("ApproximateEqual", ("x1",), (x,), ("Float16", "Float32", "Float64"), same=False)
    if x.shape != y.shape:
        raise RuntimeError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as 'x2'. But got 'x1' shape: "
                           f"({', '.join(map(str, x.shape))}), 'x2' shape: ({', '.join(map(str, y.shape))}).")
    with np.errstate(invalid="ignore"):
        return np.abs(x - y) < tolerance


def _div_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(y == 0, np.zeros((), x.dtype), x / np.where(y == 0, 1, y)).astype(x.dtype)


def _mul_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(y == 0, np.zeros((), x.dtype), x * y).astype(x.dtype)


OPS: List[Op] = [
    Op("gcd", "input, other", _gcd, inputs=2, dtype="promote", prim="Gcd", method=True),
    Op("lcm", "input, other", _lcm, inputs=2, dtype="promote", prim="Lcm", method=True),
    Op("_left_shift", "input, other", _shift(True), inputs=2, prim="LeftShift"),
    Op("_right_shift", "input, other", _shift(False), inputs=2, prim="RightShift"),
    Op("population_count", "input_x", _popcount, prim="PopulationCount"),
    Op("ldexp", "x, other", lambda x, o: (x * np.exp2(o.astype(x.dtype))).astype(x.dtype), _ldexp_grad, inputs=2,
       dtype="promote_float", method=True),
    Op("_copysign", "x, other", _copysign, _copysign_grad, inputs=2, label="CopySign"),
    Op("nextafter", "input, other", _nextafter, inputs=2, prim="NextAfter", method=True),
    Op("heaviside", "input, values", _heaviside, inputs=2, prim="Heaviside", method=True),
    Op("fmax", "input, other", np.fmax, _fminmax_grad(lambda a, b: (a >= b) | np.isnan(b)), inputs=2,
       dtype="promote", prim="Fmax", method=True),
    Op("fmin", "input, other", np.fmin, _fminmax_grad(lambda a, b: (a <= b) | np.isnan(b)), inputs=2,
       dtype="promote", prim="Fmin", method=True),
    Op("_float_power", "input, exponent", _float_power,
       lambda g, input, exponent, out: (g * exponent * F.pow(input, exponent - 1), g * out * F.log(input)),
       inputs=2, label="Pow"),
    Op("xdivy", "x, y", _xdivy, _xdivy_grad, inputs=2, dtype="promote", prim="Xdivy", method=True),
    Op("truncate_div", "x, y", _truncate_div, inputs=2, dtype="promote", prim="TruncateDiv"),
    Op("truncate_mod", "x, y", np.fmod, inputs=2, dtype="promote", prim="TruncateMod"),
    Op("deg2rad", "x", _degrees(_DEG, "deg2rad"), lambda g: (g * _DEG,), method=True),
    Op("rad2deg", "x", _degrees(1 / _DEG, "rad2deg"), lambda g: (g * (1 / _DEG),), method=True),
    Op("inv", "x", _inv, lambda g, out: (-g * out * out,), prim="Inv", method=True),
    Op("isneginf", "input", _isinf_sign(False), method=True),
    Op("isposinf", "input", _isinf_sign(True), method=True),
    Op("logcumsumexp", "input, axis", _logcumsumexp, _logcumsumexp_grad, method=True),
    Op("approximate_equal", "x, y, tolerance=1e-05", _approx_equal, inputs=2, dtype="promote",
       prim="ApproximateEqual(tolerance=1e-05)(x1, x2) -> x1, x2, tolerance", method=True),
    Op("_div_no_nan", "x1, x2", _div_no_nan,
       lambda g, x1, x2: (F._div_no_nan(g, x2), -F._div_no_nan(g * x1, x2 * x2)), inputs=2, dtype="promote",
       prim="DivNoNan"),
    Op("_mul_no_nan", "x, y", _mul_no_nan,
       lambda g, x, y: (F._mul_no_nan(g, y), F._mul_no_nan(g, x)),
       inputs=2, dtype="promote", prim="MulNoNan"),
    Op("_rint", "input_x", np.rint, lambda g: (F.zeros_like(g),), dtype="float", prim="Rint"),
    # front ends of the entries above that adapt their arguments
    Op("bitwise_left_shift", "input, other", fn=bitwise_left_shift, method=True),
    Op("bitwise_right_shift", "input, other", fn=bitwise_right_shift, method=True),
    Op("copysign", "x, other", fn=copysign, method=True),
    Op("float_power", "input, exponent", fn=float_power, method=True, aliases=("float_power_ext",)),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "gcd": ("ops.gcd(ms.Tensor([7, 8, 9]), ms.Tensor([14, 6, 12]))", "[7 2 3]"),
    "lcm": ("ops.lcm(ms.Tensor([7, 8, 9]), ms.Tensor([14, 6, 12]))", "[14 24 36]"),
    "population_count": ("ops.population_count(ms.Tensor([0, 1, 3, -1], ms.int16))", "[ 0  1  2 16]"),
    "ldexp": ("ops.ldexp(ms.Tensor([1.0]), ms.Tensor([1, 2, 3], ms.int32))", "[2. 4. 8.]"),
    "nextafter": ("ops.nextafter(ms.Tensor([1.0], ms.float64), ms.Tensor([2.0], ms.float64)) - 1",
                  "[2.22044605e-16]"),
    "heaviside": ("ops.heaviside(ms.Tensor([-2.0, 0.0, 3.0]), ms.Tensor([0.5, 0.5, 0.5]))", "[0.  0.5 1. ]"),
    "fmax": ("ops.fmax(ms.Tensor([1.0, float('nan')]), ms.Tensor([4.0, 2.0]))", "[4. 2.]"),
    "fmin": ("ops.fmin(ms.Tensor([1.0, float('nan')]), ms.Tensor([4.0, 2.0]))", "[1. 2.]"),
    "xdivy": ("ops.xdivy(ms.Tensor([2.0, 0.0]), ms.Tensor([4.0, 0.0]))", "[0.5 0. ]"),
    "truncate_div": ("ops.truncate_div(ms.Tensor([2, 4, -1]), ms.Tensor([3, 3, 3]))", "[0 1 0]"),
    "truncate_mod": ("ops.truncate_mod(ms.Tensor([2.0, 4.0, -1.0]), ms.Tensor([3.0, 3.0, 3.0]))", "[ 2.  1. -1.]"),
    "deg2rad": ("ops.deg2rad(ms.Tensor([90.0, -180.0]))", "[ 1.5707964 -3.1415927]"),
    "rad2deg": ("ops.rad2deg(ms.Tensor([3.1415927, -1.5707964]))", "[180. -90.]"),
    "inv": ("ops.inv(ms.Tensor([0.25, 0.4]))", "[4.  2.5]"),
    "isneginf": ("ops.isneginf(ms.Tensor([-float('inf'), float('inf'), 1.0]))", "[ True False False]"),
    "isposinf": ("ops.isposinf(ms.Tensor([-float('inf'), float('inf'), 1.0]))", "[False  True False]"),
    "logcumsumexp": ("ops.logcumsumexp(ms.Tensor([0.0, 1.0, 2.0]), 0)", "[0.        1.3132617 2.4076061]"),
    "approximate_equal": ("ops.approximate_equal(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 2.5]))",
                          "[ True False]"),
    "ApproximateEqual": ("ops.ApproximateEqual(2.0)(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([2.0, 3.0, 6.0]))",
                         "[ True  True False]"),
    "DivNoNan": ("ops.DivNoNan()(ms.Tensor([1.0, 5.0]), ms.Tensor([0.0, 2.0]))", "[0.  2.5]"),
    "MulNoNan": ("ops.MulNoNan()(ms.Tensor([float('inf'), 6.0]), ms.Tensor([0.0, 4.0]))", "[ 0. 24.]"),
    "Rint": ("ops.Rint()(ms.Tensor([-1.6, -0.1, 1.5, 2.5]))", "[-2. -0.  2.  2.]"),
    "LeftShift": ("ops.LeftShift()(ms.Tensor([1, 2, 3], ms.int8), ms.Tensor([0, 1, -1], ms.int8))", "[1 4 0]"),
    "RightShift": ("ops.RightShift()(ms.Tensor([1, 2, 3], ms.uint8), ms.Tensor([1, 1, 1], ms.uint8))", "[0 1 1]"),
}
