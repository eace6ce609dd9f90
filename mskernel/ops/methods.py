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
from mskernel.common.tensor import Tensor, to_meta
from mskernel.ops import math, reductions
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


def _sum(self: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None, *,
         dim: Any = None, keepdim: Any = None) -> Tensor:
    """Sum over ``axis`` (all axes by default), plus ``initial`` if given; ``dim``/``keepdim`` as the other
    spelling MindSpore accepts.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).sum(axis=0, initial=1.0))
        [5. 7.]
    """
    axis = dim if dim is not None else axis
    keepdims = keepdim if keepdim is not None else keepdims
    out = F.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else out + initial


def _extreme(reduce: str, pair: str) -> Callable:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        # MindSpore 2.10 has two forms: ``x.max(dim, keepdim=False)`` (positional or ``dim=``) returns
        # ``(values, indices)``; ``x.max(axis=None, keepdims=False, *, initial, where, return_indices)`` the values
        if "dim" in kwargs or (args and args[0] is not None and not ({"axis", "initial", "where", "return_indices"}
                                                                   & kwargs.keys())):
            dim = kwargs.pop("dim", None) if "dim" in kwargs else args[0]
            rest = args[1:] if args and "dim" not in kwargs else args
            keepdim = rest[0] if rest else kwargs.pop("keepdim", False)
            return getattr(F, pair)(self, dim, keepdim)
        return _numpy_style(self, reduce, *args, **kwargs)
    return method


def _numpy_style(self: Tensor, reduce: str, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
                 where: Any = None, return_indices: bool = False) -> Any:
    """The values form of ``Tensor.max``/``Tensor.min`` (``initial`` and ``where`` as numpy's).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> print(x.max(axis=1), x.min(), x.max(1)[1])
        [5. 3.] 1.0 [1 0]
    """
    if initial is not None or where is not None:
        fn = np.max if reduce == "amax" else np.min
        kw: Dict[str, Any] = {"initial": initial} if initial is not None else {}
        if where is not None:
            kw["where"] = where._data if isinstance(where, Tensor) else np.asarray(where)
        return Tensor._wrap(np.asarray(fn(self._data, axis=axis, keepdims=keepdims, **kw)))
    if isinstance(axis, int) and not isinstance(axis, bool) and self.ndim > 0:
        # over one axis MindSpore 2.10 takes the values of max/min with indices: a tie's gradient goes to the first
        out = getattr(F, "max" if reduce == "amax" else "min")(self, axis, keepdims)[0]
    else:
        out = getattr(F, reduce)(self, axis, keepdims)  # ties share the gradient
    if return_indices:
        return out, getattr(F, "argmax" if reduce == "amax" else "argmin")(self, axis, keepdims)
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
    if len(axes) == 2 and all(isinstance(a, (int, np.integer)) for a in axes):
        return F.swapaxes(self, axes[0], axes[1])  # two dims: swap them (for a matrix the same as a permutation)
    return F.transpose(self, _shape_from_args(axes))


def _view(self: Tensor, *shape: Any) -> Tensor:
    """``t.view(2, 3)`` / ``t.view((2, 3))``: a reshape; ``t.view(ms.int32)``: the same bytes as another dtype.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor(np.zeros(4, np.float32)).view(2, 2).shape, ms.Tensor([1.0]).view(ms.int32).dtype
        ((2, 2), mindspore.int32)
    """
    if len(shape) == 1 and isinstance(shape[0], mstype.Type):
        return Tensor._wrap(self._data.view(shape[0].np))
    return F.reshape(self, _shape_from_args(shape))


def _flatten(self: Tensor, order: Any = "C", *dims: int, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """All axes (or ``start_dim..end_dim``) merged into one; ``t.flatten(1)`` starts at axis 1.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor(np.zeros((2, 3, 4))).flatten().shape, ms.Tensor(np.zeros((2, 3, 4))).flatten(1).shape
        ((24,), (2, 12))
    """
    if isinstance(order, (int, np.integer)):  # torch's spelling: x.flatten(start_dim, end_dim)
        order, start_dim = "C", int(order)
        if dims:
            end_dim = int(dims[0])
    return F.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


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


def _cast_to(dtype: Any) -> Callable:
    def method(self: Tensor) -> Tensor:
        return F.cast(self, dtype)
    method.__doc__ = f"This tensor as {dtype} (a differentiable cast)."
    return method


def _to(self: Tensor, dtype: Any = None, *args: Any, **kwargs: Any) -> Tensor:
    """This tensor as ``dtype`` (MindSpore's ``Tensor.to``; devices are ignored on the CPU).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.5, 2.5]).to(ms.int32))
        [1 2]
    """
    dtype = kwargs.get("dtype", dtype)
    if dtype == "meta" or kwargs.get("device") == "meta":
        return to_meta(self)
    if isinstance(dtype, Tensor):
        dtype = dtype.dtype
    if dtype is None or isinstance(dtype, str):
        return self
    return F.cast(self, mstype.to_dtype(dtype))


def _type(self: Tensor, dtype: Any = None) -> Any:
    """With no argument, the dtype's name (``'Float32'``); else this tensor cast to ``dtype``.

    Example:
        >>> import mskernel as ms
        >>> ms.Tensor([1.0]).type(), ms.Tensor([1.0]).type(ms.int32).dtype
        ('Float32', mindspore.int32)
    """
    if dtype is None:
        return str(self.dtype)
    return F.cast(self, mstype.to_dtype(dtype))


def _fill(self: Tensor, value: Any) -> Tensor:
    """A tensor like this one filled with ``value`` (a number or a 0-d Tensor).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0, 2.0]).fill(3))
        [3. 3.]
    """
    v = value._data if isinstance(value, Tensor) else value
    return Tensor._wrap(np.full(self.shape, v, self._data.dtype))


def _write(self: Tensor, arr: Any, name: str) -> Tensor:
    from mskernel.ops.inplace import inplace_update
    return inplace_update(self, Tensor._wrap(np.broadcast_to(np.asarray(arr, self._data.dtype), self.shape)), name)


def _copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` (broadcast, cast to this dtype) into this tensor in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); print(x.copy_(ms.Tensor([5.0])), x)
        [5. 5.] [5. 5.]
    """
    from mskernel.ops.inplace import inplace_update
    src_t = src if isinstance(src, Tensor) else Tensor(src)
    if src_t._rg:
        return inplace_update(self, F.broadcast_to(F.cast(src_t, self.dtype), self.shape), "copy_")
    return _write(self, src_t._data, "copy_")


def _new(name: str, fill: Any) -> Callable:
    def method(self: Tensor, size: Any, dtype: Any = None, *args: Any) -> Tensor:
        if isinstance(size, (int, np.integer)):
            size = (size, *args) if not (args and not isinstance(args[0], (int, np.integer))) else (size,)
        try:
            dt = mstype.to_dtype(dtype).np if dtype is not None else self._data.dtype
        except TypeError:  # MindSpore's text (e.g. x.new_ones(2, 2): the second argument is the dtype)
            raise TypeError(f"{name}(): argument 'dtype' (position 2) must be mstype, not "
                            f"{type(dtype).__name__}.") from None
        return Tensor._wrap(np.full(tuple(size), fill, dt))
    method.__name__ = name
    return method


def _new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A new tensor of ``size`` filled with ``fill_value`` (this tensor's dtype unless ``dtype``).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1.0]).new_full((2,), 3))
        [3. 3.]
    """
    dt = mstype.to_dtype(dtype).np if dtype is not None else self._data.dtype
    return Tensor._wrap(np.full(tuple(size) if not isinstance(size, int) else (size,), fill_value, dt))


def _sizes(args: tuple) -> tuple:
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else tuple(args)


#: the operators attach() sets with the engine core's C path: ops.add itself for ``+``, and so on
OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
             "__neg__", "sum")

METHODS: Dict[str, Callable] = {
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
    "max": _extreme("amax", "max"),
    "min": _extreme("amin", "min"),
    "reshape": lambda self, *shape: F.reshape(self, _shape_from_args(shape)),
    "view": _view,
    "flatten": _flatten,
    "transpose": _transpose,
    "T": property(lambda self: F.transpose(self, tuple(reversed(range(self.ndim))))),
    "astype": lambda self, dtype, copy=True: F.cast(self, mstype.to_dtype(dtype)),
    "contiguous": _contiguous,
    "permute": lambda self, *dims: F.transpose(self, _sizes(dims)),
    "expand": lambda self, *size: F.expand(self, _sizes(size)),
    "expand_as": lambda self, x: F.broadcast_to(self, x.shape),
    "repeat": lambda self, *repeats: F.tile(self, _sizes(repeats)),
    "to": _to,
    "float": _cast_to(mstype.float32),
    "half": _cast_to(mstype.float16),
    "bfloat16": _cast_to(mstype.bfloat16),
    "double": _cast_to(mstype.float64),
    "int": _cast_to(mstype.int32),
    "long": _cast_to(mstype.int64),
    "bool": _cast_to(mstype.bool_),
    "type": _type,
    "type_as": lambda self, other: F.cast(self, other.dtype),
    "fill": _fill,
    "fill_": lambda self, value: _write(self, value._data if isinstance(value, Tensor) else value, "fill_"),
    "zero_": lambda self: _write(self, 0, "zero_"),
    "copy_": _copy_,
    "new_zeros": _new("new_zeros", 0),
    "new_ones": _new("new_ones", 1),
    "new_full": _new_full,
    "clone": lambda self: F.identity(self, copy=True),
    "dim": lambda self: self.ndim,
    "nelement": lambda self: self.size,
}


def attach(rules: Dict[str, Any]) -> None:
    """Set the operators and methods above on :class:`Tensor` (after the table's).

    ``x + y`` is ``ops.add`` itself (its C path for float operands, see :mod:`mskernel.ops.math`) and
    ``2 + x`` its reflected form; ``-x`` and ``x.sum()`` take the engine core's C path with the table's
    ``neg`` rule (``rules``: the table's rules by op name) and reductions.py's ``SUM`` rule, and everything
    else goes to the Python method.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.ops.registry import OPS
        >>> attach({op.name: op.rule for op in OPS}); print(ms.Tensor([1.0]) + 1, 1 - ms.Tensor([1.0]))
        [2.] [0.]
    """

    for name, fn in METHODS.items():
        if callable(fn) and getattr(fn, "__name__", "") == "<lambda>":
            fn.__name__ = fn.__qualname__ = name
        setattr(Tensor, name, fn)
    c = cengine()
    for name, op, ufunc in (("add", math.add, np.add), ("sub", math.sub, np.subtract), ("mul", math.mul, np.multiply),
                            ("truediv", math.div, np.true_divide)):
        setattr(Tensor, f"__{name}__", op)
        setattr(Tensor, f"__r{name}__", c.Binop(op.__name__, ufunc, op.__wrapped__, op.rule, reflected=True))
    Tensor.__neg__ = c.Binop("neg", np.negative, METHODS["__neg__"], rules["neg"], unary=True)  # type: ignore[method-assign]
    Tensor.sum = c.Binop("sum", np.add.reduce, METHODS["sum"], reductions.SUM,  # type: ignore[method-assign]
                         reduce_all=True)  # x.sum() only; any argument goes to the method
