"""``nn.Adadelta``, ``nn.AdaMax`` and ``nn.ProximalAdagrad``: the optimizers over the update rules of the
``ApplyAdadelta``, ``ApplyAdaMax`` and ``ApplyProximalAdagrad`` primitives (:mod:`mskernel.ops.table.optim_apply`),
one step per call, state Parameters named as MindSpore names them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> _ = nn.Adadelta([w], learning_rate=1.0)((ms.Tensor([0.5]),)); print(w.asnumpy())
    [0.9968378]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.optim.optimizer import Optimizer
from mskernel.ops.table import optim_apply as rules

__all__ = ["Adadelta", "AdaMax", "ProximalAdagrad"]


def _check(cls: str, name: str, value: float, lo: float, hi: float, closed: bool = False) -> float:
    ok = lo <= value <= hi if closed else lo < value < hi
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not ok:
        bounds = f"[{lo}, {hi}]" if closed else f"({lo}, {hi})"
        raise ValueError(f"For '{cls}', the '{name}' must be in range {bounds}, but got {value}.")
    return float(value)


class Adadelta(Optimizer):
    """``nn.Adadelta(params, learning_rate=1.0, rho=0.9, epsilon=1e-06, loss_scale=1.0, weight_decay=0.0)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Adadelta([w], rho=0.5)((ms.Tensor([1.0]),)); print(w.asnumpy())
        [0.99858576]
    """

    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _check("Adadelta", "rho", rho, 0.0, 1.0, closed=True)
        if isinstance(epsilon, bool) or not isinstance(epsilon, float) or epsilon <= 0:
            raise ValueError(f"For 'Adadelta', the 'epsilon' must be a positive float, but got {epsilon}.")
        self.epsilon = epsilon
        self.accum = self._state("accum")
        self.accum_update = self._state("accum_update")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        new = rules._adadelta(param._data, self.accum[i]._data, self.accum_update[i]._data, t(lr), t(self.rho),
                              t(self.epsilon), g.astype(param._data.dtype))
        self.accum[i]._data[...] = new["accum"]
        self.accum_update[i]._data[...] = new["accum_update"]
        param._data[...] = new["var"]


class AdaMax(Optimizer):
    """``nn.AdaMax(params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
    loss_scale=1.0)``: Adam with the infinity norm; the bias correction uses beta1 to the step count.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = AdaMax([w], learning_rate=0.1)((ms.Tensor([0.5]),)); print(w.asnumpy())
        [0.9]
    """

    def __init__(self, params: Any, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-08, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check("AdaMax", "beta1", beta1, 0.0, 1.0)
        self.beta2 = _check("AdaMax", "beta2", beta2, 0.0, 1.0)
        if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
            raise ValueError(f"For 'AdaMax', the 'eps' must be a positive float, but got {eps}.")
        self.eps = eps
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        self.beta1_power = Parameter(Tensor._wrap(np.array(1.0, np.float32)), name="beta1_power")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        power = t(self.beta1) ** t(self._step + 1)
        if i == 0:
            self.beta1_power._data[...] = power
        new = rules._ada_max(param._data, self.moment1[i]._data, self.moment2[i]._data, power, t(lr),
                             t(self.beta1), t(self.beta2), t(self.eps), g.astype(param._data.dtype))
        self.moment1[i]._data[...] = new["m"]
        self.moment2[i]._data[...] = new["v"]
        param._data[...] = new["var"]


class ProximalAdagrad(Optimizer):
    """``nn.ProximalAdagrad(params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False,
    loss_scale=1.0, weight_decay=0.0)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = ProximalAdagrad([w], learning_rate=0.1)((ms.Tensor([0.5]),)); print(w.asnumpy())
        [0.91548455]
    """

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, l1: float = 0.0, l2: float = 0.0,
                 use_locking: bool = False, loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, v in (("accum", accum), ("l1", l1), ("l2", l2)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ValueError(f"For 'ProximalAdagrad', the '{name}' must be a non-negative float, but got {v}.")
        self.l1, self.l2 = float(l1), float(l2)
        self.accum = self._state("accum", accum)

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        new = rules._proximal_adagrad(param._data, self.accum[i]._data, t(lr), t(self.l1), t(self.l2),
                                      g.astype(param._data.dtype))
        self.accum[i]._data[...] = new["accum"]
        param._data[...] = new["var"]
