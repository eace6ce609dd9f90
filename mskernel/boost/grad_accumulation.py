"""``GradientAccumulation``: sum ``grad / max_accumulation_step`` over steps, update every that many steps.

Each call adds its gradients, divided by ``max_accumulation_step``, into buffers (parameters named
``grad_accumulation.<weight>``, zeros at first); the call that completes ``max_accumulation_step`` of
them runs the optimizer on the buffers and clears them. The loss passes through.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="w")
    >>> acc = GradientAccumulation(2, nn.SGD([w], learning_rate=1.0))
    >>> _ = acc(ms.Tensor(0.5), (ms.Tensor([2.0]),)); print(w.asnumpy())
    [1.]
    >>> _ = acc(ms.Tensor(0.5), (ms.Tensor([4.0]),)); print(w.asnumpy())
    [-2.]
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mskernel import dtype as mstype
from mskernel.autograd.node import no_grad
from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["GradientAccumulation", "accumulate", "clear"]


def accumulate(buffers: Sequence[Parameter], grads: Sequence[Tensor], steps: int) -> None:
    """Add ``grad / steps`` into each buffer, in place.

    Example:
        >>> import mskernel as ms
        >>> b = ms.Parameter(ms.Tensor([1.0]), name="b"); accumulate([b], [ms.Tensor([4.0])], 2); print(b.asnumpy())
        [3.]
    """
    with no_grad():
        for buf, grad in zip(buffers, grads):
            buf.set_data(Tensor(buf.asnumpy() + grad.asnumpy() / buf.asnumpy().dtype.type(steps)))


def clear(buffers: Sequence[Parameter]) -> None:
    """Zero each buffer.

    Example:
        >>> import mskernel as ms
        >>> b = ms.Parameter(ms.Tensor([1.0]), name="b"); clear([b]); print(b.asnumpy())
        [0.]
    """
    for buf in buffers:
        buf.set_data(Tensor(np.zeros_like(buf.asnumpy())))


class GradientAccumulation(Cell):
    """Accumulate gradients over ``max_accumulation_step`` calls, then let ``optimizer`` apply them.

    Inputs: ``loss``, ``grads`` (one per ``optimizer.parameters``). Output: ``loss``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> w = ms.Parameter(ms.Tensor([0.0]), name="w")
        >>> acc = GradientAccumulation(3, nn.SGD([w]))
        >>> [p.name for p in acc.get_parameters()][:2]
        ['optimizer.w', 'grad_accumulation.optimizer.w']
    """

    def __init__(self, max_accumulation_step: int, optimizer: Cell) -> None:
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self._grad_accumulation = ParameterTuple(self.weights).clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step")

    def construct(self, loss: Any, grads: Sequence[Tensor]) -> Any:
        accumulate(self._grad_accumulation, grads, self._max_accumulation_step)
        step = int(self._accumulation_step.asnumpy()) + 1
        if step >= self._max_accumulation_step:
            self.optimizer(tuple(Tensor(b.asnumpy().copy()) for b in self._grad_accumulation))
            step = 0
        self._accumulation_step.set_data(Tensor(np.int32(step)))
        if step == 0:
            clear(self._grad_accumulation)
        return loss
