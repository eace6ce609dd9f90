"""Type and layout conversions of ``mindspore.dataset.vision``: ``ToNumpy``, ``ToPIL``, ``ToType``,
``NormalizePad``, ``LinearTransformation``.

Example:
    >>> import numpy as np
    >>> ToType(np.int16)(np.array([1.7])).dtype, ToNumpy()([[1, 2]]).shape
    (dtype('int16'), (1, 2))
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mskernel.dataset.vision._image import is_pil

__all__ = ["ToNumpy", "ToPIL", "ToType", "NormalizePad", "LinearTransformation"]


class ToNumpy:
    """A PIL image (or anything array-like) as a numpy array.

    Example:
        >>> from PIL import Image
        >>> ToNumpy()(Image.new("RGB", (3, 2))).shape
        (2, 3, 3)
    """

    def __call__(self, img: Any) -> np.ndarray:
        return np.array(img)


class ToPIL:
    """A decoded HWC (or HW) numpy image as a PIL image (a PIL image is returned as it is).

    Example:
        >>> ToPIL()(np.zeros((2, 3, 3), np.uint8)).size
        (3, 2)
    """

    def __call__(self, img: Any) -> Any:
        from PIL import Image
        if is_pil(img):
            return img
        a = np.asarray(img)
        if a.ndim == 3 and a.shape[2] == 1:
            a = a[..., 0]
        if a.dtype != np.uint8 and a.dtype.kind == "f":
            a = (a * 255).astype(np.uint8)
        return Image.fromarray(a)


class ToType:
    """Cast to a numpy or MindSpore dtype.

    Example:
        >>> ToType(np.float32)(np.array([0.5], np.float64)).dtype
        dtype('float32')
    """

    def __init__(self, data_type: Any) -> None:
        self.data_type = getattr(data_type, "np", data_type)

    def __call__(self, img: Any) -> np.ndarray:
        return np.asarray(img).astype(self.data_type)


class NormalizePad:
    """:class:`Normalize` with a fourth channel of zeros (``dtype`` float32 or float16). For an HWC image
    MindSpore writes the normalized values first and the zeros after them in memory, then views that buffer as
    <H, W, 4>, so pixels after the first are shifted; that layout is reproduced.

    Example:
        >>> NormalizePad([0.0] * 3, [1.0] * 3)(np.ones((1, 2, 3), np.uint8)).tolist()
        [[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0]]]
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], dtype: str = "float32", is_hwc: bool = True
                 ) -> None:
        if dtype not in ("float32", "float16"):
            raise ValueError(f"dtype only supports float32 or float16, but got {dtype}.")
        self.mean, self.std = np.asarray(mean, np.float32), np.asarray(std, np.float32)
        self.dtype, self.is_hwc = dtype, is_hwc

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img, np.float32)
        axis = -1 if self.is_hwc else 0
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        norm = (a - self.mean.reshape(shape)) / self.std.reshape(shape)
        if self.is_hwc:
            h, w = norm.shape[:2]
            flat = np.concatenate([norm.ravel(), np.zeros(h * w, np.float32)])
            return flat.reshape(h, w, 4).astype(self.dtype)
        pad_shape = list(norm.shape)
        pad_shape[axis] = 1
        return np.concatenate([norm, np.zeros(pad_shape, np.float32)], axis).astype(self.dtype)


class LinearTransformation:
    """Flatten a CHW image, subtract ``mean_vector``, multiply by ``transformation_matrix`` (D x D), reshape.

    Example:
        >>> LinearTransformation(np.eye(2), np.zeros(2))(np.array([[[1.0, 2.0]]])).tolist()
        [[[1.0, 2.0]]]
    """

    def __init__(self, transformation_matrix: np.ndarray, mean_vector: np.ndarray) -> None:
        self.transformation_matrix = np.asarray(transformation_matrix)
        self.mean_vector = np.asarray(mean_vector)
        n = self.transformation_matrix.shape
        if len(n) != 2 or n[0] != n[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape {n} instead.")
        if self.mean_vector.shape[0] != n[0]:
            raise ValueError(f"mean_vector length {self.mean_vector.shape[0]} should match either one dimension of "
                             f"the square transformation_matrix {n}.")

    def __call__(self, img: Any) -> np.ndarray:
        a = np.asarray(img)
        flat = a.reshape(1, -1)
        if flat.shape[1] != self.transformation_matrix.shape[0]:
            raise ValueError(f"The dimension of input image {flat.shape[1]} should be equal to the length of "
                             f"transformation_matrix {self.transformation_matrix.shape[0]}.")
        return ((flat - self.mean_vector) @ self.transformation_matrix).reshape(a.shape)
