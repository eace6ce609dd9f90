"""Op table: ops MindSpore offers only as primitive classes (no functional op of their own), each measured on the
2.10 CPU wheel: DiagPart, EmbeddingLookup, colour conversions and adjustments, CompareAndBitpack, SubAndFilter,
RaggedRange, NoRepeatNGram, MapUniform, CumulativeLogsumexp, PadV3, and the summary primitives (which record
nothing without a summary collector, as in PyNative mode: they return None).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.DiagPart()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
    [1. 4.]
"""
from __future__ import annotations

import math
from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import summary_cache
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def diag_part(input_x: Any) -> Tensor:
    """The diagonal ``out[i] = x[i, i]`` of a tensor of shape ``dims + dims``."""
    x = check_tensor(input_x, "DiagPart", "input_x")
    k = x.ndim // 2
    if x.ndim == 0 or x.ndim % 2:
        raise ValueError(f"For 'DiagPart', the input's rank must be even and positive, but got shape {x.shape}")
    for a, b in zip(x.shape[:k], x.shape[k:]):
        if a != b:
            raise ValueError(f"For primitive[DiagPart], the attribute[input_shape[i + rank(input_shape) / 2]] must be "
                             f"equal to {a}, but got {b}.")
    n = math.prod(x.shape[:k])
    return F.reshape(F.diagonal(F.reshape(x, (n, n))), x.shape[:k])


def embedding_lookup(input_params: Any, input_indices: Any, offset: int) -> Tensor:
    """Rows ``input_params[input_indices - offset]``; an index outside the table gives a row of zeros."""
    params = check_tensor(input_params, "EmbeddingLookup", "input_params")
    idx = check_tensor(input_indices, "EmbeddingLookup", "input_indices")
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"For 'EmbeddingLookup', 'offset' must be an int, but got {type(offset).__name__}")
    local = idx._data.astype(np.int64) - offset
    inside = (local >= 0) & (local < params.shape[0])
    rows = F.gather(params, Tensor._wrap(np.where(inside, local, 0)), 0)
    mask = Tensor._wrap(inside.reshape(inside.shape + (1,) * (params.ndim - 1)).astype(params._data.dtype))
    return rows * mask


def _rgb_to_hsv(x: np.ndarray) -> np.ndarray:
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v, lo = x.max(-1), x.min(-1)
    delta = v - lo
    safe = np.where(delta == 0, 1, delta)
    h = np.where(v == r, (g - b) / safe, np.where(v == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    h = np.where(delta == 0, 0, np.mod(h / 6.0, 1.0))
    s = np.where(v == 0, 0, delta / np.where(v == 0, 1, v))
    return np.stack([h, s, v], -1).astype(x.dtype)


def _hsv_to_rgb(x: np.ndarray) -> np.ndarray:
    if x.ndim != 4:
        raise ValueError(f"For primitive[HSVToRGB], the the dimension of [x] must be equal to 4, but got {x.ndim}.")
    return _hsv_to_rgb_any(x)


def _hsv_to_rgb_any(x: np.ndarray) -> np.ndarray:
    work = x.astype(np.promote_types(x.dtype, np.float32))  # float16 in float32, rounded once (as the kernel)
    h, s, v = work[..., 0], work[..., 1], work[..., 2]
    c = s * v
    hh = np.mod(h, 1.0) * 6.0
    m = v - c
    t = c * (1 - np.abs(np.mod(hh, 2.0) - 1))
    sector = np.floor(hh).astype(np.int64) % 6
    rgb = [(c, t, 0 * c), (t, c, 0 * c), (0 * c, c, t), (0 * c, t, c), (t, 0 * c, c), (c, 0 * c, t)]
    out = np.zeros(x.shape, work.dtype)
    for k, (r, g, b) in enumerate(rgb):
        at = sector == k
        out[..., 0] = np.where(at, r, out[..., 0])
        out[..., 1] = np.where(at, g, out[..., 1])
        out[..., 2] = np.where(at, b, out[..., 2])
    return (out + m[..., None]).astype(x.dtype)


def _adjust_hue(image: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """RGB images (last axis) with their hue turned by ``delta`` (a fraction of the colour circle)."""
    hsv = _rgb_to_hsv(image.astype(np.promote_types(image.dtype, np.float32)))
    hsv[..., 0] = np.mod(hsv[..., 0] + float(delta), 1.0)
    return _hsv_to_rgb_any(hsv).astype(image.dtype)


def _adjust_saturation(image: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """RGB images (last axis) with their saturation multiplied by ``scale`` (kept within [0, 1])."""
    hsv = _rgb_to_hsv(image.astype(np.promote_types(image.dtype, np.float32)))
    hsv[..., 1] = np.clip(hsv[..., 1] * float(scale), 0.0, 1.0)
    return _hsv_to_rgb_any(hsv).astype(image.dtype)


def _map_uniform(x: np.ndarray, per_group_size: int, group_num: int) -> np.ndarray:
    """Spread ``group_num`` groups of ``per_group_size`` ids evenly: id ``i`` goes to
    ``(i % group_num) * per_group_size + i // group_num``."""
    return ((x % group_num) * per_group_size + x // group_num).astype(x.dtype)


def cumulative_logsumexp(x: Any, axis: Any, exclusive: bool = False, reverse: bool = False) -> Tensor:
    """``log(cumsum(exp(x)))`` along ``axis``, from the end when ``reverse``; ``exclusive`` leaves each element out
    of its own sum (the first is then the lowest float)."""
    t = check_tensor(x, "CumulativeLogsumexp", "x")
    ax = int(axis._data) if isinstance(axis, Tensor) else int(axis)
    if reverse:
        t = F.flip(t, (ax,))
    y = F.logcumsumexp(t, ax)
    if exclusive:
        low = F.full_like(F.narrow(y, ax, 0, 1), float(np.finfo(t._data.dtype).min))
        y = F.cat((low, F.narrow(y, ax, 0, y.shape[ax] - 1)), ax)
    return F.flip(y, (ax,)) if reverse else y


def pad_v3(x: Any, paddings: Any, constant_value: Any = None, mode: str = "constant",
           paddings_contiguous: bool = True) -> Tensor:
    """``x`` padded by ``paddings`` (from the last dimension backwards): as ``(left, right)`` pairs when
    ``paddings_contiguous``, else all the lefts then all the rights; ``mode`` constant, reflect, edge or
    circular."""
    t = check_tensor(x, "PadV3", "x")
    p = [int(v) for v in (paddings._data.reshape(-1) if isinstance(paddings, Tensor) else paddings)]
    if len(p) % 2 or len(p) > 2 * t.ndim:
        raise ValueError(f"For 'PadV3', 'paddings' must hold an even number of values, at most {2 * t.ndim}, but "
                         f"got {len(p)}")
    if not paddings_contiguous:
        half = len(p) // 2
        p = [v for pair in zip(p[:half], p[half:]) for v in pair]
    modes = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "circular": "circular"}
    if mode not in modes:
        raise ValueError(f"For 'PadV3', 'mode' must be one of {sorted(modes)}, but got {mode!r}")
    value = None if constant_value is None else (constant_value.item() if isinstance(constant_value, Tensor)
                                                 else constant_value)
    return F.pad(t, tuple(p), modes[mode], value if mode == "constant" else None)


def _compare_and_bitpack(x: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    if x.ndim == 0 or x.shape[-1] % 8:
        raise ValueError(f"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple of 8, but got "
                         f"shape {list(x.shape)}")
    # the CPU kernel packs a bool input's bits least significant first, a number's compared bits most first
    return np.packbits(x > threshold, axis=-1, bitorder="little" if x.dtype == np.bool_ else "big")


def sub_and_filter(input_x: Any, max_num: int, offset: int) -> Tuple[Tensor, Tensor]:
    """``(x - offset, positions)`` of the elements with ``0 <= x - offset < max_num``."""
    x = check_tensor(input_x, "SubAndFilter", "input_x")._data
    y = x - offset
    keep = np.flatnonzero((y >= 0) & (y < max_num))
    return Tensor._wrap(y.reshape(-1)[keep].astype(x.dtype)), Tensor._wrap(keep.astype(x.dtype))


def ragged_range(starts: Any, limits: Any, deltas: Any, Tsplits: Any = mstype.int64) -> Tuple[Tensor, Tensor]:
    """``(nested splits, dense values)`` of the ranges ``range(starts[i], limits[i], deltas[i])`` one after the
    other."""
    s, lim, d = (check_tensor(t, "RaggedRange", n)._data for t, n in
                 ((starts, "starts"), (limits, "limits"), (deltas, "deltas")))
    s, lim, d = np.broadcast_arrays(s, lim, d)
    if np.any(d == 0):
        raise ValueError("For 'RaggedRange', every element of 'deltas' must be non-zero, but got a zero")
    parts = [np.arange(a, b, c, dtype=s.dtype) for a, b, c in zip(s.reshape(-1), lim.reshape(-1), d.reshape(-1))]
    splits = np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(mstype.to_dtype(Tsplits).np)
    values = np.concatenate(parts) if parts else np.zeros(0, s.dtype)
    return Tensor._wrap(splits), Tensor._wrap(values.astype(s.dtype))


def no_repeat_ngram(state_seq: Any, log_probs: Any, ngram_size: int = 1) -> Tensor:
    """``log_probs`` with every token that would repeat an n-gram of its beam set to the lowest float32."""
    seq = check_tensor(state_seq, "NoRepeatNGram", "state_seq")._data
    lp = check_tensor(log_probs, "NoRepeatNGram", "log_probs")._data.copy()
    n = ngram_size
    if n < 1:
        raise ValueError(f"For 'NoRepeatNGram', 'ngram_size' must be at least 1, but got {n}")
    flat_seq, flat_lp = seq.reshape(-1, seq.shape[-1]), lp.reshape(-1, lp.shape[-1])
    low = np.finfo(np.float32).min
    for row, probs in zip(flat_seq, flat_lp):
        tail = list(row[len(row) - (n - 1):]) if n > 1 else []
        for j in range(len(row) - n + 1):
            if list(row[j:j + n - 1]) == tail:
                probs[row[j + n - 1]] = low
    return Tensor._wrap(flat_lp.reshape(lp.shape))


def _summary_op(op: str) -> Any:
    """The summary operator ``op``: what it is given waits for the next ``SummaryRecord.record``."""
    def keep(name: Any, value: Any) -> None:
        summary_cache.push(op, name, value)
    return keep


_NO_GRAD = dict(dtype="any")

OPS: List[Op] = [
    Op("_diag_part", "input_x", fn=diag_part, prim="DiagPart"),
    Op("_embedding_lookup", "input_params, input_indices, offset", fn=embedding_lookup, prim="EmbeddingLookup"),
    Op("_rgb_to_hsv", "images", _rgb_to_hsv, prim="RGBToHSV", **_NO_GRAD),
    Op("_hsv_to_rgb", "x", _hsv_to_rgb, prim="HSVToRGB", **_NO_GRAD),
    Op("_adjust_hue", "image, delta", _adjust_hue, inputs=2, prim="AdjustHue", **_NO_GRAD),
    Op("_adjust_saturation", "image, scale", _adjust_saturation, inputs=2, prim="AdjustSaturation", **_NO_GRAD),
    Op("_map_uniform", "input_x, per_group_size, group_num", _map_uniform, prim="MapUniform", **_NO_GRAD),
    Op("_cumulative_logsumexp", "x, axis, exclusive=False, reverse=False", fn=cumulative_logsumexp,
       prim="CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis) -> x, axis, exclusive, reverse"),
    Op("_pad_v3", "x, paddings, constant_value=None, mode='constant', paddings_contiguous=True", fn=pad_v3,
       prim="PadV3(mode='constant', paddings_contiguous=True)(x, paddings, constant_value=None) -> x, paddings, "
            "constant_value, mode, paddings_contiguous"),
    Op("_compare_and_bitpack", "x, threshold", _compare_and_bitpack, inputs=2, prim="CompareAndBitpack",
       **_NO_GRAD),
    Op("_sub_and_filter", "input_x, max_num, offset", fn=sub_and_filter, prim="SubAndFilter"),
    Op("_ragged_range", "starts, limits, deltas, Tsplits=mindspore.int64", fn=ragged_range,
       prim="RaggedRange(Tsplits)(starts, limits, deltas) -> starts, limits, deltas, Tsplits"),
    Op("_no_repeat_ngram", "state_seq, log_probs, ngram_size=1", fn=no_repeat_ngram,
       prim="NoRepeatNGram(ngram_size=1)(state_seq, log_probs) -> state_seq, log_probs, ngram_size"),
    Op("_scalar_summary", "name, value", fn=_summary_op("ScalarSummary"), prim="ScalarSummary"),
    Op("_tensor_summary", "name, value", fn=_summary_op("TensorSummary"), prim="TensorSummary"),
    Op("_image_summary", "name, value", fn=_summary_op("ImageSummary"), prim="ImageSummary"),
    Op("_histogram_summary", "name, value", fn=_summary_op("HistogramSummary"), prim="HistogramSummary"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "DiagPart": ("ops.DiagPart()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))", "[1. 4.]"),
    "EmbeddingLookup": ("ops.EmbeddingLookup()(ms.Tensor([[8.0, 9.0], [10.0, 11.0]]), ms.Tensor([3, 2, 4]), 2)",
                        "[[10. 11.]\n [ 8.  9.]\n [ 0.  0.]]"),
    "RGBToHSV": ("ops.RGBToHSV()(ms.Tensor([[[[0.25, 0.5, 0.5]]]]))", "[[[[0.5 0.5 0.5]]]]"),
    "HSVToRGB": ("ops.HSVToRGB()(ms.Tensor([[[[0.5, 0.5, 0.5]]]]))", "[[[[0.25 0.5  0.5 ]]]]"),
    "AdjustHue": ("ops.AdjustHue()(ms.Tensor([[[1.0, 2.0, 3.0]]]), ms.Tensor(0.2))",
                  "[[[2.3999996 1.        3.       ]]]"),
    "AdjustSaturation": ("ops.AdjustSaturation()(ms.Tensor([[[1.0, 2.0, 3.0]]]), ms.Tensor(0.5))",
                         "[[[2.  2.5 3. ]]]"),
    "MapUniform": ("ops.MapUniform()(ms.Tensor([0, 1, 2, 3, 4, 5, 6, 7]), 4, 2)", "[0 4 1 5 2 6 3 7]"),
    "CumulativeLogsumexp": ("ops.CumulativeLogsumexp(exclusive=True)(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor(0))",
                            "[-3.4028235e+38  1.0000000e+00  2.3132617e+00]"),
    "PadV3": ("ops.PadV3(paddings_contiguous=False)(ms.Tensor([[0.0, 1.0, 2.0]]), ms.Tensor([1, 0, 1, 0]), "
              "ms.Tensor(1.5))", "[[1.5 0.  1.  2.  1.5]]"),
    "CompareAndBitpack": ("ops.CompareAndBitpack()(ms.Tensor([1.0, 2, 3, 4, 5, 6, 7, 8]), ms.Tensor(6.0))", "[3]"),
    "SubAndFilter": ("ops.SubAndFilter()(ms.Tensor([1, 3, 5, 8, 9, 16]), 10, 5)[0]", "[0 3 4]"),
    "RaggedRange": ("ops.RaggedRange(ms.int64)(ms.Tensor([2, 5]), ms.Tensor([4, 8]), ms.Tensor([1, 2]))[1]",
                    "[2 3 5 7]"),
    "NoRepeatNGram": ("ops.NoRepeatNGram(2)(ms.Tensor([[[1, 2, 1]]]), ms.Tensor([[[0.1, 0.2, 0.3]]]))",
                      "[[[ 1.0000000e-01  2.0000000e-01 -3.4028235e+38]]]"),
    "ScalarSummary": ("ops.ScalarSummary()('loss', ms.Tensor(0.5))", "None"),
    "TensorSummary": ("ops.TensorSummary()('w', ms.Tensor([0.5]))", "None"),
    "ImageSummary": ("ops.ImageSummary()('img', ops.zeros((1, 3, 2, 2)))", "None"),
    "HistogramSummary": ("ops.HistogramSummary()('h', ms.Tensor([0.5, 1.0]))", "None"),
}
