"""``mindspore.frombuffer``: a 1-D Tensor from an object with the buffer interface.

Example:
    >>> import mskernel as ms
    >>> print(frombuffer(bytearray([1, 2, 3, 4]), ms.uint8))
    [1 2 3 4]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor

__all__ = ["frombuffer"]


def frombuffer(buffer: Any, dtype: Any, count: int = -1, offset: int = 0) -> Tensor:
    """``count`` elements of ``dtype`` (all when -1) read from ``buffer`` after ``offset`` bytes.

    Example:
        >>> import mskernel as ms
        >>> import numpy as np
        >>> print(frombuffer(np.array([1.0, 2.0], np.float32).tobytes(), ms.float32, count=1, offset=4))
        [2.]
    """
    np_dtype = mstype.to_dtype(dtype).np
    try:
        arr = np.frombuffer(buffer, np_dtype, count=count, offset=offset)
    except (TypeError, ValueError) as e:
        raise ValueError(f"For 'frombuffer', cannot read {count} elements of {dtype} from the buffer at offset "
                         f"{offset}: {e}") from None
    return Tensor(arr.copy())
