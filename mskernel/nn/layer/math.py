"""MindSpore's math layers in ``mindspore.nn``: ``DiGamma``, ``LGamma``, ``IGamma`` and ``LBeta``, each a Cell whose
``construct`` is ops of the op table (:mod:`mskernel.ops.table.special`), so values, dtypes and gradients are the
ops'.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> x = ms.Tensor([2.0, 3.0, 4.0])
    >>> print(nn.DiGamma()(x), nn.LBeta()(x, x))
    [0.42278433 0.9227843  1.2561177 ] [-1.7917595 -3.4011974 -4.9416428]
"""
from __future__ import annotations

from typing import Any

from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["DiGamma", "LGamma", "IGamma", "LBeta"]


class DiGamma(Cell):
    """``nn.DiGamma()``: the digamma function (the derivative of ``lgamma``), elementwise.

    Example:
        >>> import mskernel as ms
        >>> print(DiGamma()(ms.Tensor([1.0, 0.5])))
        [-0.5772157 -1.96351  ]
    """

    def construct(self, x: Any) -> Any:
        return F.digamma(x)


class LGamma(Cell):
    """``nn.LGamma()``: the log of the absolute value of the gamma function, elementwise.

    Example:
        >>> import mskernel as ms
        >>> print(LGamma()(ms.Tensor([0.5, 3.0])))
        [0.5723649 0.6931472]
    """

    def construct(self, x: Any) -> Any:
        return F.lgamma(x)


class IGamma(Cell):
    """``nn.IGamma()``: the regularized lower incomplete gamma function ``P(a, x)``, elementwise.

    Example:
        >>> import mskernel as ms
        >>> print(IGamma()(ms.Tensor([2.0, 4.0]), ms.Tensor([2.0, 3.0])))
        [0.59399414 0.35276812]
    """

    def construct(self, a: Any, x: Any) -> Any:
        return F.igamma(a, x)


class LBeta(Cell):
    """``nn.LBeta()``: the log of the beta function, ``lgamma(x) + lgamma(y) - lgamma(x + y)``, elementwise.

    Example:
        >>> import mskernel as ms
        >>> print(LBeta()(ms.Tensor([2.0, 1.0]), ms.Tensor([2.0, 3.0])))
        [-1.7917595 -1.0986123]
    """

    def construct(self, x: Any, y: Any) -> Any:
        return F.lgamma(x) + F.lgamma(y) - F.lgamma(x + y)
