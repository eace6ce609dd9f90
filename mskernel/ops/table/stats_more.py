"""Op table: statistics and sorting helpers (the norms are :mod:`mskernel.ops.table.norms`) — cov, trapz,
nanmean, nanmedian, quantile/nanquantile, kthvalue, msort, histc, bucketize, logspace, diff, addn, and the
primitives of the same family (ReduceStd, SquareSumAll, Median,
Quantile, Histogram, HistogramFixedWidth, Bincount, LowerBound, UpperBound, SearchSorted, EqualCount, CountNonZero,
LogSpace, AddN, AccumulateNV2).

The differentiable ones are written with ops; the picks (nanmedian, kthvalue) scatter their gradient to the
chosen element, as max and median do. Quantiles, histograms and bucket indices are numpy's (not differentiable).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[3.0, -4.0], [1.0, 2.0]])
    >>> print(ops.cov(x), ops.diff(x, axis=0))
    [[24.5 -3.5]
     [-3.5  0.5]] [[-2.  6.]]
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor, float_input, normalize_axis
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.extremes import scatter_to_index

_w = Tensor._wrap
_INF = float("inf")


def _axes(axis: Any, ndim: int, op: str) -> Tuple[int, ...]:
    return normalize_axis(axis, ndim, op) if ndim else ()


def cov(input: Any, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
    """The covariance of the rows (variables) over the columns (observations), with optional integer frequency
    and floating observation weights.

    Example:
        >>> import mskernel as ms
        >>> print(cov(ms.Tensor([[0.0, 5.0, 7.0], [3.0, 5.0, 0.0]])))
        [[13.        -3.5      ]
         [-3.5        6.3333335]]
    """
    x = check_tensor(input, "cov", "input")
    if x.ndim > 2:
        raise ValueError(f"For 'cov', the dimension of 'input' must be at most 2, but got {x.ndim}.")
    if x._data.dtype.kind in "biu":
        x = F.cast(x, mstype.float32)
    x2 = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    n = x2.shape[1]
    w = None
    if fweights is not None:
        fw = check_tensor(fweights, "cov", "fweights")
        if fw._data.dtype.kind not in "iu":
            raise TypeError(f"For 'cov', 'fweights' must be an integer tensor, but got {fw.dtype}.")
        w = F.cast(fw, x.dtype)
    aw = None
    if aweights is not None:
        aw = F.cast(check_tensor(aweights, "cov", "aweights"), x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        avg = F.mean(x2, 1, True)
        norm = float(n - correction)
        xm = x2 - avg
        c = F.matmul(xm, F.transpose(xm, (1, 0))) / norm
    else:
        w_sum = F.sum(w)
        avg = F.sum(x2 * w, 1, True) / w_sum
        norm = w_sum - correction * (F.sum(w * aw) / w_sum if aw is not None else 1.0)
        xm = x2 - avg
        c = F.matmul(xm * w, F.transpose(xm, (1, 0))) / norm
    return F.reshape(c, ()) if x.ndim < 2 else c


def _slice(t: Tensor, dim: int, start: Optional[int], stop: Optional[int]) -> Tensor:
    return F.getitem(t, (slice(None),) * (dim % t.ndim) + (slice(start, stop),))


def trapz(y: Any, x: Any = None, *, dx: float = 1.0, dim: int = -1) -> Tensor:
    """The trapezoid-rule integral of ``y`` along ``dim``, at points ``x`` or a spacing ``dx``.

    Example:
        >>> import mskernel as ms
        >>> print(trapz(ms.Tensor([1.0, 2.0, 3.0]), dx=0.5))
        2.0
    """
    t = check_tensor(y, "trapz", "y")
    pair = _slice(t, dim, 1, None) + _slice(t, dim, None, -1)
    if x is None:
        return F.sum(pair * (float(dx) / 2.0), dim)
    xs = check_tensor(x, "trapz", "x")
    if xs.ndim == 1:
        shape = [1] * t.ndim
        shape[dim % t.ndim] = xs.shape[0]
        xs = F.reshape(xs, tuple(shape))
    step = F.cast(_slice(xs, dim, 1, None) - _slice(xs, dim, None, -1), pair.dtype)
    return F.sum(pair * step / 2.0, dim)


def nanmean(input: Any, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The mean over ``axis`` of the elements that are not NaN (NaN where all are).

    Example:
        >>> import mskernel as ms
        >>> print(nanmean(ms.Tensor([1.0, float('nan'), 3.0])))
        2.0
    """
    x = float_input(input, "nanmean", "input")
    if dtype is not None:
        x = F.cast(x, dtype)
    axes = _axes(axis, x.ndim, "nanmean")
    nan = F.isnan(x)
    kept = F.where(nan, F.zeros_like(x), x)
    count = F.sum(F.cast(F.logical_not(nan), x.dtype), axes, keepdims)
    return F.sum(kept, axes, keepdims) / count


def _nan_last_order(x: np.ndarray, ax: int) -> np.ndarray:
    return np.argsort(np.where(np.isnan(x), np.inf, x), axis=ax, kind="stable") if x.dtype.kind == "f" else \
        np.argsort(x, axis=ax, kind="stable")


def _nanmedian_fwd(x: np.ndarray, axis: int = -1, keepdims: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    ax = axis % x.ndim
    order = _nan_last_order(x, ax)
    valid = np.sum(~np.isnan(x), axis=ax, keepdims=True) if x.dtype.kind == "f" else \
        np.full(x.shape[:ax] + (1,) + x.shape[ax + 1:], x.shape[ax])
    pos = np.maximum(valid - 1, 0) // 2
    idx = np.take_along_axis(order, pos, ax)
    val = np.take_along_axis(x, idx, ax)
    if not keepdims:
        idx, val = np.squeeze(idx, ax), np.squeeze(val, ax)
    return val, idx.astype(np.int64)


def _pick_grad(g: tuple, out: tuple, input: Tensor, axis: Any, keepdims: bool) -> tuple:
    return (scatter_to_index(g[0], input, out[1], axis, keepdims),)


def _kth_fwd(x: np.ndarray, k: int, dim: int = -1, keepdim: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"For 'kthvalue', 'k' must be 1 for a 0-D input, but got {k}.")
        return x.copy(), np.zeros((), np.int64)
    ax = dim % x.ndim
    if not 1 <= k <= x.shape[ax]:
        raise ValueError(f"For 'kthvalue', 'k' must be in the range [1, {x.shape[ax]}], but got {k}.")
    idx = np.take(_nan_last_order(x, ax), [k - 1], axis=ax)
    val = np.take_along_axis(x, idx, ax)
    if not keepdim:
        idx, val = np.squeeze(idx, ax), np.squeeze(val, ax)
    return val, idx.astype(np.int64)


def _kth_grad(g: tuple, out: tuple, input: Tensor, dim: int, keepdim: bool) -> tuple:
    return (scatter_to_index(g[0], input, out[1], dim, keepdim),)


def _quantile(x: Any, q: Any, axis: Any, keepdims: bool, nan: bool, op: str) -> Tensor:
    t = float_input(x, op, "input")
    qa = q._data if isinstance(q, Tensor) else np.asarray(q)
    if isinstance(q, Tensor) and q.dtype != t.dtype:
        raise TypeError(f"For '{op}', the dtype of 'q' must be the same as 'input', but got {q.dtype} and "
                        f"{t.dtype}.")
    if qa.ndim > 1:
        raise ValueError(f"For '{op}', 'q' must be a scalar or 1-D, but got {qa.ndim}-D.")
    if np.any((qa < 0) | (qa > 1)):
        raise ValueError(f"For '{op}', 'q' values must be in the range [0, 1].")
    fn = np.nanquantile if nan else np.quantile
    ax = None if axis is None else int(axis)
    with np.errstate(all="ignore"):
        out = fn(t._data.astype(np.float64), qa.astype(np.float64), axis=ax, keepdims=bool(keepdims))
    return _w(np.asarray(out, t._data.dtype))


def quantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The ``q``-th quantiles (linear interpolation) over ``axis`` (all elements when None); NaN propagates.

    Example:
        >>> import mskernel as ms
        >>> print(quantile(ms.Tensor([1.0, 2.0, 4.0]), 0.75))
        3.0
    """
    return _quantile(input, q, axis, keepdims, False, "quantile")


def nanquantile(input: Any, q: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """:func:`quantile` ignoring NaN.

    Example:
        >>> import mskernel as ms
        >>> print(nanquantile(ms.Tensor([1.0, float('nan'), 4.0]), 0.5))
        2.5
    """
    return _quantile(input, q, axis, keepdims, True, "nanquantile")


def _quantile_prim(input: Any, q: Any, dim: Any = None, keep_dims: bool = False, ignore_nan: bool = False) -> Tensor:
    return _quantile(input, q, dim, keep_dims, ignore_nan, "Quantile")


def msort(input: Any) -> Tensor:
    """``input`` sorted along its first axis.

    Example:
        >>> import mskernel as ms
        >>> print(msort(ms.Tensor([[3, 1], [2, 4]])))
        [[2 1]
         [3 4]]
    """
    return F.sort(check_tensor(input, "msort", "input"), 0)[0]


def histc(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0) -> Tensor:
    """Counts in ``bins`` equal bins over ``[min, max]`` (the data's range when equal); values outside ignored.

    Example:
        >>> import mskernel as ms
        >>> print(histc(ms.Tensor([1.0, 1.0, 2.0, 5.0]), bins=4, min=0, max=8))
        [2. 1. 1. 0.]
    """
    x = check_tensor(input, "histc", "input")
    if not isinstance(bins, int) or bins <= 0:
        raise ValueError(f"For 'histc', 'bins' must be a positive int, but got {bins!r}.")
    lo, hi = float(min), float(max)
    if lo > hi:
        raise ValueError(f"For 'histc', 'max' must be larger than 'min', but got {hi} and {lo}.")
    data = x._data.astype(np.float64).reshape(-1)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data[(data >= lo) & (data <= hi)], bins, (lo, hi))
    out_dt = x._data.dtype if x._data.dtype.kind == "f" else np.float32
    return _w(counts.astype(out_dt))


def _histogram_fixed_width(x: Any, range: Any, nbins: int = 100, dtype: Any = "int32") -> Tensor:
    t, r = check_tensor(x, "HistogramFixedWidth", "x"), check_tensor(range, "HistogramFixedWidth", "range")
    lo, hi = (float(v) for v in r._data.reshape(-1)[:2])
    pos = np.floor((t._data.astype(np.float64) - lo) / (hi - lo) * nbins)
    counts = np.bincount(np.clip(pos, 0, nbins - 1).astype(np.int64).reshape(-1), minlength=nbins)
    return _w(counts.astype(np.int32))


def bucketize(input: Any, boundaries: Any, *, right: bool = False) -> Tensor:
    """The bucket index of each element: ``boundaries[i-1] < x <= boundaries[i]`` (``<=``/``<`` with
    ``right=True``).

    Example:
        >>> import mskernel as ms
        >>> print(bucketize(ms.Tensor([3, 6, 9]), [1.0, 3.0, 5.0, 7.0, 9.0], right=True))
        [2 3 5]
    """
    x = check_tensor(input, "bucketize", "input")
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list of floats, but got "
                        f"{type(boundaries).__name__}.")
    b = np.asarray(boundaries, np.float64)
    return _w(np.searchsorted(b, x._data, side="right" if right else "left").astype(np.int32))


def logspace(start: Any, end: Any, steps: int, base: int = 10, *, dtype: Any = mstype.float32) -> Tensor:
    """``steps`` values ``base ** t`` for ``t`` evenly spaced from ``start`` to ``end``.

    Example:
        >>> print(logspace(0.0, 2.0, 3))
        [  1.  10. 100.]
    """
    s = float(start._data) if isinstance(start, Tensor) else float(start)
    e = float(end._data) if isinstance(end, Tensor) else float(end)
    if not isinstance(steps, int) or steps < 0:
        raise ValueError(f"For 'logspace', 'steps' must be a non-negative int, but got {steps!r}.")
    return _w((float(base) ** np.linspace(s, e, steps)).astype(mstype.to_dtype(dtype).np))


def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th forward difference along ``axis``, after joining ``prepend`` and ``append``.

    Example:
        >>> import mskernel as ms
        >>> print(diff(ms.Tensor([1, 3, 2]), prepend=ms.Tensor([4, 5])))
        [ 1 -4  2 -1]
    """
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    return _diff(x, n, axis, prepend, append)


def _diff(x: Any, n: int, axis: int, prepend: Any, append: Any) -> Tensor:
    t = check_tensor(x, "diff", "x")
    if t.ndim == 0:
        raise ValueError("For 'diff', the input must be at least 1-D.")
    parts = [p for p in (prepend, t, append) if p is not None]
    if len(parts) > 1:
        t = F.concat(tuple(check_tensor(p, "diff", "prepend/append") for p in parts), axis)
    for _ in range(int(n)):
        if t._data.dtype == np.bool_:
            t = F.logical_xor(_slice(t, axis, 1, None), _slice(t, axis, None, -1))
        else:
            t = _slice(t, axis, 1, None) - _slice(t, axis, None, -1)
    return t


def addn(x: Any) -> Tensor:
    """The element-wise sum of a list or tuple of tensors of one shape and dtype.

    Example:
        >>> import mskernel as ms
        >>> print(addn([ms.Tensor([1, 2]), ms.Tensor([3, 4])]))
        [4 6]
    """
    if not isinstance(x, (list, tuple)) or not x:
        raise TypeError(f"For 'AddN', the input 'x' must be a non-empty list or tuple of Tensors, but got "
                        f"{type(x).__name__}.")
    ts = [check_tensor(t, "AddN", "x") for t in x]
    for t in ts[1:]:
        if t.shape != ts[0].shape:
            raise ValueError(f"For 'AddN', the shape of every element of 'x' must be the same, but got "
                             f"{list(ts[0].shape)} and {list(t.shape)}.")
        if t.dtype != ts[0].dtype:
            raise TypeError(f"For 'AddN', the dtype of every element of 'x' must be the same, but got "
                            f"{ts[0].dtype} and {t.dtype}.")
    out = ts[0]
    for t in ts[1:]:
        out = out + t
    return out


def _reduce_std(input: Any, axis: Any = (), unbiased: bool = True, keep_dims: bool = False) -> Tuple[Tensor, Tensor]:
    x = float_input(input, "ReduceStd", "input_x")
    ax = None if axis in ((), []) else tuple(axis) if isinstance(axis, (list, tuple)) else axis
    return F.std(x, ax, int(bool(unbiased)), keep_dims), F.mean(x, ax, keep_dims)


def _square_sum_all(x: Any, y: Any) -> Tuple[Tensor, Tensor]:
    a, b = float_input(x, "SquareSumAll", "x"), float_input(y, "SquareSumAll", "y")
    return F.sum(a * a), F.sum(b * b)


def _median_prim(x: Any, global_median: bool = False, axis: int = 0, keep_dims: bool = False,
                 ignore_nan: bool = False) -> Tuple[Tensor, Tensor]:
    t = check_tensor(x, "Median", "x")
    if global_median:
        flat = F.reshape(t, (-1,))
        val, idx = F.median(flat, 0, False)
        return (F.reshape(val, (1,) * t.ndim) if keep_dims else val), idx
    return F.nanmedian(t, axis, keep_dims) if ignore_nan else F.median(t, axis, keep_dims)


def _bincount_prim(array: Any, size: Any, weights: Any) -> Tensor:
    a = check_tensor(array, "Bincount", "array")
    n = int(size._data) if isinstance(size, Tensor) else int(size)
    w = check_tensor(weights, "Bincount", "weights")
    data = a._data.reshape(-1)
    keep = (data >= 0) & (data < n)
    wd = w._data.reshape(-1)[keep] if w.size else None
    return _w(np.bincount(data[keep], wd, minlength=n)[:n].astype(w._data.dtype))


def _bound(side: str, name: str) -> Any:
    def bound(sorted_x: Any, values: Any, out_type: Any = mstype.int32) -> Tensor:
        s, v = check_tensor(sorted_x, name, "sorted_x"), check_tensor(values, name, "values")
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise ValueError(f"For '{name}', 'sorted_x' and 'values' must be 2-D with the same number of rows, but "
                             f"got {list(s.shape)} and {list(v.shape)}.")
        out = np.stack([np.searchsorted(r, q, side=side) for r, q in zip(s._data, v._data)])
        return _w(out.astype(mstype.to_dtype(out_type).np))
    return bound


def _search_sorted_prim(sorted_sequence: Any, values: Any, sorter: Any = None, dtype: Any = mstype.int64,
                        right: bool = False) -> Tensor:
    return F.searchsorted(sorted_sequence, values, out_int32=mstype.to_dtype(dtype) == mstype.int32, right=right,
                          sorter=sorter)


def _equal_count(x: Any, y: Any) -> Tensor:
    a, b = check_tensor(x, "EqualCount", "x"), check_tensor(y, "EqualCount", "y")
    if a.shape != b.shape:
        raise ValueError(f"For 'EqualCount', 'x' and 'y' must have the same shape, but got {list(a.shape)} and "
                         f"{list(b.shape)}.")
    return _w(np.array([np.sum(a._data == b._data)], a._data.dtype))


def _count_nonzero_prim(x: Any, dims: Any = None) -> Tensor:
    t = check_tensor(x, "CountNonZero", "x")
    axes = () if dims is None else tuple(dims) if isinstance(dims, (list, tuple)) else (int(dims),)
    return F.count_nonzero(t, axes, False, mstype.int64)


def _log_space(start: Any, end: Any, steps: int = 10, base: int = 10, dtype: Any = mstype.float32) -> Tensor:
    return logspace(start, end, steps, base, dtype=dtype)



OPS: List[Op] = [
    Op("cov", "input, *, correction=1, fweights=None, aweights=None", fn=cov, method=True),
    Op("trapz", "y, x=None, *, dx=1.0, dim=-1", fn=trapz),
    Op("nanmean", "input, axis=None, keepdims=False, *, dtype=None", fn=nanmean, method=True),
    Op("nanmedian", "input, axis=-1, keepdims=False", _nanmedian_fwd, _pick_grad, outputs=2, method=True,
       label="Median"),
    Op("_kthvalue", "input, k, dim=-1, keepdim=False", _kth_fwd, _kth_grad, outputs=2, method="kthvalue",
       label="Kthvalue"),
    Op("quantile", "input, q, axis=None, keepdims=False", fn=quantile, method=True),
    Op("nanquantile", "input, q, axis=None, keepdims=False", fn=nanquantile, method=True),
    Op("_quantile_prim", "input, q, dim=None, keep_dims=False, ignore_nan=False", fn=_quantile_prim,
       prim="Quantile(dim=None, keep_dims=False, ignore_nan=False)(input, q) -> input, q, dim, keep_dims, ignore_nan"),
    Op("msort", "input", fn=msort, method=True),
    Op("histc", "input, bins=100, min=0.0, max=0.0", fn=histc, method=True,
       prim="Histogram(bins=100, min=0.0, max=0.0)(x) -> x, bins, min, max"),
    Op("_histogram_fixed_width", "x, range, nbins=100, dtype='int32'", fn=_histogram_fixed_width,
       prim="HistogramFixedWidth(nbins, dtype='int32')(x, range) -> x, range, nbins, dtype"),
    Op("bucketize", "input, boundaries, *, right=False", fn=bucketize,
       prim="Bucketize(boundaries)(input) -> input, boundaries, right=True"),
    Op("logspace", "start, end, steps, base=10, *, dtype=mindspore.float32", fn=logspace, inputs=0),
    Op("_log_space", "start, end, steps=10, base=10, dtype=mindspore.float32", fn=_log_space,
       prim="LogSpace(steps=10, base=10, dtype=mindspore.float32)(start, end) -> start, end, steps, base, dtype"),
    Op("diff", "x, n=1, axis=-1, prepend=None, append=None", fn=diff, method=True),
    Op("diff_ext", "input, n=1, dim=-1, prepend=None, append=None",
       fn=lambda input, n=1, dim=-1, prepend=None, append=None: _diff(input, n, dim, prepend, append)),
    Op("addn", "x", fn=addn, prim="AddN"),
    Op("accumulate_n", "x", fn=lambda x: addn(x), prim="AccumulateNV2"),
    Op("_reduce_std", "input, axis=(), unbiased=True, keep_dims=False", fn=_reduce_std,
       prim="ReduceStd(axis=(), unbiased=True, keep_dims=False)(input_x) -> input_x, axis, unbiased, keep_dims"),
    Op("_square_sum_all", "x, y", fn=_square_sum_all, inputs=2, prim="SquareSumAll"),
    Op("_median_prim", "x, global_median=False, axis=0, keep_dims=False, ignore_nan=False", fn=_median_prim,
       prim="Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x) -> "
            "x, global_median, axis, keep_dims, ignore_nan"),
    Op("_bincount_prim", "array, size, weights", fn=_bincount_prim, inputs=3, prim="Bincount"),
    Op("_lower_bound", "sorted_x, values, out_type=mindspore.int32", fn=_bound("left", "LowerBound"),
       prim="LowerBound(out_type=mindspore.int32)(sorted_x, values) -> sorted_x, values, out_type"),
    Op("_upper_bound", "sorted_x, values, out_type=mindspore.int32", fn=_bound("right", "UpperBound"),
       prim="UpperBound(out_type=mindspore.int32)(sorted_x, values) -> sorted_x, values, out_type"),
    Op("_search_sorted_prim", "sorted_sequence, values, sorter=None, dtype=mindspore.int64, right=False",
       fn=_search_sorted_prim, prim="SearchSorted(dtype=mindspore.int64, right=False)(sorted_sequence, values, "
                                    "sorter=None) -> sorted_sequence, values, sorter, dtype, right"),
    Op("_equal_count", "x, y", fn=_equal_count, inputs=2, prim="EqualCount"),
    Op("_count_nonzero_prim", "x, dims=None", fn=_count_nonzero_prim,
       prim="CountNonZero(dims=None)(x) -> x, dims"),
]


def _with_value(pick: Any) -> Any:
    def method(self: Tensor, axis: Any = 0, keep_dims: bool = False) -> Tuple[Tensor, Tensor]:
        if axis is None:  # the whole tensor: the extreme value, and index 0 as the wheel gives
            val = pick(F.reshape(self, (-1,)), 0, False)[1]
            return val, _w(np.zeros((), np.int64))
        else:
            idx, val = pick(self, axis, keep_dims)
        return val, idx
    return method


#: methods shaped differently from their functional op
METHODS = {
    "ptp": lambda self, axis=None, keepdims=False: F.amax(self, axis, keepdims) - F.amin(self, axis, keepdims),
    "allclose": lambda self, other, rtol=1e-05, atol=1e-08, equal_nan=False: bool(
        np.all(F.isclose(self, other, rtol, atol, equal_nan)._data)),
    "aminmax": lambda self, *, axis=0, keepdims=False: F.aminmax(self, axis=axis, keepdims=keepdims),
    "argmax_with_value": lambda self, axis=0, keep_dims=False: _with_value(F._argmax_with_value)(self, axis, keep_dims),
    "argmin_with_value": lambda self, axis=0, keep_dims=False: _with_value(F._argmin_with_value)(self, axis, keep_dims),
    "bincount": lambda self, weights=None, minlength=0: F.bincount(self, weights, minlength),
    "searchsorted": lambda self, v, side="left", sorter=None: F.searchsorted(self, v, out_int32=True, side=side,
                                                                             sorter=sorter),
}

#: the examples, by op or primitive name: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "nanmedian": ("ops.nanmedian(ms.Tensor([[1.0, float('nan'), 3.0], [4.0, 2.0, 0.5]]), 1)",
                  "(Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00]), "
                  "Tensor(shape=[2], dtype=Int64, value= [0, 1]))"),
    "diff_ext": ("ops.diff_ext(ms.Tensor([1, 3, -1, 0, 4]))", "[ 2 -4  1  4]"),
    "accumulate_n": ("ops.accumulate_n([ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])])", "[4. 6.]"),
    "AddN": ("ops.AddN()([ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])])", "[4. 6.]"),
    "Quantile": ("ops.Quantile()(ms.Tensor([1.0, 2.0, 4.0]), ms.Tensor([0.0, 0.75]))", "[1. 3.]"),
    "Histogram": ("ops.Histogram(bins=4, min=0.0, max=3.0)(ms.Tensor([1.0, 2.0, 1.0]))", "[0. 2. 1. 0.]"),
    "HistogramFixedWidth": ("ops.HistogramFixedWidth(5)(ms.Tensor([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), "
                            "ms.Tensor([0.0, 5.0]))", "[2 1 1 0 2]"),
    "Bucketize": ("ops.Bucketize([1.0, 3.0, 5.0])(ms.Tensor([3, 6]))", "[2 3]"),
    "LogSpace": ("ops.LogSpace(steps=3, base=2)(ms.Tensor(0.0), ms.Tensor(2.0))", "[1. 2. 4.]"),
    "ReduceStd": ("ops.ReduceStd(axis=1)(ms.Tensor([[1.0, 2.0, 3.0]]))[0]", "[1.]"),
    "SquareSumAll": ("ops.SquareSumAll()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0]))[1]", "9.0"),
    "Median": ("ops.Median(axis=0)(ms.Tensor([[5, 1], [3, 5], [1, 6]]))[0]", "[3 5]"),
    "Bincount": ("ops.Bincount()(ms.Tensor([1, 2, 2], ms.int32), ms.Tensor(4, ms.int32), "
                 "ms.Tensor([1.0, 1.0, 1.0]))", "[0. 1. 2. 0.]"),
    "LowerBound": ("ops.LowerBound()(ms.Tensor([[1, 2, 2, 3]]), ms.Tensor([[2]]))", "[[1]]"),
    "UpperBound": ("ops.UpperBound()(ms.Tensor([[1, 2, 2, 3]]), ms.Tensor([[2]]))", "[[3]]"),
    "SearchSorted": ("ops.SearchSorted(right=True)(ms.Tensor([1.0, 2.0, 2.0, 3.0]), ms.Tensor([2.0]))", "[3]"),
    "EqualCount": ("ops.EqualCount()(ms.Tensor([1, 2, 3], ms.int32), ms.Tensor([1, 2, 4], ms.int32))", "[2]"),
    "CountNonZero": ("ops.CountNonZero(dims=[1])(ms.Tensor([[0, 0, 1], [1, 1, 2]]))", "[1 3]"),
}

__all__ = ["OPS", "EXAMPLES", "METHODS"]
