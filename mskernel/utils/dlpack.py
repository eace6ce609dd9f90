"""``to_dlpack`` / ``from_dlpack``: exchange tensors with other array libraries through DLPack capsules.

A Tensor's data is a numpy array on the CPU, so its capsule is numpy's; ``from_dlpack`` reads a capsule (or any
object with ``__dlpack__``) into a Tensor (a copy: numpy gives imported memory read-only, and mskernel's
in-place ops write to a Tensor's array).

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(from_dlpack(to_dlpack(x)))
    [[1. 2.]
     [3. 4.]]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]

_KDLCPU = 1


class _Capsule:
    """An object with the DLPack protocol around a bare capsule (what numpy's ``from_dlpack`` takes)."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple:
        return (_KDLCPU, 0)


def to_dlpack(tensor: Tensor) -> Any:
    """A DLPack capsule of the tensor's data (CPU memory).

    Example:
        >>> import mskernel as ms
        >>> type(to_dlpack(ms.Tensor([1.0]))).__name__
        'PyCapsule'
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'to_dlpack', the input must be a Tensor, but got {type(tensor)}.")
    return np.ascontiguousarray(tensor.asnumpy()).__dlpack__()


def from_dlpack(dlpack: Any) -> Tensor:
    """A Tensor from a DLPack capsule or an object with ``__dlpack__`` (CPU memory only).

    Example:
        >>> import numpy as np
        >>> print(from_dlpack(np.arange(3, dtype=np.int32)))
        [0 1 2]
    """
    source = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    try:
        arr = np.from_dlpack(source)
    except (TypeError, ValueError, BufferError, RuntimeError) as e:
        raise TypeError(f"For 'from_dlpack', the input must be a DLPack capsule of CPU memory or an object with "
                        f"__dlpack__, but got {type(dlpack)}: {e}") from None
    return Tensor(np.array(arr))
