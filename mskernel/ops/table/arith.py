"""Op table: binary arithmetic, comparison and logical ops.

Operands are promoted together as MindSpore does (bool < ints < floats, Python numbers included);
the engine sums each gradient back to its operand's shape, so rules are written for broadcast shapes.
``add``/``sub``/``mul``/``div``/``pow``/``maximum``/``minimum`` are hand-written in
:mod:`mskernel.ops.math` (the engine has a C fast path for them); their entries declare the rest.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x, y = ms.Tensor([1.0, -2.0]), ms.Tensor([3.0, 4.0])
    >>> print(ops.atan2(x, y), ops.ge(x, 0), ops.Greater()(x, y), x.remainder(3.0))
    [ 0.32175058 -0.46364763] [ True False] [False False] [1. 1.]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.ops import math as M
from mskernel.ops.opdef import F, Op

_LN2 = float(np.log(2.0))

_CMP = dict(inputs=2, dtype="promote")


def _add_method(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``Tensor.add(other, *, alpha=1)``: ``input + alpha * other``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0, 2.0]).add(ms.Tensor([1.0, 1.0]), alpha=3))
        [4. 5.]
    """
    return M.add(input, other if alpha == 1 else M.mul(other, alpha))


def _sub_method(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``Tensor.sub(other, *, alpha=1)``: ``input - alpha * other``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0, 2.0]).sub(ms.Tensor([1.0, 1.0]), alpha=0.5))
        [0.5 1.5]
    """
    return M.sub(input, other if alpha == 1 else M.mul(other, alpha))


def _remainder_method(input: Any, other: Any = None, *, divisor: Any = None) -> Any:
    """``Tensor.remainder(other)``, also spelled ``remainder(divisor=...)``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([7.0, -7.0]).remainder(divisor=3.0))
        [1. 2.]
    """
    if (other is None) == (divisor is None):
        raise TypeError("For 'Tensor.remainder', give exactly one of 'other' and 'divisor', "
                        f"but got other={other!r}, divisor={divisor!r}")
    return F.remainder(input, divisor if other is None else other)


def _floor_div(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """numpy's floor division; where an operand is infinite or the divisor is zero, MindSpore's rule instead:
    ``floor(x / y)`` with a zero divisor read as +0 (so ``1 // -0.0`` is inf, ``inf // 2`` is inf)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.floor_divide(x, y)
        if q.dtype.kind not in "fc":
            return q
        edge = (y == 0) | np.isinf(x) | np.isinf(y)
        if not np.any(edge):
            return q
        limit = np.floor(np.true_divide(x, np.where(y == 0, np.zeros_like(y), y)))
        return np.where(edge, limit, q).astype(q.dtype)


def _div_rounding(x: np.ndarray, y: np.ndarray, rounding_mode: str) -> np.ndarray:
    if rounding_mode == "floor":
        return _floor_div(x, y)
    if rounding_mode == "trunc":
        q = np.trunc(np.true_divide(x, y))
        return q.astype(x.dtype) if x.dtype.kind in "iu" else q
    raise ValueError(f"For 'Div', 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}.")


def _div(input, other, *, rounding_mode=None):  # noqa: ANN001, ANN202
    """``input / other``; ``rounding_mode`` "floor" or "trunc" rounds the quotient (no gradient then).

    Example:
        >>> import mskernel as ms
        >>> print(_div(ms.Tensor([7.0, -7.0]), 2.0, rounding_mode="trunc"))
        [ 3. -3.]
    """
    if rounding_mode is None:
        return M.div(input, other)
    return F.div_rounded(input, other, rounding_mode)


def _invert(x: np.ndarray) -> np.ndarray:
    """~x for integers (and logical not for Bool); MindSpore's Invert refuses floating dtypes."""
    if x.dtype.kind in "fc":
        kinds = ", ".join(f"Tensor[{n}]" for n in ("Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32", "UInt64",
                                                    "UInt8"))
        got = str(x.dtype).capitalize()
        raise TypeError(f"For primitive[Invert], the input argument[x] must be a type of {{{kinds}}}, but got "
                        f"Tensor[{got}].")
    return np.invert(x)


OPS: List[Op] = [
    # hand-written (C fast path); the entries declare signature, primitive and methods
    Op("add", "input, other", fn=M.add, inputs=2, prim=("Add", "TensorAdd"), method=True, inplace=True,
       aliases=("tensor_add",)),
    Op("sub", "input, other", fn=M.sub, inputs=2, prim="Sub", method=True, inplace=True, aliases=("tensor_sub",)),
    Op("subtract", "input, other, *, alpha=1", fn=lambda input, other, alpha=1: _add_method(input, other, alpha=-alpha),
       method=True),
    Op("mul", "input, other", fn=M.mul, inputs=2, prim="Mul", method=("mul", "multiply"), inplace=True,
       aliases=("multiply", "tensor_mul", "tensor_muls")),
    Op("div", "input, other, *, rounding_mode=None", fn=_div, inputs=2, prim=("Div", "RealDiv"),
       method=("div", "true_divide", "divide"), inplace=True, aliases=("true_divide", "divide", "tensor_div")),
    Op("div_rounded", "input, other, rounding_mode", _div_rounding, inputs=2, dtype="promote"),
    Op("pow", "input, exponent", fn=M.pow, inputs=2, prim="Pow", method=True, inplace=True, aliases=("tensor_pow",)),
    Op("maximum", "input, other", fn=M.maximum, inputs=2, prim="Maximum", method=True),
    Op("minimum", "input, other", fn=M.minimum, inputs=2, prim="Minimum", method=True),
    # table-defined: forward on arrays, backward with ops
    Op("atan2", "input, other", np.arctan2,
       lambda g, input, other: (g * other / (input * input + other * other),
                                -g * input / (input * input + other * other)),
       inputs=2, dtype="promote_float", prim="Atan2", method=("atan2", "arctan2"), aliases=("arctan2",)),
    Op("floor_divide", "input, other", _floor_div, inputs=2, dtype="promote", prim="FloorDiv", method=True,
       inplace=True, aliases=("floor_div", "floordiv", "tensor_floordiv")),
    Op("remainder", "input, other", np.mod,
       lambda g, input, other: (g, -g * F.floor_divide(input, other)),
       inputs=2, dtype="promote", prim="FloorMod", method=True, inplace=True,
       aliases=("floor_mod", "floormod", "tensor_mod")),
    Op("fmod", "input, other", np.fmod,
       lambda g, input, other: (g, -g * F.trunc(input / other)),
       inputs=2, dtype="promote", prim="Mod", method=True),
    Op("squared_difference", "input, other", lambda x, y: np.square(x - y),
       lambda g, input, other: (g * 2 * (input - other), g * -2 * (input - other)),
       inputs=2, dtype="promote", prim="SquaredDifference"),
    Op("xlogy", "input, other",
       lambda x, y: np.where(x == 0, np.zeros((), np.result_type(x, y)), x * np.log(np.where(x == 0, 1, y))),
       lambda g, input, other: (g * F.xlogy(F.ones_like(input), other), g * input / other),
       inputs=2, dtype="promote_float", prim="Xlogy", method=True),
    Op("hypot", "input, other", np.hypot,
       lambda g, out, input, other: (g * input / out, g * other / out),
       inputs=2, dtype="promote_float", prim="Hypot", method=True),
    Op("logaddexp", "input, other", np.logaddexp,
       lambda g, out, input, other: (g * F.exp(input - out), g * F.exp(other - out)),
       inputs=2, dtype="promote_float", method=True),
    Op("logaddexp2", "input, other", np.logaddexp2,  # d/dx log2(2^x + 2^y) = 2^(x - out)
       lambda g, out, input, other: (g * F.exp((input - out) * _LN2), g * F.exp((other - out) * _LN2)),
       inputs=2, dtype="promote_float", method=True),
    Op("addcmul", "input, tensor1, tensor2, value=1", lambda x, a, b, v: x + v * a * b,
       lambda g, input, tensor1, tensor2, value: (g, g * value * tensor2, g * value * tensor1, g * tensor1 * tensor2),
       inputs=4, dtype="promote", prim="Addcmul", method=True),
    Op("addcdiv", "input, tensor1, tensor2, value=1", lambda x, a, b, v: x + v * a / b,
       lambda g, input, tensor1, tensor2, value: (g, g * value / tensor2, -g * value * tensor1 / (tensor2 * tensor2),
                                                  g * tensor1 / tensor2),
       inputs=4, dtype="promote", prim="Addcdiv", method=True),
    Op("lerp", "input, end, weight", lambda x, e, w: x + w * (e - x),
       lambda g, input, end, weight: (g * (1 - weight), g * weight, g * (end - input)),
       inputs=3, dtype="promote_float", prim="Lerp", method=True),
    # comparisons and logic (no gradient)
    Op("equal", "input, other", fn=M.equal, prim="Equal", aliases=("eq",), method=("equal", "eq"), **_CMP),
    Op("not_equal", "input, other", fn=M.not_equal, prim="NotEqual", aliases=("ne",), method=("not_equal", "ne"),
       **_CMP),
    Op("less", "input, other", fn=M.less, prim="Less", aliases=("lt", "tensor_lt"), method=("less", "lt"),
       **_CMP),
    Op("less_equal", "input, other", fn=M.less_equal, prim="LessEqual", aliases=("le", "tensor_le"),
       method=("less_equal", "le"), **_CMP),
    Op("greater", "input, other", fn=M.greater, prim="Greater", aliases=("gt", "tensor_gt"),
       method=("greater", "gt"), **_CMP),
    Op("greater_equal", "input, other", fn=M.greater_equal, prim="GreaterEqual", aliases=("ge", "tensor_ge"),
       method=("greater_equal", "ge"), **_CMP),
    Op("isclose", "input, other, rtol=1e-05, atol=1e-08, equal_nan=False",
       lambda x, y, rtol, atol, equal_nan: np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan),
       inputs=2, dtype="promote", prim="IsClose(rtol=1e-05, atol=1e-08, equal_nan=True)(input, other)"
       " -> input, other, rtol, atol, equal_nan", method=True),
    Op("logical_and", "input, other", lambda x, y: np.logical_and(x, y), inputs=2, dtype="number",
       prim="LogicalAnd", method=True),
    Op("logical_or", "input, other", lambda x, y: np.logical_or(x, y), inputs=2, dtype="number",
       prim="LogicalOr", method=True),
    Op("logical_xor", "input, other", lambda x, y: np.logical_xor(x, y), inputs=2, dtype="number",
       prim="LogicalXor", method=True),
    Op("logical_not", "input", fn=M.logical_not, prim="LogicalNot", method=True),
    Op("bitwise_and", "input, other", np.bitwise_and, inputs=2, dtype="promote", prim="BitwiseAnd", method=True),
    Op("bitwise_or", "input, other", np.bitwise_or, inputs=2, dtype="promote", prim="BitwiseOr", method=True),
    Op("bitwise_not", "input", _invert, prim="Invert", method=("bitwise_not", "invert"), aliases=("invert",)),
    Op("bitwise_xor", "input, other", np.bitwise_xor, inputs=2, dtype="promote", prim="BitwiseXor", method=True),
]

#: methods shaped differently from their functional op (MindSpore 2.10's overloaded Tensor methods)
METHODS = {"add": _add_method, "sub": _sub_method, "remainder": _remainder_method}

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "subtract": ("ops.subtract(ms.Tensor([4.0, 1.0]), ms.Tensor([1.0, 2.0]), alpha=2)", "[ 2. -3.]"),
    "div_rounded": ("ops.div_rounded(ms.Tensor([7.0, -7.0]), ms.Tensor([2.0, 2.0]), 'floor')", "[ 3. -4.]"),
    "atan2": ("ops.atan2(ms.Tensor([1.0, -1.0]), ms.Tensor([1.0, 1.0]))", "[ 0.7853982 -0.7853982]"),
    "floor_divide": ("ops.floor_divide(ms.Tensor([7, -7]), ms.Tensor([2, 2]))", "[ 3 -4]"),
    "remainder": ("ops.remainder(ms.Tensor([7.0, -7.0]), 3.0)", "[1. 2.]"),
    "fmod": ("ops.fmod(ms.Tensor([7.0, -7.0]), 3.0)", "[ 1. -1.]"),
    "squared_difference": ("ops.squared_difference(ms.Tensor([1.0, 4.0]), ms.Tensor([3.0, 2.0]))", "[4. 4.]"),
    "xlogy": ("ops.xlogy(ms.Tensor([0.0, 2.0]), ms.Tensor([0.0, 4.0]))", "[0.        2.7725887]"),
    "hypot": ("ops.hypot(ms.Tensor([3.0, 5.0]), ms.Tensor([4.0, 12.0]))", "[ 5. 13.]"),
    "lerp": ("ops.lerp(ms.Tensor([0.0, 10.0]), ms.Tensor([10.0, 20.0]), 0.25)", "[ 2.5 12.5]"),
    "logaddexp": ("ops.logaddexp(ms.Tensor([1.0, -2.0]), ms.Tensor([0.5, 2.0]))", "[1.474077  2.0181499]"),
    "logaddexp2": ("ops.logaddexp2(ms.Tensor([1.0, -2.0]), ms.Tensor([0.5, 2.0]))", "[1.7715533 2.087463 ]"),
    "addcmul": ("ops.addcmul(ms.Tensor([1.0, -2.0]), ms.Tensor([0.5, 2.0]), ms.Tensor([2.0, 4.0]), 0.5)",
                "[1.5 2. ]"),
    "addcdiv": ("ops.addcdiv(ms.Tensor([1.0, -2.0]), ms.Tensor([0.5, 2.0]), ms.Tensor([2.0, 4.0]), 0.5)",
                "[ 1.125 -1.75 ]"),
    "not_equal": ("ops.not_equal(ms.Tensor([1, 2, 3]), 2)", "[ True False  True]"),
    "less": ("ops.less(ms.Tensor([1, 2, 3]), 2)", "[ True False False]"),
    "less_equal": ("ops.less_equal(ms.Tensor([1, 2, 3]), 2)", "[ True  True False]"),
    "greater_equal": ("ops.greater_equal(ms.Tensor([1, 2, 3]), 2)", "[False  True  True]"),
    "isclose": ("ops.isclose(ms.Tensor([1.0, 1.1]), ms.Tensor([1.0, 1.0]))", "[ True False]"),
    "logical_and": ("ops.logical_and(ms.Tensor([True, True, False]), ms.Tensor([True, False, False]))",
                    "[ True False False]"),
    "logical_or": ("ops.logical_or(ms.Tensor([True, True, False]), ms.Tensor([True, False, False]))",
                   "[ True  True False]"),
    "logical_xor": ("ops.logical_xor(ms.Tensor([True, True, False]), ms.Tensor([True, False, False]))",
                    "[False  True False]"),
    "logical_not": ("ops.logical_not(ms.Tensor([True, False]))", "[False  True]"),
    "bitwise_and": ("ops.bitwise_and(ms.Tensor([12, 10]), ms.Tensor([10, 6]))", "[8 2]"),
    "bitwise_or": ("ops.bitwise_or(ms.Tensor([12, 10]), ms.Tensor([10, 6]))", "[14 14]"),
    "bitwise_not": ("ops.bitwise_not(ms.Tensor([0, 5]))", "[-1 -6]"),
    "bitwise_xor": ("ops.bitwise_xor(ms.Tensor([12, 10]), ms.Tensor([10, 6]))", "[ 6 12]"),
    "Add": ("ops.Add()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "[4. 6.]"),
    "TensorAdd": ("ops.TensorAdd()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "[4. 6.]"),
    "Sub": ("ops.Sub()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "[-2. -2.]"),
    "Mul": ("ops.Mul()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "[3. 8.]"),
    "Div": ("ops.Div()(ms.Tensor([1.0, 2.0]), ms.Tensor([4.0, 4.0]))", "[0.25 0.5 ]"),
    "RealDiv": ("ops.RealDiv()(ms.Tensor([1.0, 2.0]), ms.Tensor([4.0, 4.0]))", "[0.25 0.5 ]"),
    "Pow": ("ops.Pow()(ms.Tensor([2.0, 3.0]), 2.0)", "[4. 9.]"),
    "Maximum": ("ops.Maximum()(ms.Tensor([1.0, 5.0]), ms.Tensor([3.0, 4.0]))", "[3. 5.]"),
    "Minimum": ("ops.Minimum()(ms.Tensor([1.0, 5.0]), ms.Tensor([3.0, 4.0]))", "[1. 4.]"),
    "Equal": ("ops.Equal()(ms.Tensor([1, 2, 3]), 2)", "[False  True False]"),
    "Greater": ("ops.Greater()(ms.Tensor([1, 2, 3]), 2)", "[False False  True]"),
    "IsClose": ("ops.IsClose(rtol=0.0, atol=0.2)(ms.Tensor([1.0, 1.1]), ms.Tensor([1.0, 1.0]))", "[ True  True]"),
}
