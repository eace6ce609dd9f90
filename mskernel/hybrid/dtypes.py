"""Scalar types of the hybrid DSL and their typing rules, derived from numpy.

A *type* is a string: a numpy dtype name (``"float32"``, ``"int8"``, ``"bool"`` ...) for a
*strong* value (a tensor element, a cast, a typed scalar), or ``"int"`` / ``"float"`` for a
*weak* value (a Python literal, a loop variable, a shape entry, a scalar attribute) -- exactly
the values that are Python scalars when the kernel runs as Python. Result types are computed
by asking numpy (NEP 50 rules) with sample values, so compiled kernels type every expression
the way the pure-Python emulation does. The DSL adds one rule: two *different strong* types
never mix implicitly (an explicit cast such as ``float32(x)`` is required).

Example:
    >>> binary_result("+", "float32", "int")
    'float32'
    >>> binary_result("/", "int32", "int32")
    'float64'
    >>> binary_result("+", "int", "int")
    'int'
    >>> ctype("float16"), compute_ctype("float16")
    ('_Float16', 'float')
"""
from __future__ import annotations

import functools
import operator
from typing import Callable, Optional

import numpy as np

__all__ = [
    "TENSOR_DTYPES", "WEAK_INT", "WEAK_FLOAT", "is_weak", "is_float", "is_int", "ctype",
    "compute_ctype", "binary_result", "call_result", "join", "normalize_dtype", "BINARY_OPS",
    "COMPARE_OPS", "type_of_python_scalar",
]

WEAK_INT = "int"
WEAK_FLOAT = "float"

_CTYPES = {
    "bool": "bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float16": "_Float16", "float32": "float", "float64": "double",
    WEAK_INT: "int64_t", WEAK_FLOAT: "double",
}

#: dtypes a tensor may have (inputs, outputs, temporaries)
TENSOR_DTYPES = tuple(k for k in _CTYPES if k not in (WEAK_INT, WEAK_FLOAT))

BINARY_OPS: dict[str, Callable] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
}
COMPARE_OPS = ("<", "<=", ">", ">=", "==", "!=")


def is_weak(t: str) -> bool:
    """True for the types of Python scalars (``"int"``, ``"float"``).

    Example:
        >>> is_weak("int"), is_weak("int32")
        (True, False)
    """
    return t in (WEAK_INT, WEAK_FLOAT)


def is_float(t: str) -> bool:
    """True for floating types, weak or strong.

    Example:
        >>> is_float("float16"), is_float("int")
        (True, False)
    """
    return t == WEAK_FLOAT or t.startswith("float")


def is_int(t: str) -> bool:
    """True for integer types (not bool), weak or strong.

    Example:
        >>> is_int("uint8"), is_int("bool")
        (True, False)
    """
    return t == WEAK_INT or "int" in t


def ctype(t: str) -> str:
    """The C++ storage type of ``t``.

    Example:
        >>> ctype("int32")
        'int32_t'
    """
    return _CTYPES[t]


def compute_ctype(t: str) -> str:
    """The C++ type expressions of type ``t`` are computed in (float16 computes in float).

    Example:
        >>> compute_ctype("float16"), compute_ctype("int8")
        ('float', 'int8_t')
    """
    return "float" if t == "float16" else _CTYPES[t]


def normalize_dtype(value: object) -> Optional[str]:
    """The DSL type name of a dtype-like value (``"float32"``, ``np.float32``, a dtype), or None.

    Example:
        >>> normalize_dtype(np.dtype("f4")), normalize_dtype("float64"), normalize_dtype("x")
        ('float32', 'float64', None)
    """
    try:
        name = np.dtype(value).name  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
    return name if name in TENSOR_DTYPES else None


def type_of_python_scalar(value: object) -> Optional[str]:
    """The DSL type of a scalar attribute value (bool, int, float, or a numpy scalar).

    Example:
        >>> type_of_python_scalar(True), type_of_python_scalar(3), type_of_python_scalar(2.5)
        ('bool', 'int', 'float')
    """
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return WEAK_INT
    if isinstance(value, (float, np.floating)):
        return WEAK_FLOAT
    return None


def _sample(t: str, value: int = 3) -> object:
    if t == WEAK_INT:
        return value
    if t == WEAK_FLOAT:
        return float(value) + 0.5
    if t == "bool":
        return np.True_
    return np.dtype(t).type(value)


def _classify(result: object) -> Optional[str]:
    if isinstance(result, (bool, np.bool_)):
        return "bool"
    if isinstance(result, np.generic):
        return result.dtype.name if result.dtype.name in TENSOR_DTYPES else None
    if isinstance(result, int):
        return WEAK_INT
    if isinstance(result, float):
        return WEAK_FLOAT
    return None


def _weaken(result: Optional[str], args: tuple[str, ...]) -> Optional[str]:
    """numpy turns Python scalars into float64/int64 scalars; the DSL keeps them weak."""
    if result is not None and all(is_weak(a) for a in args):
        if result.startswith("float"):
            return WEAK_FLOAT
        if "int" in result:
            return WEAK_INT
    return result


@functools.lru_cache(maxsize=None)
def binary_result(op: str, left: str, right: str) -> Optional[str]:
    """Result type of ``left op right`` (numpy's rule), or None if numpy rejects it.

    Two different strong types are not checked here (see :func:`join`).

    Example:
        >>> binary_result("//", "int32", "int"), binary_result("<", "float32", "float")
        ('int32', 'bool')
        >>> binary_result("&", "float32", "float32") is None
        True
    """
    fn = BINARY_OPS.get(op) or _COMPARE_FNS[op]
    try:
        with np.errstate(all="ignore"):
            result = fn(_sample(left), _sample(right, 2))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return _weaken(_classify(result), (left, right))


@functools.lru_cache(maxsize=None)
def call_result(fn: Callable, args: tuple[str, ...]) -> Optional[str]:
    """Result type of calling the numpy stand-in ``fn`` on values of types ``args``.

    Example:
        >>> call_result(np.sqrt, ("int32",)), call_result(np.sqrt, ("float",))
        ('float64', 'float')
    """
    try:
        with np.errstate(all="ignore"):
            result = fn(*(_sample(a, 2 + i) for i, a in enumerate(args)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return _weaken(_classify(result), args)


def join(a: str, b: str) -> Optional[str]:
    """The common type of two operands under the DSL rule, or None when they may not mix.

    A weak type yields to a strong one; weak int and weak float give weak float; two
    different strong types do not mix (None).

    Example:
        >>> join("float32", "int"), join("int", "float"), join("int32", "float32")
        ('float32', 'float', None)
    """
    if a == b:
        return a
    if is_weak(a) and is_weak(b):
        return WEAK_FLOAT
    if is_weak(a):
        return b if (is_float(b) or a == WEAK_INT) else binary_result("+", a, b)
    if is_weak(b):
        return join(b, a)
    return None


_COMPARE_FNS: dict[str, Callable] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne,
}
