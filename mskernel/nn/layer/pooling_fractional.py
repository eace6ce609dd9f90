"""``nn.FractionalMaxPool2d`` and ``nn.FractionalMaxPool3d``: cells over :func:`ops.fractional_max_pool2d` and
:func:`ops.fractional_max_pool3d` (windows of ``kernel_size`` at random steps; see
:mod:`mskernel.ops.table.nn_pool_fractional`).

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> pool = nn.FractionalMaxPool2d(2, output_size=(2, 2))
    >>> pool(ms.Tensor(np.ones((1, 1, 5, 5), np.float32))).shape
    (1, 1, 2, 2)
"""
from __future__ import annotations

from typing import Any, Optional

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


class _Fractional(Cell):
    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Optional[Tensor] = None) -> None:
        super().__init__()
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples


class FractionalMaxPool2d(_Fractional):
    """``FractionalMaxPool2d(kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None)``: 2-d fractional max pooling of a ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4))
        >>> u = ms.Tensor(np.zeros((1, 1, 2), np.float32))
        >>> print(FractionalMaxPool2d(2, output_size=2, _random_samples=u)(x))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """

    def construct(self, input: Tensor) -> Any:
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, self._random_samples)


class FractionalMaxPool3d(_Fractional):
    """``FractionalMaxPool3d(kernel_size, output_size=None, output_ratio=None, return_indices=False,
    _random_samples=None)``: 3-d fractional max pooling of a ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(8.0, dtype=np.float32).reshape(1, 1, 2, 2, 2))
        >>> print(FractionalMaxPool3d(1, output_size=1)(x))
        [[[[[7.]]]]]
    """

    def construct(self, input: Tensor) -> Any:
        return F.fractional_max_pool3d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, self._random_samples)
