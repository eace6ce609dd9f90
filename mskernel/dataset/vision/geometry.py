"""Geometric transforms of ``mindspore.dataset.vision``: crops, flips, padding, rotation, affine and perspective
warps, patches.

Warps map each output pixel back into the input (nearest: round half up; bilinear: the four neighbours),
with ``fill_value`` outside.

Example:
    >>> import numpy as np
    >>> img = np.arange(12, dtype=np.uint8).reshape(3, 4)
    >>> Crop((1, 1), 2)(img).tolist(), HorizontalFlip()(img)[0].tolist(), Pad(1)(img).shape
    ([[5, 6], [9, 10]], [3, 2, 1, 0], (5, 6))
"""
from __future__ import annotations

import math
from enum import Enum
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision._image import as_array, restore, saturate

__all__ = ["Border", "Crop", "HorizontalFlip", "VerticalFlip", "Pad", "PadToSize", "Rotate", "Affine",
           "Perspective", "ResizedCrop", "FiveCrop", "TenCrop", "SliceMode", "SlicePatches", "warp"]


class Border(str, Enum):
    """Padding modes: a constant, the edge value, reflection without (``REFLECT``) or with (``SYMMETRIC``) the
    edge repeated.

    Example:
        >>> Border.REFLECT.value
        'reflect'
    """
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


def _pair(size: Union[int, Sequence[int]], name: str = "size") -> Tuple[int, int]:
    if isinstance(size, int):
        return size, size
    s = tuple(int(v) for v in size)
    if len(s) == 1:
        return s[0], s[0]
    if len(s) != 2:
        raise TypeError(f"{name} should be a single integer or a list/tuple (h, w) of length 2.")
    return s  # type: ignore[return-value]


def _fill(a: np.ndarray, fill_value: Union[int, Sequence[int]]) -> Any:
    if isinstance(fill_value, (int, float)):
        return fill_value
    return np.asarray(fill_value, a.dtype)


def _pad(a: np.ndarray, top: int, bottom: int, left: int, right: int, fill: Any, mode: Border) -> np.ndarray:
    pads = [(top, bottom), (left, right)] + [(0, 0)] * (a.ndim - 2)
    if mode == Border.CONSTANT:
        if isinstance(fill, np.ndarray) and a.ndim == 3:
            out = np.empty((a.shape[0] + top + bottom, a.shape[1] + left + right, a.shape[2]), a.dtype)
            out[...] = fill[:a.shape[2]]
            out[top:top + a.shape[0], left:left + a.shape[1]] = a
            return out
        return np.pad(a, pads, mode="constant", constant_values=fill)
    return np.pad(a, pads, mode=mode.value)


class Crop:
    """The ``size`` region whose top-left corner is ``coordinates`` (top, left).

    Example:
        >>> Crop((0, 1), (1, 2))(np.arange(6).reshape(2, 3)).tolist()
        [[1, 2]]
    """

    def __init__(self, coordinates: Sequence[int], size: Union[int, Sequence[int]]) -> None:
        self.coordinates, self.size = tuple(coordinates), _pair(size)

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        top, left = self.coordinates
        h, w = self.size
        if top + h > a.shape[0] or left + w > a.shape[1]:
            raise RuntimeError(f"Crop: Crop height dimension: {top + h} exceeds image height: {a.shape[0]}."
                               if top + h > a.shape[0] else
                               f"Crop: Crop width dimension: {left + w} exceeds image width: {a.shape[1]}.")
        return restore(np.ascontiguousarray(a[top:top + h, left:left + w]), pil)


class HorizontalFlip:
    """Mirror left-right.

    Example:
        >>> HorizontalFlip()(np.array([[1, 2]])).tolist()
        [[2, 1]]
    """

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        return restore(np.ascontiguousarray(a[:, ::-1]), pil)


class VerticalFlip:
    """Mirror top-bottom.

    Example:
        >>> VerticalFlip()(np.array([[1], [2]])).tolist()
        [[2], [1]]
    """

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        return restore(np.ascontiguousarray(a[::-1]), pil)


def padding4(padding: Union[int, Sequence[int]]) -> Tuple[int, int, int, int]:
    """``padding`` (one value, (left/right, top/bottom) or (left, top, right, bottom)) as (left, top, right,
    bottom).

    Example:
        >>> padding4(1), padding4((1, 2)), padding4([1, 2, 3, 4])
        ((1, 1, 1, 1), (1, 2, 1, 2), (1, 2, 3, 4))
    """
    if isinstance(padding, int):
        return (padding,) * 4  # type: ignore[return-value]
    p = tuple(int(v) for v in padding)
    if len(p) == 1:
        return (p[0],) * 4  # type: ignore[return-value]
    if len(p) == 2:
        return p[0], p[1], p[0], p[1]
    if len(p) == 4:
        return p  # type: ignore[return-value]
    raise TypeError("The size of the padding list or tuple should be 2 or 4.")


class Pad:
    """Pad by ``padding`` (left, top, right, bottom; one value or two also accepted) with ``fill_value`` or a
    :class:`Border` mode.

    Example:
        >>> Pad([1, 0, 0, 0], 9)(np.array([[1, 2]], np.uint8)).tolist()
        [[9, 1, 2]]
    """

    def __init__(self, padding: Union[int, Sequence[int]], fill_value: Union[int, Sequence[int]] = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.padding, self.fill_value, self.padding_mode = padding4(padding), fill_value, Border(padding_mode)

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        left, top, right, bottom = self.padding
        return restore(_pad(a, top, bottom, left, right, _fill(a, self.fill_value), self.padding_mode), pil)


class PadToSize:
    """Pad to ``size`` (h, w): at ``offset`` (top, left; one int for both), centred when ``offset`` is None.

    Example:
        >>> PadToSize((3, 3))(np.ones((1, 1), np.uint8)).tolist()
        [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    """

    def __init__(self, size: Union[int, Sequence[int]], offset: Optional[Union[int, Sequence[int]]] = None,
                 fill_value: Union[int, Sequence[int]] = 0, padding_mode: Border = Border.CONSTANT) -> None:
        self.size = _pair(size)
        self.offset = None if offset is None else _pair(offset, "offset")
        self.fill_value, self.padding_mode = fill_value, Border(padding_mode)

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        h, w = a.shape[:2]
        th, tw = self.size
        if th < h or tw < w:
            raise RuntimeError(f"PadToSize: the target size to pad should be no less than the original image size, "
                               f"but got target size {[th, tw]} and original size {[h, w]}.")
        top, left = ((th - h) // 2, (tw - w) // 2) if self.offset is None else self.offset
        if top + h > th or left + w > tw:
            raise RuntimeError(f"PadToSize: the sum of offset and original image size should be no more than the "
                               f"target size, but got offset {[top, left]} plus original size {[h, w]} bigger than "
                               f"target size {[th, tw]}.")
        out = _pad(a, top, th - h - top, left, tw - w - left, _fill(a, self.fill_value), self.padding_mode)
        return restore(out, pil)


def warp(a: np.ndarray, inverse: np.ndarray, out_hw: Tuple[int, int], nearest: bool,
         fill: Any = 0) -> np.ndarray:
    """Sample ``a`` at ``inverse @ (x, y, 1)`` for every output pixel (a 2x3 affine or 3x3 projective
    matrix), ``fill`` outside.

    Example:
        >>> warp(np.arange(4.0).reshape(2, 2), np.array([[1.0, 0, 1], [0, 1, 0]]), (2, 2), True).tolist()
        [[1.0, 0.0], [3.0, 0.0]]
    """
    oh, ow = out_hw
    ys, xs = np.mgrid[0:oh, 0:ow].astype(np.float64)
    pts = np.stack([xs, ys, np.ones_like(xs)], -1)
    src = pts @ inverse.T
    if inverse.shape[0] == 3:
        z = np.where(src[..., 2] == 0, 1e-12, src[..., 2])
        src = src[..., :2] / z[..., None]
    sx, sy = src[..., 0], src[..., 1]
    h, w = a.shape[:2]
    f = a.astype(np.float64)
    blank = np.zeros((oh, ow) + a.shape[2:], np.float64)
    blank[...] = np.asarray(fill, np.float64)
    if nearest:
        xi, yi = np.floor(sx + 0.5).astype(int), np.floor(sy + 0.5).astype(int)
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        out = blank
        out[ok] = f[yi[ok], xi[ok]]
    else:
        x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
        dx, dy = sx - x0, sy - y0
        out = np.zeros_like(blank)
        for oy, ox, wgt in ((0, 0, (1 - dx) * (1 - dy)), (0, 1, dx * (1 - dy)), (1, 0, (1 - dx) * dy),
                            (1, 1, dx * dy)):
            xx, yy = x0 + ox, y0 + oy
            ok = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
            val = blank.copy()
            val[ok] = f[yy[ok], xx[ok]]
            out += val * (wgt[..., None] if a.ndim == 3 else wgt)
    return saturate(out, a.dtype)


def _nearest(resample: Any) -> bool:
    from mskernel.dataset.vision.basic import Inter
    return Inter(resample) == Inter.NEAREST if not isinstance(resample, Inter) else resample == Inter.NEAREST


def _rotation(angle: float, cx: float, cy: float) -> np.ndarray:
    """The forward 2x3 matrix rotating by ``angle`` degrees counter-clockwise about (cx, cy)."""
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, s, (1 - c) * cx - s * cy], [-s, c, s * cx + (1 - c) * cy]])


def _invert_affine(m: np.ndarray) -> np.ndarray:
    full = np.vstack([m, [0, 0, 1]])
    return np.linalg.inv(full)[:2]


class Rotate:
    """Rotate by ``degrees`` counter-clockwise about ``center`` (x, y; the image centre by default);
    ``expand`` grows the output to hold the whole rotated image.

    Example:
        >>> Rotate(90)(np.array([[1, 2], [3, 4]], np.uint8)).tolist()
        [[2, 4], [1, 3]]
    """

    def __init__(self, degrees: float, resample: Any = None, expand: bool = False,
                 center: Optional[Sequence[float]] = None, fill_value: Union[int, Sequence[int]] = 0) -> None:
        from mskernel.dataset.vision.basic import Inter
        self.degrees, self.resample = degrees, Inter.NEAREST if resample is None else resample
        self.expand, self.center, self.fill_value = expand, center, fill_value

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        h, w = a.shape[:2]
        cx, cy = ((w - 1) / 2.0, (h - 1) / 2.0) if self.center is None else tuple(self.center)
        m = _rotation(self.degrees, cx, cy)
        oh, ow = h, w
        if self.expand:
            t = math.radians(self.degrees)
            c, s = abs(math.cos(t)), abs(math.sin(t))
            ow, oh = int(round(h * s + w * c)), int(round(h * c + w * s))
            m[0, 2] += (ow - w) / 2.0
            m[1, 2] += (oh - h) / 2.0
        out = warp(a, _invert_affine(m), (oh, ow), _nearest(self.resample), _fill(a, self.fill_value))
        return restore(out, pil)


def affine_matrix(degrees: float, translate: Sequence[float], scale: float, shear: Sequence[float],
                  cx: float, cy: float) -> np.ndarray:
    """The forward 2x3 matrix: about (cx, cy), rotate by ``degrees`` (clockwise), shear (x, y degrees), scale,
    then shift by ``translate`` pixels.

    Example:
        >>> (affine_matrix(0, (1, 2), 1.0, (0, 0), 0, 0) + 0.0).tolist()
        [[1.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
    """
    rot, sx, sy = math.radians(degrees), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    lin = np.array([[a, b], [c, d]]) * scale
    t = np.array([cx + translate[0], cy + translate[1]]) - lin @ np.array([cx, cy])
    return np.hstack([lin, t[:, None]])


class Affine:
    """An affine warp about the image centre: ``degrees`` of clockwise rotation, ``translate`` (x, y) as
    fractions of the width and height, ``scale``, ``shear`` (x, y) in degrees.

    Example:
        >>> Affine(0, [0.5, 0], 1.0, [0, 0])(np.array([[1, 2, 3, 4]], np.uint8)).tolist()
        [[0, 0, 1, 2]]
    """

    def __init__(self, degrees: float, translate: Sequence[float], scale: float, shear: Union[float, Sequence[float]],
                 resample: Any = None, fill_value: Union[int, Sequence[int]] = 0) -> None:
        from mskernel.dataset.vision.basic import Inter
        if scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        self.degrees, self.translate, self.scale = degrees, tuple(translate), scale
        self.shear = (shear, 0.0) if isinstance(shear, (int, float)) else tuple(shear)
        self.resample, self.fill_value = Inter.NEAREST if resample is None else resample, fill_value

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        h, w = a.shape[:2]
        shift = (self.translate[0] * w, self.translate[1] * h)
        m = affine_matrix(self.degrees, shift, self.scale, self.shear, (w - 1) / 2.0, (h - 1) / 2.0)
        out = warp(a, _invert_affine(m), (h, w), _nearest(self.resample), _fill(a, self.fill_value))
        return restore(out, pil)


def perspective_matrix(src: Sequence[Sequence[float]], dst: Sequence[Sequence[float]]) -> np.ndarray:
    """The 3x3 projective matrix taking the four ``src`` points to the four ``dst`` points.

    Example:
        >>> pts = [[0, 0], [1, 0], [1, 1], [0, 1]]
        >>> np.round(perspective_matrix(pts, pts), 6).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    p = np.linalg.solve(np.array(rows, np.float64), np.array(rhs, np.float64))
    return np.append(p, 1.0).reshape(3, 3)


class Perspective:
    """The projective warp taking ``start_points`` to ``end_points`` (four (x, y) corners each).

    Example:
        >>> pts = [[0, 0], [1, 0], [1, 1], [0, 1]]
        >>> Perspective(pts, pts)(np.array([[1, 2], [3, 4]], np.uint8)).tolist()
        [[1, 2], [3, 4]]
    """

    def __init__(self, start_points: Sequence[Sequence[int]], end_points: Sequence[Sequence[int]],
                 interpolation: Any = None) -> None:
        from mskernel.dataset.vision.basic import Inter
        if len(start_points) != 4 or len(end_points) != 4:
            raise TypeError("start_points and end_points should each be a list of 4 points [x, y].")
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = Inter.BILINEAR if interpolation is None else interpolation

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        inverse = perspective_matrix(self.end_points, self.start_points)
        return restore(warp(a, inverse, a.shape[:2], _nearest(self.interpolation)), pil)


class ResizedCrop:
    """Crop the (``top``, ``left``, ``height``, ``width``) region, then resize it to ``size``.

    Example:
        >>> ResizedCrop(0, 0, 2, 2, (4, 4))(np.zeros((3, 3, 3), np.uint8)).shape
        (4, 4, 3)
    """

    def __init__(self, top: int, left: int, height: int, width: int, size: Union[int, Sequence[int]],
                 interpolation: Any = None) -> None:
        from mskernel.dataset.vision.basic import Inter
        self.top, self.left, self.height, self.width = top, left, height, width
        self.size, self.interpolation = size, Inter.BILINEAR if interpolation is None else interpolation

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision.basic import Resize
        a, pil = as_array(img)
        if self.top + self.height > a.shape[0] or self.left + self.width > a.shape[1]:
            raise RuntimeError(f"ResizedCrop: the crop region ({self.top}, {self.left}, {self.height}, "
                               f"{self.width}) exceeds the image of size {list(a.shape[:2])}.")
        crop = a[self.top:self.top + self.height, self.left:self.left + self.width]
        return restore(Resize(self.size, self.interpolation)(crop), pil)


def _pil_crops(op: str, img: Any, size: Union[int, Sequence[int]]) -> List[Any]:
    from mskernel.dataset.vision._image import is_pil
    if not is_pil(img):
        raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded data or ToPIL() for "
                        f"decoded data.")
    ch, cw = _pair(size)
    w, h = img.size
    if ch > h or cw > w:
        raise ValueError(f"Crop size {(ch, cw)} is larger than input image size {(h, w)}.")
    tl = img.crop((0, 0, cw, ch))
    tr = img.crop((w - cw, 0, w, ch))
    bl = img.crop((0, h - ch, cw, h))
    br = img.crop((w - cw, h - ch, w, h))
    top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
    center = img.crop((left, top, left + cw, top + ch))
    return [tl, tr, bl, br, center]


class FiveCrop:
    """The four corner crops and the central crop of a PIL image, as a tuple.

    Example:
        >>> from PIL import Image
        >>> [c.size for c in FiveCrop(2)(Image.new("RGB", (4, 3)))]
        [(2, 2), (2, 2), (2, 2), (2, 2), (2, 2)]
    """

    def __init__(self, size: Union[int, Sequence[int]]) -> None:
        self.size = size

    def __call__(self, img: Any) -> tuple:
        return tuple(_pil_crops("FiveCrop", img, self.size))


class TenCrop:
    """The five crops of :class:`FiveCrop` and those of the flipped image (left-right, or top-bottom with
    ``use_vertical_flip``).

    Example:
        >>> from PIL import Image
        >>> len(TenCrop(2)(Image.new("RGB", (4, 3))))
        10
    """

    def __init__(self, size: Union[int, Sequence[int]], use_vertical_flip: bool = False) -> None:
        self.size, self.use_vertical_flip = size, use_vertical_flip

    def __call__(self, img: Any) -> tuple:
        from PIL import Image
        flip = img.transpose(Image.FLIP_TOP_BOTTOM if self.use_vertical_flip else Image.FLIP_LEFT_RIGHT) \
            if hasattr(img, "transpose") else img
        return tuple(_pil_crops("TenCrop", img, self.size) + _pil_crops("TenCrop", flip, self.size))


class SliceMode(Enum):
    """How :class:`SlicePatches` treats a remainder: ``PAD`` it out or ``DROP`` it.

    Example:
        >>> SliceMode.PAD.name
        'PAD'
    """
    PAD = 0
    DROP = 1


class SlicePatches:
    """Cut an image into ``num_height`` x ``num_width`` patches (row by row); a size not divisible is padded
    with ``fill_value`` at the bottom/right (``SliceMode.PAD``) or cut short (``SliceMode.DROP``).

    Example:
        >>> [p.shape for p in SlicePatches(1, 2)(np.zeros((2, 4, 3)))]
        [(2, 2, 3), (2, 2, 3)]
    """

    def __init__(self, num_height: int = 1, num_width: int = 1, slice_mode: SliceMode = SliceMode.PAD,
                 fill_value: int = 0) -> None:
        self.num_height, self.num_width, self.slice_mode, self.fill_value = num_height, num_width, slice_mode, \
            fill_value

    def __call__(self, img: Any) -> tuple:
        a = np.asarray(img)
        h, w = a.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // self.num_height), -(-w // self.num_width)
            a = _pad(a, 0, ph * self.num_height - h, 0, pw * self.num_width - w, self.fill_value, Border.CONSTANT)
        else:
            ph, pw = h // self.num_height, w // self.num_width
        return tuple(np.ascontiguousarray(a[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw])
                     for i in range(self.num_height) for j in range(self.num_width))


def rng_uniform(lo: float, hi: float) -> float:
    """One uniform draw from the dataset generator (``lo`` when the range is empty).

    Example:
        >>> rng_uniform(2.0, 2.0)
        2.0
    """
    return float(config.rng().uniform(lo, hi)) if hi > lo else float(lo)
