"""Argument coercion shared by the built-in ops: Tensor checks, dtype promotion, broadcasting.

Errors name the op and the argument, what was expected and what was got.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops._core import binary_args
    >>> x, y = binary_args(ms.Tensor([1, 2], ms.int32), 2.5, "Mul")
    >>> x.dtype, y.dtype
    (mindspore.float32, mindspore.float32)
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.node import STATE, record
from mskernel.common.tensor import Tensor

__all__ = ["as_tensor", "binary_args", "check_tensor", "float_input", "broadcast_error", "normalize_axis",
           "cast_tensor"]

_SCALARS = (int, float, bool)


def check_tensor(x: Any, op: str, arg: str) -> Tensor:
    """``x`` if it is a Tensor, else a TypeError naming the op and argument.

    Example:
        >>> check_tensor(3, "Exp", "input")
        Traceback (most recent call last):
        ...
        TypeError: For 'Exp', the input argument 'input' must be a Tensor, but got int.
    """
    if isinstance(x, Tensor):
        return x
    raise TypeError(f"For '{op}', the input argument '{arg}' must be a Tensor, but got {type(x).__name__}.")


def as_tensor(x: Any, op: str, arg: str) -> Tensor:
    """A Tensor from a Tensor, a Python/numpy scalar or an array (constants are not tracked).

    Example:
        >>> as_tensor(2.0, "Add", "y").dtype
        mindspore.float32
    """
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"For '{op}', the input argument '{arg}' must be a Tensor or a number, but got "
                    f"{type(x).__name__}.")


def cast_tensor(x: Tensor, dt: mstype.Type) -> Tensor:
    """Differentiable cast (used for implicit promotion); returns ``x`` when already ``dt``."""
    if x._data.dtype == dt.np:
        return x
    out = Tensor._wrap(x._data.astype(dt.np))
    if STATE.enabled and x._rg and dt.kind in "fc":
        record("Cast", (x,), (out,), lambda d: (d[0],))  # the engine casts the grad back to x's dtype
    return out


def binary_args(x: Any, y: Any, op: str) -> Tuple[Tensor, Tensor]:
    """Coerce two operands to Tensors of one promoted dtype (MindSpore's implicit promotion).

    Example:
        >>> import mskernel as ms
        >>> a, b = binary_args(ms.Tensor([1], ms.int8), ms.Tensor([1], ms.uint8), "Add")
        >>> a.dtype
        mindspore.int16
    """
    xt = x.__class__ is Tensor or isinstance(x, Tensor)
    yt = y.__class__ is Tensor or isinstance(y, Tensor)
    if xt and yt:
        dx, dy = x._data.dtype, y._data.dtype
        if dx == dy:
            return x, y
        if dx.kind == "f" and dy.kind == "f" and (x._data.ndim == 0) != (y._data.ndim == 0):
            # measured on MindSpore 2.10: a 0-d float tensor does not widen another float tensor
            # (float16 * 0-d float32 is Float16, float32 * 0-d float64 is Float32); integers do widen
            dt = mstype.Type._by_np[dy if x._data.ndim == 0 else dx]
        else:
            dt = mstype.promote(mstype.Type._by_np[dx], mstype.Type._by_np[dy])
        return cast_tensor(x, dt), cast_tensor(y, dt)
    if xt:
        if isinstance(y, _SCALARS):
            dt = mstype.promote_scalar(x.dtype, y)
            return cast_tensor(x, dt), Tensor._wrap(np.array(y, dt.np))
        return binary_args(x, as_tensor(y, op, "y"), op)
    if yt:
        if isinstance(x, _SCALARS):
            dt = mstype.promote_scalar(y.dtype, x)
            return Tensor._wrap(np.array(x, dt.np)), cast_tensor(y, dt)
        return binary_args(as_tensor(x, op, "x"), y, op)
    raise TypeError(f"For '{op}', at least one input must be a Tensor, but got {type(x).__name__} and "
                    f"{type(y).__name__}.")


# MindSpore's names in the text; "input1", "input2" elsewhere
_OPERAND_NAMES = {"Lerp": ("start", "end"), "Cross": ("input", "other")}


def broadcast_error(op: str, x: Tensor, y: Tensor) -> ValueError:
    """MindSpore's error for operands whose shapes cannot broadcast: it names the first pair of trailing
    dimensions that differ (neither being 1), numbering them as MindSpore does (rank + position among the
    compared trailing dimensions).

    Example:
        >>> import mskernel as ms
        >>> print(broadcast_error("Add", ms.Tensor([[1, 2]]), ms.Tensor([1, 2, 3])))
        For 'Add', input1.shape and input2.shape need to broadcast. The value of input1.shape[2] or input2.shape[1] \
must be 1 or -1 when they are not the same, but got input1.shape = [1, 2] and input2.shape = [3]
    """
    a, b = [int(d) for d in x.shape], [int(d) for d in y.shape]
    n = min(len(a), len(b))
    i = next((k for k in range(n) if 1 != a[len(a) - n + k] != b[len(b) - n + k] != 1), 0)
    first, second = _OPERAND_NAMES.get(op, ("input1", "input2"))
    return ValueError(f"For '{op}', {first}.shape and {second}.shape need to broadcast. The value of {first}.shape"
                      f"[{len(a) + i}] or {second}.shape[{len(b) + i}] must be 1 or -1 when they are not the same, "
                      f"but got {first}.shape = {a} and {second}.shape = {b}")


_FLOAT_NAMES = "{Float16, Float32, Float64}"
# Ops whose dtype check MindSpore makes in a primitive's type inference, with the dtypes that inference accepts:
# an integer dtype outside them gets MindSpore's text word for word (e.g. Int32); one inside them (Int64, Bool),
# which MindSpore's CPU kernels then refuse, gets ours. logsumexp is checked by its Exp.
_EXP_TYPES = ("BFloat16", "Bool", "Complex128", "Complex64", "Float16", "Float32", "Float64", "Int64")
_MS_TYPE_CHECKS = {"Exp": ("Exp", _EXP_TYPES), "Logsumexp": ("Exp", _EXP_TYPES)}
# Ops that MindSpore's CPU refuses when it selects a kernel: our text follows that failure's headline (the rest of
# MindSpore's text lists its kernels' attribute slots and a graph node with internal ids).
_MS_KERNELS = {"var": "ReduceStd", "var_mean": "ReduceStd", "std_mean": "ReduceStd"}


def float_input(x: Any, op: str, arg: str = "x") -> Tensor:
    """A floating-point Tensor, else a TypeError listing the supported dtypes (as MindSpore does).

    Example:
        >>> import mskernel as ms
        >>> float_input(ms.Tensor([1, 2]), "Exp")
        Traceback (most recent call last):
        ...
        TypeError: For 'Exp', the input argument 'x' must be a type of {Float16, Float32, Float64}, but got Int64.
    """
    x = check_tensor(x, op, arg)
    if x._data.dtype.kind not in "fc":
        checker, accepted = _MS_TYPE_CHECKS.get(op, (None, ()))
        if str(x.dtype) not in accepted and checker:  # MindSpore's own text, from the primitive that checks
            raise TypeError(f"For primitive[{checker}], the input argument[{arg}] must be a type of "
                            f"{{{', '.join(accepted)}}}, but got {x.dtype}.")
        headline = f"Select CPU operator[{_MS_KERNELS[op]}] fail! Unsupported data type!\n" if op in _MS_KERNELS else ""
        raise TypeError(f"{headline}For '{op}', the input argument '{arg}' must be a type of {_FLOAT_NAMES}, but got "
                        f"{x.dtype}.")
    return x


def normalize_axis(axis: Any, ndim: int, op: str) -> Tuple[int, ...]:
    """Axis argument (None, int, tuple/list) as a sorted tuple of non-negative axes.

    Example:
        >>> normalize_axis(-1, 3, "ReduceSum"), normalize_axis(None, 2, "ReduceSum")
        ((2,), (0, 1))
    """
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return tuple(range(ndim))
    axes: Sequence[int] = (axis,) if isinstance(axis, (int, np.integer)) else axis
    out = []
    for a in axes:
        if isinstance(a, Tensor):
            a = int(a)
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"For '{op}', 'axis' must be an int or a tuple of ints, but got {axis!r}.")
        lo = -ndim if ndim else -1
        hi = ndim - 1 if ndim else 0
        if not lo <= a <= hi:
            raise ValueError(f"For '{op}', 'axis' must be in range [{lo}, {hi}], but got {a}.")
        out.append(int(a) % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"For '{op}', 'axis' has duplicate values: {axis!r}.")
    return tuple(sorted(out))
