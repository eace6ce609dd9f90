"""``experimental.optim.SGD``: MindSpore's SGD kernel under torch's arguments. With ``momentum > 0`` the buffer
``accum`` is the first gradient (``stat`` marks it unset), then ``momentum * accum + (1 - dampening) * grad``;
``nesterov`` steps along ``grad + momentum * accum``. Weight decay adds ``weight_decay * param`` to the gradient.

Example:
    >>> import mskernel as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = SGD([w], lr=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt((ms.Tensor([1.0]),))
    >>> print(w.asnumpy())
    [0.71]
"""
from __future__ import annotations

from typing import Any, Dict

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.experimental.optim.optimizer import check_value_type
from mskernel.experimental.optim.stepper import StepOptimizer

__all__ = ["SGD"]


class SGD(StepOptimizer):
    """``SGD(params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = SGD([w], lr=0.5, maximize=True)((ms.Tensor([1.0]),)); print(w.asnumpy())
        [1.5]
    """
    decay_grad = False  # the kernel decays

    def __init__(self, params: Any, lr: Any, momentum: float = 0, dampening: float = 0, weight_decay: float = 0.0,
                 nesterov: bool = False, *, maximize: bool = False) -> None:
        check_value_type("lr", lr, [float, int, Tensor], "SGD")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        check_value_type("momentum", momentum, [int, float], "SGD")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        momentum = float(momentum)
        check_value_type("nesterov", nesterov, [bool], "SGD")
        check_value_type("maximize", maximize, [bool], "SGD")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, grad_centralization=False))
        for group in self.param_groups:
            check_value_type("dampening", group.get("dampening"), [int, float], "SGD")
            group["dampening"] = float(group["dampening"])
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
                             f"to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}")
        self.accum = self.slots("accum")
        self.stat = self.slots("stat", "ones")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        wd, momentum = group["weight_decay"], t(group["momentum"])
        if wd > 0:
            g = g + p * t(wd)
        if momentum > 0:
            acc, stat = self.accum[i]._data, self.stat[i]._data
            first = stat > 0
            acc[...] = np.where(first, g, acc * momentum + t(1 - group["dampening"]) * g)
            stat[...] = 0
            g = g + acc * momentum if group["nesterov"] else acc.copy()
        p[...] = p - t(lr) * g
