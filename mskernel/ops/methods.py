"""Tensor operators, and the Tensor methods whose MindSpore form differs from the functional op.

Most Tensor methods come straight from op-table entries (``method=True``); this module holds the
rest — the Python operators (``x + y``, ``x[i]``), and methods that take their arguments another way
than the functional op (``x.reshape(2, 3)``, ``x.sum(axis, dtype, keepdims, initial)``, ``x.T``).
:mod:`mskernel.ops.registry` attaches them to :class:`Tensor` after the table's methods. Where the
engine has its C fast path, ``+ - * /`` and unary ``-`` use it for untracked float tensors.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(x.reshape(4), x.sum(axis=0, initial=1.0), (x @ x.T)[0], x.max(), -x[1])
    [1. 2. 3. 4.] [5. 7.] [ 5. 11.] 4.0 [-3. -4.]
"""
from __future__ import annotations

from typing import Any, Callable, Dict

import numpy as np

from mskernel import dtype as mstype
from mskernel._accel import cengine
from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import F

__all__ = ["METHODS", "attach"]

_SCALARS = (int, float, bool, np.ndarray, np.generic)


def _shape_from_args(args: tuple) -> Any:
    """``t.reshape(2, 3)`` and ``t.reshape((2, 3))`` mean the same shape."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Tensor)):
        return args[0]
    return args


def _eq(self: Tensor, other: Any) -> Any:
    return F.equal(self, other) if isinstance(other, (Tensor, *_SCALARS)) else NotImplemented


def _ne(self: Tensor, other: Any) -> Any:
    return F.not_equal(self, other) if isinstance(other, (Tensor, *_SCALARS)) else NotImplemented


def _sum(self: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    """Sum over ``axis`` (all axes by default), plus ``initial`` if given.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).sum(axis=0, initial=1.0))
        [5. 7.]
    """
    out = F.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else out + initial


def _max(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         return_indices: bool = False) -> Any:
    """The largest element over ``axis``; with ``return_indices`` also its index (MindSpore's Tensor.max).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 5.0], [3.0, 2.0]]).max(axis=1))
        [5. 3.]
    """
    out = F.amax(self, axis, keepdims)
    if return_indices:
        return out, F.argmax(self, axis, keepdims)
    return out


def _min(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         return_indices: bool = False) -> Any:
    """The smallest element over ``axis``; with ``return_indices`` also its index.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0, -5.0]).min())
        -5.0
    """
    out = F.amin(self, axis, keepdims)
    if return_indices:
        return out, F.argmin(self, axis, keepdims)
    return out


def _transpose(self: Tensor, *axes: Any) -> Tensor:
    """Permute the axes (reversed when none are given); ``t.transpose(1, 0)`` or ``t.transpose((1, 0))``.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor(np.zeros((2, 3, 4))).transpose(2, 0, 1).shape
        (4, 2, 3)
    """
    if not axes or (len(axes) == 1 and axes[0] is None):
        return F.transpose(self, tuple(reversed(range(self.ndim))))
    return F.transpose(self, _shape_from_args(axes))


def _contiguous(self: Tensor) -> Tensor:
    """This tensor if C-contiguous, else a contiguous copy (differentiable).

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor(np.zeros((2, 3))).T.contiguous().is_contiguous()
        True
    """
    if self._data.flags.c_contiguous:
        return self
    return F.identity(self, copy=True)


METHODS: Dict[str, Callable] = {
    "__add__": lambda self, other: F.add(self, other),
    "__radd__": lambda self, other: F.add(other, self),
    "__sub__": lambda self, other: F.sub(self, other),
    "__rsub__": lambda self, other: F.sub(other, self),
    "__mul__": lambda self, other: F.mul(self, other),
    "__rmul__": lambda self, other: F.mul(other, self),
    "__truediv__": lambda self, other: F.div(self, other),
    "__rtruediv__": lambda self, other: F.div(other, self),
    "__floordiv__": lambda self, other: F.floor_divide(self, other),
    "__rfloordiv__": lambda self, other: F.floor_divide(other, self),
    "__mod__": lambda self, other: F.remainder(self, other),
    "__rmod__": lambda self, other: F.remainder(other, self),
    "__pow__": lambda self, other: F.pow(self, other),
    "__rpow__": lambda self, other: F.pow(other, self),
    "__matmul__": lambda self, other: F.matmul(self, other),
    "__rmatmul__": lambda self, other: F.matmul(other, self),
    "__neg__": lambda self: F.neg(self),
    "__pos__": lambda self: self,
    "__abs__": lambda self: F.abs(self),
    "__invert__": lambda self: F.logical_not(self) if self._data.dtype == np.bool_ else F.bitwise_not(self),
    "__and__": lambda self, other: F.bitwise_and(self, other),
    "__or__": lambda self, other: F.bitwise_or(self, other),
    "__xor__": lambda self, other: F.bitwise_xor(self, other),
    "__lt__": lambda self, other: F.less(self, other),
    "__le__": lambda self, other: F.less_equal(self, other),
    "__gt__": lambda self, other: F.greater(self, other),
    "__ge__": lambda self, other: F.greater_equal(self, other),
    "__eq__": _eq,
    "__ne__": _ne,
    "__getitem__": lambda self, index: F.getitem(self, index),
    "sum": _sum,
    "max": _max,
    "min": _min,
    "reshape": lambda self, *shape: F.reshape(self, _shape_from_args(shape)),
    "view": lambda self, *shape: F.reshape(self, _shape_from_args(shape)),
    "transpose": _transpose,
    "T": property(lambda self: F.transpose(self, tuple(reversed(range(self.ndim))))),
    "astype": lambda self, dtype, copy=True: F.cast(self, mstype.to_dtype(dtype)),
    "contiguous": _contiguous,
}


def attach() -> None:
    """Set the operators and methods above on :class:`Tensor` (after the table's), with the C fast paths.

    Example:
        >>> import mskernel as ms
        >>> attach(); print(ms.Tensor([1.0]) + 1)
        [2.]
    """
    for name, fn in METHODS.items():
        if callable(fn) and getattr(fn, "__name__", "") == "<lambda>":
            fn.__name__ = fn.__qualname__ = name
        setattr(Tensor, name, fn)
    c = cengine()
    if c is not None:  # untracked float tensors take the core's fast path; the rest falls back to the ops
        for op, name, ufunc in (("add", "add", np.add), ("sub", "sub", np.subtract), ("mul", "mul", np.multiply),
                                ("div", "truediv", np.true_divide)):
            slow = METHODS[f"__{name}__"]
            setattr(Tensor, f"__{name}__", c.Binop(op, ufunc, slow))
            setattr(Tensor, f"__r{name}__", c.Binop(op, ufunc, slow, True))
        Tensor.__neg__ = c.Binop("neg", np.negative, METHODS["__neg__"])  # type: ignore[method-assign]
