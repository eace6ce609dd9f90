"""``ms::Tensor``'s reshaping and casting methods for the C++ headers, on numpy (views where numpy gives views).

Example:
    >>> import numpy as np
    >>> flatten(np.zeros((2, 3, 4)), 1).shape
    (2, 12)
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

__all__ = ["contiguous", "cast", "reshape", "flatten", "chunk", "repeat", "index_select", "repeat_interleave"]


def contiguous(arr: np.ndarray) -> np.ndarray:
    """``arr`` itself if C-contiguous, else a C-contiguous copy.

    Example:
        >>> contiguous(np.arange(6).reshape(2, 3)[:, 1:]).flags.c_contiguous
        True
    """
    return np.ascontiguousarray(arr)


def cast(arr: np.ndarray, dtype: str) -> np.ndarray:
    """A copy converted to ``dtype``.

    Example:
        >>> cast(np.array([1.7]), "int32")
        array([1], dtype=int32)
    """
    return arr.astype(dtype)


def reshape(arr: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """``arr`` with a new shape (one entry may be -1); a view when the layout allows.

    Example:
        >>> reshape(np.arange(6), [2, -1]).shape
        (2, 3)
    """
    return np.reshape(arr, tuple(shape))


def _dim(d: int, ndim: int, what: str) -> int:
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(f"{what}: dimension {d} is out of range for a tensor of rank {ndim}")
    return d % n


def flatten(arr: np.ndarray, start_dim: int = 0, end_dim: int = -1) -> np.ndarray:
    """Merges dimensions ``start_dim..end_dim`` into one.

    Example:
        >>> flatten(np.zeros((2, 3, 4)), 1).shape
        (2, 12)
    """
    if arr.ndim == 0:
        return arr.reshape(1)
    s, e = _dim(start_dim, arr.ndim, "flatten"), _dim(end_dim, arr.ndim, "flatten")
    if s > e:
        raise ValueError("flatten: start_dim must not come after end_dim")
    shape = arr.shape[:s] + (int(np.prod(arr.shape[s:e + 1])),) + arr.shape[e + 1:]
    return arr.reshape(shape)


def chunk(arr: np.ndarray, chunks: int, dim: int = 0) -> List[np.ndarray]:
    """Views splitting ``dim`` into pieces of ``ceil(n / chunks)`` elements (the last may be smaller).

    Example:
        >>> [c.shape for c in chunk(np.zeros((5, 2)), 2)]
        [(3, 2), (2, 2)]
    """
    if chunks <= 0:
        raise ValueError(f"chunk: 'chunks' must be positive, but got {chunks}")
    d = _dim(dim, arr.ndim, "chunk")
    n = arr.shape[d]
    step = max(-(-n // chunks), 1)
    index = [slice(None)] * arr.ndim
    out = []
    for start in range(0, max(n, 1), step):
        index[d] = slice(start, start + step)
        out.append(arr[tuple(index)])
    return out


def repeat(arr: np.ndarray, repeats: Sequence[int]) -> np.ndarray:
    """Tiles ``arr`` ``repeats[i]`` times along each dimension (``len(repeats) >= rank``).

    Example:
        >>> repeat(np.array([1, 2]), [2, 2]).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    if len(repeats) < arr.ndim:
        raise ValueError(f"repeat: got {len(repeats)} repeats for a tensor of rank {arr.ndim}")
    return np.tile(arr, tuple(repeats))


def index_select(arr: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """Elements at ``index`` along ``dim`` (a copy).

    Example:
        >>> index_select(np.arange(6).reshape(2, 3), 1, np.array([2, 0])).tolist()
        [[2, 0], [5, 3]]
    """
    return np.take(arr, index.reshape(-1).astype(np.int64), axis=_dim(dim, arr.ndim, "index_select"))


def repeat_interleave(arr: np.ndarray, repeats: Any, dim: Optional[int] = None,
                      output_size: Optional[int] = None) -> np.ndarray:
    """Repeats each element ``repeats`` times along ``dim`` (the flattened tensor if None).

    Example:
        >>> repeat_interleave(np.array([1, 2]), 2).tolist()
        [1, 1, 2, 2]
    """
    if isinstance(repeats, np.ndarray):
        repeats = repeats.reshape(-1).astype(np.int64)
        if repeats.size == 1:
            repeats = int(repeats[0])
    out = np.repeat(arr, repeats, axis=None if dim is None else _dim(dim, arr.ndim, "repeat_interleave"))
    if output_size is not None and out.shape[0 if dim is None else dim] != output_size:
        raise ValueError(f"repeat_interleave: output_size is {output_size}, but the result has "
                         f"{out.shape[0 if dim is None else dim]} elements along the dimension")
    return out
