"""Random versions of the vision transforms: each draws its parameters (or whether to act) from the dataset
generator (``dataset.config.set_seed`` makes them repeatable), then applies the deterministic transform.

Probability 1.0 always applies the transform and 0.0 never does; ranges with equal ends are fixed.

Example:
    >>> import numpy as np
    >>> img = np.array([[[10, 20, 30]]], np.uint8)
    >>> RandomInvert(1.0)(img).tolist(), RandomInvert(0.0)(img).tolist()
    ([[[245, 235, 225]]], [[[10, 20, 30]]])
"""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision import color, geometry
from mskernel.dataset.vision._image import as_array, restore

__all__ = ["RandomAdjustSharpness", "RandomAutoContrast", "RandomColor", "RandomColorAdjust", "RandomEqualize",
           "RandomGrayscale", "RandomInvert", "RandomLighting", "RandomPosterize", "RandomSharpness",
           "RandomSolarize", "RandomResize", "RandomResizedCrop", "RandomCropDecodeResize", "RandomRotation",
           "RandomAffine", "RandomPerspective", "random_resized_crop_box"]


def _uniform(lo: float, hi: float) -> float:
    return geometry.rng_uniform(lo, hi)


def _happens(prob: float) -> bool:
    return bool(config.rng().random() < prob)


def _prob(prob: float) -> float:
    if not isinstance(prob, (int, float)) or isinstance(prob, bool):
        raise TypeError(f"Argument prob with value {prob} is not of type [<class 'float'>, <class 'int'>], "
                        f"but got {type(prob)}.")
    if not 0 <= prob <= 1:
        raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
    return float(prob)


class _Maybe:
    """Apply ``self._op()`` with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = _prob(prob)

    def _op(self) -> Any:
        raise NotImplementedError

    def __call__(self, img: Any) -> Any:
        return self._op()(img) if _happens(self.prob) else img


class RandomAdjustSharpness(_Maybe):
    """:class:`AdjustSharpness` by ``degree`` with probability ``prob``.

    Example:
        >>> RandomAdjustSharpness(1.0, 1.0)(np.zeros((3, 3), np.uint8)).shape
        (3, 3)
    """

    def __init__(self, degree: float, prob: float = 0.5) -> None:
        super().__init__(prob)
        self.degree = degree

    def _op(self) -> Any:
        return color.AdjustSharpness(self.degree)


class RandomAutoContrast(_Maybe):
    """:class:`AutoContrast` with probability ``prob``.

    Example:
        >>> RandomAutoContrast(prob=1.0)(np.array([[50, 100]], np.uint8)).tolist()
        [[0, 255]]
    """

    def __init__(self, cutoff: float = 0.0, ignore: Any = None, prob: float = 0.5) -> None:
        super().__init__(prob)
        self.cutoff, self.ignore = cutoff, ignore

    def _op(self) -> Any:
        return color.AutoContrast(self.cutoff, self.ignore)


class RandomEqualize(_Maybe):
    """:class:`Equalize` with probability ``prob``.

    Example:
        >>> RandomEqualize(0.0)(np.array([[0, 10]], np.uint8)).tolist()
        [[0, 10]]
    """

    def _op(self) -> Any:
        return color.Equalize()


class RandomInvert(_Maybe):
    """:class:`Invert` with probability ``prob``.

    Example:
        >>> RandomInvert(1.0)(np.array([[0, 200]], np.uint8)).tolist()
        [[255, 55]]
    """

    def _op(self) -> Any:
        return color.Invert()


class RandomGrayscale(_Maybe):
    """A PIL image to 3-channel (or 1 for an L image) grayscale with probability ``prob``.

    Example:
        >>> from PIL import Image
        >>> RandomGrayscale(1.0)(Image.new("RGB", (1, 1), (255, 0, 0))).getpixel((0, 0))
        (76, 76, 76)
    """

    def __init__(self, prob: float = 0.1) -> None:
        super().__init__(prob)

    def __call__(self, img: Any) -> Any:
        channels = 1 if getattr(img, "mode", "RGB") == "L" else 3
        return color.Grayscale(channels)(img) if _happens(self.prob) else img


def _range(value: Union[float, Sequence[float]], name: str, center: float = 1.0, lo_bound: float = 0.0
           ) -> Tuple[float, float]:
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        return max(lo_bound, center - value), center + value
    lo, hi = value
    if lo > hi:
        raise ValueError(f"{name} range should be in (min, max) order, but got ({lo}, {hi}).")
    return float(lo), float(hi)


class RandomColor:
    """:class:`AdjustSaturation` by a factor drawn from ``degrees``.

    Example:
        >>> RandomColor((1.0, 1.0))(np.array([[[10, 20, 30]]], np.uint8)).tolist()
        [[[10, 20, 30]]]
    """

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        self.degrees = _range(degrees, "degrees")

    def __call__(self, img: Any) -> Any:
        return color.AdjustSaturation(_uniform(*self.degrees))(img)


class RandomSharpness(RandomColor):
    """:class:`AdjustSharpness` by a factor drawn from ``degrees``.

    Example:
        >>> RandomSharpness((1.0, 1.0))(np.array([[10, 20, 30]], np.uint8)).tolist()
        [[10, 20, 30]]
    """

    def __call__(self, img: Any) -> Any:
        return color.AdjustSharpness(_uniform(*self.degrees))(img)


class RandomColorAdjust:
    """Brightness, contrast, saturation (factors drawn around 1) and hue (a shift drawn around 0), in a random
    order.

    Example:
        >>> RandomColorAdjust()(np.array([[[10, 20, 30]]], np.uint8)).tolist()
        [[[10, 20, 30]]]
    """

    def __init__(self, brightness: Any = (1, 1), contrast: Any = (1, 1), saturation: Any = (1, 1),
                 hue: Any = (0, 0)) -> None:
        self.brightness = _range(brightness, "brightness")
        self.contrast = _range(contrast, "contrast")
        self.saturation = _range(saturation, "saturation")
        self.hue = _range(hue, "hue", 0.0, -0.5)
        if not -0.5 <= self.hue[0] <= self.hue[1] <= 0.5:
            raise ValueError("Input hue is not within the required interval of [-0.5, 0.5].")

    def __call__(self, img: Any) -> Any:
        steps = [(self.brightness, 1.0, color.AdjustBrightness), (self.contrast, 1.0, color.AdjustContrast),
                 (self.saturation, 1.0, color.AdjustSaturation), (self.hue, 0.0, color.AdjustHue)]
        for k in config.rng().permutation(4):
            (lo, hi), identity, op = steps[int(k)]
            if lo == hi == identity:
                continue
            img = op(_uniform(lo, hi))(img)
        return img


class RandomLighting:
    """AlexNet-style PCA lighting noise: add ``eigvec @ (alpha_draws * eigval)`` (draws ~ N(0, ``alpha``)) to
    each RGB pixel.

    Example:
        >>> RandomLighting(0.0)(np.array([[[10, 20, 30]]], np.uint8)).tolist()
        [[[10, 20, 30]]]
    """

    _EIGVAL = np.array([0.2175, 0.0188, 0.0045]) * 255
    _EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])

    def __init__(self, alpha: float = 0.05) -> None:
        if alpha < 0:
            raise ValueError("Input alpha is not within the required interval of [0, 16777216].")
        self.alpha = alpha

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision._image import saturate
        a, pil = as_array(img)
        if self.alpha == 0:
            return img
        draws = config.rng().normal(0, self.alpha, 3)
        shift = self._EIGVEC @ (draws * self._EIGVAL)
        return restore(saturate(a.astype(np.float64) + shift, a.dtype), pil)


class RandomPosterize:
    """:class:`Posterize` with a bit count drawn from ``bits`` (inclusive).

    Example:
        >>> RandomPosterize((2, 2))(np.array([[200]], np.uint8)).tolist()
        [[192]]
    """

    def __init__(self, bits: Union[int, Sequence[int]] = (8, 8)) -> None:
        self.bits = (bits, bits) if isinstance(bits, int) else tuple(bits)
        if not 1 <= self.bits[0] <= self.bits[1] <= 8:
            raise ValueError("Input is not within the required interval of [1, 8].")

    def __call__(self, img: Any) -> Any:
        return color.Posterize(int(config.rng().integers(self.bits[0], self.bits[1] + 1)))(img)


class RandomSolarize:
    """:class:`Solarize` over a range [a, b] with a < b both drawn from ``threshold``.

    Example:
        >>> RandomSolarize((0, 0))(np.array([[0, 5]], np.uint8)).tolist()
        [[255, 5]]
    """

    def __init__(self, threshold: Sequence[float] = (0, 255)) -> None:
        self.threshold = tuple(threshold)

    def __call__(self, img: Any) -> Any:
        lo, hi = self.threshold
        a, b = sorted(int(config.rng().integers(lo, hi + 1)) for _ in range(2))
        return color.Solarize((a, b))(img)


class RandomResize:
    """:class:`Resize` to ``size`` with an interpolation drawn at random.

    Example:
        >>> RandomResize((2, 3))(np.zeros((4, 4, 3), np.uint8)).shape
        (2, 3, 3)
    """

    def __init__(self, size: Union[int, Sequence[int]]) -> None:
        self.size = size

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision.basic import Inter, Resize
        mode = [Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA][int(config.rng().integers(0, 4))]
        a, pil = as_array(img)
        mode = mode if mode in (Inter.NEAREST, Inter.BILINEAR) else Inter.BILINEAR
        return restore(Resize(self.size, mode)(a), pil)


def random_resized_crop_box(h: int, w: int, scale: Sequence[float], ratio: Sequence[float],
                            max_attempts: int = 10) -> Tuple[int, int, int, int]:
    """(top, left, height, width) of a region covering a ``scale`` fraction of the area with aspect ratio in
    ``ratio`` (log-uniform); after ``max_attempts`` misses, the central crop clamped to ``ratio``.

    Example:
        >>> random_resized_crop_box(10, 10, (1.0, 1.0), (1.0, 1.0))
        (0, 0, 10, 10)
    """
    area = h * w
    for _ in range(max_attempts):
        target = area * _uniform(scale[0], scale[1])
        ar = math.exp(_uniform(math.log(ratio[0]), math.log(ratio[1])))
        cw, ch = int(round(math.sqrt(target * ar))), int(round(math.sqrt(target / ar)))
        if 0 < cw <= w and 0 < ch <= h:
            top = int(config.rng().integers(0, h - ch + 1))
            left = int(config.rng().integers(0, w - cw + 1))
            return top, left, ch, cw
    in_ratio = w / h
    if in_ratio < min(ratio):
        cw, ch = w, int(round(w / min(ratio)))
    elif in_ratio > max(ratio):
        ch, cw = h, int(round(h * max(ratio)))
    else:
        cw, ch = w, h
    return (h - ch) // 2, (w - cw) // 2, ch, cw


class RandomResizedCrop:
    """A random region (``random_resized_crop_box``) resized to ``size``.

    Example:
        >>> RandomResizedCrop((5, 6))(np.zeros((20, 20, 3), np.uint8)).shape
        (5, 6, 3)
    """

    def __init__(self, size: Union[int, Sequence[int]], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3.0 / 4.0, 4.0 / 3.0), interpolation: Any = None,
                 max_attempts: int = 10) -> None:
        from mskernel.dataset.vision.basic import Inter
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        if len(self.size) == 1:
            self.size = (self.size[0], self.size[0])
        self.scale, self.ratio, self.max_attempts = tuple(scale), tuple(ratio), max_attempts
        self.interpolation = Inter.BILINEAR if interpolation is None else interpolation

    def __call__(self, img: Any) -> Any:
        a, pil = as_array(img)
        top, left, ch, cw = random_resized_crop_box(a.shape[0], a.shape[1], self.scale, self.ratio,
                                                    self.max_attempts)
        return restore(geometry.ResizedCrop(top, left, ch, cw, self.size, self.interpolation)(a), pil)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode encoded image bytes, then :class:`RandomResizedCrop`.

    Example:
        >>> import io
        >>> from PIL import Image
        >>> buf = io.BytesIO(); Image.new("RGB", (8, 8)).save(buf, "PNG")
        >>> RandomCropDecodeResize(4)(np.frombuffer(buf.getvalue(), np.uint8)).shape
        (4, 4, 3)
    """

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision.basic import Decode
        return super().__call__(Decode()(img))


def _degrees(degrees: Union[float, Sequence[float]]) -> Tuple[float, float]:
    if isinstance(degrees, (int, float)):
        if degrees < 0:
            raise ValueError("Input degrees is not within the required interval of [0, 16777216].")
        return -float(degrees), float(degrees)
    return float(degrees[0]), float(degrees[1])


class RandomRotation:
    """:class:`Rotate` by an angle drawn from ``degrees`` (d means [-d, d]).

    Example:
        >>> RandomRotation((90, 90))(np.array([[1, 2], [3, 4]], np.uint8)).tolist()
        [[2, 4], [1, 3]]
    """

    def __init__(self, degrees: Union[float, Sequence[float]], resample: Any = None, expand: bool = False,
                 center: Optional[Sequence[float]] = None, fill_value: Any = 0) -> None:
        self.degrees = _degrees(degrees)
        self.resample, self.expand, self.center, self.fill_value = resample, expand, center, fill_value

    def __call__(self, img: Any) -> Any:
        return geometry.Rotate(_uniform(*self.degrees), self.resample, self.expand, self.center,
                               self.fill_value)(img)


class RandomAffine:
    """:class:`Affine` with rotation, translation (fractions of the size), scale and shear drawn from their
    ranges.

    Example:
        >>> RandomAffine(0)(np.array([[1, 2]], np.uint8)).tolist()
        [[1, 2]]
    """

    def __init__(self, degrees: Union[float, Sequence[float]], translate: Optional[Sequence[float]] = None,
                 scale: Optional[Sequence[float]] = None, shear: Any = None, resample: Any = None,
                 fill_value: Any = 0) -> None:
        self.degrees = _degrees(degrees)
        self.translate, self.scale, self.resample, self.fill_value = translate, scale, resample, fill_value
        if shear is None:
            self.shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, (int, float)):
            self.shear = (-shear, shear, 0.0, 0.0)
        else:
            s = tuple(shear)
            self.shear = s + (0.0, 0.0) if len(s) == 2 else s

    def __call__(self, img: Any) -> Any:
        a, _ = as_array(img)
        h, w = a.shape[:2]
        t = tuple(self.translate or (0, 0, 0, 0))
        t = t if len(t) == 4 else (-t[0], t[0], -t[1], t[1])
        tx, ty = round(_uniform(t[0], t[1]) * w) / w, round(_uniform(t[2], t[3]) * h) / h
        sc = _uniform(*self.scale) if self.scale else 1.0
        shear = (_uniform(self.shear[0], self.shear[1]), _uniform(self.shear[2], self.shear[3]))
        return geometry.Affine(_uniform(*self.degrees), [tx, ty], sc, shear, self.resample,
                               self.fill_value)(img)


class RandomPerspective:
    """With probability ``prob``, move each corner of a PIL image inwards by up to ``distortion_scale`` of half
    the size and warp (:class:`Perspective`).

    Example:
        >>> from PIL import Image
        >>> RandomPerspective(prob=1.0)(Image.new("RGB", (4, 3))).size
        (4, 3)
    """

    def __init__(self, distortion_scale: float = 0.5, prob: float = 0.5, interpolation: Any = None) -> None:
        if not 0 <= distortion_scale <= 1:
            raise ValueError("Input distortion_scale is not within the required interval of [0.0, 1.0].")
        self.distortion_scale, self.prob, self.interpolation = distortion_scale, _prob(prob), interpolation

    def __call__(self, img: Any) -> Any:
        from mskernel.dataset.vision._image import is_pil
        if not is_pil(img):
            raise ValueError("Input image should be a Pillow image.")
        if not _happens(self.prob):
            return img
        a, _ = as_array(img)
        h, w = a.shape[:2]
        dh, dw = int(self.distortion_scale * h / 2), int(self.distortion_scale * w / 2)

        def jitter(limit: int) -> int:
            return int(config.rng().integers(0, limit + 1))
        start = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]
        end = [[jitter(dw), jitter(dh)], [w - 1 - jitter(dw), jitter(dh)], [w - 1 - jitter(dw), h - 1 - jitter(dh)],
               [jitter(dw), h - 1 - jitter(dh)]]
        return geometry.Perspective(start, end, self.interpolation)(img)
