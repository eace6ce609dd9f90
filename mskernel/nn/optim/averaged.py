"""``nn.ASGD``: averaged stochastic gradient descent, as MindSpore's (its step size ``eta`` decays with the step
count, the running average ``ax`` of the parameters starts after ``t0`` steps; arithmetic in float32).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    >>> opt = nn.ASGD([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5, -1.0]),)); print(w.asnumpy(), opt.ax[0].name)
    [ 0.94999 -1.89998] ax_.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.optim._checks import of_type
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["ASGD"]

_F = np.float32


class ASGD(Optimizer):
    """``nn.ASGD(params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0)``: at step ``t``
    (from 1) ``param = param * (1 - lambd * eta) - eta * grad``; then ``eta = lr / (1 + lambd * lr * t) ** alpha``
    and ``mu = 1 / max(1, t - t0)``; ``ax`` follows the parameters (``ax += (param - ax) * mu``, a copy while
    ``mu`` is 1). ``eta`` starts at the first step's learning rate.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = ASGD([w], learning_rate=0.5, lambd=0.1)
        >>> for _ in range(2):
        ...     _ = opt((ms.Tensor([1.0]),))
        >>> print(w.asnumpy(), opt.eta[0].asnumpy())
        [-0.05372599] 0.46550626
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        for name, v in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            of_type("ASGD", name, v, (float,))
        self.lambd, self.alpha, self.t0 = lambd, alpha, _F(t0)
        self.mu = ParameterTuple(Parameter(Tensor(_F(1.0)), name=f"mu_{p.name}") for p in self._parameters)
        self.eta = ParameterTuple(Parameter(Tensor(_F(0.0)), name=f"eta_{p.name}") for p in self._parameters)
        self.ax = self._state("ax_")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        step = self._step + 1
        lr32 = _F(lr)
        mu, eta, ax = self.mu[i]._data, self.eta[i]._data, self.ax[i]._data
        if step == 1:
            eta[...] = lr32
        p32 = param._data.astype(_F)
        p32 = p32 * (_F(1.0) - _F(self.lambd) * eta) - eta * g.astype(_F)
        param._data[...] = p32.astype(param._data.dtype)
        if mu != 1:
            ax[...] = (ax + (p32 - ax.astype(_F)) * mu).astype(ax.dtype)
        else:
            ax[...] = param._data
        eta[...] = lr32 / np.power(_F(1.0) + _F(self.lambd) * lr32 * _F(step), _F(self.alpha))
        mu[...] = _F(1.0) / np.maximum(_F(1.0), _F(step) - self.t0)
