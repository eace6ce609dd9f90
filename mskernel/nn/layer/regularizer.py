"""``nn.L1Regularizer``: ``scale * sum(|weights|)``.

Example:
    >>> import mskernel as ms
    >>> print(L1Regularizer(0.5)(ms.Tensor([[1.0, -2.0], [-3.0, 4.0]])))
    5.0
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["L1Regularizer"]


class L1Regularizer(Cell):
    """``nn.L1Regularizer(scale)``: the L1 penalty of a weight tensor, in float32 scaled by ``scale``.

    Example:
        >>> import mskernel as ms
        >>> print(L1Regularizer(2)(ms.Tensor([1.0, -0.5])))
        3.0
    """

    def __init__(self, scale: Any) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the type of 'scale' should be 'int' or 'float', but got type "
                            f"'{type(scale).__name__}'.")
        if scale <= 0:
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor._wrap(np.asarray(scale, np.float32))

    def construct(self, weights: Tensor) -> Tensor:
        if not isinstance(weights, Tensor) or weights._data.dtype.kind not in "iuf":
            raise TypeError(f"For 'L1Regularizer', the 'weights' must be a Tensor of a number type, but got "
                            f"{getattr(weights, 'dtype', type(weights).__name__)}.")
        return self.scale * F.sum(F.abs(weights))
