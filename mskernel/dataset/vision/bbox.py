"""Transforms of an image together with its bounding boxes (rows of x, y, width, height, ...):
``ResizeWithBBox`` and the random crop/flip/resize variants.

Example:
    >>> import numpy as np
    >>> img, box = ResizeWithBBox((2, 4))(np.zeros((4, 4, 3), np.uint8), np.array([[0, 0, 2, 4]], np.float32))
    >>> img.shape, box.tolist()
    ((2, 4, 3), [[0.0, 0.0, 2.0, 2.0]])
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision import random_ops

__all__ = ["ResizeWithBBox", "RandomResizeWithBBox", "RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox",
           "RandomCropWithBBox", "RandomResizedCropWithBBox", "BoundingBoxAugment"]


def _check(op: str, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(img), np.asarray(bboxes)
    if b.ndim != 2 or b.shape[1] < 4:
        raise RuntimeError(f"{op}: bounding boxes should have a shape of (N, C) with C >= 4, but got {b.shape}.")
    h, w = a.shape[:2]
    if np.any(b[:, 0] + b[:, 2] > w) or np.any(b[:, 1] + b[:, 3] > h):
        raise RuntimeError(f"{op}: bounding boxes are out of bounds of the image.")
    return a, b


def _resize(a: np.ndarray, b: np.ndarray, size: Any, interpolation: Any) -> Tuple[np.ndarray, np.ndarray]:
    from mskernel.dataset.vision.basic import Resize
    h, w = a.shape[:2]
    out = Resize(size, interpolation)(a)
    oh, ow = out.shape[:2]
    nb = b.astype(np.float64).copy()
    nb[:, [0, 2]] *= ow / w
    nb[:, [1, 3]] *= oh / h
    return out, nb.astype(b.dtype)


class ResizeWithBBox:
    """:class:`Resize` the image and scale its boxes alike.

    Example:
        >>> ResizeWithBBox(2)(np.zeros((4, 8, 3), np.uint8), np.array([[0, 0, 8, 4]], np.float32))[1].tolist()
        [[0.0, 0.0, 4.0, 2.0]]
    """

    def __init__(self, size: Union[int, Sequence[int]], interpolation: Any = None) -> None:
        from mskernel.dataset.vision.basic import Inter
        self.size, self.interpolation = size, Inter.LINEAR if interpolation is None else interpolation

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        a, b = _check("ResizeWithBBox", img, bboxes)
        return _resize(a, b, self.size, self.interpolation)


class RandomResizeWithBBox(ResizeWithBBox):
    """:class:`ResizeWithBBox` with an interpolation drawn at random.

    Example:
        >>> RandomResizeWithBBox((2, 2))(np.zeros((4, 4, 3), np.float32), np.array([[0, 0, 4, 4]], np.float32))[1]
        array([[0., 0., 2., 2.]], dtype=float32)
    """

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        from mskernel.dataset.vision.basic import Inter
        a, b = _check("RandomResizeWithBBox", img, bboxes)
        mode = [Inter.NEAREST, Inter.BILINEAR][int(config.rng().integers(0, 2))]
        return _resize(a, b, self.size, mode)


class RandomHorizontalFlipWithBBox:
    """Flip left-right, boxes too, with probability ``prob``.

    Example:
        >>> RandomHorizontalFlipWithBBox(1.0)(np.zeros((2, 4, 3)), np.array([[0, 0, 1, 2]], np.float32))[1]
        array([[3., 0., 1., 2.]], dtype=float32)
    """

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = prob

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        a, b = _check(type(self).__name__, img, bboxes)
        if config.rng().random() >= self.prob:
            return a, b
        return self._flip(a, b)

    def _flip(self, a: np.ndarray, b: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        nb = b.copy()
        nb[:, 0] = a.shape[1] - b[:, 0] - b[:, 2]
        return np.ascontiguousarray(a[:, ::-1]), nb


class RandomVerticalFlipWithBBox(RandomHorizontalFlipWithBBox):
    """Flip top-bottom, boxes too, with probability ``prob``.

    Example:
        >>> RandomVerticalFlipWithBBox(1.0)(np.zeros((4, 2, 3)), np.array([[0, 0, 1, 1]], np.float32))[1]
        array([[0., 3., 1., 1.]], dtype=float32)
    """

    def _flip(self, a: np.ndarray, b: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        nb = b.copy()
        nb[:, 1] = a.shape[0] - b[:, 1] - b[:, 3]
        return np.ascontiguousarray(a[::-1]), nb


def _crop_boxes(b: np.ndarray, top: int, left: int, ch: int, cw: int) -> np.ndarray:
    nb = b.astype(np.float64).copy()
    x0 = np.clip(nb[:, 0] - left, 0, cw)
    y0 = np.clip(nb[:, 1] - top, 0, ch)
    x1 = np.clip(nb[:, 0] + nb[:, 2] - left, 0, cw)
    y1 = np.clip(nb[:, 1] + nb[:, 3] - top, 0, ch)
    nb[:, 0], nb[:, 1], nb[:, 2], nb[:, 3] = x0, y0, x1 - x0, y1 - y0
    keep = (nb[:, 2] > 0) & (nb[:, 3] > 0)
    return nb[keep].astype(b.dtype)


class RandomCropWithBBox:
    """A random ``size`` crop (after optional ``padding``); boxes are shifted and clipped, empty ones dropped.

    Example:
        >>> RandomCropWithBBox(4)(np.zeros((4, 4, 3)), np.array([[0, 0, 4, 4]], np.float32))[1].tolist()
        [[0.0, 0.0, 4.0, 4.0]]
    """

    def __init__(self, size: Union[int, Sequence[int]], padding: Any = None, pad_if_needed: bool = False,
                 fill_value: Any = 0, padding_mode: Any = None) -> None:
        from mskernel.dataset.vision.geometry import padding4
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        self.padding = padding4(padding) if padding is not None else (0, 0, 0, 0)
        self.pad_if_needed, self.fill_value = pad_if_needed, fill_value

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        a, b = _check("RandomCropWithBBox", img, bboxes)
        left, top, right, bottom = self.padding
        if any(self.padding):
            a = np.pad(a, [(top, bottom), (left, right)] + [(0, 0)] * (a.ndim - 2),
                       constant_values=self.fill_value)
            b = b.copy()
            b[:, 0] += left
            b[:, 1] += top
        ch, cw = self.size
        h, w = a.shape[:2]
        if ch > h or cw > w:
            raise RuntimeError(f"RandomCropWithBBox: invalid crop size, crop size is bigger than the image "
                               f"dimensions, got crop height: {ch}, crop width: {cw}.")
        y, x = int(config.rng().integers(0, h - ch + 1)), int(config.rng().integers(0, w - cw + 1))
        return np.ascontiguousarray(a[y:y + ch, x:x + cw]), _crop_boxes(b, y, x, ch, cw)


class RandomResizedCropWithBBox(random_ops.RandomResizedCrop):
    """:class:`RandomResizedCrop` with the boxes cropped and scaled alike.

    Example:
        >>> img, box = RandomResizedCropWithBBox((2, 2), (1.0, 1.0), (1.0, 1.0))(
        ...     np.zeros((4, 4, 3)), np.array([[0, 0, 4, 4]], np.float32))
        >>> img.shape, box.tolist()
        ((2, 2, 3), [[0.0, 0.0, 2.0, 2.0]])
    """

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        a, b = _check("RandomResizedCropWithBBox", img, bboxes)
        top, left, ch, cw = random_ops.random_resized_crop_box(a.shape[0], a.shape[1], self.scale, self.ratio,
                                                               self.max_attempts)
        crop = a[top:top + ch, left:left + cw]
        return _resize(crop, _crop_boxes(b, top, left, ch, cw), self.size, self.interpolation)


class BoundingBoxAugment:
    """Apply ``transform`` to the content of each box with probability ``ratio`` (the boxes stay).

    Example:
        >>> from mskernel.dataset.vision import HorizontalFlip
        >>> img = np.arange(8, dtype=np.uint8).reshape(2, 4, 1)
        >>> BoundingBoxAugment(HorizontalFlip(), 1.0)(img, np.array([[0, 0, 2, 1]], np.float32))[0][..., 0].tolist()
        [[1, 0, 2, 3], [4, 5, 6, 7]]
    """

    def __init__(self, transform: Any, ratio: float = 0.3) -> None:
        self.transform, self.ratio = transform, ratio

    def __call__(self, img: Any, bboxes: Any) -> Tuple[np.ndarray, np.ndarray]:
        a, b = _check("BoundingBoxAugment", img, bboxes)
        out = a.copy()
        for x, y, w, h in b[:, :4].astype(int):
            if config.rng().random() < self.ratio:
                out[y:y + h, x:x + w] = np.asarray(self.transform(out[y:y + h, x:x + w].copy()))
        return out, b
