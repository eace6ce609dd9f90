"""Numpy buffers for C++ tensors: what ``ms::Tensor`` allocation and copies call (``mskernel/include``).

Dtypes are MindSpore/numpy names (``"float32"``); every function returns a fresh C-contiguous array.

Example:
    >>> zeros((2,), "float32")
    array([0., 0.], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["wrap", "empty", "zeros", "ones", "full", "from_values", "copy_into"]

wrap = Tensor._wrap  # the compiled core's wrap (a builtin: doctest finds its example through __test__)

__test__ = {"wrap": wrap}


def empty(shape: Sequence[int], dtype: str) -> np.ndarray:
    """An uninitialized C-contiguous buffer (what ``make_shared<BaseTensor>(type, shape)`` owns).

    Example:
        >>> empty((2, 3), "int32").shape
        (2, 3)
    """
    return np.empty(tuple(shape), dtype)


def zeros(shape: Sequence[int], dtype: str) -> np.ndarray:
    """A zero-filled buffer (``ms::zeros``).

    Example:
        >>> zeros((2,), "float32")
        array([0., 0.], dtype=float32)
    """
    return np.zeros(tuple(shape), dtype)


def ones(shape: Sequence[int], dtype: str) -> np.ndarray:
    """A buffer of ones (``ms::ones``).

    Example:
        >>> ones((1,), "int64")
        array([1])
    """
    return np.ones(tuple(shape), dtype)


def full(shape: Sequence[int], value: Any, dtype: str) -> np.ndarray:
    """A buffer filled with ``value``.

    Example:
        >>> full((2,), 7, "int8")
        array([7, 7], dtype=int8)
    """
    return np.full(tuple(shape), value, dtype)


def from_values(values: Any, dtype: str) -> np.ndarray:
    """A new buffer holding ``values`` (a number or a sequence), as ``ms::tensor`` builds.

    Example:
        >>> from_values([1, 2], "float64")
        array([1., 2.])
    """
    return np.array(values, dtype=dtype)


def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[...] = src`` (with broadcasting and casting), for writing results back into views.

    Example:
        >>> d = np.zeros(2, np.int32); copy_into(d, np.array([1.5, 2.5])); d
        array([1, 2], dtype=int32)
    """
    np.copyto(dst, src, casting="unsafe")
