"""Colour transforms of ``mindspore.dataset.vision``: brightness, contrast, saturation, hue, gamma, sharpness,
autocontrast, equalize, invert, posterize, solarize, grayscale, colour-space conversions, Gaussian blur.

Integer images are computed in float64 and rounded half to even into their dtype (as OpenCV's saturating casts
do); float images keep their dtype and are not clipped unless stated.

Example:
    >>> import numpy as np
    >>> img = np.array([[[10, 20, 30]]], np.uint8)
    >>> AdjustBrightness(2.0)(img).tolist(), Invert()(img).tolist(), Posterize(4)(img).tolist()
    ([[[20, 40, 60]]], [[[245, 235, 225]]], [[[0, 16, 16]]])
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision._image import as_array, check_hwc, restore, saturate

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation", "AdjustSharpness",
           "AutoContrast", "Equalize", "Invert", "Posterize", "Solarize", "Grayscale", "ConvertMode", "ConvertColor",
           "RgbToHsv", "HsvToRgb", "GaussianBlur", "gray"]

_LUMA = np.array([0.299, 0.587, 0.114])


def gray(a: np.ndarray) -> np.ndarray:
    """The luma of an RGB image (0.299 R + 0.587 G + 0.114 B), rounded for integer images.

    Example:
        >>> gray(np.array([[[255, 0, 0]]], np.uint8)).tolist()
        [[76]]
    """
    g = a[..., :3].astype(np.float64) @ _LUMA
    return saturate(g, a.dtype) if a.dtype.kind in "iu" else g.astype(a.dtype)


def _rgb(op: str, img: Any) -> Tuple[np.ndarray, bool]:
    a, pil = as_array(img)
    if a.ndim != 3 or a.shape[2] != 3:
        got = a.shape[2] if a.ndim == 3 else 1
        raise RuntimeError(f"{op}: the image should be <H, W, 3> (RGB), but got {got} channel(s), shape {a.shape}.")
    return a, pil


def _blend(op: str, img: Any, factor: float, other: Any) -> Any:
    """``img * factor + other * (1 - factor)`` in the image's dtype."""
    a, pil = as_array(img)
    out = a.astype(np.float64) * factor + np.asarray(other, np.float64) * (1 - factor)
    return restore(saturate(out, a.dtype), pil)


def _factor(op: str, name: str, value: float) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'float'>, <class 'int'>], "
                        f"but got {type(value)}.")
    if value < 0:
        raise ValueError(f"Input {name} is not within the required interval of [0, 16777216].")
    return float(value)


class AdjustBrightness:
    """Scale every pixel by ``brightness_factor`` (integer images saturate; float images are not clipped).

    Example:
        >>> AdjustBrightness(1.5)(np.array([[[21, 63, 200]]], np.uint8)).tolist()
        [[[32, 94, 255]]]
    """

    def __init__(self, brightness_factor: float) -> None:
        self.brightness_factor = _factor("AdjustBrightness", "brightness_factor", brightness_factor)

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        check_hwc("AdjustBrightness", a, (3,))
        if a.dtype.kind == "f":
            return restore((a * a.dtype.type(self.brightness_factor)).astype(a.dtype), pil)
        return restore(saturate(a.astype(np.float32) * np.float32(self.brightness_factor), a.dtype), pil)


class AdjustContrast:
    """Blend with the (rounded) mean of the image's luma: ``img * f + mean * (1 - f)``.

    Example:
        >>> AdjustContrast(0.0)(np.array([[[0, 0, 0], [255, 255, 255]]], np.uint8)).tolist()
        [[[128, 128, 128], [128, 128, 128]]]
    """

    def __init__(self, contrast_factor: float) -> None:
        self.contrast_factor = _factor("AdjustContrast", "contrast_factor", contrast_factor)

    def __call__(self, img: Any) -> Any:
        a, _ = _rgb("AdjustContrast", img)
        mean = gray(a).astype(np.float64).mean()
        if a.dtype.kind in "iu":
            mean = np.rint(mean)
        return _blend("AdjustContrast", img, self.contrast_factor, mean)


class AdjustSaturation:
    """Blend with the image's luma: ``img * f + gray * (1 - f)``.

    Example:
        >>> AdjustSaturation(0.0)(np.array([[[255, 0, 0]]], np.uint8)).tolist()
        [[[76, 76, 76]]]
    """

    def __init__(self, saturation_factor: float) -> None:
        self.saturation_factor = _factor("AdjustSaturation", "saturation_factor", saturation_factor)

    def __call__(self, img: Any) -> Any:
        a, _ = _rgb("AdjustSaturation", img)
        return _blend("AdjustSaturation", img, self.saturation_factor, gray(a)[..., None])


class AdjustGamma:
    """``gain * x ** gamma`` on intensities in [0, 1]: integer images through a 256-entry table
    (``floor(255.999 * gain * (i / 255) ** gamma)``, clipped); float images as ``(gain * x) ** gamma`` clipped to
    [0, 1].

    Example:
        >>> AdjustGamma(2.0)(np.array([[[0, 128, 255]]], np.uint8)).tolist()
        [[[0, 64, 255]]]
    """

    def __init__(self, gamma: float, gain: float = 1.0) -> None:
        self.gamma = _factor("AdjustGamma", "gamma", gamma)
        self.gain = gain

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        if a.dtype == np.uint8:
            lut = np.clip(np.floor(255.999 * self.gain * (np.arange(256) / 255.0) ** self.gamma), 0, 255)
            return restore(lut.astype(np.uint8)[a], pil)
        out = np.clip(np.power(a.astype(np.float64) * self.gain, self.gamma), 0, 1)
        return restore(out.astype(a.dtype), pil)


def _rgb_to_hsv(rgb: np.ndarray) -> np.ndarray:
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    mx, mn = rgb.max(-1), rgb.min(-1)
    d = mx - mn
    safe = np.where(d == 0, 1, d)
    h = np.where(mx == r, (g - b) / safe, np.where(mx == g, 2.0 + (b - r) / safe, 4.0 + (r - g) / safe))
    h = np.where(d == 0, 0.0, (h / 6.0) % 1.0)
    s = np.where(mx == 0, 0.0, d / np.where(mx == 0, 1, mx))
    return np.stack([h, s, mx], -1)


def _hsv_to_rgb(hsv: np.ndarray) -> np.ndarray:
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(int) % 6
    choices = [np.stack(c, -1) for c in ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q))]
    out = np.select([(i == k)[..., None] for k in range(6)], choices)
    return np.where((s == 0)[..., None], np.stack([v, v, v], -1), out)


class AdjustHue:
    """Rotate the hue by ``hue_factor`` (in [-0.5, 0.5]) of a full turn, through HSV.

    Example:
        >>> AdjustHue(0.0)(np.array([[[10, 20, 30]]], np.uint8)).tolist()
        [[[10, 20, 30]]]
    """

    def __init__(self, hue_factor: float) -> None:
        if not -0.5 <= hue_factor <= 0.5:
            raise ValueError("Input hue_factor is not within the required interval of [-0.5, 0.5].")
        self.hue_factor = hue_factor

    def __call__(self, img: Any) -> Any:
        a, pil = _rgb("AdjustHue", img)
        scale = 255.0 if a.dtype.kind in "iu" else 1.0
        hsv = _rgb_to_hsv(a.astype(np.float64) / scale)
        hsv[..., 0] = (hsv[..., 0] + self.hue_factor) % 1.0
        return restore(saturate(_hsv_to_rgb(hsv) * scale, a.dtype), pil)


class AdjustSharpness:
    """Blend with a smoothed copy (3x3 kernel, centre weight 5 of 13; the border pixels stay): factor 0 blurs,
    1 is the identity, 2 sharpens. Pillow's ``ImageEnhance.Sharpness`` is used for uint8 images.

    Example:
        >>> img = np.arange(9, dtype=np.uint8).reshape(3, 3) * 20
        >>> AdjustSharpness(1.0)(img).tolist() == img.tolist()
        True
    """

    def __init__(self, sharpness_factor: float) -> None:
        self.sharpness_factor = _factor("AdjustSharpness", "sharpness_factor", sharpness_factor)

    def __call__(self, img: Any) -> Any:
        from PIL import Image, ImageEnhance
        a, pil = as_array(img)
        check_hwc("AdjustSharpness", a, (1, 3))
        squeeze = a.ndim == 3 and a.shape[2] == 1
        src = a[..., 0] if squeeze else a
        if a.dtype == np.uint8:
            out = np.asarray(ImageEnhance.Sharpness(Image.fromarray(src)).enhance(self.sharpness_factor))
        else:
            f = src.astype(np.float64)
            k = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float64) / 13.0
            blur = f.copy()
            inner = sum(k[i, j] * f[i:f.shape[0] - 2 + i, j:f.shape[1] - 2 + j] for i in range(3) for j in range(3))
            blur[1:-1, 1:-1] = inner
            out = (f * self.sharpness_factor + blur * (1 - self.sharpness_factor)).astype(a.dtype)
        return restore(out[..., None] if squeeze else out, pil)


def _per_channel(a: np.ndarray, fn: Any) -> np.ndarray:
    if a.ndim == 2:
        return fn(a)
    return np.stack([fn(a[..., c]) for c in range(a.shape[2])], -1)


class AutoContrast:
    """Stretch each channel to [0, 255] after dropping ``cutoff`` percent of the darkest and brightest pixels;
    intensities in ``ignore`` are left out of the histogram.

    Example:
        >>> AutoContrast()(np.array([[50, 100]], np.uint8)).tolist()
        [[0, 255]]
    """

    def __init__(self, cutoff: float = 0.0, ignore: Optional[Union[int, Sequence[int]]] = None) -> None:
        if not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        self.cutoff = cutoff
        self.ignore = [ignore] if isinstance(ignore, int) else list(ignore or [])

    def _channel(self, ch: np.ndarray) -> np.ndarray:
        hist = np.bincount(ch.ravel(), minlength=256).astype(np.int64)
        for i in self.ignore:
            hist[i] = 0
        n = int(hist.sum())
        cut = int(n * self.cutoff / 100)
        if cut:
            low = hist.copy()
            remove = cut
            for i in range(256):
                take = min(low[i], remove)
                low[i] -= take
                remove -= take
            remove = cut
            for i in range(255, -1, -1):
                take = min(low[i], remove)
                low[i] -= take
                remove -= take
            hist = low
        nz = np.nonzero(hist)[0]
        if nz.size == 0 or nz[-1] <= nz[0]:
            return ch
        lo, hi = int(nz[0]), int(nz[-1])
        lut = np.clip(np.floor((np.arange(256) - lo) * 255.0 / (hi - lo)), 0, 255).astype(np.uint8)
        return lut[ch]

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        check_hwc("AutoContrast", a, (1, 3))
        return restore(_per_channel(a, self._channel), pil)


def _equalize_channel(ch: np.ndarray) -> np.ndarray:
    hist = np.bincount(ch.ravel(), minlength=256)
    first = int(np.nonzero(hist)[0][0])
    if hist[first] == ch.size:
        return np.full_like(ch, first)
    scale = np.float32(255.0) / np.float32(ch.size - hist[first])
    lut = np.rint((np.cumsum(hist) - hist[first]).astype(np.float32) * scale)
    lut[:first + 1] = 0
    return np.clip(lut, 0, 255).astype(np.uint8)[ch]


class Equalize:
    """Histogram equalization of each channel of a uint8 image.

    Example:
        >>> Equalize()(np.array([[0, 10, 10, 200]], np.uint8)).tolist()
        [[0, 170, 170, 255]]
    """

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        check_hwc("Equalize", a, (1, 3))
        return restore(_per_channel(a, _equalize_channel), pil)


class Invert:
    """``255 - img``.

    Example:
        >>> Invert()(np.array([[0, 200]], np.uint8)).tolist()
        [[255, 55]]
    """

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        check_hwc("Invert", a, (3,))
        return restore(saturate(255.0 - a.astype(np.float64), a.dtype), pil)


class Posterize:
    """Keep the ``bits`` highest bits of each uint8 value.

    Example:
        >>> Posterize(2)(np.array([[200, 100]], np.uint8)).tolist()
        [[192, 64]]
    """

    def __init__(self, bits: int) -> None:
        if not isinstance(bits, int) or isinstance(bits, bool):
            raise TypeError(f"Argument bits with value {bits} is not of type [<class 'int'>], but got {type(bits)}.")
        if not 0 <= bits <= 8:
            raise ValueError("Input bits is not within the required interval of [0, 8].")
        self.bits = bits

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        mask = np.uint8((0xFF << (8 - self.bits)) & 0xFF)
        return restore(a & mask, pil)


class Solarize:
    """Invert the values within ``threshold`` (a number t means [t, 255]; a pair the closed range).

    Example:
        >>> Solarize(100)(np.array([[50, 150]], np.uint8)).tolist()
        [[50, 105]]
    """

    def __init__(self, threshold: Union[float, Sequence[float]]) -> None:
        t = (threshold, 255) if isinstance(threshold, (int, float)) else tuple(threshold)
        if len(t) != 2 or t[0] > t[1]:
            raise ValueError(f"threshold must be a number or a pair (min, max) with min <= max, but got {threshold}.")
        self.threshold = t

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        lo, hi = self.threshold
        inv = saturate(255.0 - a.astype(np.float64), a.dtype)
        return restore(np.where((a >= lo) & (a <= hi), inv, a), pil)


class Grayscale:
    """A PIL image to grayscale (Pillow's luma), with 1 or 3 output channels.

    Example:
        >>> from PIL import Image
        >>> Grayscale(3)(Image.new("RGB", (2, 1), (255, 0, 0))).mode
        'RGB'
    """

    def __init__(self, num_output_channels: int = 1) -> None:
        if num_output_channels not in (1, 3):
            raise ValueError(f"Number of channels of the output grayscale img should be 1 or 3. "
                             f"Got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision._image import is_pil
        if not is_pil(img):
            raise TypeError(f"img should be PIL image. Got {type(img)}. Use Decode() for encoded data or ToPIL() "
                            f"for decoded data.")
        g = img.convert("L")
        return g if self.num_output_channels == 1 else g.convert("RGB")


class ConvertMode(Enum):
    """Colour-space conversions of :class:`ConvertColor`.

    Example:
        >>> ConvertMode.COLOR_RGB2GRAY.name
        'COLOR_RGB2GRAY'
    """
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def _alpha(a: np.ndarray) -> np.ndarray:
    full = np.iinfo(a.dtype).max if a.dtype.kind in "iu" else 1
    return np.full(a.shape[:2] + (1,), full, a.dtype)


_CONVERT = {  # value of ConvertMode -> (input channels, function)
    0: (3, lambda a: np.concatenate([a, _alpha(a)], -1)),
    1: (4, lambda a: a[..., :3]),
    2: (3, lambda a: np.concatenate([a[..., ::-1], _alpha(a)], -1)),
    3: (4, lambda a: a[..., 2::-1]),
    4: (3, lambda a: a[..., ::-1]),
    5: (4, lambda a: a[..., [2, 1, 0, 3]]),
    6: (3, lambda a: gray(a[..., ::-1])),
    7: (3, lambda a: gray(a)),
    8: (1, lambda a: np.repeat(a.reshape(a.shape[:2] + (1,)), 3, -1)),
    9: (1, lambda a: np.concatenate([np.repeat(a.reshape(a.shape[:2] + (1,)), 3, -1), _alpha(a)], -1)),
    10: (4, lambda a: gray(a[..., 2::-1])),
    11: (4, lambda a: gray(a[..., :3])),
}


class ConvertColor:
    """Convert between RGB, BGR, RGBA, BGRA and gray (:class:`ConvertMode`).

    Example:
        >>> ConvertColor(ConvertMode.COLOR_RGB2BGR)(np.array([[[1, 2, 3]]], np.uint8)).tolist()
        [[[3, 2, 1]]]
    """

    def __init__(self, convert_mode: ConvertMode) -> None:
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"Argument convert_mode with value {convert_mode} is not of type [<enum 'ConvertMode'>], "
                            f"but got {type(convert_mode)}.")
        self.convert_mode = convert_mode

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        channels, fn = _CONVERT[self.convert_mode.value]
        got = 1 if a.ndim == 2 else a.shape[2]
        if got != channels:
            raise RuntimeError(f"ConvertColor: the image should have {channels} channel(s) for "
                               f"{self.convert_mode.name}, but got {got}.")
        return restore(np.ascontiguousarray(fn(a)), pil)


class _HsvBase:
    _op = ""

    def __init__(self, is_hwc: bool = False) -> None:
        self.is_hwc = is_hwc

    def _convert(self, hwc: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        if a.ndim not in (3, 4):
            raise TypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C, H, W)/(N, C, H, W). Got {a.shape}.")
        axis = -1 if self.is_hwc else (0 if a.ndim == 3 else 1)
        if a.shape[axis] != 3:
            raise TypeError(f"img should be 3 channels RGB img. Got {a.shape[axis]} channels.")
        moved = np.moveaxis(a.astype(np.float64), axis, -1)
        return np.moveaxis(self._convert(moved), -1, axis)


class RgbToHsv(_HsvBase):
    """RGB in [0, 1] → HSV (hue in [0, 1)), as float64; CHW unless ``is_hwc``; a batch (4-D) is accepted.

    Example:
        >>> RgbToHsv(is_hwc=True)(np.array([[[1.0, 0.0, 0.0]]])).tolist()
        [[[0.0, 1.0, 1.0]]]
    """

    def _convert(self, hwc: np.ndarray) -> np.ndarray:
        return _rgb_to_hsv(hwc)


class HsvToRgb(_HsvBase):
    """HSV (hue in [0, 1)) → RGB, as float64; CHW unless ``is_hwc``; a batch (4-D) is accepted.

    Example:
        >>> HsvToRgb(is_hwc=True)(np.array([[[0.0, 1.0, 1.0]]])).tolist()
        [[[1.0, 0.0, 0.0]]]
    """

    def _convert(self, hwc: np.ndarray) -> np.ndarray:
        return _hsv_to_rgb(hwc)


def _gauss_kernel(size: int, sigma: float) -> np.ndarray:
    if sigma <= 0:  # OpenCV's choice of sigma for a kernel size
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    x = np.arange(size) - (size - 1) / 2.0
    w = np.exp(-x * x / (2.0 * sigma * sigma))
    return w / w.sum()


class GaussianBlur:
    """Blur with a Gaussian kernel of odd ``kernel_size`` (int or (x, y)) and ``sigma`` (None: from the size),
    reflecting at the border (``dcb|abcd|cba``).

    Example:
        >>> GaussianBlur(3, 1.0)(np.full((3, 3), 7, np.uint8)).tolist()
        [[7, 7, 7], [7, 7, 7], [7, 7, 7]]
    """

    def __init__(self, kernel_size: Union[int, Sequence[int]], sigma: Optional[Union[float, Sequence[float]]] = None
                 ) -> None:
        k = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if any(v <= 0 or v % 2 == 0 for v in k):
            raise ValueError("Input kernel_size is not an odd value.")
        s = (0.0, 0.0) if sigma is None else ((sigma, sigma) if isinstance(sigma, (int, float)) else tuple(sigma))
        if len(s) == 1:
            s = (s[0], s[0])
        self.kernel_size, self.sigma = k, s

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        kx, ky = self.kernel_size
        f = a.astype(np.float64)
        squeeze = f.ndim == 2
        if squeeze:
            f = f[..., None]
        wx, wy = _gauss_kernel(kx, self.sigma[0]), _gauss_kernel(ky, self.sigma[1])
        p = np.pad(f, ((ky // 2, ky // 2), (kx // 2, kx // 2), (0, 0)), mode="reflect")
        h, w = f.shape[:2]
        rows = sum(wx[j] * p[:, j:j + w] for j in range(kx))
        out = sum(wy[i] * rows[i:i + h] for i in range(ky))
        out = out[..., 0] if squeeze else out
        return restore(saturate(out, a.dtype), pil)


class _Random:
    """Draws of the dataset generator (``dataset.config.set_seed`` makes them repeatable)."""

    @staticmethod
    def uniform(lo: float, hi: float) -> float:
        return float(config.rng().uniform(lo, hi)) if hi > lo else float(lo)

    @staticmethod
    def happens(prob: float) -> bool:
        return bool(config.rng().random() < prob)
