"""Loss scaling for training in low precision: the update cells and ``TrainOneStepWithLossScaleCell``.

The loss's gradient is seeded with the scale (so small float16 gradients do not vanish), the weight
gradients are divided by it again, and the step is skipped when any gradient is inf or NaN (an
overflow). ``DynamicLossScaleUpdateCell`` halves the scale (``scale_factor``) on an overflow and
multiplies it after ``scale_window`` clean steps; ``FixedLossScaleUpdateCell`` keeps it.

On the CPU, MindSpore 2.10's wheel cannot run ``TrainOneStepWithLossScaleCell`` (its overflow check
uses Ascend-only status ops); here the check is the inf/NaN test MindSpore uses on the GPU.

Example:
    >>> import mskernel as ms
    >>> upd = DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2, scale_window=1)
    >>> scale = ms.Parameter(ms.Tensor(8.0), name="s")
    >>> _ = upd(scale, ms.Tensor(True)); print(scale.asnumpy())
    4.0
"""
from __future__ import annotations

from typing import Any, Tuple, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.wrap.cell_wrapper import TrainOneStepCell, forward_and_grads

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


def _as_bool(overflow: Any) -> bool:
    return bool(np.all(overflow.asnumpy())) if isinstance(overflow, Tensor) else bool(overflow)


class DynamicLossScaleUpdateCell(Cell):
    """Update a loss-scale Parameter after each step: ``cell(loss_scale, overflow)`` returns ``overflow``.

    On an overflow the scale becomes ``max(scale / scale_factor, 1)``; after ``scale_window`` steps without
    one it is multiplied by ``scale_factor``.

    Example:
        >>> import mskernel as ms
        >>> upd = DynamicLossScaleUpdateCell(4.0, 2, 2)
        >>> s = ms.Parameter(ms.Tensor(4.0), name="s")
        >>> for _ in range(2):
        ...     _ = upd(s, ms.Tensor(False))
        >>> print(s.asnumpy(), upd.get_loss_scale())
        8.0 4.0
    """

    def __init__(self, loss_scale_value: float, scale_factor: int, scale_window: int) -> None:
        super().__init__()
        self.scale_window = Tensor(scale_window, mstype.int32)
        self.scale_factor = Tensor(scale_factor, mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, mstype.int32), name="last_overflow_iterator_step")

    def get_loss_scale(self) -> float:
        """The initial loss scale.

        Example:
            >>> DynamicLossScaleUpdateCell(1024.0, 2, 1000).get_loss_scale()
            1024.0
        """
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Any) -> Any:
        factor = float(self.scale_factor.asnumpy())
        scale = loss_scale.asnumpy().astype(np.float32)
        cur, last = int(self.cur_iter.asnumpy()), int(self.last_overflow_iter.asnumpy())
        over = _as_bool(overflow)
        if over:
            scale = np.maximum(scale / np.float32(factor), np.float32(1.0))
        grow = int(self.scale_window.asnumpy()) <= cur - last
        if over or grow:
            self.last_overflow_iter.set_data(Tensor(cur, mstype.int32))
        if grow and not over:
            scale = scale * np.float32(factor)
        loss_scale.set_data(Tensor(scale.astype(loss_scale.dtype.np)))
        self.cur_iter.set_data(Tensor(cur + 1, mstype.int32))
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes: ``cell(loss_scale, overflow)`` returns ``overflow``.

    Example:
        >>> FixedLossScaleUpdateCell(128.0).get_loss_scale()
        128.0
    """

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        """The loss scale.

        Example:
            >>> FixedLossScaleUpdateCell(2.0).get_loss_scale()
            2.0
        """
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Any) -> Any:
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One step with loss scaling: returns ``(loss, overflow, scale)``; an overflowing step changes no weight.

    ``scale_sense`` is an update cell (Dynamic/FixedLossScaleUpdateCell) or a Tensor of shape () or (1,).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> net = nn.Dense(1, 1, weight_init=ms.Tensor([[1.0]]), has_bias=False)
        >>> step = TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.L1Loss()), nn.SGD(net.trainable_params(), 1.0),
        ...                                      ms.Tensor(1024.0))
        >>> loss, overflow, scale = step(ms.Tensor([[float("inf")]]), ms.Tensor([[0.0]]))
        >>> print(overflow, net.weight.asnumpy())
        True [[1.]]
        >>> loss, overflow, scale = step(ms.Tensor([[2.0]]), ms.Tensor([[0.0]]))
        >>> print(loss, overflow, net.weight.asnumpy())
        2.0 False [[-1.]]
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Union[Cell, Tensor]) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), mstype.float32), name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                 f"(), but got {tuple(scale_sense.shape)}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but got "
                            f"'scale_sense' type: {type(scale_sense)}.")

    def construct(self, *inputs: Any) -> Tuple[Any, Tensor, Parameter]:
        scale = self.scale_sense
        loss, grads = forward_and_grads(self.network, inputs, self.weights, scale)
        inv = np.float32(1.0) / scale.asnumpy().astype(np.float32).reshape(())
        grads = tuple(g * Tensor(inv.astype(g.dtype.np)) for g in grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        if not _as_bool(overflow):
            self.optimizer(grads)
        return loss, cond, scale

    def set_sense_scale(self, sens: Tensor) -> None:
        """Set the loss scale (a Tensor).

        Example:
            >>> import mskernel as ms
            >>> net = ms.nn.Dense(1, 1)
            >>> c = TrainOneStepWithLossScaleCell(net, ms.nn.SGD(net.trainable_params()), ms.Tensor(4.0))
            >>> c.set_sense_scale(ms.Tensor(2.0)); print(c.scale_sense.asnumpy())
            2.0
        """
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got "
                            f"{type(sens)}")
        self.scale_sense.set_data(sens)

    def get_overflow_status(self, status: Any, compute_output: Any) -> Tensor:
        """True (a bool Tensor) when any gradient holds inf or NaN.

        Example:
            >>> import mskernel as ms
            >>> print(TrainOneStepWithLossScaleCell.get_overflow_status(None, None, (ms.Tensor([1.0]),)))
            False
        """
        finite = all(bool(np.isfinite(g.asnumpy()).all()) for g in compute_output)
        return Tensor(not finite)

    def process_loss_scale(self, overflow: Tensor) -> Any:
        """Let the update cell adjust the scale; returns the overflow flag.

        Example:
            >>> import mskernel as ms
            >>> net = ms.nn.Dense(1, 1)
            >>> update = DynamicLossScaleUpdateCell(4.0, 2, 1000)
            >>> c = TrainOneStepWithLossScaleCell(net, ms.nn.SGD(net.trainable_params()), update)
            >>> print(c.process_loss_scale(ms.Tensor(True)), c.scale_sense.asnumpy())
            True 2.0
        """
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
