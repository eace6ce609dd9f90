"""Shared helpers of the vision transforms: numpy/PIL in and out, saturating casts, enum checks.

Example:
    >>> import numpy as np
    >>> saturate(np.array([-1.0, 2.5, 300.0]), np.dtype(np.uint8))
    array([  0,   2, 255], dtype=uint8)
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

__all__ = ["as_array", "restore", "saturate", "is_pil", "check_hwc"]


def is_pil(img: Any) -> bool:
    """Whether ``img`` is a PIL image (PIL is imported only when one may be present).

    Example:
        >>> is_pil(np.zeros(1))
        False
    """
    return type(img).__module__.startswith("PIL.")


def as_array(img: Any) -> Tuple[np.ndarray, bool]:
    """``img`` as a numpy array and whether it came as a PIL image.

    Example:
        >>> as_array([[1, 2]])[0].shape
        (1, 2)
    """
    if is_pil(img):
        return np.asarray(img), True
    return np.asarray(img), False


def restore(arr: np.ndarray, pil: bool) -> Any:
    """``arr`` back as a PIL image when the input was one.

    Example:
        >>> restore(np.zeros((1, 1), np.uint8), False).shape
        (1, 1)
    """
    if not pil:
        return arr
    from PIL import Image
    return Image.fromarray(np.ascontiguousarray(arr))


def saturate(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round half to even and clip into an integer dtype's range (as OpenCV's saturating casts do); floats are
    only cast.

    Example:
        >>> saturate(np.array([0.5, 1.5]), np.dtype(np.uint8))
        array([0, 2], dtype=uint8)
    """
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(x), info.min, info.max).astype(dtype)
    return np.asarray(x).astype(dtype)


def check_hwc(op: str, arr: np.ndarray, channels: Tuple[int, ...] = (1, 3)) -> None:
    """Refuse an image that is not <H, W> or <H, W, C> with ``channels`` channels.

    Example:
        >>> check_hwc("Invert", np.zeros((2, 2, 4)), (3,))
        Traceback (most recent call last):
        ...
        RuntimeError: Invert: the image should have 3 channels, but got 4.
    """
    if arr.ndim not in (2, 3):
        raise RuntimeError(f"{op}: the image should be <H, W> or <H, W, C>, but got rank {arr.ndim}.")
    if arr.ndim == 3 and arr.shape[2] not in channels:
        want = " or ".join(str(c) for c in channels)
        raise RuntimeError(f"{op}: the image should have {want} channels, but got {arr.shape[2]}.")
