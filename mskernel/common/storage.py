"""A tensor's memory as bytes: MindSpore's ``mindspore.common.storage.UntypedStorage`` (what ``Tensor.storage()``
and ``Tensor.untyped_storage()`` give; :mod:`mskernel.ops.tensor_runtime` attaches those methods).

Example:
    >>> import numpy as np
    >>> UntypedStorage(np.zeros(3, np.float32)).nbytes()
    12
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["UntypedStorage"]


class UntypedStorage:
    """A tensor's memory as bytes (MindSpore's ``UntypedStorage``): ``nbytes()``/``size()``, ``data_ptr()``,
    ``element_size()`` (1: bytes), ``dtype``, ``device``, ``copy_``, ``resize_``, ``is_shared``.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1, 2], ms.int16)
        >>> s = x.storage(); _ = s.copy_(ms.Tensor([7, 8], ms.int16).storage()); print(x, s.size())
        [7 8] 4
    """

    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    def nbytes(self) -> int:
        return int(self._array.nbytes)

    def size(self) -> int:
        return int(self._array.nbytes)

    def element_size(self) -> int:
        return 1

    def data_ptr(self) -> int:
        return int(self._array.__array_interface__["data"][0])

    @property
    def dtype(self) -> Any:
        from mskernel import dtype as mstype
        return mstype.uint8

    @property
    def device(self) -> str:
        return "CPU"

    def is_shared(self) -> bool:
        return False

    def _bytes(self) -> np.ndarray:
        return self._array.reshape(-1).view(np.uint8)

    def copy_(self, src: "UntypedStorage", non_blocking: bool = False) -> "UntypedStorage":
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"For 'UntypedStorage.copy_', the sizes must match, but got {self.nbytes()} and "
                               f"{src.nbytes()} bytes.")
        self._bytes()[...] = src._bytes()
        return self

    def resize_(self, size: int) -> "UntypedStorage":
        if size != self.nbytes():
            raise RuntimeError(f"For 'UntypedStorage.resize_', mskernel's storage is the tensor's own memory and "
                               f"keeps its {self.nbytes()} bytes, but got {size}.")
        return self
