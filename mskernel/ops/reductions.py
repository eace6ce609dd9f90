"""Reductions (sum, mean, max, min) with their backward rules.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(ops.sum(x, 1), ops.mean(x), ops.amax(x, 0))
    [3. 7.] 2.5 [3. 4.]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.broadcast import add_reduce
from mskernel.autograd.node import STATE, _record1, _record_rule
from mskernel.autograd.rule import rule
from mskernel._accel import cengine
from mskernel.ops._core import check_tensor, normalize_axis
from mskernel.ops.shape import broadcast_to, reshape
from mskernel.common.tensor import Tensor

__all__ = ["SUM", "sum", "mean", "amax", "amin", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min"]

_spread = cengine().spread  # spread(a, shape): a 0-d array's one value as a stride-0 view of that shape


def _kept_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _reduce_axes(axis: Any, x: Tensor, op: str) -> tuple:
    """The axes to reduce; a 0-d tensor accepts axis 0 or -1 (as MindSpore) and has none to reduce."""
    if axis is None:  # every axis (the common case: x.sum(), x.mean())
        return tuple(range(x._data.ndim))
    axes = normalize_axis(axis, x.ndim, op)
    return axes if x.ndim else ()


def _expand(g: Tensor, input_shape: tuple, dim: tuple, keepdim: bool) -> Tensor:
    """Broadcast a reduction's output gradient ``g`` back over the reduced axes ``dim`` of ``input_shape`` (a
    zero-copy view; recorded through the differentiable ops when the backward itself is recorded). The sum's
    rule is this function: its parameters name what it reads."""
    if STATE.enabled and g._rg:  # recorded (higher-order): go through the differentiable ops
        if not keepdim:
            g = reshape(g, _kept_shape(input_shape, dim))
        return broadcast_to(g, input_shape)
    a = g._data
    if a.ndim == 0:  # full reduction: a stride-0 view of the one value
        return Tensor._wrap(_spread(a, input_shape))
    if not keepdim:
        a = a.reshape(_kept_shape(input_shape, dim))
    return Tensor._wrap(np.broadcast_to(a, input_shape))


# the gradient of a sum spreads back over the summed axes; it reads only the input's shape
SUM = rule("ReduceSum", ("input",), (_expand,), attrs=("dim", "keepdim"))


def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum over ``dim`` (all dimensions when None), MindSpore's ``ops.sum``.

    ``x.sum()`` without arguments on a float tensor is computed and recorded by the engine core with
    the same rule (``SUM``).

    Example:
        >>> import mskernel as ms
        >>> print(sum(ms.Tensor([[1, 2], [3, 4]]), dim=0))
        [4 6]
    """
    x = check_tensor(input, "ReduceSum", "input")
    axes = _reduce_axes(dim, x, "ReduceSum")
    if dtype is not None:
        from mskernel.ops.shape import cast
        x = cast(x, mstype.to_dtype(dtype))
    data = x._data
    if data.dtype == np.bool_:
        data = data.astype(np.int64)
    out = Tensor._wrap(np.asarray(add_reduce(data, axes, keepdim)))
    if STATE.enabled and x._rg:
        _record_rule(SUM, (x,), out, (axes, keepdim))
    return out


def reduce_sum(x: Any, axis: Any = (), keep_dims: bool = False) -> Tensor:
    """``ReduceSum(keep_dims)(x, axis)``: sum over ``axis`` (all when empty).

    Example:
        >>> import mskernel as ms
        >>> print(reduce_sum(ms.Tensor([1.0, 2.0])))
        3.0
    """
    return sum(x, axis, keep_dims)


def mean(input: Any, axis: Any = None, keep_dims: bool = False) -> Tensor:
    """Arithmetic mean over ``axis`` (all when None); integer inputs keep their dtype, as MindSpore's.

    Example:
        >>> import mskernel as ms
        >>> print(mean(ms.Tensor([1.0, 2.0, 6.0])))
        3.0
    """
    x = check_tensor(input, "ReduceMean", "input")
    axes = _reduce_axes(axis, x, "ReduceMean")
    if x._data.dtype.kind not in "fc":  # MindSpore keeps the integer dtype (the mean truncated toward zero)
        avg = np.mean(x._data, axis=axes, keepdims=keep_dims, dtype=np.float64)
        return Tensor._wrap(np.asarray(np.trunc(avg)).astype(x._data.dtype if x._data.dtype != np.bool_ else np.int64))
    n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    out = Tensor._wrap(np.asarray(np.mean(x._data, axis=axes, keepdims=keep_dims)))
    if STATE.enabled and x._rg:
        shape = x.shape
        _record1("ReduceMean", (x,), out, lambda d: (_expand(d[0], shape, axes, keep_dims) / n,))
    return out


def reduce_mean(x: Any, axis: Any = (), keep_dims: bool = False) -> Tensor:
    """``ReduceMean(keep_dims)(x, axis)``."""
    return mean(x, axis, keep_dims)


def _extreme(op: str, fn, input: Any, axis: Any, keepdims: bool) -> Tensor:
    x = check_tensor(input, op, "input")
    if x.size == 0:
        raise ValueError(f"For '{op}', the input is empty (shape {list(x.shape)}); it has no {op[6:].lower()}.")
    axes = _reduce_axes(axis, x, op)
    out = Tensor._wrap(np.asarray(fn(x._data, axis=axes, keepdims=keepdims)))
    if STATE.enabled and x._rg:
        xa, oa = x._data, out._data  # the arrays the op read and wrote (an in-place write later gives a new one)

        def backward(d):
            # ties share the gradient evenly (MindSpore's _min_or_max_grad)
            kept = oa if keepdims else oa.reshape(_kept_shape(xa.shape, axes))
            # a NaN result came from the NaNs: they share its gradient
            ind = ((xa == kept) | (np.isnan(xa) & np.isnan(kept))).astype(d[0]._data.dtype)
            ind /= ind.sum(axis=axes, keepdims=True)
            return (_expand(d[0], xa.shape, axes, keepdims) * Tensor._wrap(ind),)
        _record1(op, (x,), out, backward)
    return out


def amax(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Maximum over ``axis`` (all when None); ties share the gradient.

    Example:
        >>> import mskernel as ms
        >>> print(amax(ms.Tensor([[1.0, 5.0], [3.0, 2.0]]), 1))
        [5. 3.]
    """
    return _extreme("ReduceMax", np.max, input, axis, keepdims)


def amin(input: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Minimum over ``axis`` (all when None); ties share the gradient.

    Example:
        >>> import mskernel as ms
        >>> print(amin(ms.Tensor([1.0, -5.0])))
        -5.0
    """
    return _extreme("ReduceMin", np.min, input, axis, keepdims)


def reduce_max(x: Any, axis: Any = (), keep_dims: bool = False) -> Tensor:
    """``ReduceMax(keep_dims)(x, axis)``."""
    return amax(x, axis, keep_dims)


def reduce_min(x: Any, axis: Any = (), keep_dims: bool = False) -> Tensor:
    """``ReduceMin(keep_dims)(x, axis)``."""
    return amin(x, axis, keep_dims)

