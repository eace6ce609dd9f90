"""Op table: ``SampleDistortedBoundingBoxV2`` — a random crop of an image for data augmentation.

A crop is drawn up to ``max_attempts`` times: an aspect ratio (width / height) uniform in
``aspect_ratio_range``, a height between those giving the extremes of ``area_range`` (fractions of the image area),
the width that makes the ratio, and a uniform place inside the image. It is taken when it covers at least
``min_object_covered`` of one of the ``bounding_boxes`` (normalized ``[y1, x1, y2, x2]``); when no draw succeeds, the
crop is the whole image. The outputs are ``begin = [y, x, 0]`` and ``size = [height, width, -1]`` (Int32, for
``ops.Slice``) and the crop as a normalized box, (1, 1, 4) float32. With ``seed`` and ``seed2`` zero the draws come
from the global generator.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> op = ops.SampleDistortedBoundingBoxV2(seed=1, area_range=(0.999, 1.0), aspect_ratio_range=(0.99, 1.01))
    >>> begin, size, box = op(ms.Tensor([10, 10, 3], ms.int32), ms.Tensor([[[0.0, 0.0, 1.0, 1.0]]]),
    ...                       ms.Tensor([0.5]))
    >>> print(begin, size, box)
    [0 0 0] [10 10 -1] [[[0. 0. 1. 1.]]]
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.common.seed import generator
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op

_OP = "SampleDistortedBoundingBoxV2"


def _check_attrs(seed: Any = 0, seed2: Any = 0, aspect_ratio_range: Any = (0.75, 1.33),
                 area_range: Any = (0.05, 1.0), max_attempts: Any = 100,
                 use_image_if_no_bounding_boxes: Any = False) -> None:
    for name, v in (("seed", seed), ("seed2", seed2)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"For '{_OP}', the type of '{name}' should be 'int', but got type '{type(v).__name__}'.")
    for name, rng in (("aspect_ratio_range", aspect_ratio_range), ("area_range", area_range)):
        if not isinstance(rng, (list, tuple)):
            raise TypeError(f"For '{_OP}', the type of '{name}' should be one of '['list', 'tuple']', but got type "
                            f"'{type(rng).__name__}'.")
        for i, v in enumerate(rng):
            if not isinstance(v, float):
                raise TypeError(f"For '{_OP}', the type of '{name}[{i}]' should be 'float', but got type "
                                f"'{type(v).__name__}'.")
    if not isinstance(max_attempts, int) or isinstance(max_attempts, bool) or max_attempts <= 0:
        raise ValueError(f"For '{_OP}', the 'max_attempts' must be a positive int, but got {max_attempts!r}.")
    if not isinstance(use_image_if_no_bounding_boxes, bool):
        raise TypeError(f"For '{_OP}', the type of 'use_image_if_no_bounding_boxes' should be 'bool', but got type "
                        f"'{type(use_image_if_no_bounding_boxes).__name__}'.")


def _draw(rng: np.random.Generator, h: int, w: int, aspect: Tuple[float, float],
          area: Tuple[float, float]) -> Optional[Tuple[int, int, int, int]]:
    """One candidate crop ``(y, x, height, width)``, or None when the ranges admit none."""
    ratio = rng.uniform(aspect[0], aspect[1])
    lo_area, hi_area = area[0] * h * w, area[1] * h * w
    lo_h = int(round(math.sqrt(lo_area / ratio)))
    hi_h = min(int(round(math.sqrt(hi_area / ratio))), h, int(math.floor((w + 0.5) / ratio)))
    lo_h = min(lo_h, hi_h)
    if hi_h <= 0:
        return None
    height = int(rng.integers(lo_h, hi_h + 1))
    width = int(round(height * ratio))
    if width <= 0 or width > w or not lo_area <= height * width <= hi_area:
        return None
    return int(rng.integers(0, h - height + 1)), int(rng.integers(0, w - width + 1)), height, width


def _covers(crop: Tuple[int, int, int, int], boxes: np.ndarray, h: int, w: int, minimum: float) -> bool:
    y, x, ch, cw = crop
    for b in boxes:
        y1, x1, y2, x2 = b[0] * h, b[1] * w, b[2] * h, b[3] * w
        area = (y2 - y1) * (x2 - x1)
        if area <= 0:
            continue
        ih = max(min(y + ch, y2) - max(y, y1), 0.0)
        iw = max(min(x + cw, x2) - max(x, x1), 0.0)
        if ih * iw / area >= minimum:
            return True
    return False


def sample_distorted_bounding_box_v2(image_size: Any, bounding_boxes: Any, min_object_covered: Any, seed: int = 0,
                                     seed2: int = 0, aspect_ratio_range: Sequence[float] = (0.75, 1.33),
                                     area_range: Sequence[float] = (0.05, 1.0), max_attempts: int = 100,
                                     use_image_if_no_bounding_boxes: bool = False) -> Tuple[Tensor, Tensor, Tensor]:
    """A random crop (see the module docstring): ``begin``, ``size`` and the crop's normalized box.

    Example:
        >>> import mskernel as ms
        >>> begin, size, box = sample_distorted_bounding_box_v2(ms.Tensor([4, 6, 1], ms.int32),
        ...                                                     ms.Tensor([[[0.0, 0.0, 1.0, 1.0]]]),
        ...                                                     ms.Tensor([0.1]), seed=3)
        >>> bool((begin.asnumpy()[:2] + size.asnumpy()[:2] <= [4, 6]).all())
        True
    """
    _check_attrs(seed, seed2, aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    size = check_tensor(image_size, _OP, "image_size")._data.reshape(-1)
    boxes = check_tensor(bounding_boxes, _OP, "bounding_boxes")._data
    cover = check_tensor(min_object_covered, _OP, "min_object_covered")._data
    if size.shape != (3,):
        raise ValueError(f"For '{_OP}', 'image_size' must hold 3 values (height, width, channels), but got "
                         f"{size.shape[0]}.")
    if cover.ndim != 1 or cover.size != 1:
        raise ValueError(f"For primitive[{_OP}], the min_object_covered dimension must be equal to 1, but got "
                         f"{cover.ndim}.")
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise ValueError(f"For '{_OP}', 'bounding_boxes' must be (batch, N, 4), but got {list(boxes.shape)}.")
    if aspect_ratio_range[0] >= aspect_ratio_range[1]:
        raise ValueError(f"For '{_OP}', aspect_ratio_range[0] must less than aspect_ratio_range[1].")
    if area_range[0] >= area_range[1]:
        raise ValueError(f"For '{_OP}', area_range[0] must less than area_range[1].")
    h, w = int(size[0]), int(size[1])
    flat = boxes.reshape(-1, 4).astype(np.float64)
    if flat.shape[0] == 0:
        if not use_image_if_no_bounding_boxes:
            raise ValueError(f"For '{_OP}', no bounding box was given and 'use_image_if_no_bounding_boxes' is "
                             f"False.")
        flat = np.array([[0.0, 0.0, 1.0, 1.0]])
    rng = generator() if seed == 0 and seed2 == 0 else np.random.default_rng([seed, seed2])
    minimum = float(cover[0])
    crop = (0, 0, h, w)
    for _ in range(max_attempts):
        c = _draw(rng, h, w, tuple(aspect_ratio_range), tuple(area_range))
        if c is not None and _covers(c, flat, h, w, minimum):
            crop = c
            break
    y, x, ch, cw = crop
    begin = np.array([y, x, 0], np.int32)
    extent = np.array([ch, cw, -1], np.int32)
    box = np.array([[[y / h, x / w, (y + ch) / h, (x + cw) / w]]], np.float32)
    return Tensor._wrap(begin), Tensor._wrap(extent), Tensor._wrap(box)


sample_distorted_bounding_box_v2.init_check = _check_attrs  # type: ignore[attr-defined]

OPS: List[Op] = [
    Op("_sample_distorted_bounding_box_v2", "image_size, bounding_boxes, min_object_covered, seed=0, seed2=0, "
       "aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100, "
       "use_image_if_no_bounding_boxes=False", fn=sample_distorted_bounding_box_v2,
       prim="SampleDistortedBoundingBoxV2(seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), "
            "max_attempts=100, use_image_if_no_bounding_boxes=False)(image_size, bounding_boxes, "
            "min_object_covered) -> image_size, bounding_boxes, min_object_covered, seed, seed2, "
            "aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes"),
]

EXAMPLES = {
    "SampleDistortedBoundingBoxV2": ("op = ops.SampleDistortedBoundingBoxV2(seed=1, aspect_ratio_range=(0.99, 1.01), "
                                     "area_range=(0.999, 1.0))",
                                     "op(ms.Tensor([10, 10, 3], ms.int32), ms.Tensor([[[0.0, 0.0, 1.0, 1.0]]]), "
                                     "ms.Tensor([0.5]))[1]", "[10 10 -1]"),
}
