"""``GroupLossScaleManager``: a loss scale per group of layers, each updated on its own.

The manager is put between layers of a network (``x = manager(x, layer1, layer2)``): the forward value
passes unchanged and the gradient flowing back through it is multiplied by ``scale[layer1] /
scale[layer2]``, so each group of layers sees its own scale (the Ascend NPU's ``_DynamicLossScale``; the
CPU wheel has no kernel for it, here it is this cell's backward). ``BoostTrainOneStepWithLossScaleCell``
(with the ``loss_scale_group`` boost) calls :meth:`set_loss_scale_status` and, each step,
:meth:`update_loss_scale_status`.

Example:
    >>> m = GroupLossScaleManager(4096, [])
    >>> m.get_loss_scale(), m.get_update_cell() is m
    (4096, True)
    >>> m.set_loss_scale_status(2, 16.0)
    >>> print(m.update_loss_scale_status(0, 0.5), [float(p.asnumpy()) for p in m.dynamic_loss_scale])
    8.0 [1.0, 8.0, 16.0, 1.0]
"""
from __future__ import annotations

from typing import Any, List, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["GroupLossScaleManager"]


class _DynamicLossScale(Cell):
    """``x`` forward; the gradient times ``loss_scale`` backward."""

    def __init__(self, layer: int = -1) -> None:
        super().__init__()
        if isinstance(layer, bool) or not isinstance(layer, int):
            raise TypeError(f"For '_DynamicLossScale', the type of 'layer' must be int, but got {type(layer)}.")
        self.layer = layer

    def construct(self, x: Tensor, loss_scale: Tensor) -> Tensor:
        return x * 1

    def bprop(self, x: Tensor, loss_scale: Tensor, out: Tensor, dout: Tensor) -> tuple:
        scale = loss_scale.asnumpy().astype(dout.asnumpy().dtype)
        return Tensor(dout.asnumpy() * scale), Tensor(np.zeros_like(loss_scale.asnumpy()))


class GroupLossScaleManager(Cell):
    """Loss scales per layer group: ``init_loss_scale`` (a number) and ``loss_scale_groups`` (lists of
    parameters, one per group, in the optimizer's order).

    Inputs: ``x``, ``layer1``, ``layer2`` (ints). Output: ``x``, whose gradient is scaled by
    ``scale[layer1] / scale[layer2]``.

    Example:
        >>> import mskernel as ms
        >>> m = GroupLossScaleManager(8.0, [])
        >>> m.set_loss_scale_status(2, [2.0, 8.0])
        >>> x = ms.Tensor([1.0, 2.0])
        >>> print(ms.grad(lambda t: (m(t, 1, 2) * 3).sum())(x))
        [0.75 0.75]
    """

    def __init__(self, init_loss_scale: Union[int, float], loss_scale_groups: List[Any]) -> None:
        super().__init__()
        self._loss_scale = init_loss_scale
        self.loss_scale_groups = loss_scale_groups
        self.loss_scale_number = 0
        self.layer_loss_scale = None
        self.dynamic_loss_scale = None

    def set_loss_scale_status(self, loss_scale_number: int, init_loss_scale: Union[float, List[float]]) -> None:
        """Make ``loss_scale_number + 2`` scales (the first and last are 1): all ``init_loss_scale``, or the
        values of a list.

        Example:
            >>> m = GroupLossScaleManager(1.0, [])
            >>> m.set_loss_scale_status(1, 4.0); [p.name for p in m.dynamic_loss_scale]
            ['layer_loss_scale_0', 'layer_loss_scale_1', 'layer_loss_scale_2']
        """
        self.loss_scale_number = loss_scale_number
        self.layer_loss_scale = tuple(_DynamicLossScale(layer=x) for x in range(loss_scale_number + 1))
        self.dynamic_loss_scale = ParameterTuple(Parameter(Tensor(1, mstype.float32), name=f"layer_loss_scale_{x}",
                                                           requires_grad=False) for x in range(loss_scale_number + 2))
        if isinstance(init_loss_scale, list):
            for i, value in enumerate(init_loss_scale):
                self.dynamic_loss_scale[i + 1].set_data(_scalar(value))
        else:
            for i in range(self.loss_scale_number):
                self.dynamic_loss_scale[i + 1].set_data(_scalar(init_loss_scale))

    def update_loss_scale_status(self, layer: int, update_ratio: Any) -> Tensor:
        """Multiply group ``layer``'s scale by ``update_ratio``; returns the new scale.

        Example:
            >>> m = GroupLossScaleManager(1.0, [])
            >>> m.set_loss_scale_status(1, 4.0); print(m.update_loss_scale_status(0, 2.0))
            8.0
        """
        param = self.dynamic_loss_scale[layer + 1]
        ratio = update_ratio.asnumpy() if isinstance(update_ratio, Tensor) else update_ratio
        param.set_data(Tensor(np.float32(param.asnumpy() * np.float32(ratio))))
        return Tensor(param.asnumpy().copy())

    def construct(self, x: Tensor, layer1: int, layer2: int) -> Tensor:
        scales = self.dynamic_loss_scale
        ratio = Tensor(np.float32(scales[layer1].asnumpy() / scales[layer2].asnumpy()))
        return self.layer_loss_scale[layer1](x, ratio)

    def get_loss_scale(self) -> Union[int, float]:
        """The initial loss scale.

        Example:
            >>> GroupLossScaleManager(2 ** 10, []).get_loss_scale()
            1024
        """
        return self._loss_scale

    def get_update_cell(self) -> "GroupLossScaleManager":
        """This manager (it updates its scales itself).

        Example:
            >>> m = GroupLossScaleManager(1, []); m.get_update_cell() is m
            True
        """
        return self


def _scalar(value: Any) -> Tensor:
    return Tensor(np.float32(value.asnumpy() if isinstance(value, Tensor) else value))
