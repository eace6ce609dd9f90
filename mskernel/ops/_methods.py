"""Attach the Python operators and tensor methods to :class:`mskernel.Tensor`.

Tensor lives below the ops layer; this module (run once by ``mskernel.ops``) gives it its
operators, so ``x * y`` and ``x.sum()`` are the same recorded ops as ``ops.mul`` and ``ops.sum``.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([1.0, 2.0])
    >>> print((2 - x) ** 2, (x @ x), x.T.shape)
    [1. 0.] 5.0 (2,)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel import dtype as mstype
from mskernel._accel import cengine
from mskernel.ops import math as M
from mskernel.ops import reduce as R
from mskernel.ops import shape as S
from mskernel.tensor import Tensor

__all__ = ["install"]


def _shape_from_args(args: tuple) -> Any:
    if len(args) == 1 and isinstance(args[0], (tuple, list, Tensor)):
        return args[0]
    return args


def _sum(self: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> Tensor:
    out = R.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else out + initial


def _max(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         return_indices: bool = False) -> Tensor:
    return R.amax(self, axis, keepdims)


def _min(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None,
         return_indices: bool = False) -> Tensor:
    return R.amin(self, axis, keepdims)


def _transpose(self: Tensor, *axes: Any) -> Tensor:
    if not axes or (len(axes) == 1 and axes[0] is None):
        perm = tuple(reversed(range(self.ndim)))
    else:
        perm = _shape_from_args(axes)
    return S.transpose(self, perm)


def _astype(self: Tensor, dtype: Any, copy: bool = True) -> Tensor:
    return S.cast(self, mstype.to_dtype(dtype))


def _expand_dims(self: Tensor, axis: int) -> Tensor:
    return S.expand_dims(self, axis)


def install() -> None:
    """Give Tensor its operators and methods (idempotent)."""
    T = Tensor
    T.__add__ = M.add
    T.__radd__ = lambda a, b: M.add(b, a)
    T.__sub__ = M.sub
    T.__rsub__ = lambda a, b: M.sub(b, a)
    T.__mul__ = M.mul
    T.__rmul__ = lambda a, b: M.mul(b, a)
    T.__truediv__ = M.div
    T.__rtruediv__ = lambda a, b: M.div(b, a)
    T.__pow__ = M.pow
    T.__rpow__ = lambda a, b: M.pow(b, a)
    T.__matmul__ = M.matmul
    T.__rmatmul__ = lambda a, b: M.matmul(b, a)
    T.__neg__ = M.neg
    T.__pos__ = lambda a: a
    T.__abs__ = lambda a: M.abs(a)
    T.__lt__ = M.less
    T.__le__ = M.less_equal
    T.__gt__ = M.greater
    T.__ge__ = M.greater_equal
    T.__eq__ = lambda a, b: M.equal(a, b) if isinstance(b, (Tensor, int, float, bool, np.ndarray, np.generic)) \
        else NotImplemented
    T.__ne__ = lambda a, b: M.not_equal(a, b) if isinstance(b, (Tensor, int, float, bool, np.ndarray, np.generic)) \
        else NotImplemented
    T.__invert__ = lambda a: M.logical_not(a)
    T.__getitem__ = S.getitem
    T.__hash__ = object.__hash__
    T.sum = _sum
    T.mean = lambda self, axis=None, keep_dims=False: R.mean(self, axis, keep_dims)
    T.max = _max
    T.min = _min
    T.reshape = lambda self, *shape: S.reshape(self, _shape_from_args(shape))
    T.view = T.reshape
    T.transpose = _transpose
    T.swapaxes = lambda self, a0, a1: S.swapaxes(self, a0, a1)
    T.T = property(lambda self: S.transpose(self, tuple(reversed(range(self.ndim)))))
    T.astype = _astype
    T.expand_dims = _expand_dims
    T.squeeze = lambda self, axis=None: S.squeeze(self, axis)
    T.flatten = lambda self, start_dim=0, end_dim=-1: S.flatten(self, start_dim, end_dim)
    T.broadcast_to = lambda self, shape: S.broadcast_to(self, shape)
    T.abs = lambda self: M.abs(self)
    T.exp = lambda self: M.exp(self)
    T.log = lambda self: M.log(self)
    T.sqrt = lambda self: M.sqrt(self)
    T.sin = lambda self: M.sin(self)
    T.cos = lambda self: M.cos(self)
    T.tanh = lambda self: M.tanh(self)
    T.sigmoid = lambda self: M.sigmoid(self)
    T.relu = lambda self: M.relu(self)
    T.square = lambda self: M.square(self)
    T.matmul = lambda self, other: M.matmul(self, other)
    T.pow = lambda self, exponent: M.pow(self, exponent)
    T.add = lambda self, other: M.add(self, other)
    T.sub = lambda self, other: M.sub(self, other)
    T.mul = lambda self, other: M.mul(self, other)
    T.div = lambda self, other: M.div(self, other)
    T.neg = lambda self: M.neg(self)
    T._sum_to = lambda self, shape: S.sum_to(self, shape)
    _install_fast_operators(T)


def _install_fast_operators(T: type) -> None:
    """With the compiled core, + - * / and unary - take a C fast path for untracked float tensors (what backward
    rules and no_grad code run); anything else falls through to the same ops as above."""
    C = cengine()
    if C is None:
        return
    for name, rname, ufunc, op in (("__add__", "__radd__", np.add, M.add), ("__sub__", "__rsub__", np.subtract, M.sub),
                                   ("__mul__", "__rmul__", np.multiply, M.mul),
                                   ("__truediv__", "__rtruediv__", np.true_divide, M.div)):
        setattr(T, name, C.Binop(op.__name__, ufunc, op))
        setattr(T, rname, C.Binop(op.__name__, ufunc, op, True))
    T.__neg__ = C.Binop("neg", np.negative, M.neg)
