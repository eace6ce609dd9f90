"""The first vision transforms: ``Inter``, ``Decode``, ``Resize``, ``Rescale``, ``Normalize``, ``HWC2CHW``,
``ToTensor``, ``CenterCrop``, ``RandomCrop``, ``RandomHorizontalFlip``, ``RandomVerticalFlip`` (re-exported by
:mod:`mskernel.dataset.vision`; the other modules of the package build on them).

Example:
    >>> import numpy as np
    >>> HWC2CHW()(Rescale(1 / 255, 0)(np.zeros((2, 2, 3), np.uint8))).shape
    (3, 2, 2)
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config

__all__ = ["Inter", "Decode", "Resize", "Rescale", "Normalize", "HWC2CHW", "ToTensor", "CenterCrop", "RandomCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip"]


class Inter(Enum):
    """Interpolation modes (MindSpore's ``vision.Inter``).

    Example:
        >>> img = np.array([[0, 10, 20, 30]], np.uint8)
        >>> Resize((1, 2), Inter.NEAREST)(img).tolist(), Resize((1, 2), Inter.LINEAR)(img).tolist()
        ([[0, 20]], [[5, 25]])
        >>> Inter.BILINEAR is Inter.LINEAR
        True
    """
    NEAREST = 0
    LINEAR = 1
    BILINEAR = 1
    CUBIC = 2
    BICUBIC = 2
    AREA = 3
    PILCUBIC = 4


def _size(size: Union[int, Sequence[int]], h: int, w: int) -> Tuple[int, int]:
    if isinstance(size, int):  # the shorter side becomes size, keeping the aspect ratio
        return (size, max(1, int(w * size / h))) if h <= w else (max(1, int(h * size / w)), size)
    return int(size[0]), int(size[1])


class Resize:
    """Resize an HWC (or HW) image to ``size`` ((h, w), or the shorter side for an int).

    Example:
        >>> Resize((1, 2), Inter.NEAREST)(np.array([[0, 10, 20, 30]], np.uint8)).tolist()
        [[0, 20]]
    """

    def __init__(self, size: Union[int, Sequence[int]], interpolation: Inter = Inter.LINEAR) -> None:
        self.size, self.interpolation = size, interpolation

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        h, w = a.shape[:2]
        oh, ow = _size(self.size, h, w)
        ys = (np.arange(oh) + 0.5) * h / oh - 0.5
        xs = (np.arange(ow) + 0.5) * w / ow - 0.5
        if self.interpolation == Inter.NEAREST:
            yi = np.clip(np.floor((np.arange(oh)) * h / oh).astype(int), 0, h - 1)
            xi = np.clip(np.floor((np.arange(ow)) * w / ow).astype(int), 0, w - 1)
            return a[yi][:, xi]
        y0 = np.clip(np.floor(ys).astype(int), 0, h - 1)
        x0 = np.clip(np.floor(xs).astype(int), 0, w - 1)
        y1, x1 = np.clip(y0 + 1, 0, h - 1), np.clip(x0 + 1, 0, w - 1)
        wy = np.clip(ys - y0, 0, 1)[:, None]
        wx = np.clip(xs - x0, 0, 1)[None, :]
        if a.ndim == 3:
            wy, wx = wy[..., None], wx[..., None]
        f = a.astype(np.float64)
        top = f[y0][:, x0] * (1 - wx) + f[y0][:, x1] * wx
        bottom = f[y1][:, x0] * (1 - wx) + f[y1][:, x1] * wx
        out = top * (1 - wy) + bottom * wy
        if a.dtype.kind in "iu":  # halves round up, as OpenCV's resize does (numpy's round would go to even)
            info = np.iinfo(a.dtype)
            return np.clip(np.floor(out + 0.5), info.min, info.max).astype(a.dtype)
        return out.astype(a.dtype)


class Rescale:
    """``img * rescale + shift`` as float32.

    Example:
        >>> Rescale(0.5, 1.0)(np.array([2], np.uint8))
        array([2.], dtype=float32)
    """

    def __init__(self, rescale: float, shift: float) -> None:
        self.rescale, self.shift = rescale, shift

    def __call__(self, img: Any) -> np.ndarray:
        return (np.asarray(img, np.float32) * np.float32(self.rescale) + np.float32(self.shift)).astype(np.float32)


class Normalize:
    """``(img - mean) / std`` per channel (``is_hwc`` says where channels are).

    Example:
        >>> Normalize([1.0], [2.0])(np.array([[[3.0]]]))
        array([[[1.]]], dtype=float32)
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True) -> None:
        self.mean, self.std, self.is_hwc = np.asarray(mean, np.float32), np.asarray(std, np.float32), is_hwc

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img, np.float32)
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        return ((a - self.mean.reshape(shape)) / self.std.reshape(shape)).astype(np.float32)


class Decode:
    """Encoded image bytes → an RGB HWC uint8 array (a PIL image with ``to_pil``).

    Example:
        >>> import io
        >>> from PIL import Image
        >>> buf = io.BytesIO(); Image.fromarray(np.zeros((2, 1, 3), np.uint8)).save(buf, "PNG")
        >>> Decode()(np.frombuffer(buf.getvalue(), np.uint8)).shape
        (2, 1, 3)
    """

    def __init__(self, to_pil: bool = False) -> None:
        self.to_pil = to_pil

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.image_folder import decode_image
        out = decode_image(img)
        if self.to_pil:
            from PIL import Image
            return Image.fromarray(out)
        return out


class HWC2CHW:
    """Move channels first.

    Example:
        >>> HWC2CHW()(np.zeros((4, 5, 3))).shape
        (3, 4, 5)
    """

    def __call__(self, img: Any) -> np.ndarray:
        return np.ascontiguousarray(np.transpose(np.asarray(img), (2, 0, 1)))


class ToTensor:
    """HWC uint8 image → CHW float32 in [0, 1] (``output_type`` may change the dtype).

    Example:
        >>> ToTensor()(np.full((1, 1, 3), 255, np.uint8)).tolist()
        [[[1.0]], [[1.0]], [[1.0]]]
    """

    def __init__(self, output_type: Any = np.float32) -> None:
        self.output_type = getattr(output_type, "np", output_type)

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        if a.ndim == 2:
            a = a[..., None]
        return (np.transpose(a, (2, 0, 1)) / 255.0).astype(self.output_type)


def _crop_size(size: Union[int, Sequence[int]]) -> Tuple[int, int]:
    return (size, size) if isinstance(size, int) else (int(size[0]), int(size[1]))


class CenterCrop:
    """The central ``size`` region.

    Example:
        >>> CenterCrop(2)(np.arange(16).reshape(4, 4)).tolist()
        [[5, 6], [9, 10]]
    """

    def __init__(self, size: Union[int, Sequence[int]]) -> None:
        self.size = _crop_size(size)

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        h, w = a.shape[:2]
        ch, cw = self.size
        top, left = max(0, (h - ch) // 2), max(0, (w - cw) // 2)
        return a[top:top + ch, left:left + cw]


class RandomCrop:
    """A random ``size`` region, after optional zero ``padding``.

    Example:
        >>> RandomCrop(2)(np.zeros((4, 4, 3))).shape
        (2, 2, 3)
    """

    def __init__(self, size: Union[int, Sequence[int]], padding: Any = None, pad_if_needed: bool = False,
                 fill_value: Any = 0, padding_mode: Any = None) -> None:
        self.size, self.padding, self.fill_value = _crop_size(size), padding, fill_value

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        if self.padding:
            p = (self.padding,) * 4 if isinstance(self.padding, int) else tuple(self.padding) * (
                2 if len(self.padding) == 2 else 1)
            pads = [(p[1], p[3]), (p[0], p[2])] + [(0, 0)] * (a.ndim - 2)
            a = np.pad(a, pads, constant_values=self.fill_value)
        h, w = a.shape[:2]
        ch, cw = self.size
        if ch > h or cw > w:
            raise ValueError(f"RandomCrop: crop size {self.size} is larger than the image {(h, w)}.")
        top = int(config.rng().integers(0, h - ch + 1))
        left = int(config.rng().integers(0, w - cw + 1))
        return a[top:top + ch, left:left + cw]


class RandomHorizontalFlip:
    """Flip left-right with probability ``prob``.

    Example:
        >>> RandomHorizontalFlip(1.0)(np.array([[1, 2]])).tolist()
        [[2, 1]]
    """

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = prob

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        return a[:, ::-1].copy() if config.rng().random() < self.prob else a


class RandomVerticalFlip(RandomHorizontalFlip):
    """Flip top-bottom with probability ``prob``.

    Example:
        >>> RandomVerticalFlip(1.0)(np.array([[1], [2]])).tolist()
        [[2], [1]]
    """

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        return a[::-1].copy() if config.rng().random() < self.prob else a

