"""``nn.ParameterUpdate``: a cell that writes its input into a Parameter.

Example:
    >>> import mskernel as ms
    >>> p = ms.Parameter(ms.Tensor([0.0, 0.0]), name="p")
    >>> print(ParameterUpdate(p)(ms.Tensor([1.0, 2.0])), p.asnumpy())
    [1. 2.] [1. 2.]
"""
from __future__ import annotations

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["ParameterUpdate"]


class ParameterUpdate(Cell):
    """``nn.ParameterUpdate(param)``: calling it with ``x`` assigns ``x`` to ``param`` and returns ``x``.

    Example:
        >>> import mskernel as ms
        >>> p = ms.Parameter(ms.Tensor([[1.0]]), name="w")
        >>> _ = ParameterUpdate(p)(ms.Tensor([[5.0]])); print(p.asnumpy())
        [[5.]]
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Tensor) -> Tensor:
        F.assign(self._param, x)
        return x
