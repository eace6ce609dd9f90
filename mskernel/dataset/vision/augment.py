"""Automatic augmentation of ``mindspore.dataset.vision``: ``AutoAugment`` (a learned policy of sub-policies),
``RandAugment``, ``TrivialAugmentWide``, ``UniformAugment``, ``RandomSelectSubpolicy``.

Operations and magnitudes follow the published methods; the draws come from the dataset generator.
``AutoAugment`` carries the ImageNet policy table for every :class:`AutoAugmentPolicy` (the CIFAR-10 and SVHN
tables are not included).

Example:
    >>> import numpy as np
    >>> TrivialAugmentWide()(np.zeros((8, 8, 3), np.uint8)).shape
    (8, 8, 3)
"""
from __future__ import annotations

import math
from enum import Enum
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from mskernel.dataset import config
from mskernel.dataset.vision import color, geometry

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide", "UniformAugment",
           "RandomSelectSubpolicy"]


class AutoAugmentPolicy(str, Enum):
    """The dataset an :class:`AutoAugment` policy was learned on.

    Example:
        >>> AutoAugmentPolicy.IMAGENET.value
        'imagenet'
    """
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


def _apply(name: str, mag: float, img: np.ndarray, interpolation: Any, fill: Any) -> np.ndarray:
    h, w = img.shape[:2]
    ops: Dict[str, Callable[[], Any]] = {
        "ShearX": lambda: geometry.Affine(0, [0, 0], 1.0, [math.degrees(math.atan(mag)), 0], interpolation, fill),
        "ShearY": lambda: geometry.Affine(0, [0, 0], 1.0, [0, math.degrees(math.atan(mag))], interpolation, fill),
        "TranslateX": lambda: geometry.Affine(0, [int(mag) / w, 0], 1.0, [0, 0], interpolation, fill),
        "TranslateY": lambda: geometry.Affine(0, [0, int(mag) / h], 1.0, [0, 0], interpolation, fill),
        "Rotate": lambda: geometry.Rotate(mag, interpolation, fill_value=fill),
        "Brightness": lambda: color.AdjustBrightness(1.0 + mag),
        "Color": lambda: color.AdjustSaturation(1.0 + mag),
        "Contrast": lambda: color.AdjustContrast(1.0 + mag),
        "Sharpness": lambda: color.AdjustSharpness(1.0 + mag),
        "Posterize": lambda: color.Posterize(int(mag)),
        "Solarize": lambda: color.Solarize(mag),
        "AutoContrast": color.AutoContrast,
        "Equalize": color.Equalize,
        "Invert": color.Invert,
        "Identity": lambda: (lambda x: x),
    }
    return np.asarray(ops[name]()(img))


def _space(bins: int, h: int, w: int, wide: bool = False) -> Dict[str, Tuple[np.ndarray, bool]]:
    """Magnitudes per operation: (values for the bins, whether the sign is drawn)."""
    lin = np.linspace
    if wide:
        return {"Identity": (np.zeros(bins), False), "ShearX": (lin(0, 0.99, bins), True),
                "ShearY": (lin(0, 0.99, bins), True), "TranslateX": (lin(0, 32, bins), True),
                "TranslateY": (lin(0, 32, bins), True), "Rotate": (lin(0, 135, bins), True),
                "Brightness": (lin(0, 0.99, bins), True), "Color": (lin(0, 0.99, bins), True),
                "Contrast": (lin(0, 0.99, bins), True), "Sharpness": (lin(0, 0.99, bins), True),
                "Posterize": (8 - (np.arange(bins) / ((bins - 1) / 6)).round(), False),
                "Solarize": (lin(255, 0, bins), False), "AutoContrast": (np.zeros(bins), False),
                "Equalize": (np.zeros(bins), False)}
    return {"Identity": (np.zeros(bins), False), "ShearX": (lin(0, 0.3, bins), True),
            "ShearY": (lin(0, 0.3, bins), True), "TranslateX": (lin(0, 150 / 331 * w, bins), True),
            "TranslateY": (lin(0, 150 / 331 * h, bins), True), "Rotate": (lin(0, 30, bins), True),
            "Brightness": (lin(0, 0.9, bins), True), "Color": (lin(0, 0.9, bins), True),
            "Contrast": (lin(0, 0.9, bins), True), "Sharpness": (lin(0, 0.9, bins), True),
            "Posterize": (8 - (np.arange(bins) / ((bins - 1) / 4)).round(), False),
            "Solarize": (lin(255, 0, bins), False), "AutoContrast": (np.zeros(bins), False),
            "Equalize": (np.zeros(bins), False)}


def _interp(interpolation: Any) -> Any:
    from mskernel.dataset.vision.basic import Inter
    return Inter.NEAREST if interpolation is None else interpolation


class RandAugment:
    """``num_ops`` operations drawn uniformly, each at ``magnitude`` (of ``num_magnitude_bins``) with a random
    sign.

    Example:
        >>> RandAugment()(np.zeros((8, 8, 3), np.uint8)).dtype
        dtype('uint8')
    """

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31, interpolation: Any = None,
                 fill_value: Any = 0) -> None:
        if not 0 <= magnitude < num_magnitude_bins:
            raise ValueError(f"Input magnitude is not within the required interval of [0, {num_magnitude_bins}).")
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        self.interpolation, self.fill_value = _interp(interpolation), fill_value

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        space = _space(self.num_magnitude_bins, a.shape[0], a.shape[1])
        names = list(space)
        for _ in range(self.num_ops):
            name = names[int(config.rng().integers(0, len(names)))]
            values, signed = space[name]
            mag = float(values[self.magnitude])
            if signed and config.rng().random() < 0.5:
                mag = -mag
            a = _apply(name, mag, a, self.interpolation, self.fill_value)
        return a


class TrivialAugmentWide:
    """One operation drawn uniformly at a magnitude drawn uniformly from ``num_magnitude_bins`` (wide ranges).

    Example:
        >>> TrivialAugmentWide()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(self, num_magnitude_bins: int = 31, interpolation: Any = None, fill_value: Any = 0) -> None:
        if num_magnitude_bins < 2:
            raise ValueError("Input num_magnitude_bins is not within the required interval of [2, 2147483647].")
        self.num_magnitude_bins, self.interpolation, self.fill_value = num_magnitude_bins, _interp(interpolation), \
            fill_value

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        space = _space(self.num_magnitude_bins, a.shape[0], a.shape[1], wide=True)
        names = list(space)
        name = names[int(config.rng().integers(0, len(names)))]
        values, signed = space[name]
        mag = float(values[int(config.rng().integers(0, self.num_magnitude_bins))])
        if signed and config.rng().random() < 0.5:
            mag = -mag
        return _apply(name, mag, a, self.interpolation, self.fill_value)


_IMAGENET = [
    (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
    (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
    (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
    (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
    (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
    (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
    (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
    (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
    (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
]


class AutoAugment:
    """One sub-policy drawn uniformly from the ``policy`` table; each of its two operations applied with its
    probability at its magnitude (of 10 bins) with a random sign.

    Example:
        >>> AutoAugment()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET, interpolation: Any = None,
                 fill_value: Any = 0) -> None:
        self.policy = AutoAugmentPolicy(policy)
        self.interpolation, self.fill_value = _interp(interpolation), fill_value

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        space = _space(10, a.shape[0], a.shape[1])
        sub = _IMAGENET[int(config.rng().integers(0, len(_IMAGENET)))]
        for name, prob, level in sub:
            if config.rng().random() >= prob:
                continue
            values, signed = space.get(name, (np.zeros(10), False))  # Invert has no magnitude
            mag = float(values[level]) if level is not None else 0.0
            if signed and config.rng().random() < 0.5:
                mag = -mag
            a = _apply(name, mag, a, self.interpolation, self.fill_value)
        return a


class UniformAugment:
    """``num_ops`` of ``transforms`` drawn without replacement, each applied with probability 1/2, in the drawn
    order.

    Example:
        >>> UniformAugment([lambda x: x + 1], num_ops=1)(np.zeros(1)).tolist() in ([0.0], [1.0])
        True
    """

    def __init__(self, transforms: Sequence[Callable], num_ops: int = 2) -> None:
        self.transforms = list(transforms)
        if num_ops > len(self.transforms):
            raise ValueError(f"num_ops is greater than transforms list size, num_ops: {num_ops}, transforms list "
                             f"size: {len(self.transforms)}.")
        self.num_ops = num_ops

    def __call__(self, img: Any) -> Any:
        for k in config.rng().permutation(len(self.transforms))[:self.num_ops]:
            if config.rng().random() < 0.5:
                img = self.transforms[int(k)](img)
        return img


class RandomSelectSubpolicy:
    """One sub-policy (a list of (operation, probability) pairs) drawn uniformly; each operation applied with its
    probability, in order.

    Example:
        >>> RandomSelectSubpolicy([[(lambda x: x + 1, 1.0)]])(np.zeros(1)).tolist()
        [1.0]
    """

    def __init__(self, policy: List[List[Tuple[Callable, float]]]) -> None:
        if not policy or any(not sub for sub in policy):
            raise ValueError("policy and each sub-policy in it should not be empty.")
        self.policy = policy

    def __call__(self, img: Any) -> Any:
        for op, prob in self.policy[int(config.rng().integers(0, len(self.policy)))]:
            if config.rng().random() < prob:
                img = op(img)
        return img
