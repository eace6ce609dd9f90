"""Shape, layout, indexing and dtype ops, each with its backward rule.

Views stay views: ``reshape`` of a contiguous tensor, ``transpose``, ``broadcast_to`` and basic
indexing share memory with their input, as in numpy.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0]])
    >>> ops.transpose(x, (1, 0)).shape, ops.reshape(x, (3,)).shape
    ((3, 1), (3,))
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.broadcast import expand_to, sum_to
from mskernel.autograd.node import STATE, _record1, record
from mskernel.ops.alias import link_view
from mskernel.ops._core import check_tensor, normalize_axis
from mskernel.common.tensor import Tensor, _unwrap_index

__all__ = ["reshape", "transpose", "swapaxes", "broadcast_to", "expand_dims", "squeeze", "concat", "cat", "stack",
           "getitem", "zeros_like", "ones_like", "zeros", "ones", "cast", "identity", "stop_gradient", "sum_to",
           "flatten", "fill"]


def _shape_arg(shape: Any, op: str) -> Tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._data.reshape(-1))
    if isinstance(shape, (tuple, list)) and all(isinstance(s, (int, np.integer)) and not isinstance(s, bool)
                                                  for s in shape):
        return tuple(int(s) for s in shape)
    raise TypeError(f"For '{op}', the 'shape' must be a tuple or list of ints, but got {shape!r}.")


def reshape(input: Any, shape: Any) -> Tensor:
    """The same values in a new shape (one dimension may be -1).

    Example:
        >>> import mskernel as ms
        >>> reshape(ms.Tensor([1, 2, 3, 4]), (2, -1)).shape
        (2, 2)
    """
    x = check_tensor(input, "Reshape", "input")
    shp = _shape_arg(shape, "Reshape")
    try:
        out = Tensor._wrap(x._data.reshape(shp))
    except ValueError:
        raise ValueError(f"For 'Reshape', the shape {list(x.shape)} ({x.size} elements) cannot be reshaped to "
                         f"{list(shp)}.") from None
    if STATE.enabled and x._rg:
        xs = x.shape  # the rule keeps the shape, not the input's data
        _record1("Reshape", (x,), out, lambda d: (d[0].reshape(xs),))
    if out._data.base is not None:  # a view of x's memory: a write into either is seen by the other
        link_view(x, out, lambda b: reshape(b, shp))
    return out


def flatten(input: Any, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> Tensor:
    """Merge dimensions ``start_dim..end_dim`` into one (MindSpore's ``ops.flatten`` keeps the first axis by
    default; ``order`` 'F' flattens column-major).

    Example:
        >>> import mskernel as ms
        >>> flatten(ms.Tensor(np.zeros((2, 3, 4)))).shape, flatten(ms.Tensor(np.zeros((2, 3, 4))), start_dim=0).shape
        ((2, 12), (24,))
    """
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    x = check_tensor(input, "Flatten", "input")
    if order == "F":
        x = transpose(x, tuple(reversed(range(x.ndim))))
    if x.ndim == 0:
        return reshape(x, (1,))
    s, e = start_dim % x.ndim, end_dim % x.ndim
    shp = x.shape[:s] + (-1,) + x.shape[e + 1:]
    return reshape(x, shp)


def transpose(input: Any, input_perm: Sequence[int]) -> Tensor:
    """Permute dimensions (a strided view).

    Example:
        >>> import mskernel as ms
        >>> transpose(ms.Tensor(np.zeros((2, 3))), (1, 0)).shape
        (3, 2)
    """
    x = check_tensor(input, "Transpose", "input")
    perm = tuple(int(p) for p in input_perm)
    if sorted(p % x.ndim if x.ndim else p for p in perm) != list(range(x.ndim)):
        raise ValueError(f"For 'Transpose', 'input_perm' must be a permutation of range({x.ndim}), but got "
                         f"{list(perm)}.")
    perm = tuple(p % x.ndim for p in perm)
    out = Tensor._wrap(x._data.transpose(perm))
    if STATE.enabled and x._rg:
        inv = tuple(np.argsort(perm))
        _record1("Transpose", (x,), out, lambda d: (transpose(d[0], inv),))
    link_view(x, out, lambda b: transpose(b, perm))  # a view of x's memory
    return out


def swapaxes(input: Any, axis0: int, axis1: int) -> Tensor:
    """Exchange two dimensions.

    Example:
        >>> import mskernel as ms
        >>> swapaxes(ms.Tensor(np.zeros((2, 3, 4))), 0, 2).shape
        (4, 3, 2)
    """
    x = check_tensor(input, "Swapaxes", "input")
    perm = list(range(x.ndim))
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return transpose(x, perm)


def broadcast_to(input: Any, shape: Any) -> Tensor:
    """Broadcast to ``shape`` (a read-only view; -1 keeps a dimension).

    Example:
        >>> import mskernel as ms
        >>> print(broadcast_to(ms.Tensor([1.0, 2.0]), (2, 2)))
        [[1. 2.]
         [1. 2.]]
    """
    x = check_tensor(input, "BroadcastTo", "input")
    shp = list(_shape_arg(shape, "BroadcastTo"))
    off = len(shp) - x.ndim
    for i, s in enumerate(shp):
        if s == -1:
            if i < off:
                raise ValueError(f"For 'BroadcastTo', -1 is only allowed for existing dimensions, got {shape}.")
            shp[i] = x.shape[i - off]
    try:
        return expand_to(x, tuple(shp))
    except ValueError:
        raise ValueError(f"For 'BroadcastTo', the shape {list(x.shape)} cannot broadcast to {shp}.") from None


def expand_dims(input_x: Any, axis: int) -> Tensor:
    """Insert a dimension of size 1 at ``axis``.

    Example:
        >>> import mskernel as ms
        >>> expand_dims(ms.Tensor([1, 2]), 0).shape
        (1, 2)
    """
    x = check_tensor(input_x, "ExpandDims", "input_x")
    if not isinstance(axis, (int, np.integer)) or not -x.ndim - 1 <= axis <= x.ndim:
        raise ValueError(f"For 'ExpandDims', 'axis' must be an int in [{-x.ndim - 1}, {x.ndim}], but got {axis!r}.")
    return reshape(x, np.expand_dims(np.empty(x.shape, np.bool_), int(axis)).shape)


def squeeze(input: Any, axis: Any = None) -> Tensor:
    """Remove dimensions of size 1 (all, or those in ``axis``).

    Example:
        >>> import mskernel as ms
        >>> squeeze(ms.Tensor(np.zeros((1, 2, 1)))).shape
        (2,)
    """
    x = check_tensor(input, "Squeeze", "input")
    if axis is None or axis == ():
        shp = tuple(s for s in x.shape if s != 1)
    else:
        axes = normalize_axis(axis, x.ndim, "Squeeze")
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError(f"For 'Squeeze', the dimension {a} to squeeze must have size 1, but the shape is "
                                 f"{list(x.shape)}.")
        shp = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    return reshape(x, shp)


def _tensor_list(tensors: Any, op: str) -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{op}', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{type(tensors).__name__}.")
    ts = [check_tensor(t, op, f"tensors[{i}]") for i, t in enumerate(tensors)]
    dt = ts[0]._data.dtype
    for i, t in enumerate(ts):
        if t._data.dtype != dt:
            raise TypeError(f"For '{op}', all tensors must have the same dtype, but tensors[0] is {ts[0].dtype} "
                            f"and tensors[{i}] is {t.dtype}.")
    return ts


def concat(tensors: Any, axis: int = 0) -> Tensor:
    """Join tensors along an existing axis.

    Example:
        >>> import mskernel as ms
        >>> print(concat((ms.Tensor([1.0]), ms.Tensor([2.0, 3.0]))))
        [1. 2. 3.]
    """
    ts = _tensor_list(tensors, "Concat")
    ax = normalize_axis(axis, ts[0].ndim, "Concat")[0]
    return _join("Concat", ts, ax, new_axis=False)


def _join(op: str, ts: list, ax: int, new_axis: bool) -> Tensor:
    """The tensors ``ts`` joined along ``ax``, an existing axis (concat) or a new one (stack), recorded: the
    gradient of each input is the output's gradient at its place in that axis (a slice, or an index)."""
    try:
        out = Tensor._wrap((np.stack if new_axis else np.concatenate)([t._data for t in ts], axis=ax))
    except ValueError:
        if not new_axis and len({t.ndim for t in ts}) > 1:  # MindSpore's words for tensors of different ranks
            raise ValueError(f"For '{op}', element rank must be same(shapes are {[list(t.shape) for t in ts]})!") \
                from None
        rule = "" if new_axis else f" except along axis {ax}"
        raise ValueError(f"For '{op}', all tensors must have the same shape{rule}, but got "
                         f"{[list(t.shape) for t in ts]}.") from None
    if STATE.enabled and any(t._rg for t in ts):
        rgs = [t._rg for t in ts]  # the rule keeps flags, not the inputs' data
        if new_axis:
            at: list = list(range(len(ts)))
        else:
            bounds = np.cumsum([0] + [t.shape[ax] for t in ts])
            at = [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]

        def backward(d):
            pre = (slice(None),) * ax
            return tuple(getitem(d[0], pre + (place,)) if rg else None for rg, place in zip(rgs, at))
        record(op, ts, (out,), backward)
    return out


cat = concat


def stack(tensors: Any, axis: int = 0) -> Tensor:
    """Join tensors along a new axis.

    Example:
        >>> import mskernel as ms
        >>> stack([ms.Tensor([1, 2]), ms.Tensor([3, 4])], axis=1).shape
        (2, 2)
    """
    ts = _tensor_list(tensors, "Stack")
    nd = ts[0].ndim + 1
    if not -nd <= axis < nd:
        raise ValueError(f"For 'Stack', 'axis' must be in [{-nd}, {nd - 1}], but got {axis}.")
    return _join("Stack", ts, axis % nd, new_axis=True)


def getitem(input: Tensor, index: Any) -> Tensor:
    """Indexing as in numpy: basic indexing gives a strided zero-copy view; differentiable.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(getitem(x, (slice(None), 1)))
        [2. 4.]
    """
    x = input
    idx = _unwrap_index(index)
    try:
        out = Tensor._wrap(x._data[idx])
    except IndexError as e:
        raise IndexError(f"For 'Getitem', index {index!r} is out of range for shape {list(x.shape)}: {e}") from None
    if not isinstance(out._data, np.ndarray):  # numpy returned a scalar for a full integer index
        out._data = np.asarray(out._data)
    if STATE.enabled and x._rg:
        xs = x.shape
        _record1("Getitem", (x,), out, lambda d: (_index_scatter(d[0], xs, idx),))
    if _is_basic(idx) and out._data.base is not None:  # basic indexing: a view of x's memory
        link_view(x, out, lambda b: getitem(b, index))
    return out


def _is_basic(idx: Any) -> bool:
    items = idx if isinstance(idx, tuple) else (idx,)
    return all(isinstance(i, (int, np.integer, slice)) or i is None or i is Ellipsis for i in items)


def _index_scatter(d: Tensor, shape: Tuple[int, ...], idx: Any) -> Tensor:
    """Zeros of ``shape`` with ``d`` added at ``idx`` (the gradient of indexing)."""
    z = np.zeros(shape, d._data.dtype)
    if _is_basic(idx):
        z[idx] = d._data
    else:
        np.add.at(z, idx, d._data)
    out = Tensor._wrap(z)
    if STATE.enabled and d._rg:
        _record1("IndexScatter", (d,), out, lambda dd: (getitem(dd[0], idx),))
    return out


def zeros_like(input: Any, *, dtype: Any = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``input``; no gradient flows.

    Example:
        >>> import mskernel as ms
        >>> print(zeros_like(ms.Tensor([1.0, 2.0])))
        [0. 0.]
    """
    x = check_tensor(input, "ZerosLike", "input")
    return Tensor._wrap(np.zeros(x.shape, x._data.dtype if dtype is None else mstype.to_dtype(dtype).np))


def ones_like(input: Any, *, dtype: Any = None) -> Tensor:
    """Ones with the shape (and dtype) of ``input``; no gradient flows.

    Example:
        >>> import mskernel as ms
        >>> print(ones_like(ms.Tensor([[1, 2]])))
        [[1 1]]
    """
    x = check_tensor(input, "OnesLike", "input")
    return Tensor._wrap(np.ones(x.shape, x._data.dtype if dtype is None else mstype.to_dtype(dtype).np))


def zeros(size: Any, dtype: Any = None) -> Tensor:
    """A new tensor of zeros (Float32 by default).

    Example:
        >>> zeros((2,)).dtype
        mindspore.float32
    """
    return Tensor._wrap(np.zeros(_shape_arg(size, "Zeros"), mstype.to_dtype(dtype or mstype.float32).np))


def ones(shape: Any, dtype: Any = None) -> Tensor:
    """A new tensor of ones (Float32 by default).

    Example:
        >>> print(ones((2,)))
        [1. 1.]
    """
    return Tensor._wrap(np.ones(_shape_arg(shape, "Ones"), mstype.to_dtype(dtype or mstype.float32).np))


def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` filled with ``value`` (MindSpore's ``ops.fill``).

    Example:
        >>> import mskernel as ms
        >>> print(fill(ms.float32, (2,), 3))
        [3. 3.]
    """
    return Tensor._wrap(np.full(_shape_arg(shape, "Fill"), value, mstype.to_dtype(type).np))


def cast(input: Any, dtype: Any) -> Tensor:
    """Convert to ``dtype``; gradients flow back (cast to the input's dtype) between float types.

    Example:
        >>> import mskernel as ms
        >>> cast(ms.Tensor([1.5]), ms.int32).dtype
        mindspore.int32
    """
    x = check_tensor(input, "Cast", "input")
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"For 'Cast', the 'dtype' must be a mindspore dtype, but got {dtype!r}.")
    if x._data.dtype == dtype.np:
        return identity(x)
    out = Tensor._wrap(x._data.astype(dtype.np))
    if STATE.enabled and x._rg and dtype.kind in "fc":
        _record1("Cast", (x,), out, lambda d: (d[0],))
    return out


def identity(input: Any, copy: bool = False) -> Tensor:
    """The same values as a new tensor (a view unless ``copy``); differentiable.

    Example:
        >>> import mskernel as ms
        >>> print(identity(ms.Tensor([1.0])))
        [1.]
    """
    x = check_tensor(input, "Identity", "input")
    out = Tensor._wrap(np.array(x._data, copy=True, order="C") if copy else x._data.view())
    if STATE.enabled and x._rg:
        _record1("Identity", (x,), out, lambda d: (d[0],))
    if not copy:  # a view of x's memory
        link_view(x, out, identity)
    return out


def stop_gradient(value: Any) -> Any:
    """The value with no gradient flowing back through it (tuples and lists element-wise).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor(3.0)
        >>> print(ms.grad(lambda a: a * stop_gradient(a))(x))
        3.0
    """
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    if isinstance(value, Tensor):
        return Tensor._wrap(value._data)
    return value
