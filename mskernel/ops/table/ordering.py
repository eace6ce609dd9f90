"""Op table: ordering — sort and argsort (stable), topk (ties in the CPU kernel's order), unique (in order of
first appearance), searchsorted and bincount.

Sorted values are a gather by the sorting permutation (:func:`rearrange.gather_map`), so their gradient goes
back to the positions each value came from; indices are Int32 from topk, sort and argsort, Int64 from
searchsorted, as MindSpore 2.10 gives them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    >>> print(ops.topk(x, 1)[1].T, ops.sort(x)[0][0])
    [[1 2]] [1. 2. 5.]
    >>> print(ms.grad(lambda a: ops.topk(a, 1)[0].sum())(x))
    [[0. 1. 0.]
     [0. 0. 1.]]
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op
from mskernel.ops.selection import select_order
from mskernel.ops.table.index import _axis1, _ints
from mskernel.ops.table.rearrange import _index, gather_map


def _order(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    if descending:  # stable among equals, as an ascending sort of the negated keys is
        keys = -x.astype(np.float64) if x.dtype.kind in "iub" else -x
        return np.argsort(keys, axis=axis, kind="stable")
    return np.argsort(x, axis=axis, kind="stable")


def sort(input_x: Any, axis: int = -1, descending: bool = False) -> Tuple[Tensor, Tensor]:
    """``(values, indices)`` sorted along ``axis`` (a stable sort; indices Int32).

    Example:
        >>> import mskernel as ms
        >>> print(sort(ms.Tensor([3.0, 1.0, 2.0]))[1])
        [1 2 0]
    """
    x = check_tensor(input_x, "Sort", "input_x")
    ax = _axis1(axis, x.ndim, "Sort")
    order = _order(x._data, ax, descending) if x.ndim else np.zeros((), np.int64)
    values = gather_map(x, np.take_along_axis(_index(x.shape), order, ax) if x.ndim else _index(()))
    return values, Tensor._wrap(order.astype(np.int32))


def argsort(input: Any, axis: int = -1, descending: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``axis`` (Int32).

    Example:
        >>> import mskernel as ms
        >>> print(argsort(ms.Tensor([3.0, 1.0, 2.0]), descending=True))
        [0 2 1]
    """
    return sort(input, axis, descending)[1]


def _kernel_tie_order(x: np.ndarray, order: np.ndarray, axis: int, k: int, largest: bool) -> np.ndarray:
    """``order`` (the stable top ``k`` along ``axis``) with the rows where tied values could come out otherwise
    redone in the CPU kernel's order (:mod:`mskernel.ops.selection`); rows holding a NaN keep the stable order."""
    rows = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    out = np.moveaxis(order, axis, -1).reshape(-1, k).copy()
    top = np.take_along_axis(rows, out, -1)
    ranked = np.sort(rows, -1)
    nxt = ranked[:, -k - 1:-k] if largest else ranked[:, k:k + 1]  # the (k+1)-th value
    tied = (top[:, 1:] == top[:, :-1]).any(-1) | (top[:, -1:] == nxt).any(-1)
    for r in np.flatnonzero(tied & ~np.isnan(rows).any(-1)):
        out[r] = select_order(rows[r].tolist(), k, largest)
    shape = np.moveaxis(order, axis, -1).shape
    return np.moveaxis(out.reshape(shape), -1, axis)


def topk(input: Any, k: int, dim: Optional[int] = None, largest: bool = True, sorted: bool = True) -> tuple:
    """The ``k`` largest (or smallest) elements along ``dim`` (the last axis by default) and their indices.

    Example:
        >>> import mskernel as ms
        >>> print(topk(ms.Tensor([1.0, 5.0, 3.0]), 2))
        (Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e+00,  3.00000000e+00]), \
Tensor(shape=[2], dtype=Int32, value= [1, 2]))
    """
    x = check_tensor(input, "TopK", "input")
    ax = _axis1(-1 if dim is None else dim, x.ndim, "TopK")
    n = x.shape[ax] if x.ndim else 1
    if not 0 <= int(k) <= n:
        raise ValueError(f"For 'TopK', the 'k' must be in range [0, {n}], but got {k}.")
    order = np.take(_order(x._data, ax, largest), np.arange(int(k)), axis=ax)
    if sorted and 0 < int(k) <= n // 2:
        order = _kernel_tie_order(x._data, order, ax, int(k), largest)
    values = gather_map(x, np.take_along_axis(_index(x.shape), order, ax))
    return values, Tensor._wrap(order.astype(np.int32))


def unique(input: Any) -> Tuple[Tensor, Tensor]:
    """The distinct elements in order of first appearance, and each element's position among them (Int32).

    Example:
        >>> import mskernel as ms
        >>> print(unique(ms.Tensor([3, 1, 3, 2])))
        (Tensor(shape=[3], dtype=Int64, value= [3, 1, 2]), Tensor(shape=[4], dtype=Int32, value= [0, 1, 0, 2]))
    """
    x = check_tensor(input, "Unique", "input")
    flat = x._data.reshape(-1)
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return Tensor._wrap(flat[np.sort(first)]), Tensor._wrap(rank[inverse].astype(np.int32).reshape(x.shape))


def searchsorted(sorted_sequence: Any, values: Any, *, out_int32: bool = False, right: bool = False,
                 side: Optional[str] = None, sorter: Any = None) -> Tensor:
    """Where each of ``values`` would go in the sorted last axis of ``sorted_sequence`` (Int64).

    Example:
        >>> import mskernel as ms
        >>> print(searchsorted(ms.Tensor([1.0, 3.0, 5.0]), ms.Tensor([3.0, 6.0]), right=True))
        [2 3]
    """
    seq = check_tensor(sorted_sequence, "SearchSorted", "sorted_sequence")._data
    vals = values._data if isinstance(values, Tensor) else np.asarray(values)
    how = side or ("right" if right else "left")
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data if isinstance(sorter, Tensor) else np.asarray(sorter), -1)
    if seq.ndim == 1:
        out = np.searchsorted(seq, vals, side=how)
    else:
        out = np.stack([np.searchsorted(s, v, side=how) for s, v in zip(seq.reshape(-1, seq.shape[-1]),
                                                                         vals.reshape(-1, vals.shape[-1]))])
        out = out.reshape(vals.shape)
    return Tensor._wrap(np.asarray(out, np.int32 if out_int32 else np.int64))


def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """How often each non-negative integer occurs (weighted sums with ``weights``); Float32 as MindSpore 2.10.

    Example:
        >>> import mskernel as ms
        >>> print(bincount(ms.Tensor([0, 2, 2])))
        [1. 0. 2.]
    """
    idx = _ints(input, "bincount", "input").reshape(-1)
    if (idx < 0).any():
        raise ValueError("For 'bincount', the 'input' must be non-negative.")
    w = None if weights is None else (weights._data if isinstance(weights, Tensor) else np.asarray(weights))
    out = np.bincount(idx, None if w is None else w.reshape(-1), minlength=int(minlength))
    return Tensor._wrap(out.astype(np.float32 if w is None else w.dtype))


OPS: List[Op] = [
    Op("sort", "input_x, axis=-1, descending=False", fn=sort, method=True,
       prim="Sort(axis=-1, descending=False)(x) -> x, axis, descending"),
    Op("argsort", "input, axis=-1, descending=False", fn=argsort, method=True),
    Op("topk", "input, k, dim=None, largest=True, sorted=True", fn=topk, method=True,
       prim="TopK(sorted=True)(input_x, k) -> input_x, k, -1, True, sorted"),
    Op("unique", "input", fn=unique, method=True, prim="Unique()(input_x) -> input_x"),
    Op("searchsorted", "sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None",
       fn=searchsorted),
    Op("bincount", "input, weights=None, minlength=0", fn=bincount),
]

EXAMPLES = {
    "Sort": ("*ops.Sort(descending=True)(ms.Tensor([2.0, 3.0, 1.0]))", "[3. 2. 1.] [1 0 2]"),
    "TopK": ("*ops.TopK()(ms.Tensor([2.0, 3.0, 1.0]), 2)", "[3. 2.] [1 0]"),
    "Unique": ("*ops.Unique()(ms.Tensor([3, 1, 3, 2]))", "[3 1 2] [0 1 0 2]"),
}
