"""Text forms of tensors, byte-for-byte as MindSpore prints them.

``str(t)`` is numpy's ``str`` of the values; ``repr(t)`` follows MindSpore's C++
``TensorStringifier``: floats as ``%15.8e`` (float16 ``%11.4e``), integers right-aligned to the
widest value, bools in width 5, summarised with ``...`` past 6 items per inner dimension (1000
for 1-D), a line break every 12 floats / 24 ints / 12 bools in 1-D, scalars in C++'s default
``ostream`` style (``%g``).

Example:
    >>> import numpy as np
    >>> tensor_repr(np.array([1.0, 4.0], np.float32), "Float32")
    'Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  4.00000000e+00])'
    >>> tensor_repr(np.array(6.0, np.float32), "Float32")
    'Tensor(shape=[], dtype=Float32, value= 6)'
"""
from __future__ import annotations

import math
from typing import List

import ml_dtypes
import numpy as np

#: ml_dtypes' low-precision floats: MindSpore's repr writes them in ``%g`` right-aligned to the widest value, and
#: its ``str`` each value as ``%f``
LOW_FLOATS = frozenset(np.dtype(t) for t in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2))
_THRESHOLD = 6
_THRESHOLD_1D = 1000
_HALF = _THRESHOLD >> 1


def _cpp_general(v: float) -> str:
    """C++ ``ostream << double`` with the default precision 6 (like ``%g``)."""
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%g" % v


def _cpp_sci(v: float, width: int, prec: int) -> str:
    if math.isnan(v):
        s = "-nan" if math.copysign(1.0, v) < 0 else "nan"
    elif math.isinf(v):
        s = "inf" if v > 0 else "-inf"
    else:
        s = "%.*e" % (prec, v)
    return s.rjust(width)


class _Stringifier:
    def __init__(self, arr: np.ndarray):
        self.flat = arr.reshape(-1)
        self.ndim = arr.ndim
        self.shape = arr.shape
        k = arr.dtype.kind
        self.is_float = k == "f"
        self.is_bool = k == "b"
        self.is_complex = k == "c"
        self.half = arr.dtype == np.float16
        self.low = arr.dtype in LOW_FLOATS
        if self.low:
            self.is_float = False
        self.linefeed = 12 if (self.is_float or self.is_bool) else 24
        self.max_width = 0
        self.out: List[str] = []

    def item(self, v) -> str:
        if self.is_complex:
            im = float(v.imag)  # MindSpore 2.10 writes a complex as real, signed imaginary, 'j': 2-1.5j, 0.625-0j
            sign = "-" if math.copysign(1.0, im) < 0 else "+"
            return "%s%s%sj" % (_cpp_general(float(v.real)), sign, _cpp_general(abs(im)))
        if self.is_float:
            return _cpp_sci(float(v), 11 if self.half else 15, 4 if self.half else 8)
        if self.is_bool:
            return ("True" if v else "False").rjust(5)
        s = _cpp_general(float(v)) if self.low else str(int(v))
        self.max_width = max(self.max_width, len(s))
        return "\0" * len(s) + s  # placeholder padding, widened to max_width at the end

    def data(self, cursor: int, start: int, end: int) -> None:
        out = self.out
        n = len(self.flat)
        for i in range(start, end):
            if cursor + i >= n:
                break
            out.append(self.item(self.flat[cursor + i]))
            if i != end - 1:
                out.append(", ")
            if self.ndim == 1 and end - start > _HALF and (i + 1) % self.linefeed == 0:
                out.append("\n ")

    def recurse(self, cursor: List[int], depth: int) -> None:
        if depth >= self.ndim:
            return
        out = self.out
        out.append("[")
        num = self.shape[depth]
        if depth == self.ndim - 1:
            if (num > _THRESHOLD and self.ndim > 1) or (num > _THRESHOLD_1D and self.ndim == 1):
                self.data(cursor[0], 0, _HALF)
                out.append(" ... ")
                self.data(cursor[0], num - _HALF, num)
            else:
                self.data(cursor[0], 0, num)
            cursor[0] += num
        else:
            indent = "\n" + " " * (depth + 1)
            for i in range(min(_HALF, num)):
                if i > 0:
                    out.append("," + indent)
                self.recurse(cursor, depth + 1)
            if num > _THRESHOLD:
                out.append("," + indent + "...")
                ignored = int(np.prod(self.shape[depth + 1:], dtype=np.int64)) * (num - _THRESHOLD)
                cursor[0] += ignored
            if num > _HALF:
                for i in range(min(num - _HALF, _HALF)):
                    if i != 0 or num <= _THRESHOLD:
                        out.append(",")
                    out.append(indent)
                    self.recurse(cursor, depth + 1)
        out.append("]")

    def render(self) -> str:
        if self.flat.size == 0:
            return ""
        if self.ndim == 0:
            v = self.flat[0]
            if self.is_float:
                return _cpp_general(float(v))
            if self.is_bool:
                return "True" if v else "False"
            if self.is_complex:
                return self.item(v)
            return _cpp_general(float(v)) if self.low else str(int(v))
        self.recurse([0], 0)
        text = "".join(self.out)
        if not (self.is_float or self.is_bool or self.is_complex):
            text = _widen(text, self.max_width)
        return text


def _widen(text: str, width: int) -> str:
    parts = []
    i = 0
    n = len(text)
    while i < n:
        j = text.find("\0", i)
        if j < 0:
            parts.append(text[i:])
            break
        parts.append(text[i:j])
        k = j
        while k < n and text[k] == "\0":
            k += 1
        parts.append(" " * (width - (k - j)))
        i = k
    return "".join(parts)


def values_repr(arr: np.ndarray) -> str:
    """The value part of MindSpore's Tensor repr.

    Example:
        >>> values_repr(np.array([[1, -20], [3, 4]], np.int32))
        '[[  1, -20],\\n [  3,   4]]'
    """
    return _Stringifier(np.asarray(arr)).render()


def low_float_str(arr: np.ndarray) -> str:
    """MindSpore's ``str`` of a bfloat16/float8 tensor: numpy's layout of the values, each written as ``%f``.

    Example:
        >>> low_float_str(np.array([1.5, -4.25], ml_dtypes.bfloat16))
        '[1.500000 -4.250000]'
    """
    return np.array2string(np.asarray(arr, np.float64), formatter={"all": lambda v: "%f" % v})


def tensor_repr(arr: np.ndarray, dtype_name: str) -> str:
    """``Tensor(shape=[...], dtype=Name, value=...)`` exactly as MindSpore prints it.

    Example:
        >>> print(tensor_repr(np.array([True, False]), "Bool"))
        Tensor(shape=[2], dtype=Bool, value= [ True, False])
    """
    shape = "[" + ", ".join(str(d) for d in arr.shape) + "]"
    sep = "\n" if arr.ndim > 1 else " "
    return f"Tensor(shape={shape}, dtype={dtype_name}, value={sep}{values_repr(arr)})"
