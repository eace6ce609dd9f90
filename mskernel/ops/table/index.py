"""Op table: indexing — select (where), gather and its variants, index_select, masked_fill/select, the scatters,
one_hot, nonzero (sorting, top-k and counting: :mod:`.ordering`).

Every op that *reads* elements by position is a gather by an index map (:func:`rearrange.gather_map`): the
same numpy indexing applied to an array of positions gives the map, so the values and every gradient order
come from that one pair. Every op that *writes* elements by position adds a scatter of the updates
(``_scatter_map``) to the input with the written positions masked out. Indices are Int32 from topk, sort and
argsort (:mod:`.ordering`), Int64 from nonzero and searchsorted, as MindSpore 2.10 gives them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    >>> print(ops.gather(x, ms.Tensor([2, 0]), 1))
    [[2. 1.]
     [6. 3.]]
    >>> print(ms.grad(lambda a: ops.gather(a, ms.Tensor([1, 1]), 1).sum())(x))
    [[0. 2. 0.]
     [0. 2. 0.]]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import check_tensor, normalize_axis
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.rearrange import _index, gather_map


def _ints(indices: Any, op: str, arg: str) -> np.ndarray:
    a = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    if a.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', the '{arg}' must be a Tensor of int32 or int64, but got "
                        f"{mstype.to_dtype(a.dtype) if a.dtype.kind in 'fb' else a.dtype}.")
    return a.astype(np.int64)


def _in_range(idx: np.ndarray, n: int, op: str, arg: str) -> np.ndarray:
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise RuntimeError(f"For '{op}', the '{arg}' should be in the range [0, {n}), but got {int(idx[bad][0])}.")
    return idx % n if n else idx


def _axis1(axis: Any, ndim: int, op: str) -> int:
    return normalize_axis(int(axis), ndim, op)[0] if ndim else 0


def gather(input_params: Any, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Slices of ``input_params`` along ``axis`` at ``input_indices`` (MindSpore's ``ops.gather``).

    Example:
        >>> import mskernel as ms
        >>> print(gather(ms.Tensor([[1, 2], [3, 4], [5, 6]]), ms.Tensor([2, 0]), 0))
        [[5 6]
         [1 2]]
    """
    x = check_tensor(input_params, "Gather", "input_params")
    ax = _axis1(axis, x.ndim, "Gather")
    idx = _in_range(_ints(input_indices, "Gather", "input_indices"), x.shape[ax], "Gather", "input_indices")
    pos = _index(x.shape)
    if batch_dims:
        b = int(batch_dims) % (idx.ndim + 1)
        lead = pos.shape[:b]
        flat_pos = pos.reshape((-1,) + pos.shape[b:])
        flat_idx = idx.reshape((-1,) + idx.shape[b:])
        picked = np.stack([np.take(p, i, axis=ax - b) for p, i in zip(flat_pos, flat_idx)])
        return gather_map(x, picked.reshape(lead + picked.shape[1:]))
    return gather_map(x, np.take(pos, idx, axis=ax))


def gather_elements(input: Any, dim: int, index: Any) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` along ``dim`` (torch's gather).

    Example:
        >>> import mskernel as ms
        >>> print(gather_elements(ms.Tensor([[1, 2], [3, 4]]), 1, ms.Tensor([[1, 1], [0, 1]])))
        [[2 2]
         [3 4]]
    """
    x = check_tensor(input, "GatherD", "input")
    ax = _axis1(dim, x.ndim, "GatherD")
    idx = _in_range(_ints(index, "GatherD", "index"), x.shape[ax], "GatherD", "index")
    return gather_map(x, np.take_along_axis(_index(x.shape), idx, axis=ax))


def gather_nd(input_x: Any, indices: Any) -> Tensor:
    """Elements (or slices) of ``input_x`` at the coordinates in the last axis of ``indices``.

    Example:
        >>> import mskernel as ms
        >>> print(gather_nd(ms.Tensor([[1, 2], [3, 4]]), ms.Tensor([[0, 1], [1, 0]])))
        [2 3]
    """
    x = check_tensor(input_x, "GatherNd", "input_x")
    idx = _ints(indices, "GatherNd", "indices")
    k = idx.shape[-1]
    coords = tuple(_in_range(idx[..., i], x.shape[i], "GatherNd", "indices") for i in range(k))
    return gather_map(x, _index(x.shape)[coords])


def index_select(input: Any, axis: int, index: Any) -> Tensor:
    """The slices of ``input`` along ``axis`` at the 1-D ``index``.

    Example:
        >>> import mskernel as ms
        >>> print(index_select(ms.Tensor([[1, 2], [3, 4]]), 1, ms.Tensor([1])))
        [[2]
         [4]]
    """
    x = check_tensor(input, "index_select", "input")
    ax = _axis1(axis, x.ndim, "index_select")
    idx = _in_range(_ints(index, "index_select", "index"), x.shape[ax], "index_select", "index")
    return gather_map(x, np.take(_index(x.shape), idx.reshape(-1), axis=ax))


def _mask(mask: Any, shape: tuple, op: str) -> np.ndarray:
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        raise TypeError(f"For '{op}', the 'mask' must be a bool Tensor, but got {mstype.to_dtype(m.dtype)}.")
    return np.broadcast_to(m, np.broadcast_shapes(m.shape, shape))


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    """``value`` where ``mask`` is True, ``input_x`` elsewhere (``mask`` broadcasts).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0, 3.0])
        >>> print(masked_fill(x, x > 1.5, 0.0))
        [1. 0. 0.]
    """
    x = check_tensor(input_x, "MaskedFill", "input_x")
    m = Tensor._wrap(np.ascontiguousarray(_mask(mask, x.shape, "MaskedFill")))
    v = value if isinstance(value, Tensor) else Tensor._wrap(np.asarray(value, x._data.dtype))
    if v.dtype != x.dtype:
        v = F.cast(v, x.dtype)
    return M.where(m, v, x)


def masked_select(input: Any, mask: Any) -> Tensor:
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 5.0], [7.0, 2.0]])
        >>> print(masked_select(x, x > 3))
        [5. 7.]
    """
    x = check_tensor(input, "MaskedSelect", "input")
    m = _mask(mask, x.shape, "MaskedSelect")
    pos = np.broadcast_to(_index(x.shape), m.shape)
    return gather_map(x, pos[m])


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """The coordinates of the non-zero elements (Int64): an (N, ndim) tensor, or one tensor per axis.

    Example:
        >>> import mskernel as ms
        >>> print(nonzero(ms.Tensor([[0, 3], [4, 0]])))
        [[0 1]
         [1 0]]
    """
    x = check_tensor(input, "NonZero", "input")
    coords = np.nonzero(x._data)
    if as_tuple:
        return tuple(Tensor._wrap(c.astype(np.int64)) for c in coords)
    return Tensor._wrap(np.stack(coords, axis=-1).astype(np.int64).reshape(-1, max(x.ndim, 1))
                        if x.ndim else np.zeros((int(bool(x._data)), 0), np.int64))


def _scatter_into(x: Tensor, dest: np.ndarray, updates: Any, add: bool, op: str) -> Tensor:
    """``x`` with ``updates`` written (or added) at the flat positions ``dest`` (same shape as ``updates``)."""
    u = updates if isinstance(updates, Tensor) else Tensor._wrap(np.asarray(updates, x._data.dtype))
    if u.dtype != x.dtype:
        u = F.cast(u, x.dtype)
    if tuple(dest.shape) != tuple(u.shape):
        u = F.broadcast_to(u, dest.shape)
    if not add and dest.size:  # a position written twice keeps the last update, as MindSpore's
        flat = dest.reshape(-1)
        _, last_rev = np.unique(flat[::-1], return_index=True)
        if len(last_rev) != flat.size:
            last = np.zeros(flat.size, bool)
            last[flat.size - 1 - last_rev] = True
            u = F.where(Tensor._wrap(last.reshape(dest.shape)), u, F.zeros_like(u))  # not u * 0: NaN * 0 is NaN
    placed = F._scatter_map(u, dest, x.shape)
    if add:
        return x + placed
    keep = np.ones(x.size, bool)
    keep[dest.reshape(-1)] = False
    return F.where(Tensor._wrap(keep.reshape(x.shape)), x, placed)  # an overwritten NaN or inf leaves no trace


def _nd_dest(x: Tensor, idx: np.ndarray, op: str) -> np.ndarray:
    k = idx.shape[-1]
    coords = tuple(_in_range(idx[..., i], x.shape[i], op, "indices") for i in range(k))
    return _index(x.shape)[coords]


def _scatter_nd(x: Tensor, indices: Any, updates: Any, add: bool, op: str) -> Tensor:
    """``x`` with ``updates`` written (``add``: added) at ``indices``, coordinates in their last axis."""
    return _scatter_into(x, _nd_dest(x, _ints(indices, op, "indices"), op), updates, add, op)


def tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """``input_x`` with the elements (or slices) at ``indices`` (coordinates in the last axis) replaced.

    Example:
        >>> import mskernel as ms
        >>> print(tensor_scatter_update(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([[2]]), ms.Tensor([9.0])))
        [1. 2. 9.]
    """
    x = check_tensor(input_x, "TensorScatterUpdate", "input_x")
    return _scatter_nd(x, indices, updates, False, "TensorScatterUpdate")


def tensor_scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """``input_x`` with ``updates`` added at ``indices`` (repeated indices add up).

    Example:
        >>> import mskernel as ms
        >>> print(tensor_scatter_add(ms.Tensor([1.0, 2.0]), ms.Tensor([[0], [0]]), ms.Tensor([5.0, 5.0])))
        [11.  2.]
    """
    x = check_tensor(input_x, "TensorScatterAdd", "input_x")
    return _scatter_nd(x, indices, updates, True, "TensorScatterAdd")


def scatter_nd(indices: Any, updates: Any, shape: Any) -> Tensor:
    """Zeros of ``shape`` with ``updates`` added at ``indices``.

    Example:
        >>> import mskernel as ms
        >>> print(scatter_nd(ms.Tensor([[1], [1]]), ms.Tensor([2.0, 3.0]), (3,)))
        [0. 5. 0.]
    """
    u = check_tensor(updates, "ScatterNd", "updates")
    base = Tensor._wrap(np.zeros(tuple(int(s) for s in shape), u._data.dtype))
    return _scatter_nd(base, indices, u, True, "ScatterNd")


def scatter(input: Any, axis: int, index: Any, src: Any) -> Tensor:
    """``input`` with ``src[i][j]`` written at ``[i][index[i][j]]`` along ``axis`` (torch's scatter).

    Example:
        >>> import mskernel as ms
        >>> print(scatter(ms.Tensor([[0.0, 0.0, 0.0]]), 1, ms.Tensor([[2, 0]]), ms.Tensor([[1.0, 2.0]])))
        [[2. 0. 1.]]
    """
    x = check_tensor(input, "TensorScatterElements", "input")
    ax = _axis1(axis, x.ndim, "TensorScatterElements")
    idx = _in_range(_ints(index, "TensorScatterElements", "index"), x.shape[ax], "TensorScatterElements", "index")
    s = src if isinstance(src, Tensor) else Tensor._wrap(np.full(idx.shape, src, x._data.dtype))
    if s.shape != idx.shape:
        s = F.getitem(s, tuple(slice(0, n) for n in idx.shape))
    pos = _index(x.shape)
    sub = pos[tuple(slice(0, n) for n in idx.shape)]
    dest = np.take_along_axis(pos, idx, ax) if idx.shape == x.shape else _replace_axis(sub, pos, idx, ax)
    return _scatter_into(x, dest, s, False, "TensorScatterElements")


def _replace_axis(sub: np.ndarray, pos: np.ndarray, idx: np.ndarray, ax: int) -> np.ndarray:
    """Flat positions of ``[..., idx, ...]`` (along ``ax``) for an index smaller than the input."""
    coords = list(np.indices(idx.shape))
    coords[ax] = idx
    return pos[tuple(coords)]


def scatter_add(input_x: Any, indices: Any, updates: Any) -> Tensor:
    """Add ``updates`` into the rows ``indices`` of the Parameter ``input_x`` in place; return the new values.

    Example:
        >>> import mskernel as ms
        >>> p = ms.Parameter(ms.Tensor([0.0, 0.0]), name="p")
        >>> print(scatter_add(p, ms.Tensor([1, 1]), ms.Tensor([2.0, 3.0])))
        [0. 5.]
    """
    x = check_tensor(input_x, "ScatterAdd", "input_x")
    idx = _in_range(_ints(indices, "ScatterAdd", "indices"), x.shape[0], "ScatterAdd", "indices")
    u = updates._data if isinstance(updates, Tensor) else np.asarray(updates)
    np.add.at(x._data, idx, u.astype(x._data.dtype))
    x._version += 1
    return Tensor._wrap(x._data.copy())  # the updated values, as a Tensor (the wheel returns one, not the Parameter)


def index_add(x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> Tensor:
    """``x`` plus ``y``'s slices added at ``indices`` along ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(index_add(ms.Tensor([[0.0], [0.0]]), ms.Tensor([1]), ms.Tensor([[4.0]]), 0))
        [[0.]
         [4.]]
    """
    t = check_tensor(x, "IndexAdd", "x")
    ax = _axis1(axis, t.ndim, "IndexAdd")
    idx = _in_range(_ints(indices, "IndexAdd", "indices"), t.shape[ax], "IndexAdd", "indices")
    y_t = check_tensor(y, "IndexAdd", "y")
    coords = list(np.indices(y_t.shape))
    coords[ax] = idx.reshape((1,) * ax + (-1,) + (1,) * (y_t.ndim - ax - 1)) * np.ones_like(coords[ax])
    return _scatter_into(t, _index(t.shape)[tuple(coords)], y_t, True, "IndexAdd")


def written_into(x: Tensor, out: Tensor) -> Tensor:
    """``out`` written into ``x`` as MindSpore 2.10's IndexAdd kernel does, whichever front end calls it: ``x``
    takes the new values (a leaf being differentiated too, which stays the leaf it was: the gradient is the
    functional op's), and the result shares ``x``'s memory.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); out = written_into(x, x + 1); print(x, out)
        [2. 3.] [2. 3.]
    """
    x._data[...] = out._data
    x._version += 1
    out._data = x._data
    return out


def _index_add_written(x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True,
                       check_index_bound: bool = True) -> Tensor:
    """``ops.index_add``: :func:`index_add`, written into ``x`` (a Tensor or a Parameter), as the wheel does.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[0.0], [0.0]]); out = _index_add_written(x, ms.Tensor([1]), ms.Tensor([[4.0]]), 0)
        >>> print(x.asnumpy().ravel(), out.asnumpy().ravel())
        [0. 4.] [0. 4.]
    """
    t = check_tensor(x, "IndexAdd", "x")
    return written_into(t, index_add(t, indices, y, axis, use_lock, check_index_bound))


def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0, axis: int = -1) -> Tensor:
    """A one-hot encoding of ``indices`` over ``depth`` classes along a new ``axis`` (an index outside
    [0, depth) gives a row of ``off_value``).

    Example:
        >>> import mskernel as ms
        >>> print(one_hot(ms.Tensor([0, 2]), 3))
        [[1 0 0]
         [0 0 1]]
    """
    idx = _ints(indices, "OneHot", "indices")
    on = on_value._data if isinstance(on_value, Tensor) else np.asarray(on_value)
    off = off_value._data if isinstance(off_value, Tensor) else np.asarray(off_value)
    dt = on.dtype if isinstance(on_value, Tensor) else np.result_type(on, off)
    dt = np.dtype(np.int64) if dt.kind in "iu" and not isinstance(on_value, Tensor) else dt
    if int(depth) < 0:
        raise ValueError(f"For 'OneHot', the 'depth' must be non-negative, but got {depth}.")
    hot = np.expand_dims(idx, -1) == np.arange(int(depth))
    out = np.where(hot, on, off).astype(dt)
    if axis != -1:
        out = np.moveaxis(out, -1, axis)
    return Tensor._wrap(np.ascontiguousarray(out))


def _where_method(self: Tensor, condition: Any, y: Any) -> Tensor:
    """``Tensor.where(condition, y)``: this tensor where ``condition`` holds, ``y`` elsewhere.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 5.0]); print(x.where(x > 2, 0.0))
        [0. 5.]
    """
    return M.where(condition, self, y)


OPS: List[Op] = [
    Op("where", "condition, input, other", fn=M.where, inputs=3, prim="Select", aliases=("select",)),
    Op("gather", "input_params, input_indices, axis, batch_dims=0", fn=gather, method=True,
       prim="Gather(batch_dims=0)(input_params, input_indices, axis) -> input_params, input_indices, axis, "
            "batch_dims"),
    Op("gather_elements", "input, dim, index", fn=gather_elements, method=True,
       prim="GatherD()(x, dim, index) -> x, dim, index"),
    Op("gather_nd", "input_x, indices", fn=gather_nd, prim="GatherNd()(input_x, indices) -> input_x, indices"),
    Op("index_select", "input, axis, index", fn=index_select, method=True),
    Op("masked_fill", "input_x, mask, value", fn=masked_fill, method=True, inplace=True,
       prim="MaskedFill()(input, mask, value) -> input, mask, value"),
    Op("masked_select", "input, mask", fn=masked_select, method=True,
       prim="MaskedSelect()(x, mask) -> x, mask"),
    Op("nonzero", "input, *, as_tuple=False", fn=nonzero, method=True, prim="NonZero()(x) -> x"),
    Op("tensor_scatter_update", "input_x, indices, updates", fn=tensor_scatter_update,
       prim="TensorScatterUpdate()(input_x, indices, updates) -> input_x, indices, updates"),
    Op("tensor_scatter_add", "input_x, indices, updates", fn=tensor_scatter_add,
       prim="TensorScatterAdd()(input_x, indices, updates) -> input_x, indices, updates"),
    Op("scatter_nd", "indices, updates, shape", fn=scatter_nd, inputs=0,
       prim="ScatterNd()(indices, updates, shape) -> indices, updates, shape"),
    Op("scatter", "input, axis, index, src", fn=scatter, method=True),
    Op("scatter_add", "input_x, indices, updates", fn=scatter_add,
       prim="ScatterAdd(use_locking=False)(input_x, indices, updates) -> input_x, indices, updates"),
    Op("index_add", "x, indices, y, axis, use_lock=True, check_index_bound=True", fn=_index_add_written),
    Op("one_hot", "indices, depth, on_value=1, off_value=0, axis=-1", fn=one_hot, inputs=0,
       prim="OneHot(axis=-1)(indices, depth, on_value, off_value) -> indices, depth, on_value, off_value, axis"),
]

def _setitem(self: Tensor, index: Any, value: Any) -> None:
    """``t[index] = value``: in place; under ``grad`` the assignment is recorded (the overwritten elements get
    no gradient, ``value`` gets theirs), and a leaf that requires grad cannot be assigned, as in MindSpore.

    Example:
        >>> import mskernel as ms
        >>> f = lambda a: (lambda b: (b.__setitem__(0, 0.0), b.sum())[1])(a * 2)
        >>> print(ms.grad(f)(ms.Tensor([1.0, 1.0])))
        [0. 2.]
    """
    from mskernel.ops.alias import copy_on_write
    from mskernel.ops.inplace import inplace_update
    if isinstance(index, Tensor):
        index = index._data
    elif isinstance(index, tuple):
        index = tuple(i._data if isinstance(i, Tensor) else i for i in index)
    if not copy_on_write(self):
        self._data[index] = value._data if isinstance(value, Tensor) else value
        self._version += 1
        return
    dest = np.asarray(_index(self.shape)[index])
    inplace_update(self, _scatter_into(self, dest, value, False, "__setitem__"), "__setitem__")


def _gather_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.gather(input_indices, axis, batch_dims=0)``, or torch's ``x.gather(dim, index)`` (gather_elements),
    both of which MindSpore's Tensor takes.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.gather(ms.Tensor([1]), 0), x.gather(1, ms.Tensor([[1], [0]])))
        [[3. 4.]] [[2.]
         [3.]]
    """
    if args and isinstance(args[0], (int, np.integer)) and not isinstance(args[0], bool) and \
            ((len(args) > 1 and isinstance(args[1], Tensor)) or "index" in kwargs):
        return gather_elements(self, args[0], args[1] if len(args) > 1 else kwargs["index"])
    return gather(self, *args, **kwargs)


METHODS = {"where": _where_method, "__setitem__": _setitem, "gather": _gather_method}

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "Select": ("ops.Select()(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))", "[1. 4.]"),
    "Gather": ("ops.Gather()(ms.Tensor([[1, 2], [3, 4], [5, 6]]), ms.Tensor([2, 0]), 0)", "[[5 6]\n [1 2]]"),
    "GatherD": ("ops.GatherD()(ms.Tensor([[1, 2], [3, 4]]), 1, ms.Tensor([[1, 0], [0, 0]]))", "[[2 1]\n [3 3]]"),
    "GatherNd": ("ops.GatherNd()(ms.Tensor([[1, 2], [3, 4]]), ms.Tensor([[0, 1], [1, 0]]))", "[2 3]"),
    "MaskedFill": ("ops.MaskedFill()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([True, False, True]), ms.Tensor(0.0))",
                   "[0. 2. 0.]"),
    "MaskedSelect": ("ops.MaskedSelect()(ms.Tensor([1, 2, 3]), ms.Tensor([True, False, True]))", "[1 3]"),
    "NonZero": ("ops.NonZero()(ms.Tensor([[0, 1], [2, 0]]))", "[[0 1]\n [1 0]]"),
    "TensorScatterUpdate": ("x, updates = ms.Tensor([0.0, 0.0, 0.0]), ms.Tensor([5.0, 7.0])",
                            "ops.TensorScatterUpdate()(x, ms.Tensor([[2], [0]]), updates)",
                            "[7. 0. 5.]"),
    "TensorScatterAdd": ("x, updates = ms.Tensor([1.0, 1.0, 1.0]), ms.Tensor([5.0, 7.0])",
                         "ops.TensorScatterAdd()(x, ms.Tensor([[2], [2]]), updates)",
                         "[ 1.  1. 13.]"),
    "ScatterNd": ("ops.ScatterNd()(ms.Tensor([[1], [3]]), ms.Tensor([5.0, 7.0]), (4,))", "[0. 5. 0. 7.]"),
    "ScatterAdd": ("p = ms.Parameter(ms.Tensor([0.0, 0.0, 0.0]), name='p')",
                   "ops.ScatterAdd()(p, ms.Tensor([0, 2, 0]), ms.Tensor([1.0, 2.0, 3.0]))",
                   "[4. 0. 2.]"),
    "OneHot": ("ops.OneHot()(ms.Tensor([0, 2]), 3, ms.Tensor(1.0), ms.Tensor(0.0))", "[[1. 0. 0.]\n [0. 0. 1.]]"),
}
