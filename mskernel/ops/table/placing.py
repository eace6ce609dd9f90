"""Op table: ops that write a piece into a tensor at positions — select/slice/diagonal_scatter, index_fill,
index_put, masked_scatter, ``put_``, fill_diagonal, the ``inplace_{add,sub,update}`` row updates,
``inplace_index_add`` and ``ScatterAddWithAxis`` — and the readers ``take``, ``choose``, ``gather_d``, ``argwhere``.

Each is one numpy indexing of the input's position map (:func:`rearrange._index`) that names the written flat
positions, and :func:`index._scatter_into`, which writes (or adds) the piece there differentiably: the piece's
gradient is the output gradient at those positions, the input's is the rest. A position written twice keeps
the last value, as the wheel's.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.slice_scatter(ops.zeros((2, 4)), ops.ones((2, 2)), axis=1, start=0, step=2))
    [[1. 0. 1. 0.]
     [1. 0. 1. 0.]]
    >>> print(ops.index_fill(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 1, ms.Tensor([1], ms.int32), -1.0))
    [[ 1. -1.]
     [ 3. -1.]]
"""
from __future__ import annotations

import builtins
from typing import Any, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.index import _axis1, _in_range, _ints, _mask, _scatter_into, gather_elements, index_add, \
    written_into
from mskernel.ops.table.rearrange import _index, gather_map
from mskernel.ops.table.scatter import apply_at, tensor_scatter_elements


def _piece(src: Any, x: Tensor, op: str) -> Tensor:
    s = src if isinstance(src, Tensor) else Tensor._wrap(np.asarray(src, x._data.dtype))
    return check_tensor(s, op, "src")


def select_scatter(input: Any, src: Any, axis: int, index: int) -> Tensor:
    """``input`` with its slice ``index`` along ``axis`` replaced by ``src``.

    Example:
        >>> import mskernel as ms
        >>> print(select_scatter(ms.Tensor([[0.0, 0.0], [0.0, 0.0]]), ms.Tensor([1.0, 2.0]), 0, 1))
        [[0. 0.]
         [1. 2.]]
    """
    x = check_tensor(input, "SelectScatter", "input")
    ax = _axis1(axis, x.ndim, "SelectScatter")
    i = int(_in_range(np.asarray(int(index)), x.shape[ax], "SelectScatter", "index"))
    dest = np.take(_index(x.shape), i, axis=ax)
    s = _piece(src, x, "SelectScatter")
    if s.shape != dest.shape:  # the wheel's text: select_scatter is its slice_scatter of one slice
        one = lambda shape: tuple(shape[:ax]) + (1,) + tuple(shape[ax:])  # noqa: E731
        raise ValueError(f"For slice_scatter, src shape should be equal to the slice size,but got src shape "
                         f"{one(s.shape)} and slice shape {one(dest.shape)}")
    return _scatter_into(x, dest, s, False, "SelectScatter")


def slice_scatter(input: Any, src: Any, axis: int = 0, start: Optional[int] = None, end: Optional[int] = None,
                  step: int = 1) -> Tensor:
    """``input`` with its slice ``start:end:step`` along ``axis`` replaced by ``src``.

    Example:
        >>> import mskernel as ms
        >>> print(slice_scatter(ms.Tensor([0.0, 0.0, 0.0]), ms.Tensor([5.0]), start=1, end=2))
        [0. 5. 0.]
    """
    x = check_tensor(input, "SliceScatter", "input")
    ax = _axis1(axis, x.ndim, "SliceScatter")
    dest = _index(x.shape)[(builtins.slice(None),) * ax + (builtins.slice(start, end, step),)]
    s = _piece(src, x, "SliceScatter")
    if s.shape != dest.shape:
        raise ValueError(f"For 'SliceScatter', the shape of 'src' must be {list(dest.shape)}, but got "
                         f"{list(s.shape)}.")
    return _scatter_into(x, dest, s, False, "SliceScatter")


def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """``input`` with its diagonal (``offset``, between ``dim1`` and ``dim2``, last in ``src``) replaced by ``src``.

    Example:
        >>> import mskernel as ms
        >>> print(diagonal_scatter(ms.Tensor([[0.0, 0.0], [0.0, 0.0]]), ms.Tensor([1.0]), 1))
        [[0. 1.]
         [0. 0.]]
    """
    x = check_tensor(input, "DiagonalScatter", "input")
    dest = np.diagonal(_index(x.shape), int(offset), _axis1(dim1, x.ndim, "DiagonalScatter"),
                       _axis1(dim2, x.ndim, "DiagonalScatter"))
    s = _piece(src, x, "DiagonalScatter")
    if s.shape != dest.shape:
        raise ValueError(f"For diagonal_scatter, the shape of src should equal to the shape of input diagonal,but got "
                         f"src.shape {tuple(s.shape)} and diagonal shape {tuple(dest.shape)}.")
    return _scatter_into(x, dest, s, False, "DiagonalScatter")


def index_fill(x: Any, axis: int, index: Any, value: Any) -> Tensor:
    """``x`` with the slices ``index`` along ``axis`` set to the scalar ``value``.

    Example:
        >>> import mskernel as ms
        >>> print(index_fill(ms.Tensor([1.0, 2.0, 3.0]), 0, ms.Tensor([0, 2], ms.int32), ms.Tensor(9.0)))
        [9. 2. 9.]
    """
    t = check_tensor(x, "IndexFill", "x")
    ax = _axis1(axis, t.ndim, "IndexFill")
    if isinstance(index, Tensor) and index._data.dtype != np.int32:
        raise TypeError("For primitive[IndexFill], the input argument[index] must be a type of {Tensor[Int32]}, but "
                        f"got Tensor[{index.dtype}].")
    idx = _ints(index, "IndexFill", "index").reshape(-1)
    n = t.shape[ax] if t.ndim else 1
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise RuntimeError(f"For 'IndexFill', the input of 'index' out of range (expected to be in range of [{-n}, "
                         f"{n - 1}], but got {int(idx[bad][0])})")
    if isinstance(value, Tensor) and value.ndim:
        raise ValueError(f"For 'IndexFill', the 'value' must be a 0-D Tensor, but got a {value.ndim}-D Tensor.")
    dest = np.take(_index(t.shape), idx % n, axis=ax) if t.ndim else _index(())
    v = value._data if isinstance(value, Tensor) else value  # the wheel gives 'value' no gradient
    return _scatter_into(t, dest, np.asarray(v, t._data.dtype), False, "IndexFill")


def _rows(indices: Any, n: int, op: str) -> np.ndarray:
    idx = np.asarray([indices] if isinstance(indices, (int, np.integer)) else
                     (indices._data if isinstance(indices, Tensor) else list(indices)), np.int64).reshape(-1)
    return _in_range(idx, n, op, "indices")


def _inplace_rows(x: Any, v: Any, indices: Any, kind: str, op: str) -> Tensor:
    t = check_tensor(x, op, "x")
    vt = check_tensor(v, op, "v")
    idx = _rows(indices, t.shape[0], op)
    dest = _index(t.shape)[idx]
    if vt.shape != dest.shape:
        raise ValueError(f"For '{op}', the shape of 'v' must be {list(dest.shape)}, but got {list(vt.shape)}.")
    out = t._data.reshape(-1).copy()  # the wheel's InplaceAdd/Sub/Update have no gradient: neither input gets one
    apply_at(out, dest, vt._data, kind)
    return Tensor._wrap(out.reshape(t.shape))


def inplace_add(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with ``v``'s rows added to its rows ``indices`` (an int or a tuple).

    Example:
        >>> import mskernel as ms
        >>> print(inplace_add(ms.Tensor([[1.0], [2.0]]), ms.Tensor([[5.0]]), 1))
        [[1.]
         [7.]]
    """
    return _inplace_rows(x, v, indices, "add", "InplaceAdd")


def inplace_sub(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with ``v``'s rows subtracted from its rows ``indices``.

    Example:
        >>> import mskernel as ms
        >>> print(inplace_sub(ms.Tensor([[1.0], [2.0]]), ms.Tensor([[5.0]]), (1,)))
        [[ 1.]
         [-3.]]
    """
    return _inplace_rows(x, v, indices, "sub", "InplaceSub")


def inplace_update(x: Any, v: Any, indices: Any) -> Tensor:
    """``x`` with its rows ``indices`` replaced by ``v``'s rows.

    Example:
        >>> import mskernel as ms
        >>> print(inplace_update(ms.Tensor([[1.0], [2.0]]), ms.Tensor([[5.0]]), 0))
        [[5.]
         [2.]]
    """
    return _inplace_rows(x, v, indices, "update", "InplaceUpdate")


def inplace_index_add(var: Any, indices: Any, updates: Any, axis: int) -> Tensor:
    """Add ``updates``' slices into the Parameter ``var`` at ``indices`` along ``axis``, in place; return the new
    values.

    Example:
        >>> import mskernel as ms
        >>> p = ms.Parameter(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), name="p")
        >>> _ = inplace_index_add(p, ms.Tensor([1]), ms.Tensor([[0.5, 0.5]]), 0); print(p.value())
        [[1.  2. ]
         [3.5 4.5]]
    """
    t = check_tensor(var, "InplaceIndexAdd", "var")
    out = index_add(t, indices, updates, axis)
    t._data[...] = out._data
    t._version += 1
    return Tensor._wrap(out._data.copy())


def index_put(x1: Any, x2: Any, indices: Any, accumulate: int = 0) -> Tensor:
    """``x1`` with ``x2`` written (``accumulate``: added) at the advanced index ``indices`` (a tuple of 1-D index
    tensors, one per leading axis).

    Example:
        >>> import mskernel as ms
        >>> print(index_put(ms.Tensor([[1, 2], [3, 4]]), ms.Tensor([9]), [ms.Tensor([0, 1]), ms.Tensor([1, 1])]))
        [[1 9]
         [3 9]]
    """
    x = check_tensor(x1, "IndexPut", "x1")
    coords = tuple(_in_range(_ints(i, "IndexPut", "indices"), x.shape[k], "IndexPut", "indices")
                   for k, i in enumerate(indices))
    dest = _index(x.shape)[coords]
    return _scatter_into(x, dest, x2, bool(accumulate), "IndexPut")


def masked_scatter(input: Any, mask: Any, source: Any) -> Tensor:
    """``input`` with the positions where ``mask`` holds (``mask`` broadcasts) taking ``source``'s elements in
    order.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0, 3.0])
        >>> print(masked_scatter(x, ms.Tensor([True, False, True]), ms.Tensor([7.0, 8.0, 9.0])))
        [7. 2. 8.]
    """
    x = check_tensor(input, "MaskedScatter", "input")
    m = _mask(mask, x.shape, "MaskedScatter")
    if m.shape != x.shape:
        raise ValueError(f"For 'MaskedScatter', the 'mask' must broadcast to the shape of 'input' {list(x.shape)}, "
                         f"but got {list(m.shape)}.")
    s = check_tensor(source, "MaskedScatter", "source")
    dest = _index(x.shape)[m]
    if dest.size > s.size:
        raise ValueError(f"For 'MaskedScatter', the 'source' must have at least {dest.size} elements, but got "
                         f"{s.size}.")
    return _scatter_into(x, dest, gather_map(s, np.arange(dest.size)), False, "MaskedScatter")


def take(input: Any, index: Any) -> Tensor:
    """The elements of the flattened ``input`` at ``index`` (``index``'s shape).

    Example:
        >>> import mskernel as ms
        >>> print(take(ms.Tensor([[4.0, 3.0, 5.0], [6.0, 7.0, 8.0]]), ms.Tensor([0, 2, 5])))
        [4. 5. 8.]
    """
    x = check_tensor(input, "Take", "input")
    idx = _in_range(_ints(index, "Take", "index"), x.size, "Take", "index")
    return gather_map(x, idx)


def _take_method(self: Tensor, indices: Any, axis: Optional[int] = None, mode: str = "clip") -> Tensor:
    """``x.take(indices, axis=None, mode='clip')``: numpy's take (``mode`` 'raise', 'wrap' or 'clip').

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 2], [3, 4]]).take(ms.Tensor([1, 5]), mode="wrap"))
        [2 2]
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"For 'Tensor.take', the 'mode' must be 'raise', 'wrap' or 'clip', but got {mode}.")
    idx = _ints(indices, "Tensor.take", "indices")
    pos = _index(self.shape).reshape(-1) if axis is None else _index(self.shape)
    ax = 0 if axis is None else _axis1(axis, self.ndim, "Tensor.take")
    if mode != "wrap":  # a negative index counts from the end first (then 'clip' clips)
        idx = np.where(idx < 0, idx + pos.shape[ax], idx)
    return gather_map(self, np.take(pos, idx, axis=ax, mode=mode))


def _choose_method(self: Tensor, choices: Any, mode: str = "clip") -> Tensor:
    """``x.choose(choices, mode='clip')``: numpy's choose — element ``i`` from ``choices[x[i]]``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1, 0]).choose([[1, 2], [10, 20]]))
        [10  2]
    """
    # a list or tuple holds the choices; a Tensor is one choice, as the wheel takes it
    ts = [c if isinstance(c, Tensor) else Tensor._wrap(np.asarray(c)) for c in choices] \
        if isinstance(choices, (list, tuple)) else [choices]
    idx = _ints(self, "Tensor.choose", "input")
    shape = np.broadcast_shapes(idx.shape, *[t.shape for t in ts])
    stacked = F.stack([F.broadcast_to(t, shape) for t in ts], 0)
    pos = _index(stacked.shape)
    which = np.choose(np.broadcast_to(idx, shape), list(pos), mode=mode)
    return gather_map(stacked, which)


def _select_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.select(dim, index)`` (the slice ``index`` along ``dim``, that axis removed), or ``x.select(condition, y)``
    (``x`` where ``condition`` holds, ``y`` elsewhere), both of which MindSpore's Tensor takes.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1, 2], [3, 4]])
        >>> print(x.select(1, 0), x.select(ms.Tensor([True, False]), ms.Tensor([0, 0])))
        [1 3] [[1 0]
         [3 0]]
    """
    first = args[0] if args else kwargs.get("dim", kwargs.get("condition"))
    if isinstance(first, Tensor) and first.dtype == Tensor._wrap(np.asarray(True)).dtype:
        y = args[1] if len(args) > 1 else kwargs["y"]
        return M.where(first, self, y)
    dim = first
    index = args[1] if len(args) > 1 else kwargs["index"]
    ax = _axis1(dim, self.ndim, "Tensor.select")
    i = int(_in_range(np.asarray(int(index)), self.shape[ax], "Tensor.select", "index"))
    return gather_map(self, np.take(_index(self.shape), i, axis=ax))


def _diagonal_mask(shape: tuple, wrap: bool) -> np.ndarray:
    m = np.zeros(shape, bool)
    np.fill_diagonal(m, True, wrap=wrap)
    return m


def _fill_diagonal_method(self: Tensor, fill_value: float, wrap: bool = False) -> Tensor:
    """``x.fill_diagonal(fill_value, wrap=False)``: a copy with its main diagonal set (numpy's fill_diagonal; a
    tall matrix with ``wrap`` starts again every ``ncols + 1`` rows).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[0.0, 0.0], [0.0, 0.0]]).fill_diagonal(5.0))
        [[5. 0.]
         [0. 5.]]
    """
    if self.ndim < 2:
        raise ValueError(f"For 'fill_diagonal', the dimension of 'input' must be at least 2, but got {self.ndim}.")
    dest = _index(self.shape)[_diagonal_mask(self.shape, wrap)]
    return _scatter_into(self, dest, float(fill_value), False, "fill_diagonal")


def _fill_diagonal_inplace(self: Tensor, fill_value: float, wrap: bool = False) -> Tensor:
    """``x.fill_diagonal_(fill_value, wrap=False)``: :meth:`fill_diagonal` in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[0.0, 0.0], [0.0, 0.0]]); _ = x.fill_diagonal_(2.0); print(x)
        [[2. 0.]
         [0. 2.]]
    """
    from mskernel.ops.inplace import inplace_update as write
    return write(self, _fill_diagonal_method(self, fill_value, wrap), "fill_diagonal_")


def put_(input: Any, index: Any, source: Any, accumulate: bool = False) -> Tensor:
    """Write (``accumulate``: add) ``source`` into the flattened ``input`` at ``index``, in place; return it.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]]); _ = put_(x, ms.Tensor([0, 3]), ms.Tensor([9.0, 8.0])); print(x)
        [[9. 2.]
         [3. 8.]]
    """
    from mskernel.ops.inplace import inplace_update as write
    x = check_tensor(input, "put_", "input")
    idx = _in_range(_ints(index, "put_", "index"), x.size, "put_", "index")
    s = check_tensor(source, "put_", "source")
    if s.size != idx.size:
        raise ValueError(f"For 'put_', 'source' and 'index' must have the same number of elements, but got "
                         f"{s.size} and {idx.size}.")
    return write(x, _scatter_into(x, idx.reshape(s.shape), s, bool(accumulate), "put_"), "put_")


def _index_add_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.index_add(indices, y, axis, use_lock=True, check_index_bound=True)``, or torch's ``x.index_add(dim, index,
    source, *, alpha=1)``, both of which MindSpore's Tensor takes; both write into ``x`` (the wheel's IndexAdd
    kernel works in place, see ``mskernel.ops.table.index.written_into``).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> print(x.index_add(0, ms.Tensor([0], ms.int32), ms.Tensor([[1.0, 1.0]]), alpha=2))
        [[3. 4.]
         [3. 4.]]
        >>> _ = x.index_add(ms.Tensor([1]), ms.Tensor([[5.0], [6.0]]), axis=1); print(x)
        [[ 3.  9.]
         [ 3. 10.]]
    """
    if "dim" in kwargs or (args and isinstance(args[0], (int, np.integer)) and not isinstance(args[0], bool)):
        kw = {**dict(zip(("dim", "index", "source"), args)), **kwargs}
        return written_into(self, index_add_ext(self, kw["dim"], kw["index"], kw["source"], alpha=kw.get("alpha", 1)))
    return _index_add_in_place(self, *args, **kwargs)


def _index_add_in_place(input_x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True,
                        check_index_bound: bool = True) -> Tensor:
    """MindSpore's IndexAdd (and ``x.index_add(indices, y, axis)``) write into their input (a Parameter too) and
    return the new values (differentiable, as the functional op)."""
    x = check_tensor(input_x, "IndexAdd", "input_x")
    return written_into(x, index_add(x, indices, y, axis))


def index_add_ext(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
    """torch's ``index_add``: ``input`` plus ``alpha * source``'s slices at ``index`` along ``dim``.

    Example:
        >>> import mskernel as ms
        >>> print(index_add_ext(ms.Tensor([1.0, 2.0]), 0, ms.Tensor([1, 1], ms.int32), ms.Tensor([1.0, 2.0]), alpha=2))
        [1. 8.]
    """
    if isinstance(index, Tensor) and index._data.dtype != np.int32:
        raise TypeError("For primitive[IndexAdd], the input argument[indices type] must be a type of {Tensor[Int32]}, "
                        f"but got Tensor[{index.dtype}].")
    s = check_tensor(source, "IndexAddExt", "source")
    return index_add(input, index, s if alpha == 1 else s * alpha, dim)


def _index_add_mint(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
    """``mint.index_add``: :func:`index_add_ext`, which the wheel also writes into ``input`` (its IndexAdd kernel
    works in place)."""
    x = check_tensor(input, "IndexAdd", "input")
    return written_into(x, index_add_ext(x, dim, index, source, alpha=alpha))


def _index_add_inplace(self: Tensor, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
    """``x.index_add_(dim, index, source, *, alpha=1)``: torch's index_add, in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); _ = x.index_add_(0, ms.Tensor([0], ms.int32), ms.Tensor([5.0])); print(x)
        [6. 2.]
    """
    from mskernel.ops.inplace import inplace_update as write
    return write(self, index_add_ext(self, dim, index, source, alpha=alpha), "index_add_")


def _index_put_method(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """``x.index_put(indices, values, accumulate=False)``: :func:`index_put`.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([1, 2, 3]).index_put([ms.Tensor([0, 0])], ms.Tensor([5]), True))
        [11  2  3]
    """
    return index_put(self, values, indices, accumulate)


def _index_put_inplace(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """``x.index_put_(indices, values, accumulate=False)``: :func:`index_put`, in place.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1, 2, 3]); _ = x.index_put_([ms.Tensor([2])], ms.Tensor([0])); print(x)
        [1 2 0]
    """
    from mskernel.ops.inplace import inplace_update as write
    return write(self, index_put(self, values, indices, accumulate), "index_put_")


def _argwhere(input: Any) -> Tensor:
    return F.nonzero(check_tensor(input, "Argwhere", "input"))


OPS: List[Op] = [
    Op("select_scatter", "input, src, axis, index", fn=select_scatter, method=True),
    Op("slice_scatter", "input, src, axis=0, start=None, end=None, step=1", fn=slice_scatter, method=True),
    Op("diagonal_scatter", "input, src, offset=0, dim1=0, dim2=1", fn=diagonal_scatter, method=True),
    Op("index_fill", "x, axis, index, value", fn=index_fill, method=True, inplace=True,
       prim="IndexFill()(x, dim, index, value) -> x, dim, index, value"),
    Op("inplace_add", "x, v, indices", fn=inplace_add, prim="InplaceAdd(indices)(x, input_v) -> x, input_v, indices"),
    Op("inplace_sub", "x, v, indices", fn=inplace_sub, prim="InplaceSub(indices)(x, input_v) -> x, input_v, indices"),
    Op("inplace_update", "x, v, indices", fn=inplace_update, method=True,
       prim=("InplaceUpdate(indices)(x, v) -> x, v, indices", "InplaceUpdateV2()(x, indices, v) -> x, v, indices")),
    Op("inplace_index_add", "var, indices, updates, axis", fn=inplace_index_add,
       prim="InplaceIndexAdd(axis)(var, indices, updates) -> var, indices, updates, axis"),
    Op("_index_add_prim", "input_x, indices, y, axis, use_lock=True, check_index_bound=True", fn=_index_add_in_place,
       prim="IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x, indices, y) -> input_x, indices, y, "
            "axis"),
    Op("_index_add_ext", "input, dim, index, source, *, alpha=1", fn=index_add_ext),
    Op("_index_add_mint", "input, dim, index, source, *, alpha=1", fn=_index_add_mint),
    Op("_index_put", "x1, x2, indices, accumulate=0", fn=index_put,
       prim="IndexPut(accumulate=0)(x1, x2, indices) -> x1, x2, indices, accumulate"),
    Op("_scatter_add_with_axis", "input_x, indices, updates, axis=0",
       fn=lambda input_x, indices, updates, axis=0: tensor_scatter_elements(input_x, indices, updates, axis, "add"),
       prim="ScatterAddWithAxis(axis=0)(input_x, indices, updates) -> input_x, indices, updates, axis"),
    Op("masked_scatter", "input, mask, source", fn=masked_scatter, method=True, inplace=True,
       prim="MaskedScatter()(input, mask, updates) -> input, mask, updates"),
    Op("take", "input, index", fn=take),
    Op("put_", "input, index, source, accumulate=False", fn=put_, method=True),
    Op("gather_d", "x, dim, index", fn=lambda x, dim, index: gather_elements(x, dim, index)),
    Op("argwhere", "input", fn=_argwhere, method=True),
]

METHODS = {"take": _take_method, "choose": _choose_method, "select": _select_method,
           "fill_diagonal": _fill_diagonal_method, "fill_diagonal_": _fill_diagonal_inplace,
           "index_add": _index_add_method, "index_add_": _index_add_inplace, "index_put": _index_put_method,
           "index_put_": _index_put_inplace}

_X = "x = ms.Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])"

#: the examples, by op or primitive name (see mskernel.ops.table)
EXAMPLES = {
    "IndexFill": (_X, "ops.IndexFill()(x, 0, ms.Tensor([0, 2], ms.int32), ms.Tensor(0.0))",
                  "[[0. 0.]\n [3. 4.]\n [0. 0.]]"),
    "InplaceAdd": (_X, "ops.InplaceAdd((0, 2))(x, ms.Tensor([[1.0, 1.0], [2.0, 2.0]]))",
                   "[[2. 3.]\n [3. 4.]\n [7. 8.]]"),
    "InplaceSub": (_X, "ops.InplaceSub(1)(x, ms.Tensor([[1.0, 1.0]]))", "[[1. 2.]\n [2. 3.]\n [5. 6.]]"),
    "InplaceUpdate": (_X, "ops.InplaceUpdate(1)(x, ms.Tensor([[0.0, 0.0]]))", "[[1. 2.]\n [0. 0.]\n [5. 6.]]"),
    "InplaceUpdateV2": (_X, "ops.InplaceUpdateV2()(x, 1, ms.Tensor([[0.0, 0.0]]))", "[[1. 2.]\n [0. 0.]\n [5. 6.]]"),
    "InplaceIndexAdd": ("p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')",
                        "ops.InplaceIndexAdd(0)(p, ms.Tensor([1]), ms.Tensor([5.0]))", "[1. 7.]"),
    "IndexAdd": (_X, "ops.IndexAdd(axis=1)(x, ms.Tensor([1]), ms.Tensor([[1.0], [1.0], [1.0]]))",
                 "[[1. 3.]\n [3. 5.]\n [5. 7.]]"),
    "IndexPut": (_X, "ops.IndexPut(accumulate=1)(x, ms.Tensor([1.0]), [ms.Tensor([0, 0])])",
                 "[[3. 4.]\n [3. 4.]\n [5. 6.]]"),
    "ScatterAddWithAxis": (_X, "ops.ScatterAddWithAxis(1)(x, ms.Tensor([[1, 1]]), ms.Tensor([[1.0, 2.0]]))",
                           "[[1. 5.]\n [3. 4.]\n [5. 6.]]"),
    "MaskedScatter": (_X, "ops.MaskedScatter()(x, x > 3, ms.Tensor([7.0, 8.0, 9.0]))",
                      "[[1. 2.]\n [3. 7.]\n [8. 9.]]"),
    "gather_d": ("ops.gather_d(ms.Tensor([[1, 2], [3, 4]]), 1, ms.Tensor([[0, 0], [1, 0]]))", "[[1 1]\n [4 3]]"),
    "argwhere": ("ops.argwhere(ms.Tensor([[0, 3], [4, 0]]))", "[[0 1]\n [1 0]]"),
}
