"""``nn.SGD``, ``nn.Momentum``: MindSpore's momentum optimizers, update rules as its kernels compute them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = nn.Momentum([w], learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt((ms.Tensor([1.0]),))
    >>> print(w.asnumpy(), opt.moments[0].name)
    [0.71] moments.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["SGD", "Momentum"]


def _momentum_parameter(momentum: float) -> Parameter:
    """The momentum as MindSpore holds it: a float32 Parameter named 'momentum' (saved in checkpoints)."""
    return Parameter(Tensor(np.float32(momentum)), name="momentum")


class Momentum(Optimizer):
    """``nn.Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)``:
    ``accum = momentum * accum + grad``; ``param -= lr * accum`` (Nesterov: ``lr * (grad + momentum * accum)``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Momentum([w], 0.5, 0.9)((ms.Tensor([1.0]),)); print(w.asnumpy())
        [0.5]
    """

    def __init__(self, params: Any, learning_rate: Any, momentum: float, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = _momentum_parameter(momentum)
        self.use_nesterov = use_nesterov
        self.moments = self._state("moments")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        dt = param._data.dtype
        acc = self.moments[i]._data
        mom = dt.type(self.momentum._data)  # read each step: a loaded checkpoint's value is the one used
        acc[...] = acc * mom + g
        step = g + acc * mom if self.use_nesterov else acc
        param._data[...] = param._data - dt.type(lr) * step


class SGD(Optimizer):
    """``nn.SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
    loss_scale=1.0)``: with momentum, the first step's buffer is the gradient itself (MindSpore's ``stat``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = SGD([w], 0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     _ = opt((ms.Tensor([1.0]),))
        >>> print(w.asnumpy())
        [0.71]
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: Any = 0.0, nesterov: bool = False, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float) or momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float) or dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' "
                             f"{dampening}")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.momentum = _momentum_parameter(momentum)
        self.dampening, self.nesterov = dampening, nesterov
        self.accum = self._state("accum")
        self.stat = self._state("stat", 1.0)

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        dt = param._data.dtype
        mom = dt.type(self.momentum._data)
        if mom > 0:
            acc, stat = self.accum[i]._data, self.stat[i]._data
            first = stat > 0
            acc[...] = np.where(first, g, acc * mom + dt.type(1 - self.dampening) * g)
            stat[...] = 0
            g = g + acc * mom if self.nesterov else acc.copy()
        param._data[...] = param._data - dt.type(lr) * g
