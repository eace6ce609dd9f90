"""Op table: segment reductions — ``unsorted_segment_{sum,max,min,prod}``, the sorted ``Segment{Sum,Max,Min,Mean,
Prod}`` primitives and ``sparse_segment_mean``.

Element ``x[i, ...]`` belongs to segment ``segment_ids[i]``; each output row reduces its segment's rows. A sum
is a scatter-add of ``x`` (``_scatter_map``, which has its own gradient); a max or min picks the elements equal
to their segment's extreme and averages them, so the gradient is shared among ties; an id outside
``[0, num_segments)`` is an error (the wheel's CPU kernel fails on it). An empty segment gives 0 (sum, and
every sorted ``Segment*``), 1 (prod), the dtype's lowest (unsorted max) or highest (unsorted min) value, as
the wheel's.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0], [4.0, 0.0], [3.0, 5.0]])
    >>> print(ops.unsorted_segment_max(x, ms.Tensor([0, 0, 2]), 3))
    [[ 4.0000000e+00  2.0000000e+00]
     [-3.4028235e+38 -3.4028235e+38]
     [ 3.0000000e+00  5.0000000e+00]]
    >>> print(ms.grad(lambda a: ops.unsorted_segment_sum(a, ms.Tensor([1, 1, 0]), 2).sum())(x))
    [[1. 1.]
     [1. 1.]
     [1. 1.]]
"""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.index import _ints
from mskernel.ops.table.scatter import apply_at


def _dest(x: Tensor, ids: np.ndarray, n: int, op: str) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """Each element's flat position in the output (-1 for a dropped row) and the output's shape."""
    if tuple(x.shape[:ids.ndim]) != tuple(ids.shape):
        raise ValueError(f"For '{op}', the shape of 'segment_ids' must be a prefix of the shape of 'x', but got "
                         f"'segment_ids' shape {list(ids.shape)} and 'x' shape {list(x.shape)}.")
    inner_shape = tuple(x.shape[ids.ndim:])
    inner = int(np.prod(inner_shape))
    ids = ids.reshape(ids.shape + (1,) * len(inner_shape))
    pos = ids * inner + np.arange(inner).reshape(inner_shape)
    dest = np.where((ids >= 0) & (ids < n), pos, -1)
    return np.broadcast_to(dest, x.shape).astype(np.int64), (n,) + inner_shape


def _sum(x: Tensor, dest: np.ndarray, shape: tuple) -> Tensor:
    return F._scatter_map(x, dest, shape)


def _count(dest: np.ndarray, shape: tuple) -> np.ndarray:
    c = np.zeros(int(np.prod(shape)), np.int64)
    np.add.at(c, dest[dest >= 0], 1)
    return c.reshape(shape)


def _extreme(x: Tensor, dest: np.ndarray, shape: tuple, kind: str, empty: Any) -> Tensor:
    """The segments' max or min: the mean of the elements equal to it (so ties share the gradient)."""
    d = x._data
    fill = np.finfo(d.dtype) if d.dtype.kind == "f" else np.iinfo(d.dtype)
    best = np.full(int(np.prod(shape)), fill.min if kind == "max" else fill.max, d.dtype)
    valid = dest >= 0
    (np.maximum if kind == "max" else np.minimum).at(best, dest[valid], d[valid])
    hit = valid & (d == best[np.maximum(dest, 0)])
    count = _count(np.where(hit, dest, -1), shape)
    if d.dtype.kind != "f":  # no gradient for integers: the values as they are
        out = best.reshape(shape)
        return Tensor._wrap(np.where(count > 0, out, np.asarray(empty if empty is not None else out, d.dtype)))
    share = Tensor._wrap(np.maximum(count, 1).astype(d.dtype))
    picked = _sum(x * Tensor._wrap(hit.astype(d.dtype)), dest, shape) / share
    if empty is None:
        empty = best.reshape(shape)
    return M.where(Tensor._wrap(count > 0), picked, Tensor._wrap(np.asarray(empty, d.dtype)))


def _prod(x: Tensor, dest: np.ndarray, shape: tuple) -> Tensor:
    d = x._data
    out = np.ones(int(np.prod(shape)), d.dtype)
    valid = dest >= 0
    apply_at(out, dest[valid], d[valid], "mul")
    return Tensor._wrap(out.reshape(shape))


_UNSORTED = {"sum": lambda x, d, s: _sum(x, d, s), "max": lambda x, d, s: _extreme(x, d, s, "max", None),
             "min": lambda x, d, s: _extreme(x, d, s, "min", None), "prod": _prod}


def _unsorted(kind: str, op: str, first: str) -> Callable:
    def fn(x: Any, segment_ids: Any, num_segments: Any) -> Tensor:
        t = check_tensor(x, op, first)
        n = int(num_segments._data if isinstance(num_segments, Tensor) else num_segments)
        if n <= 0:
            raise ValueError(f"For '{op}', the 'num_segments' must be positive, but got {n}.")
        ids = segment_ids._data if isinstance(segment_ids, Tensor) else np.asarray(segment_ids)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"For primitive[{op}], the input argument[segment_ids type] must be a type of "
                            f"{{Tensor[Int16], Tensor[Int32], Tensor[Int64]}}, but got "
                            f"Tensor[{mstype.to_dtype(ids.dtype)}].")
        ids = ids.astype(np.int64)
        bad = (ids < 0) | (ids >= n)
        if bad.any():  # the wheel's CPU kernel fails to launch on them
            raise RuntimeError(f"Launch kernel failed, name:{op}: the 'segment_ids' must be in [0, {n}), but got "
                               f"{int(ids[bad][0])}.")
        dest, shape = _dest(t, ids, n, op)
        return _UNSORTED[kind](t, dest, shape)
    fn.__name__ = fn.__qualname__ = f"unsorted_segment_{kind}"
    fn.__doc__ = f"The ``{kind}`` of the rows of ``{first}`` in each of ``num_segments`` segments (``segment_ids``)."
    return fn


def _sorted(kind: str, op: str) -> Callable:
    def fn(x: Any, segment_ids: Any) -> Tensor:
        t = check_tensor(x, op, "input_x")
        ids = _ints(segment_ids, op, "segment_ids")
        if ids.ndim != 1:
            raise ValueError(f"For '{op}', the rank of 'segment_ids' must be 1, but got {ids.ndim}.")
        if ids.size and ((ids < 0).any() or (np.diff(ids) < 0).any()):
            raise ValueError(f"For '{op}', the 'segment_ids' must be sorted in ascending order and non-negative.")
        n = int(ids[-1]) + 1 if ids.size else 0
        dest, shape = _dest(t, ids, n, op)
        if kind == "sum":
            return _sum(t, dest, shape)
        if kind == "mean":
            count = np.maximum(_count(dest, shape), 1)
            if t._data.dtype.kind in "iu":  # integer means truncate toward zero, as the wheel's
                total = _sum(t, dest, shape)._data
                q = np.abs(total) // count
                return Tensor._wrap(np.where(total < 0, -q, q).astype(t._data.dtype))
            return _sum(t, dest, shape) / Tensor._wrap(count.astype(t._data.dtype))
        if kind == "prod":
            return _prod(t, dest, shape)
        return _extreme(t, dest, shape, kind, 0)
    fn.__name__ = fn.__qualname__ = f"_segment_{kind}"
    return fn


def sparse_segment_mean(x: Any, indices: Any, segment_ids: Any) -> Tensor:
    """The mean of the rows ``x[indices[j]]`` of each segment ``segment_ids[j]`` (sorted ids; an empty segment
    gives zeros).

    Example:
        >>> import mskernel as ms
        >>> print(sparse_segment_mean(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([0, 1, 1]), ms.Tensor([0, 0, 2])))
        [[2. 3.]
         [0. 0.]
         [3. 4.]]
    """
    op = "SparseSegmentMean"
    t = check_tensor(x, op, "x")
    idx = _ints(indices, op, "indices")
    n0 = t.shape[0]
    bad = (idx < 0) | (idx >= n0)
    if bad.any():
        raise ValueError(f"For '{op}', the 'indices' must be in [0, {n0}), but got {int(idx[bad][0])}.")
    rows = F.gather(t, Tensor._wrap(idx), 0)
    return _sorted("mean", op)(rows, segment_ids)


_S = "x, segment_ids, num_segments"

OPS: List[Op] = [
    Op("unsorted_segment_sum", "input_x, segment_ids, num_segments",
       fn=_unsorted("sum", "UnsortedSegmentSum", "input_x"),
       prim="UnsortedSegmentSum"),
    *[Op(f"unsorted_segment_{k}", _S, fn=_unsorted(k, p, "x"), method=True, prim=p)
      for k, p in (("max", "UnsortedSegmentMax"), ("min", "UnsortedSegmentMin"), ("prod", "UnsortedSegmentProd"))],
    *[Op(f"_segment_{k}", "input_x, segment_ids", fn=_sorted(k, p), prim=f"{p}()(x, segment_ids) -> x, segment_ids")
      for k, p in (("sum", "SegmentSum"), ("max", "SegmentMax"), ("min", "SegmentMin"), ("mean", "SegmentMean"),
                   ("prod", "SegmentProd"))],
    Op("sparse_segment_mean", "x, indices, segment_ids", fn=sparse_segment_mean),
]

_X = "x = ms.Tensor([[1.0, 2.0], [4.0, 0.0], [3.0, 5.0]])"

#: the examples, by op or primitive name (see mskernel.ops.table)
EXAMPLES = {
    "unsorted_segment_sum": (_X, "ops.unsorted_segment_sum(x, ms.Tensor([0, 0, 2]), 3)",
                             "[[5. 2.]\n [0. 0.]\n [3. 5.]]"),
    "unsorted_segment_max": (_X, "ops.unsorted_segment_max(x, ms.Tensor([0, 0, 1]), 2)", "[[4. 2.]\n [3. 5.]]"),
    "unsorted_segment_min": (_X, "ops.unsorted_segment_min(x, ms.Tensor([0, 0, 1]), 2)", "[[1. 0.]\n [3. 5.]]"),
    "unsorted_segment_prod": (_X, "ops.unsorted_segment_prod(x, ms.Tensor([0, 0, 2]), 3)",
                              "[[4. 0.]\n [1. 1.]\n [3. 5.]]"),
    "SegmentSum": (_X, "ops.SegmentSum()(x, ms.Tensor([0, 0, 2]))", "[[5. 2.]\n [0. 0.]\n [3. 5.]]"),
    "SegmentMax": (_X, "ops.SegmentMax()(x, ms.Tensor([0, 0, 2]))", "[[4. 2.]\n [0. 0.]\n [3. 5.]]"),
    "SegmentMin": (_X, "ops.SegmentMin()(x, ms.Tensor([0, 0, 2]))", "[[1. 0.]\n [0. 0.]\n [3. 5.]]"),
    "SegmentMean": (_X, "ops.SegmentMean()(x, ms.Tensor([0, 0, 2]))", "[[2.5 1. ]\n [0.  0. ]\n [3.  5. ]]"),
    "SegmentProd": (_X, "ops.SegmentProd()(x, ms.Tensor([0, 0, 2]))", "[[4. 0.]\n [1. 1.]\n [3. 5.]]"),
}
