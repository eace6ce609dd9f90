"""Op table: reading image regions — ``CropAndResize`` (``crop_and_resize``), ``ROIAlign`` and ``ExtractGlimpse``.

Each output pixel is a weighted sum of a few input pixels: the positions are found in numpy, the pixels read by an
index map (``_gather_map``, which carries the gradient for the image) and the weights built with ops where they
depend on a differentiable input (the boxes of ``CropAndResize``), so gradients follow both.

``CropAndResize`` boxes are normalized ``[y1, x1, y2, x2]``: ``y`` maps to ``y * (height - 1)``; a sample outside
the image reads ``extrapolation_value``. ``ROIAlign`` rois are ``[batch, x1, y1, x2, y2]`` in input pixels, scaled
by ``spatial_scale``; each bin averages ``sample_num`` x ``sample_num`` bilinear samples.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 2, 2, 1))
    >>> box = ms.Tensor([[0.0, 0.0, 1.0, 1.0]])
    >>> print(ops.crop_and_resize(x, box, ms.Tensor([0], ms.int32), (1, 1)).reshape(-1))
    [1.5]
"""
from __future__ import annotations

import math
from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import cast_tensor, check_tensor
from mskernel.ops.opdef import F, Op

_CROP = "CropAndResize"


def _float32(x: Tensor) -> Tensor:
    return x if x._data.dtype == np.float32 else cast_tensor(x, mstype.float32)


def _check_crop(image: Tensor, boxes: Tensor, box_index: Tensor, crop_size: Any) -> Tuple[int, int]:
    if image.ndim != 4:
        raise ValueError(f"For primitive[{_CROP}], the [x] rank must be equal to 4, but got {image.ndim}.")
    if boxes.ndim != 2:
        raise ValueError(f"For primitive[{_CROP}], the [boxes] rank must be equal to 2, but got {boxes.ndim}.")
    if boxes.shape[1] != 4:
        raise ValueError(f"For primitive[{_CROP}], the [boxes] dim_1 must be equal to 4, but got {boxes.shape[1]}.")
    if box_index.ndim != 1 or box_index.shape[0] != boxes.shape[0]:
        raise ValueError(f"For '{_CROP}', 'box_index' must be 1-D with as many elements as 'boxes' has rows, but got "
                         f"shape {list(box_index.shape)}.")
    if not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2:
        raise TypeError(f"For '{_CROP}', 'crop_size' must be a tuple of two ints, but got {crop_size!r}.")
    ch, cw = (int(v) for v in crop_size)
    for name, v in (("height", ch), ("width", cw)):
        if v <= 0:
            raise ValueError(f"For primitive[{_CROP}], the [crop] {name} must be greater than 0, but got {v}.")
    bi = box_index._data
    bad = bi[(bi < 0) | (bi >= image.shape[0])]
    if bad.size:
        raise ValueError(f"For '{_CROP}', the value of box_index must be in [0, {image.shape[0]}), but got "
                         f"[{bad[0]}].")
    return ch, cw


def _positions(boxes: Tensor, lo: int, hi: int, size: int, n: int) -> Tensor:
    """(num_boxes, n) sample positions in pixels along one axis, differentiable in the boxes."""
    b_lo = F.getitem(boxes, (slice(None), slice(lo, lo + 1)))
    b_hi = F.getitem(boxes, (slice(None), slice(hi, hi + 1)))
    if n == 1:
        return (b_lo + b_hi) * (0.5 * (size - 1))
    steps = Tensor._wrap((np.arange(n, dtype=np.float32) / (n - 1)).reshape(1, n))
    return b_lo * (size - 1) + (b_hi - b_lo) * (size - 1) * steps


def _pixel_box_positions(boxes: Tensor, lo: int, hi: int, size: int, n: int) -> Tensor:
    """``bilinear_v2``'s sample positions: the box spans the whole pixels ``trunc(lo * size)`` to
    ``trunc(hi * size)`` (truncated toward zero, as the kernel's integer cast), cut into ``n`` bins sampled at
    their centres, kept inside the box's pixels, then inside the image (no gradient for the boxes: the span is
    whole pixels)."""
    v = boxes._data.astype(np.float32)
    start = np.trunc(v[:, lo] * np.float32(size)).astype(np.float64)[:, None]
    last = np.trunc(v[:, hi] * np.float32(size)).astype(np.float64)[:, None]
    pos = start + (np.arange(n)[None, :] + 0.5) * ((last + 1 - start) / n) - 0.5
    pos = np.maximum(np.minimum(pos, last), start)
    return Tensor._wrap(np.clip(pos, 0, size - 1).astype(np.float32))


def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str = "bilinear",
                    extrapolation_value: float = 0.0) -> Tensor:
    """Crops of (batch, height, width, depth) ``image`` at the normalized ``boxes`` of the images ``box_indices``,
    each resized to ``crop_size``: (num_boxes, crop_height, crop_width, depth) float32.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1))
        >>> out = crop_and_resize(x, ms.Tensor([[0.0, 0.0, 0.5, 1.0]]), ms.Tensor([0], ms.int32), (2, 3))
        >>> print(out.reshape(2, 3))
        [[0. 1. 2.]
         [3. 4. 5.]]
    """
    _check_functional(image, boxes, box_indices, crop_size)
    _check_crop_attrs(method, extrapolation_value)
    return _crop(image, boxes, box_indices, crop_size, method, extrapolation_value)


def _check_functional(image: Any, boxes: Any, box_indices: Any, crop_size: Any) -> None:
    """``ops.crop_and_resize``'s own checks, with its texts (the primitive's come from its kernel)."""
    f = "For crop_and_resize"
    for name, v in (("image", image), ("boxes", boxes), ("box_indices", box_indices)):
        if not isinstance(v, Tensor):
            raise TypeError(f"{f}, the input {name} must be a tensor")
    if not isinstance(crop_size, tuple):
        raise TypeError(f"{f}, the input crop_size must be a tuple, but got {type(crop_size)}")
    if len(crop_size) != 2:
        raise ValueError(f"{f}, the crop_size's length must be 2, bot got {len(crop_size)}")
    if image.ndim != 4:
        raise ValueError(f"{f}, the input image must be 4D Tensor, but got is {image.ndim}D")
    if boxes.dtype != mstype.float32:
        raise TypeError(f"{f}, the input boxes must be Float32, but got {boxes.dtype}")
    if boxes.ndim != 2 or boxes.shape[-1] != 4:
        raise ValueError(f"{f}, the input boxes must be 2D and the second-dim must be 4, but got {boxes.shape}")
    if box_indices.dtype != mstype.int32:
        raise TypeError(f"{f}, the input box_indices must be Int32, but got {box_indices.dtype}")
    if box_indices.ndim != 1:
        raise ValueError(f"{f}, the input box_indices must be 1D, but got {box_indices.shape}")
    if boxes.shape[0] != box_indices.shape[0]:
        raise ValueError(f"{f}, the first dim of input box_indices must be equal to that of input boxes, but got "
                         f"{box_indices.shape[0]} vs {boxes.shape[0]}")
    if not isinstance(crop_size[0], int) or not isinstance(crop_size[1], int):
        raise TypeError(f"{f}, the crop_size's value must be int.")
    if crop_size[0] <= 0 or crop_size[1] <= 0:
        raise ValueError(f"{f}, the crop_size's value must be positive.")


def _crop(image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str,
          extrapolation_value: float) -> Tensor:
    x = check_tensor(image, _CROP, "x")
    b = check_tensor(boxes, _CROP, "boxes")
    bi = check_tensor(box_indices, _CROP, "box_index")
    ch, cw = _check_crop(x, b, bi, crop_size)
    x = _float32(x)
    b = _float32(b)
    n, h, w, d = x.shape
    if method == "bilinear_v2":
        ys, xs = _pixel_box_positions(b, 0, 2, h, ch), _pixel_box_positions(b, 1, 3, w, cw)
    else:
        ys, xs = _positions(b, 0, 2, h, ch), _positions(b, 1, 3, w, cw)  # (nb, ch), (nb, cw)
    yv, xv = ys._data.astype(np.float64), xs._data.astype(np.float64)
    inside = ((yv >= 0) & (yv <= h - 1))[:, :, None] & ((xv >= 0) & (xv <= w - 1))[:, None, :]  # (nb, ch, cw)
    base = bi._data.astype(np.int64)[:, None, None] * (h * w)
    chan = np.arange(d, dtype=np.int64)

    def read(yy: np.ndarray, xx: np.ndarray) -> Tensor:
        pos = (base + np.clip(yy, 0, h - 1)[:, :, None] * w + np.clip(xx, 0, w - 1)[:, None, :]) * d
        idx = np.where(inside[..., None], pos[..., None] + chan, -1)
        return F._gather_map(x, idx)

    fill = Tensor._wrap(np.where(inside, 0.0, float(extrapolation_value)).astype(np.float32)[..., None])
    if method == "nearest":
        return read(_round_half_away(yv), _round_half_away(xv)) + fill
    y0, x0 = np.floor(yv).astype(np.int64), np.floor(xv).astype(np.int64)
    y1, x1 = np.ceil(yv).astype(np.int64), np.ceil(xv).astype(np.int64)
    ly = F.reshape(ys - Tensor._wrap(y0.astype(np.float32)), (-1, ch, 1, 1))
    lx = F.reshape(xs - Tensor._wrap(x0.astype(np.float32)), (-1, 1, cw, 1))
    top = read(y0, x0) + (read(y0, x1) - read(y0, x0)) * lx
    bottom = read(y1, x0) + (read(y1, x1) - read(y1, x0)) * lx
    return top + (bottom - top) * ly + fill


def _round_half_away(v: np.ndarray) -> np.ndarray:
    return (np.sign(v) * np.floor(np.abs(v) + 0.5)).astype(np.int64)


def _check_crop_attrs(method: Any, extrapolation_value: Any) -> None:
    if not isinstance(method, str):
        raise TypeError(f"For '{_CROP}', the type of 'method' should be 'str', but got type "
                        f"'{type(method).__name__}'.")
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"For '{_CROP}', the 'method' must be str and must be in "
                         f"'['bilinear', 'nearest', 'bilinear_v2']', but got '{method}'.")
    if not isinstance(extrapolation_value, float):
        raise TypeError(f"For '{_CROP}', the type of 'extrapolation_value' should be 'float', but got type "
                        f"'{type(extrapolation_value).__name__}'.")


def _crop_prim(x: Any, boxes: Any, box_index: Any, crop_size: Any, method: str = "bilinear",
               extrapolation_value: float = 0.0) -> Tensor:
    return _crop(x, boxes, box_index, crop_size, method, extrapolation_value)


_crop_prim.init_check = _check_crop_attrs  # type: ignore[attr-defined]


def _bilinear_taps(v: np.ndarray, size: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For positions ``v`` along an axis of ``size``: the low and high pixel, their weights (0 outside
    ``[-1, size]``), as ROIAlign's bilinear sample reads them."""
    valid = (v >= -1.0) & (v <= size)
    c = np.maximum(v, 0.0)
    low = np.floor(c).astype(np.int64)
    edge = low >= size - 1
    low = np.where(edge, size - 1, low)
    high = np.where(edge, size - 1, low + 1)
    c = np.where(edge, low, c)
    frac = c - low
    return low, high, np.where(valid, 1.0 - frac, 0.0), np.where(valid, frac, 0.0)


def roi_align(features: Any, rois: Any, pooled_height: int, pooled_width: int, spatial_scale: float,
              sample_num: int = 2, roi_end_mode: int = 1) -> Tensor:
    """Region-of-interest pooling by bilinear sampling: (num_rois, C, pooled_height, pooled_width), each bin the
    mean of its ``sample_num`` x ``sample_num`` samples (``0``: as many as the bin is pixels wide, rounded up).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> f = ms.Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32))
        >>> print(roi_align(f, ms.Tensor([[0, 0.2, 0.3, 0.2, 0.3]]), 2, 2, 0.5, 2))
        [[[[1.775 2.025]
           [2.275 2.525]]]]
    """
    op = "ROIAlign"
    x = check_tensor(features, op, "features")
    r = check_tensor(rois, op, "rois")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'features' must be 4, but got {x.ndim}.")
    if r.ndim != 2:
        raise ValueError(f"The argument[rois shape size] must be equal to 2, but got {r.ndim}.")
    if r.shape[1] != 5:
        raise ValueError(f"The argument[second dim of rois shape] must be equal to 5, but got {r.shape[1]}.")
    n, c, h, w = x.shape
    ph, pw = int(pooled_height), int(pooled_width)
    rv = r._data.astype(np.float64)
    # the sums in float64, rounded once to the features' dtype
    wide = cast_tensor(x, mstype.float64) if x._data.dtype != np.float64 else x
    outs = []
    for row in rv:
        batch = int(row[0])
        x1, y1 = row[1] * spatial_scale, row[2] * spatial_scale
        x2, y2 = (row[3] + roi_end_mode) * spatial_scale, (row[4] + roi_end_mode) * spatial_scale
        rw, rh = x2 - x1, y2 - y1
        if roi_end_mode == 0:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = sample_num if sample_num > 0 else int(math.floor(rh / ph))
        gw = sample_num if sample_num > 0 else int(math.floor(rw / pw))
        yy = y1 + (np.arange(ph)[:, None] + (np.arange(gh)[None, :] + 0.5) / gh) * bh  # (ph, gh)
        xx = x1 + (np.arange(pw)[:, None] + (np.arange(gw)[None, :] + 0.5) / gw) * bw  # (pw, gw)
        ylo, yhi, wylo, wyhi = _bilinear_taps(yy, h)
        xlo, xhi, wxlo, wxhi = _bilinear_taps(xx, w)
        idx, wts = [], []
        for ya, wy in ((ylo, wylo), (yhi, wyhi)):
            for xa, wx in ((xlo, wxlo), (xhi, wxhi)):
                # (ph, pw, gh, gw)
                idx.append(ya[:, None, :, None] * w + xa[None, :, None, :])
                wts.append(wy[:, None, :, None] * wx[None, :, None, :] / max(gh * gw, 1))
        if gh * gw == 0:  # a bin too small for one sample: 0 / 0, as the kernel gives
            outs.append(Tensor._wrap(np.full((c, ph, pw), np.nan)))
            continue
        idx_a = np.stack(idx, -1).reshape(ph, pw, -1)
        w_a = np.stack(wts, -1).reshape(ph, pw, -1)
        planes = (batch * c + np.arange(c, dtype=np.int64)) * (h * w)
        taps = F._gather_map(wide, planes[:, None, None, None] + idx_a[None]) * Tensor._wrap(w_a[None])
        outs.append(F.reduce_sum(taps, -1))
    if not outs:
        return Tensor._wrap(np.zeros((0, c, ph, pw), x._data.dtype))
    return cast_tensor(F.stack(outs), x.dtype)


def _check_roi_attrs(pooled_height: Any, pooled_width: Any, spatial_scale: Any, sample_num: Any,
                     roi_end_mode: Any) -> None:
    for name, v, kind in (("pooled_height", pooled_height, int), ("pooled_width", pooled_width, int),
                          ("spatial_scale", spatial_scale, float), ("sample_num", sample_num, int),
                          ("roi_end_mode", roi_end_mode, int)):
        if not isinstance(v, kind) or isinstance(v, bool):
            raise TypeError(f"For 'ROIAlign', the type of '{name}' should be '{kind.__name__}', but got type "
                            f"'{type(v).__name__}'.")
    if roi_end_mode not in (0, 1):
        raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be in range of [0, 1], but got {roi_end_mode}.")


def _roi_align_prim(features: Any, rois: Any, pooled_height: int, pooled_width: int, spatial_scale: float,
                    sample_num: int = 2, roi_end_mode: int = 1) -> Tensor:
    return roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode)


_roi_align_prim.init_check = _check_roi_attrs  # type: ignore[attr-defined]


def extract_glimpse(x: Any, size: Any, offsets: Any, centered: bool = True, normalized: bool = True,
                    uniform_noise: bool = True, noise: str = "uniform") -> Tensor:
    """Windows of ``size`` (height, width) from (batch, height, width, channels) ``x`` around the (y, x)
    ``offsets`` of each image (see the parameters for how offsets are read); where a window leaves the image it is
    filled with ``noise`` ('zero', or random 'uniform' between the image's extremes, or 'gaussian' with the
    image's mean and deviation). The window's pixels carry the gradient to ``x`` (the noise is a draw, constant
    for it); MindSpore 2.10 defines no gradient for ExtractGlimpse and raises "bprop not defined" instead.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1))
        >>> out = extract_glimpse(x, ms.Tensor([2, 2], ms.int32), ms.Tensor([[1.0, 1.0]]), False, False, False, "zero")
        >>> print(out.reshape(2, 2))
        [[0. 1.]
         [3. 4.]]
    """
    op = "ExtractGlimpse"
    t = check_tensor(x, op, "x")
    sz = check_tensor(size, op, "size")._data.reshape(-1)
    off = check_tensor(offsets, op, "offsets")._data.astype(np.float64)
    if t.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'x' must be 4, but got {t.ndim}.")
    if off.ndim != 2 or off.shape[1] != 2 or off.shape[0] != t.shape[0]:
        raise ValueError(f"For '{op}', 'offsets' must have shape (batch_size, 2) = ({t.shape[0]}, 2), but got "
                         f"{list(off.shape)}.")
    if sz.size != 2 or sz.min() <= 0:
        raise ValueError(f"For '{op}', 'size' must hold 2 positive values, but got {sz.tolist()}.")
    gh, gw = int(sz[0]), int(sz[1])
    data = t._data
    n, h, w, c = data.shape
    idx = np.full((n, gh, gw, c), -1, np.int64)  # the flat element of x each output reads, -1 outside the image
    fill = np.zeros((n, gh, gw, c), data.dtype)  # the noise there (a draw: constant for the gradient)
    rng = np.random.default_rng()
    flat = np.arange(data.size, dtype=np.int64).reshape(data.shape)
    for i in range(n):
        y, xx = off[i]
        if normalized:
            y, xx = y * h, xx * w
        if centered:
            y, xx = y / 2.0 + h / 2.0, xx / 2.0 + w / 2.0
        top, left = int(y - gh / 2.0), int(xx - gw / 2.0)
        img = data[i]
        if noise == "gaussian":
            fill[i] = rng.normal(img.mean(), img.std(), (gh, gw, c))
        elif noise != "zero":
            fill[i] = rng.uniform(img.min(), img.max(), (gh, gw, c))
        ys, xs = max(top, 0), max(left, 0)
        ye, xe = min(top + gh, h), min(left + gw, w)
        if ys < ye and xs < xe:
            idx[i, ys - top:ye - top, xs - left:xe - left] = flat[i, ys:ye, xs:xe]
            fill[i, ys - top:ye - top, xs - left:xe - left] = 0
    if not np.any(fill):
        return F._gather_map(t, idx)
    return F._gather_map(t, idx) + Tensor._wrap(fill)


def _check_glimpse_attrs(centered: Any, normalized: Any, uniform_noise: Any, noise: Any) -> None:
    op = "ExtractGlimpse"
    for name, v in (("centered", centered), ("normalized", normalized), ("uniform_noise", uniform_noise)):
        if not isinstance(v, bool):
            raise TypeError(f"For '{op}', the type of '{name}' should be bool, but got {type(v).__name__}.")
    if noise not in ("uniform", "gaussian", "zero"):
        raise ValueError(f"For '{op}', the 'noise' should be one of ['uniform', 'gaussian', 'zero'], but got "
                         f"{noise}.")
    if uniform_noise and noise != "uniform":
        raise ValueError(f"For '{op}', the value of 'noise' must be uniform when uniform_noise is True, but got "
                         f"{noise}.")


def _glimpse_prim(x: Any, size: Any, offsets: Any, centered: bool = True, normalized: bool = True,
                  uniform_noise: bool = True, noise: str = "uniform") -> Tensor:
    return extract_glimpse(x, size, offsets, centered, normalized, uniform_noise, noise)


_glimpse_prim.init_check = _check_glimpse_attrs  # type: ignore[attr-defined]


OPS: List[Op] = [
    Op("crop_and_resize", "image, boxes, box_indices, crop_size, method='bilinear', extrapolation_value=0.0",
       fn=crop_and_resize),
    Op("_crop_and_resize_primitive", "x, boxes, box_index, crop_size, method='bilinear', extrapolation_value=0.0",
       fn=_crop_prim,
       prim="CropAndResize(method='bilinear', extrapolation_value=0.0)(x, boxes, box_index, crop_size) -> x, boxes, "
            "box_index, crop_size, method, extrapolation_value"),
    Op("_roi_align", "features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1",
       fn=_roi_align_prim,
       prim="ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois) -> "
            "features, rois, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode"),
    Op("_extract_glimpse", "x, size, offsets, centered=True, normalized=True, uniform_noise=True, noise='uniform'",
       fn=_glimpse_prim,
       prim="ExtractGlimpse(centered=True, normalized=True, uniform_noise=True, noise='uniform')(x, size, offsets) "
            "-> x, size, offsets, centered, normalized, uniform_noise, noise"),
]

EXAMPLES = {
    "CropAndResize": ("x = ms.Tensor([[[[0.0], [1.0]], [[2.0], [3.0]]]])",
                      "ops.CropAndResize()(x, ms.Tensor([[0.0, 0.0, 1.0, 1.0]]), ms.Tensor([0], ms.int32), (1, 2))",
                      "[[[[1.]\n   [2.]]]]"),
    "ROIAlign": ("f = ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]])",
                 "ops.ROIAlign(2, 2, 0.5, 2)(f, ms.Tensor([[0, 0.2, 0.3, 0.2, 0.3]]))",
                 "[[[[1.775 2.025]\n   [2.275 2.525]]]]"),
    "ExtractGlimpse": ("x = ms.Tensor([[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]])",
                       "op = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, noise='zero')",
                       "op(x, ms.Tensor([2, 2], ms.int32), ms.Tensor([[1.0, 1.0]])).reshape(2, 2)",
                       "[[0. 1.]\n [3. 4.]]"),
}
