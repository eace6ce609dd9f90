"""Adaptive optimizers beyond Adam: ``nn.AdamWeightDecay`` (decoupled weight decay, no bias correction, as
MindSpore's), ``nn.RMSProp`` (centered or not, with momentum; its mean square starts at ones as MindSpore's
does) and ``nn.Adagrad``; state Parameters named as MindSpore names them (``adam_m.w``, ``mean_square.w``,
``accum.w``, ...), so an optimizer's checkpoint has MindSpore's keys.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = nn.Adagrad([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5]),)); print(w.asnumpy(), [n for n, _ in opt.parameters_and_names()][-1])
    [0.91548455] accum.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["AdamWeightDecay", "RMSProp", "Adagrad"]


def _in_range(cls: str, name: str, v: float, lo: float, hi: float) -> None:
    if not lo < v < hi:
        raise ValueError(f"For '{cls}', the argument '{name}' must be in range ({lo}, {hi}), but got {v}.")


class AdamWeightDecay(Optimizer):
    """``nn.AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``:
    ``param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)`` (the decay only for parameters whose name has
    no 'beta' or 'gamma', unless a group sets it).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = AdamWeightDecay([w], 0.1, weight_decay=0.1)((ms.Tensor([0.5]),)); print(w.asnumpy())
        [0.67379224]
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _in_range("AdamWeightDecay", "beta1", beta1, 0.0, 1.0)
        _in_range("AdamWeightDecay", "beta2", beta2, 0.0, 1.0)
        if eps <= 0:
            raise ValueError(f"For 'AdamWeightDecay', the argument 'eps' must be greater than 0, but got {eps}.")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.moments1 = self._state("adam_m")
        self.moments2 = self._state("adam_v")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param, decay_in_rule=True)
        t = param._data.dtype.type
        m, v = self.moments1[i]._data, self.moments2[i]._data
        m[...] = t(self.beta1) * m + t(1 - self.beta1) * g
        v[...] = t(self.beta2) * v + t(1 - self.beta2) * g * g
        update = m / (np.sqrt(v) + t(self.eps))
        wd = self._decay_at(i, self._step)
        if wd is not None:
            update = wd.astype(t) * param._data + update
        param._data[...] = param._data - t(lr) * update


class RMSProp(Optimizer):
    """``nn.RMSProp(params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
    centered=False, loss_scale=1.0, weight_decay=0.0)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = RMSProp([w], 0.1)((ms.Tensor([0.5]),)); print(w.asnumpy())
        [0.9480125]
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if decay < 0 or momentum < 0:
            raise ValueError(f"For 'RMSProp', the 'decay' and 'momentum' must be at least 0, but got {decay} and "
                             f"{momentum}.")
        if epsilon <= 0:
            raise ValueError(f"For 'RMSProp', the 'epsilon' must be greater than 0, but got {epsilon}.")
        self.decay, self.momentum, self.epsilon, self.centered = float(decay), float(momentum), float(epsilon), \
            centered
        if centered:
            self.mg = self._state("mean_grad")
        self.ms = self._state("mean_square", 1.0)
        self.moment = self._state("moment")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        ms_, mom = self.ms[i]._data, self.moment[i]._data
        ms_[...] = t(self.decay) * ms_ + t(1 - self.decay) * g * g
        denom = ms_
        if self.centered:
            mg = self.mg[i]._data
            mg[...] = t(self.decay) * mg + t(1 - self.decay) * g
            denom = ms_ - mg * mg
        mom[...] = t(self.momentum) * mom + t(lr) * g / np.sqrt(denom + t(self.epsilon))
        param._data[...] = param._data - mom


class Adagrad(Optimizer):
    """``nn.Adagrad(params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
    weight_decay=0.0)``: ``accum += g * g; param -= lr * g / sqrt(accum)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Adagrad([w], accum=0.5, learning_rate=0.1)((ms.Tensor([1.0]),)); print(w.asnumpy())
        [0.91835034]
    """

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, update_slots: bool = True,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if accum < 0:
            raise ValueError(f"For 'Adagrad', the 'accum' must be at least 0, but got {accum}.")
        self.update_slots = update_slots
        self.accum = self._state("accum", float(accum))

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        acc = self.accum[i]._data
        if self.update_slots:
            acc[...] = acc + g * g
        param._data[...] = param._data - t(lr) * g / np.sqrt(acc)
