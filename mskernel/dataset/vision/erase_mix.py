"""Erasing and mixing transforms of ``mindspore.dataset.vision``: ``CutOut``, ``Erase``, ``RandomErasing``, and
the batch mixers ``CutMixBatch``, ``MixUp``, ``MixUpBatch`` (``ImageBatchFormat`` names the layout).

Example:
    >>> import numpy as np
    >>> Erase(0, 0, 1, 2, 9)(np.zeros((2, 3, 1), np.uint8))[..., 0].tolist()
    [[9, 9, 0], [0, 0, 0]]
"""
from __future__ import annotations

import math
from enum import Enum
from typing import Any, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision._image import as_array, restore

__all__ = ["CutOut", "Erase", "RandomErasing", "ImageBatchFormat", "CutMixBatch", "MixUp", "MixUpBatch"]


class Erase:
    """Fill the (``top``, ``left``, ``height``, ``width``) region of an HWC image with ``value`` (one value or
    one per channel).

    Example:
        >>> Erase(1, 1, 1, 1, 5)(np.zeros((2, 2, 1), np.uint8))[..., 0].tolist()
        [[0, 0], [0, 5]]
    """

    def __init__(self, top: int, left: int, height: int, width: int,
                 value: Union[float, Sequence[float]] = 0, inplace: bool = False) -> None:
        self.top, self.left, self.height, self.width, self.value = top, left, height, width, value

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        out = a.copy()
        out[self.top:self.top + self.height, self.left:self.left + self.width] = np.asarray(self.value, a.dtype)
        return restore(out, pil)


class CutOut:
    """Fill ``num_patches`` random ``length`` x ``length`` squares with zeros (HWC, or CHW with
    ``is_hwc=False``).

    Example:
        >>> int(CutOut(2)(np.ones((4, 4, 3), np.uint8)).sum()) < 48
        True
    """

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True) -> None:
        if length <= 0 or num_patches <= 0:
            raise ValueError("Input length and num_patches must be greater than 0.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        out = a.copy()
        view = out if self.is_hwc else np.moveaxis(out, 0, -1)
        h, w = view.shape[:2]
        for _ in range(self.num_patches):
            cy, cx = int(config.rng().integers(0, h)), int(config.rng().integers(0, w))
            y0, x0 = max(0, cy - self.length // 2), max(0, cx - self.length // 2)
            view[y0:min(h, y0 + self.length), x0:min(w, x0 + self.length)] = 0
        return restore(out, pil)


class RandomErasing:
    """With probability ``prob``, erase a random region (area fraction from ``scale``, aspect from ``ratio``) of
    a CHW image with ``value`` (a number, one per channel, or ``'random'`` normal noise).

    Example:
        >>> RandomErasing(prob=0.0)(np.ones((3, 4, 4), np.float32)).sum()
        np.float32(48.0)
    """

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33),
                 ratio: Sequence[float] = (0.3, 3.3), value: Any = 0, inplace: bool = False,
                 max_attempts: int = 10) -> None:
        self.prob, self.scale, self.ratio, self.value = prob, tuple(scale), tuple(ratio), value
        self.max_attempts = max_attempts

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        if config.rng().random() >= self.prob:
            return a
        c, h, w = a.shape
        for _ in range(self.max_attempts):
            area = h * w * config.rng().uniform(*self.scale)
            ar = math.exp(config.rng().uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(area * ar))), int(round(math.sqrt(area / ar)))
            if eh < h and ew < w:
                top, left = int(config.rng().integers(0, h - eh + 1)), int(config.rng().integers(0, w - ew + 1))
                out = a.copy()
                if isinstance(self.value, str):
                    out[:, top:top + eh, left:left + ew] = config.rng().normal(size=(c, eh, ew)).astype(a.dtype)
                else:
                    v = np.asarray(self.value, a.dtype).reshape(-1, 1, 1)
                    out[:, top:top + eh, left:left + ew] = v
                return out
        return a


class ImageBatchFormat(Enum):
    """Layout of a batch of images: ``NHWC`` or ``NCHW``.

    Example:
        >>> ImageBatchFormat.NCHW.value
        1
    """
    NHWC = 0
    NCHW = 1


def _labels(op: str, label: Any, n: int) -> np.ndarray:
    lab = np.asarray(label)
    if lab.ndim not in (2, 3) or lab.shape[0] != n:
        raise RuntimeError(f"{op}: wrong labels shape. The second column (labels) must have a shape of NC or NLC "
                           f"where N is the batch size, L is the number of labels in each row, and C is the number "
                           f"of classes. labels must be in one-hot format and in a batch, but got rank: {lab.ndim}")
    return lab.astype(np.float32)


class CutMixBatch:
    """CutMix a batch: for each image (with probability ``prob``), paste a box of another image of the batch
    (area fraction drawn from Beta(``alpha``, ``alpha``)) and mix the one-hot labels by the pasted area.

    Example:
        >>> imgs, labels = CutMixBatch(ImageBatchFormat.NHWC, 1.0, 0.0)(np.zeros((2, 4, 4, 3), np.uint8),
        ...                                                              np.eye(2, dtype=np.int64))
        >>> imgs.shape, labels.dtype
        ((2, 4, 4, 3), dtype('float32'))
    """

    def __init__(self, image_batch_format: ImageBatchFormat, alpha: float = 1.0, prob: float = 1.0) -> None:
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216).")
        self.image_batch_format, self.alpha, self.prob = image_batch_format, alpha, prob

    def __call__(self, images: Any, labels: Any) -> Tuple[np.ndarray, np.ndarray]:
        imgs = np.asarray(images)
        if imgs.ndim != 4:
            raise RuntimeError(f"CutMixBatch: please make sure images are HWC or CHW and batched before calling "
                               f"CutMixBatch, but got rank {imgs.ndim}.")
        n = imgs.shape[0]
        lab = _labels("CutMixBatch", labels, n)
        hwc = imgs if self.image_batch_format == ImageBatchFormat.NHWC else np.moveaxis(imgs, 1, -1)
        out, out_lab = hwc.copy(), lab.copy()
        h, w = hwc.shape[1:3]
        for i in range(n):
            if config.rng().random() >= self.prob:
                continue
            lam = config.rng().beta(self.alpha, self.alpha)
            j = int(config.rng().integers(0, n))
            ch, cw = int(h * math.sqrt(1 - lam)), int(w * math.sqrt(1 - lam))
            cy, cx = int(config.rng().integers(0, h)), int(config.rng().integers(0, w))
            y0, y1 = max(0, cy - ch // 2), min(h, cy + ch // 2)
            x0, x1 = max(0, cx - cw // 2), min(w, cx + cw // 2)
            out[i, y0:y1, x0:x1] = hwc[j, y0:y1, x0:x1]
            frac = (y1 - y0) * (x1 - x0) / float(h * w)
            out_lab[i] = (1 - frac) * lab[i] + frac * lab[j]
        if self.image_batch_format == ImageBatchFormat.NCHW:
            out = np.moveaxis(out, -1, 1)
        return np.ascontiguousarray(out), out_lab


class MixUp:
    """Mix pairs of images and labels of a batch by a weight drawn from Beta(``alpha``, ``alpha``); with
    ``is_single=False`` each call keeps images and labels of earlier calls to mix with (up to ``batch_size``).
    Results are float64.

    Example:
        >>> img, lab = MixUp(batch_size=2, alpha=0.2, is_single=False)(np.zeros((4, 4, 3), np.uint8),
        ...                                                             np.array([[0, 1]]))
        >>> img.shape, lab.shape, img.dtype
        ((2, 4, 4, 3), (2, 2), dtype('float64'))
    """

    def __init__(self, batch_size: int, alpha: float, is_single: bool = True) -> None:
        if batch_size <= 0:
            raise ValueError("Input batch_size is not within the required interval of [1, 2147483647].")
        self.batch_size, self.alpha, self.is_single = batch_size, alpha, is_single
        self.images: list = []
        self.labels: list = []

    def __call__(self, image: Any, label: Any) -> Tuple[np.ndarray, np.ndarray]:
        img, lab = np.asarray(image, np.float64), np.asarray(label, np.float64)
        if self.is_single:
            n = img.shape[0]
            lam = config.rng().beta(self.alpha, self.alpha)
            perm = config.rng().permutation(n)
            return lam * img + (1 - lam) * img[perm], lam * lab + (1 - lam) * lab[perm]
        self.images.append(img)
        self.labels.append(lab[0] if lab.ndim == 2 and lab.shape[0] == 1 else lab)
        while len(self.images) < self.batch_size:
            self.images.append(img)
            self.labels.append(self.labels[-1])
        imgs, labs = np.stack(self.images[-self.batch_size:]), np.stack(self.labels[-self.batch_size:])
        lam = config.rng().beta(self.alpha, self.alpha)
        perm = config.rng().permutation(self.batch_size)
        return lam * imgs + (1 - lam) * imgs[perm], lam * labs + (1 - lam) * labs[perm]


class MixUpBatch:
    """MixUp a batch: each image and one-hot label mixed with those of a shuffled copy of the batch by a weight
    drawn from Beta(``alpha``, ``alpha``); images keep their dtype, labels become float32.

    Example:
        >>> imgs, labels = MixUpBatch()(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2, dtype=np.int64))
        >>> imgs.dtype, labels.dtype
        (dtype('uint8'), dtype('float32'))
    """

    def __init__(self, alpha: float = 1.0) -> None:
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, 16777216).")
        self.alpha = alpha

    def __call__(self, images: Any, labels: Any) -> Tuple[np.ndarray, np.ndarray]:
        from mskernel.dataset.vision._image import saturate
        imgs = np.asarray(images)
        if imgs.ndim != 4:
            raise RuntimeError(f"MixUpBatch: rank of image shape should be 4, but got {imgs.ndim}.")
        lab = _labels("MixUpBatch", labels, imgs.shape[0])
        lam = config.rng().beta(self.alpha, self.alpha)
        perm = config.rng().permutation(imgs.shape[0])
        mixed = lam * imgs.astype(np.float64) + (1 - lam) * imgs[perm].astype(np.float64)
        return saturate(mixed, imgs.dtype), (lam * lab + (1 - lam) * lab[perm]).astype(np.float32)
