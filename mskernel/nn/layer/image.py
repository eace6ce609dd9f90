"""Image-quality measures between two image batches (N, C, H, W): ``PSNR``, ``SSIM`` and ``MSSSIM``.

Integer images are scaled to [0, 1] by their dtype's largest value first (``max_val`` too), as MindSpore does;
the structural similarity uses a Gaussian window applied to each channel without padding.

Example:
    >>> import mskernel as ms
    >>> print(PSNR()(ms.Tensor([[[[0.0, 0.5]]]]), ms.Tensor([[[[0.0, 0.0]]]])))
    [9.030899]
"""
from __future__ import annotations

import math
from typing import Any, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["PSNR", "SSIM", "MSSSIM"]


def _positive_number(value: Any, name: str, cls: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cls}', the type of '{name}' should be 'int' or 'float', but got type "
                        f"'{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"For '{cls}', the '{name}' must be greater than 0.0, but got {value}.")
    return value


def _check_4d(x: Tensor, name: str, cls: str) -> None:
    if len(x.shape) != 4:
        raise ValueError(f"For '{cls}', the dimension of '{name}' must be 4d, but got {len(x.shape)}.")


def _same(img1: Tensor, img2: Tensor, cls: str) -> None:
    if img1.dtype != img2.dtype or tuple(img1.shape) != tuple(img2.shape):
        raise TypeError(f"For '{cls}', 'img1' and 'img2' must have the same dtype and shape, but got {img1.dtype} "
                        f"{tuple(img1.shape)} and {img2.dtype} {tuple(img2.shape)}.")


def _to_unit(img: Tensor, max_val: float) -> Tuple[Tensor, float]:
    """The image in float32 (integers divided by their dtype's largest value) and ``max_val`` scaled alike."""
    kind = img._data.dtype
    top = float(np.iinfo(kind).max) if np.issubdtype(kind, np.integer) else 1.0
    out = F.cast(img, mstype.float32)
    if top > 1.0:
        return out * (1.0 / top), float(np.float32(max_val) * np.float32(1.0 / top))
    return out, max_val


def _window(size: int, sigma: float) -> np.ndarray:
    """The normalized 2-D Gaussian window, (1, 1, size, size)."""
    r = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32)
    g = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)[None, None]


def _ssim_and_cs(img1: Tensor, img2: Tensor, window: np.ndarray, c1: float, c2: float) -> Tuple[Tensor, Tensor]:
    """Per image and channel: the mean SSIM and the mean contrast-structure term, (N, C) each."""
    c = img1.shape[1]
    w = Tensor._wrap(np.repeat(window, c, axis=0))

    def blur(x: Tensor) -> Tensor:
        return F.conv2d(x, w, groups=c)
    mu1, mu2 = blur(img1), blur(img2)
    s11 = blur(img1 * img1) - mu1 * mu1
    s22 = blur(img2 * img2) - mu2 * mu2
    s12 = blur(img1 * img2) - mu1 * mu2
    v1, v2 = 2 * s12 + c2, s11 + s22 + c2
    ssim = (2 * mu1 * mu2 + c1) * v1 / ((mu1 * mu1 + mu2 * mu2 + c1) * v2)
    return F.mean(ssim, (2, 3)), F.mean(v1 / v2, (2, 3))


class PSNR(Cell):
    """``nn.PSNR(max_val=1.0)``: ``10 * log10(max_val**2 / mse)`` per image.

    Example:
        >>> import mskernel as ms
        >>> print(PSNR()(ms.Tensor([[[[1, 2, 3, 4], [1, 2, 3, 4]]]]), ms.Tensor([[[[3, 4, 5, 6], [3, 4, 5, 6]]]])))
        [-6.0206]
    """

    def __init__(self, max_val: float = 1.0) -> None:
        super().__init__()
        self.max_val = _positive_number(max_val, "max_val", "PSNR")

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        _same(img1, img2, self.cls_name)
        a, max_val = _to_unit(img1, self.max_val)
        b, _ = _to_unit(img2, self.max_val)
        mse = F.mean(F.square(a - b), (-3, -2, -1))
        return 10 * F.log(float(np.float32(max_val) ** 2) / mse) / math.log(10.0)


class _Structural(Cell):
    def __init__(self, cls: str, max_val: Any, filter_size: int, filter_sigma: float, k1: float, k2: float) -> None:
        super().__init__()
        self.max_val = _positive_number(max_val, "max_val", cls)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
            raise ValueError(f"For '{cls}', the 'filter_size' must be an int and >= 1, but got {filter_size}.")
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float) or filter_sigma <= 0:
            raise ValueError(f"For '{cls}', the 'filter_sigma' must be a positive float, but got {filter_sigma}.")
        for name, k in (("k1", k1), ("k2", k2)):
            if isinstance(k, bool) or not isinstance(k, float):
                raise TypeError(f"For '{cls}', the type of '{name}' should be 'float', but got type "
                                f"'{type(k).__name__}'.")
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self._window = _window(filter_size, filter_sigma)

    def _prepare(self, img1: Tensor, img2: Tensor) -> Tuple[Tensor, Tensor, float, float]:
        a, max_val = _to_unit(img1, self.max_val)
        b, _ = _to_unit(img2, self.max_val)
        return a, b, (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2


class SSIM(_Structural):
    """``nn.SSIM(max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)``: the structural similarity
    of each image pair, averaged over the channels.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(SSIM(filter_size=3)(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)),
        ...                           ms.Tensor(np.ones((1, 1, 4, 4), np.float32))))
        [1.]
    """

    def __init__(self, max_val: float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__("SSIM", max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        if img1.dtype not in (mstype.float32, mstype.float16):
            raise TypeError(f"For '{self.cls_name}', the 'img1' should be float32 or float16, but got {img1.dtype}.")
        _check_4d(img1, "img1", self.cls_name)
        for axis in (2, 3):
            if img1.shape[axis] < self.filter_size:
                raise ValueError(f"For '{self.cls_name}', the 'img1 shape[{axis}]' should be >= 'filter_size' "
                                 f"{self.filter_size}, but got {img1.shape[axis]}.")
        _same(img1, img2, self.cls_name)
        a, b, c1, c2 = self._prepare(img1, img2)
        return F.mean(_ssim_and_cs(a, b, self._window, c1, c2)[0], -1)


class MSSSIM(_Structural):
    """``nn.MSSSIM(max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
    filter_sigma=1.5, k1=0.01, k2=0.03)``: the multi-scale structural similarity: the contrast-structure terms of
    the finer scales and the SSIM of the coarsest (each halved by 2x2 average pooling), raised to the
    ``power_factors`` and multiplied, averaged over the channels.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.ones((1, 3, 16, 16), np.float32))
        >>> print(MSSSIM(power_factors=(0.5, 0.5), filter_size=3)(x, x))
        [1.]
    """

    def __init__(self, max_val: float = 1.0, power_factors: Sequence[float] = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__("MSSSIM", max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', the type of 'power_factors' should be 'tuple' or 'list', but got type "
                            f"'{type(power_factors).__name__}'.")
        self.power_factors = tuple(power_factors)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        _same(img1, img2, self.cls_name)
        a, b, c1, c2 = self._prepare(img1, img2)
        terms = []
        sim = None
        for level in range(len(self.power_factors)):
            sim, cs = _ssim_and_cs(a, b, self._window, c1, c2)
            if level < len(self.power_factors) - 1:
                terms.append(F.relu(cs))
                a, b = F.avg_pool2d(a, 2, 2), F.avg_pool2d(b, 2, 2)
        terms.append(F.relu(sim))
        stacked = F.stack(terms, -1)
        powered = F.pow(stacked, Tensor._wrap(np.asarray(self.power_factors, np.float32)))
        return F.mean(F.prod(powered, -1), -1)
