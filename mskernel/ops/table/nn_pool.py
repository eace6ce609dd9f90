"""Op table: pooling — max_pool2d (with indices), avg_pool2d/avg_pool1d, adaptive_avg_pool1d/2d,
adaptive_max_pool2d and the ``MaxPool``/``AvgPool`` primitives.

Max pooling picks one element per window: a gather by the index map of the chosen positions
(:func:`rearrange.gather_map`), so its gradient goes to that element and differentiates again. Average
pooling is a depthwise convolution with a constant kernel (divided by the window's count), adaptive average
pooling one averaging matrix per spatial axis applied by matmul.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> print(ops.max_pool2d(x, 2)[0, 0], ops.avg_pool2d(x, 2, 2)[0, 0])
    [[ 5.  7.]
     [13. 15.]] [[ 2.5  4.5]
     [10.5 12.5]]
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_conv import _windows, pads4, pair, same_pads
from mskernel.ops.table.nn_resize import _matrix, apply_axis
from mskernel.ops.table.rearrange import _index, gather_map


def _out_len(size: int, k: int, s: int, d: int, lo: int, hi: int, ceil_mode: bool) -> int:
    span = size + lo + hi - d * (k - 1) - 1
    n = (math.ceil(span / s) if ceil_mode else span // s) + 1
    if ceil_mode and (n - 1) * s >= size + lo:  # the last window must start inside the input or left padding
        n -= 1
    return n


def _pool_pads(x: Tensor, k: tuple, s: tuple, d: tuple, padding: Any, ceil_mode: bool, op: str) -> tuple:
    t, b, lft, r = pads4(padding, op)
    oh = _out_len(x.shape[2], k[0], s[0], d[0], t, b, ceil_mode)
    ow = _out_len(x.shape[3], k[1], s[1], d[1], lft, r, ceil_mode)
    extra_h = max((oh - 1) * s[0] + d[0] * (k[0] - 1) + 1 - (x.shape[2] + t + b), 0)
    extra_w = max((ow - 1) * s[1] + d[1] * (k[1] - 1) + 1 - (x.shape[3] + lft + r), 0)
    return (t, b + extra_h, lft, r + extra_w), (oh, ow)


def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               return_indices: bool = False, ceil_mode: bool = False) -> Any:
    """The largest element of each window (``stride`` defaults to ``kernel_size``); with ``return_indices``
    also each one's flat position in its (H, W) plane (Int64).

    Example:
        >>> import mskernel as ms
        >>> out, idx = max_pool2d(ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)), 2, 1,
        ...                       return_indices=True)
        >>> print(idx[0, 0])
        [[4 5]
         [7 8]]
    """
    t = check_tensor(x, "MaxPool2D", "x")
    if t.ndim != 4:
        raise ValueError(f"For 'MaxPool2D', the input must be 4-D (N, C, H, W), but got {t.ndim}-D.")
    k = pair(kernel_size, "kernel_size", "MaxPool2D")
    s = k if stride is None or stride == 0 else pair(stride, "stride", "MaxPool2D")
    d = pair(dilation, "dilation", "MaxPool2D")
    (pt, pb, pl, pr), (oh, ow) = _pool_pads(t, k, s, d, padding, ceil_mode, "MaxPool2D")
    vals = t._data
    if pt or pb or pl or pr:
        vals = np.pad(vals, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=-np.inf)
    wv = _windows(vals, k, s, d)[:, :, :oh, :ow]
    n, c, h, w = t.shape
    # a running maximum over the window's k*k offsets (strided views, no copy of the windows); `at` is the offset
    # of each window's first maximum, in the window's row-major order, as its flat distance from the window's start
    best = wv[..., 0, 0].copy()
    at = np.zeros(best.shape, np.int64)
    better = np.empty(best.shape, np.bool_)
    for i in range(k[0]):
        for j in range(k[1]):
            if i == 0 and j == 0:
                continue
            cand = wv[..., i, j]
            np.greater(cand, best, out=better)
            np.copyto(best, cand, where=better)
            np.putmask(at, better, i * d[0] * w + j * d[1])
    start = ((np.arange(n)[:, None] * c + np.arange(c)[None, :]) * (h * w))[:, :, None, None] \
        + ((np.arange(oh) * s[0] - pt) * w)[:, None] + (np.arange(ow) * s[1] - pl)[None, :]
    chosen = np.add(at, start, out=at)  # each window's start plus the offset of its maximum
    out = gather_map(t, chosen)
    if return_indices:
        return out, Tensor._wrap((chosen % (t.shape[2] * t.shape[3])).astype(np.int64))
    return out


def _avg(x: Tensor, k: tuple, s: tuple, pads: tuple, out_hw: tuple, count_include_pad: bool,
         divisor: Optional[int]) -> Tensor:
    c = x.shape[1]
    pt, pb, pl, pr = pads
    xp = F.pad(x, (pl, pr, pt, pb)) if any(pads) else x
    ones = Tensor._wrap(np.ones((c, 1) + k, x._data.dtype))
    summed = F.getitem(F._conv2d(xp, ones, s, (1, 1), c), (slice(None), slice(None), slice(0, out_hw[0]),
                                                              slice(0, out_hw[1])))
    if divisor:
        return summed / float(divisor)
    mask = np.zeros((1, 1, x.shape[2] + pt + pb, x.shape[3] + pl + pr), x._data.dtype)
    if count_include_pad:
        mask[...] = 1
    else:
        mask[..., pt:pt + x.shape[2], pl:pl + x.shape[3]] = 1
    counts = _windows(mask, k, s, (1, 1))[:, :, :out_hw[0], :out_hw[1]].sum(axis=(-1, -2))
    return summed / Tensor._wrap(np.maximum(counts, 1).astype(x._data.dtype))


def avg_pool2d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """The mean of each window (zero padding counted unless ``count_include_pad`` is False).

    Example:
        >>> import mskernel as ms
        >>> print(avg_pool2d(ms.Tensor(np.ones((1, 1, 2, 2), np.float32)), 2, 1, padding=1,
        ...                  count_include_pad=False)[0, 0])
        [[1. 1. 1.]
         [1. 1. 1.]
         [1. 1. 1.]]
    """
    t = check_tensor(input_x, "AvgPool2D", "input_x")
    if t.ndim != 4:
        raise ValueError(f"For 'AvgPool2D', the input must be 4-D (N, C, H, W), but got {t.ndim}-D.")
    k = pair(kernel_size, "kernel_size", "AvgPool2D")
    s = pair(stride, "stride", "AvgPool2D")
    pads, out_hw = _pool_pads(t, k, s, (1, 1), padding, ceil_mode, "AvgPool2D")
    if count_include_pad and not divisor_override and pads != pads4(padding, "AvgPool2D"):
        explicit = pads4(padding, "AvgPool2D")  # ceil_mode's extra cells are not counted
        return _avg_exact(t, k, s, explicit, pads, out_hw)
    return _avg(t, k, s, pads, out_hw, count_include_pad, divisor_override or None)


def _avg_exact(t: Tensor, k: tuple, s: tuple, explicit: tuple, pads: tuple, out_hw: tuple) -> Tensor:
    pt, pb, pl, pr = pads
    mask = np.zeros((1, 1, t.shape[2] + pt + pb, t.shape[3] + pl + pr), t._data.dtype)
    et, eb, el, er = explicit
    mask[..., :t.shape[2] + et + eb, :t.shape[3] + el + er] = 1
    c = t.shape[1]
    xp = F.pad(t, (pl, pr, pt, pb))
    ones = Tensor._wrap(np.ones((c, 1) + k, t._data.dtype))
    summed = F.getitem(F._conv2d(xp, ones, s, (1, 1), c), (slice(None), slice(None), slice(0, out_hw[0]),
                                                              slice(0, out_hw[1])))
    counts = _windows(mask, k, s, (1, 1))[:, :, :out_hw[0], :out_hw[1]].sum(axis=(-1, -2))
    return summed / Tensor._wrap(np.maximum(counts, 1).astype(t._data.dtype))


def avg_pool1d(input_x: Any, kernel_size: int = 1, stride: int = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each window of an (N, C, L) input.

    Example:
        >>> import mskernel as ms
        >>> print(avg_pool1d(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2, 2))
        [[[1.5 3.5]]]
    """
    t = check_tensor(input_x, "AvgPool1D", "input_x")
    p = padding if isinstance(padding, int) else tuple(padding)[0]
    out = avg_pool2d(F.expand_dims(t, 2), (1, kernel_size), (1, stride), (0, 0, p, p), ceil_mode, count_include_pad)
    return F.squeeze(out, 2)


def _adaptive_sizes(x: Tensor, output_size: Any, n: int) -> Tuple[int, ...]:
    sizes = (output_size,) * n if isinstance(output_size, (int, np.integer)) or output_size is None else \
        tuple(output_size)
    spatial = x.shape[-n:]
    return tuple(spatial[i] if v is None else int(v) for i, v in enumerate(sizes))


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:
    """Average over the regions that split H and W into ``output_size`` cells (None keeps a size).

    Example:
        >>> import mskernel as ms
        >>> print(adaptive_avg_pool2d(ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (1, 2)))
        [[[2. 3.]]]
    """
    x = check_tensor(input, "AdaptiveAvgPool2D", "input")
    if x.ndim not in (3, 4):
        raise ValueError(f"For 'AdaptiveAvgPool2D', the input must be 3-D or 4-D, but got {x.ndim}-D.")
    oh, ow = _adaptive_sizes(x, output_size, 2)
    mh = _matrix("area", x.shape[-2], oh, None, False)
    mw = _matrix("area", x.shape[-1], ow, None, False)
    return apply_axis(apply_axis(x, mw, x.ndim - 1), mh, x.ndim - 2)


def adaptive_avg_pool1d(input: Any, output_size: int) -> Tensor:
    """Average over the regions that split the last axis into ``output_size`` cells.

    Example:
        >>> import mskernel as ms
        >>> print(adaptive_avg_pool1d(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2))
        [[[1.5 3.5]]]
    """
    x = check_tensor(input, "AdaptiveAvgPool1D", "input")
    return apply_axis(x, _matrix("area", x.shape[-1], int(output_size), None, False), x.ndim - 1)


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """The largest element of each adaptive region (and its flat position with ``return_indices``).

    Example:
        >>> import mskernel as ms
        >>> print(adaptive_max_pool2d(ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (1, 1)))
        [[[5.]]]
    """
    x = check_tensor(input, "AdaptiveMaxPool2D", "input")
    oh, ow = _adaptive_sizes(x, output_size, 2)
    h, w = x.shape[-2:]
    pos = _index(x.shape)
    chosen = np.empty(x.shape[:-2] + (oh, ow), np.int64)
    for i in range(oh):
        r0, r1 = (i * h) // oh, -(-((i + 1) * h) // oh)
        for j in range(ow):
            c0, c1 = (j * w) // ow, -(-((j + 1) * w) // ow)
            block = x._data[..., r0:r1, c0:c1].reshape(x.shape[:-2] + (-1,))
            pick = np.argmax(block, axis=-1)[..., None]
            chosen[..., i, j] = np.take_along_axis(pos[..., r0:r1, c0:c1].reshape(block.shape), pick, -1)[..., 0]
    out = gather_map(x, chosen)
    if return_indices:
        return out, Tensor._wrap((chosen % (h * w)).astype(np.int64))
    return out


def _prim_pool(kind: str) -> Any:
    def fn(x: Any, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", data_format: str = "NCHW") -> Any:
        t = check_tensor(x, kind, "x")
        k = pair(kernel_size, "kernel_size", kind) if isinstance(kernel_size, int) or len(tuple(kernel_size)) == 2 \
            else tuple(kernel_size)[2:]
        s = pair(strides, "strides", kind) if isinstance(strides, int) or len(tuple(strides)) == 2 \
            else tuple(strides)[2:]
        mode = pad_mode.lower()
        if mode not in ("valid", "same"):
            raise ValueError(f"For '{kind}', 'pad_mode' must be 'valid' or 'same', but got {pad_mode!r}.")
        pads = (0, 0, 0, 0)
        if mode == "same":
            (a, b), (c, d) = same_pads(t.shape[2], k[0], s[0], 1), same_pads(t.shape[3], k[1], s[1], 1)
            pads = (a, b, c, d)
        if kind == "MaxPool":
            return max_pool2d(t, k, s, pads)
        oh = (t.shape[2] + pads[0] + pads[1] - k[0]) // s[0] + 1
        ow = (t.shape[3] + pads[2] + pads[3] - k[1]) // s[1] + 1
        return _avg(t, k, s, pads, (oh, ow), False, None)  # MindSpore's AvgPool 'same' divides by the real count
    return fn


OPS: List[Op] = [
    Op("max_pool2d", "x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False",
       fn=max_pool2d),
    Op("avg_pool2d", "input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True, "
       "divisor_override=0", fn=avg_pool2d),
    Op("avg_pool1d", "input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True",
       fn=avg_pool1d),
    Op("adaptive_avg_pool2d", "input, output_size", fn=adaptive_avg_pool2d),
    Op("adaptive_avg_pool1d", "input, output_size", fn=adaptive_avg_pool1d),
    Op("adaptive_max_pool2d", "input, output_size, return_indices=False", fn=adaptive_max_pool2d),
    Op("_max_pool_primitive", "x, kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'",
       fn=_prim_pool("MaxPool"),
       prim="MaxPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x) -> x, kernel_size, "
            "strides, pad_mode, data_format"),
    Op("_avg_pool_primitive", "x, kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW'",
       fn=_prim_pool("AvgPool"),
       prim="AvgPool(kernel_size=1, strides=1, pad_mode='valid', data_format='NCHW')(x) -> x, kernel_size, "
            "strides, pad_mode, data_format"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "MaxPool": ("import numpy as np",
                "x = ms.Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))",
                "ops.MaxPool(kernel_size=2, strides=2)(x)",
                "[[[[ 5.  7.]\n   [13. 15.]]]]"),
    "AvgPool": ("import numpy as np",
                "x = ms.Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))",
                "ops.AvgPool(kernel_size=2, strides=2)(x)",
                "[[[[ 2.5  4.5]\n   [10.5 12.5]]]]"),
}
