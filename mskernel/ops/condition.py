"""``ops.cond``: the condition number of a matrix (or a batch of matrices) in a given norm.

Example:
    >>> import mskernel as ms
    >>> print(cond(ms.Tensor([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])))
    1.4142135
"""
from __future__ import annotations

from typing import Optional, Union

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["cond"]

_NORMS = (None, "fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"))


def cond(A: Tensor, p: Optional[Union[int, float, str]] = None) -> Tensor:  # noqa: N803 (MindSpore's name)
    """The condition number ``norm(A, p) * norm(inv(A), p)`` (for ``p`` None or 2: the ratio of the largest to
    the smallest singular value), over the last two dimensions; no gradient.

    Example:
        >>> import mskernel as ms
        >>> print(cond(ms.Tensor([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]), 'fro'))
        3.1622777
    """
    if not isinstance(A, Tensor):
        raise TypeError(f"For 'cond', the 'A' must be a Tensor, but got {type(A).__name__}.")
    if A.ndim < 2:
        raise ValueError(f"For 'cond', the dimension of 'A' must be at least 2, but got {A.ndim}.")
    if p not in _NORMS:
        raise ValueError(f"For 'cond', the 'p' must be one of None, 'fro', 'nuc', inf, -inf, 1, -1, 2, -2, but got "
                         f"{p!r}.")
    arr = A.asnumpy()
    out = np.linalg.cond(arr.astype(np.float64), p)
    return Tensor(np.asarray(out, arr.dtype if arr.dtype.kind == "f" else np.float32))
