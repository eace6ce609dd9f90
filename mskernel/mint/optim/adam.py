"""``mint.optim.Adam``, ``mint.optim.AdamW`` and ``mint.optim.FusedAdamW``: torch's Adam (weight decay added to
the gradient) and AdamW (decoupled: ``param *= 1 - lr * weight_decay`` first), with torch's arguments. The state
is MindSpore's: ``exp_avg.<name>``, ``exp_avg_sq.<name>`` (``max_exp_avg_sq.<name>`` with ``amsgrad``) and the
step count ``state_step``. FusedAdamW is AdamW's step (MindSpore fuses the parameters of a group into one buffer
for its NPU kernel; the arithmetic is the same).

MindSpore 2.10's CPU wheel cannot take these steps: its Adam returns leaving the parameters unchanged, and AdamW
and FusedAdamW have no CPU kernel ("The kernel AdamW unregistered"); mskernel takes the documented step.

Example:
    >>> import mskernel as ms
    >>> from mskernel.mint import optim
    >>> w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    >>> opt = optim.AdamW([w], lr=0.1)
    >>> _ = opt((ms.Tensor([0.5, -1.0]),)); print(w.asnumpy(), opt.exp_avg[0].name)
    [ 0.89900005 -1.898     ] exp_avg.w
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["Adam", "AdamW", "FusedAdamW"]

_GROUP_KEYS = {"params", "lr", "weight_decay"}


def _check(cls: str, name: str, value: Any, kinds: tuple) -> None:
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        want = "', '".join(k.__name__ for k in kinds)
        raise TypeError(f"For '{cls}', the type of '{name}' should be '{want}', but got type "
                        f"'{type(value).__name__}'.")


class _TorchAdam(Optimizer):
    decoupled = False  # AdamW's weight decay
    betas_list = False  # FusedAdamW takes betas as a list too

    def __init__(self, params: Any, lr: float, betas: Tuple[float, float], eps: float, weight_decay: float,
                 amsgrad: bool, maximize: bool) -> None:
        cls = type(self).__name__
        _check(cls, "betas", betas, (tuple, list) if self.betas_list else (tuple,))
        if len(betas) != 2:
            raise ValueError(f"For '{cls}', the betas size should be in : [2], but got {len(betas)}.")
        for name, v in (("betas[0]", betas[0]), ("betas[1]", betas[1]), ("eps", eps),
                        ("weight_decay", weight_decay), ("lr", lr)):
            _check(cls, name, v, (float,))
        _check(cls, "amsgrad", amsgrad, (bool,))
        _check(cls, "maximize", maximize, (bool,))
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for k in (0, 1):
            if not 0.0 <= betas[k] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {k}: {betas[k]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        items = list(params)
        for group in items:
            if isinstance(group, dict) and set(group) - _GROUP_KEYS:
                raise ValueError(f"For '{cls}', mskernel's parameter groups take {sorted(_GROUP_KEYS)}, but a group "
                                 f"has {sorted(set(group) - _GROUP_KEYS)}.")
        super().__init__(lr, items, weight_decay)
        self._decay = [True] * len(self._decay)  # torch decays every parameter
        self.betas, self.eps, self.amsgrad, self.maximize = (float(betas[0]), float(betas[1])), eps, amsgrad, maximize
        self.exp_avg = self._state("exp_avg")
        self.exp_avg_sq = self._state("exp_avg_sq")
        if amsgrad:
            self.max_exp_avg_sq = self._state("max_exp_avg_sq")
        self.state_step = Parameter(Tensor(np.zeros(1, np.float32)), name="state_step")

    def begin_step(self, step: int) -> None:
        self.state_step._data[...] = self.state_step._data + np.float32(1)

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        p = param._data
        t = p.dtype.type
        g = np.asarray(grad, p.dtype)
        if self.maximize:
            g = -g
        wd = self._decay_at(i, self._step)
        if wd is not None:
            if self.decoupled:
                p[...] = p * (t(1) - t(lr) * wd.astype(t))
            else:
                g = g + wd.astype(t) * p
        step = float(self.state_step._data[0])
        b1, b2 = self.betas
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m * t(b1) + g * t(1 - b1)
        v[...] = v * t(b2) + g * g * t(1 - b2)
        if self.amsgrad:
            vmax = self.max_exp_avg_sq[i]._data
            vmax[...] = np.maximum(vmax, v)
            v = vmax
        denom = np.sqrt(v) / t(np.sqrt(1 - b2 ** step)) + t(self.eps)
        p[...] = p - t(lr / (1 - b1 ** step)) * (m / denom)


class Adam(_TorchAdam):
    """``mint.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
    maximize=False)``: ``g += weight_decay * param``; ``m, v`` the moving averages of ``g`` and ``g * g``;
    ``param -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)`` (``v`` the running maximum with
    ``amsgrad``). ``params``: Parameters, or groups (dicts with ``params`` and optionally ``lr`` and
    ``weight_decay``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = Adam([w], lr=0.5, maximize=True)
        >>> _ = opt((ms.Tensor([2.0]),)); print(w.asnumpy(), opt.state_step.asnumpy())
        [1.5] [1.]
    """

    def __init__(self, params: Any, lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)


class AdamW(_TorchAdam):
    """``mint.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: Adam's step after ``param *= 1 - lr * weight_decay``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = AdamW([w], lr=0.5, weight_decay=0.2)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.40000004]
    """
    decoupled = True

    def __init__(self, params: Any, lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)


class FusedAdamW(AdamW):
    """``mint.optim.FusedAdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: :class:`AdamW`'s step.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = FusedAdamW([w], lr=0.5, weight_decay=0.2)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.40000004]
    """
    betas_list = True
