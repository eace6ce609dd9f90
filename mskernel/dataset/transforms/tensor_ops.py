"""Tensor operations of ``mindspore.dataset.transforms``: ``Concatenate``, ``Mask`` (with ``Relational``),
``PadEnd``, ``Slice``, ``Unique``.

Example:
    >>> import numpy as np
    >>> Concatenate(0, np.array([9]))(np.array([1, 2])).tolist(), Slice(slice(1, 3))(np.array([1, 2, 3])).tolist()
    ([9, 1, 2], [2, 3])
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Optional, Sequence, Tuple

import numpy as np

__all__ = ["Concatenate", "Relational", "Mask", "PadEnd", "Slice", "Unique"]


class Concatenate:
    """``prepend`` + the 1-D input + ``append`` along ``axis`` (0 or -1).

    Example:
        >>> Concatenate(0, None, np.array([7, 8]))(np.array([1])).tolist()
        [1, 7, 8]
    """

    def __init__(self, axis: int = 0, prepend: Optional[np.ndarray] = None, append: Optional[np.ndarray] = None
                 ) -> None:
        if axis not in (0, -1):
            raise ValueError("Input axis is not within the required interval of [-1, 0].")
        self.axis, self.prepend, self.append = axis, prepend, append

    def __call__(self, x: Any) -> np.ndarray:
        a = np.asarray(x)
        if a.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1D input supported, got rank of input: {a.ndim}")
        parts = [np.asarray(p) for p in (self.prepend, a, self.append) if p is not None]
        return np.concatenate(parts)


class Relational(Enum):
    """Comparisons of :class:`Mask`.

    Example:
        >>> Relational.GE.name
        'GE'
    """
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask:
    """``x <operator> constant`` element-wise, cast to ``dtype`` (bool by default).

    Example:
        >>> Mask(Relational.GT, 1)(np.array([1, 2])).tolist()
        [False, True]
    """

    def __init__(self, operator: Relational, constant: Any, dtype: Any = None) -> None:
        if not isinstance(operator, Relational):
            raise TypeError(f"Argument operator with value {operator} is not of type [<enum 'Relational'>], "
                            f"but got {type(operator)}.")
        self.operator, self.constant = operator, constant
        self.dtype = np.bool_ if dtype is None else getattr(dtype, "np", dtype)

    def __call__(self, x: Any) -> np.ndarray:
        a = np.asarray(x)
        return _COMPARE[self.operator](a, np.asarray(self.constant, a.dtype)).astype(self.dtype)


class PadEnd:
    """Pad at the end of each dimension to ``pad_shape`` (None keeps a dimension) with ``pad_value`` (0, or ''
    for strings).

    Example:
        >>> PadEnd([4], 9)(np.array([1, 2])).tolist()
        [1, 2, 9, 9]
    """

    def __init__(self, pad_shape: Sequence[Optional[int]], pad_value: Any = None) -> None:
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def __call__(self, x: Any) -> np.ndarray:
        a = np.asarray(x)
        if len(self.pad_shape) != a.ndim:
            raise RuntimeError(f"PadEnd: invalid pad shape, the rank of pad_shape must be equal to the rank of "
                               f"input, but got rank of pad_shape: {len(self.pad_shape)}, rank of input: {a.ndim}.")
        target = [d if t is None else t for d, t in zip(a.shape, self.pad_shape)]
        value = self.pad_value if self.pad_value is not None else ("" if a.dtype.kind in "US" else 0)
        dtype = a.dtype if a.dtype.kind not in "US" else np.result_type(a.dtype, np.asarray(value).dtype)
        out = np.full(target, value, dtype)
        region = tuple(slice(0, min(d, t)) for d, t in zip(a.shape, target))
        out[region] = a[region]
        return out


class Slice:
    """Index the input with one entry per dimension (an int, a list of ints, a ``slice``, ``Ellipsis`` or
    None for all).

    Example:
        >>> Slice(slice(0, 1), [0, 2])(np.arange(6).reshape(2, 3)).tolist()
        [[0, 2]]
    """

    def __init__(self, *slices: Any) -> None:
        self.slices = slices

    def __call__(self, x: Any) -> np.ndarray:
        a = np.asarray(x)
        index = []
        for s in self.slices:
            if s is None or s is Ellipsis:
                index.append(slice(None))
            elif isinstance(s, int):
                index.append([s])
            else:
                index.append(s)
        out = a
        for axis, idx in enumerate(index):
            out = out[(slice(None),) * axis + (idx,)]
        return out


class Unique:
    """The distinct values of an input of rank 2 or more (flattened), in order of first appearance, the index of
    each element's value among them (int32), and the count of each value (int32).

    Example:
        >>> [o.tolist() for o in Unique()(np.array([[5, 3, 5]]))]
        [[5, 3], [0, 1, 0], [2, 1]]
    """

    def __call__(self, x: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        a = np.asarray(x)
        if a.dtype.kind in "USO":
            raise RuntimeError("Unique: Unique does not support string input.")
        if a.ndim < 2:
            raise RuntimeError(f"Unique: input must be at least 2-D in order to do unique op, got rank:{a.ndim}")
        flat = a.ravel()
        _, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return flat[np.sort(first)], rank[inverse.ravel()].astype(np.int32), counts[order].astype(np.int32)
