"""The Adam family of ``experimental.optim``: ``Adam`` (MindSpore's Adam kernel: ``eps`` added to ``sqrt(v)``
before the bias correction of the step; ``amsgrad`` is accepted and not used, as there), ``AdamW`` (decoupled
decay, torch's arithmetic, ``amsgrad``), ``Adamax``, ``NAdam`` and ``RAdam``.

Example:
    >>> import mskernel as ms
    >>> w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    >>> opt = AdamW([w], lr=0.1)
    >>> _ = opt((ms.Tensor([0.5, -1.0]),)); print(w.asnumpy(), opt.exp_avg[0].name)
    [ 0.899 -1.898] exp_avg.w
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from mskernel.experimental.optim.optimizer import (check_float_range, check_not_less_than,
                                                   check_not_less_than_without_equal)
from mskernel.experimental.optim.stepper import StepOptimizer

__all__ = ["Adam", "AdamW", "Adamax", "NAdam", "RAdam"]


def _torch_checks(lr: float, betas: Tuple[float, float], eps: float, weight_decay: float) -> None:
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for k in (0, 1):
        if not 0.0 <= betas[k] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {k}: {betas[k]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _range_checks(cls: str, lr: float, betas: Tuple[float, float], eps: float, weight_decay: float) -> None:
    check_not_less_than_without_equal(lr, "lr", cls)
    check_not_less_than(weight_decay, "weight_decay", cls)
    check_not_less_than_without_equal(eps, "eps", cls)
    check_float_range(betas[0], 0.0, 1.0, "left", "betas[0]", cls)
    check_float_range(betas[1], 0.0, 1.0, "left", "betas[1]", cls)


class _TorchAdamSlots(StepOptimizer):
    """Adam's and AdamW's shared construction: torch's argument checks, the group defaults, the moment slots
    (``exp_avg``, ``exp_avg_sq``, ``max_exp_avg_sq``) and the step counter ``state_step``."""
    step_name = "state_step"

    def __init__(self, params: Any, lr: float, betas: Tuple[float, float], eps: float, weight_decay: float,
                 amsgrad: bool, maximize: bool) -> None:
        _torch_checks(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize})
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.max_exp_avg_sq = self.slots("max_exp_avg_sq")


class Adam(_TorchAdamSlots):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *, maximize=False)``:
    ``g += weight_decay * param``; ``m``, ``v`` the moving averages of ``g`` and ``g * g``;
    ``param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = Adam([w], lr=0.5, maximize=True)
        >>> _ = opt((ms.Tensor([2.0]),)); print(w.asnumpy(), opt.state_step.asnumpy())
        [1.5] 1
    """
    def __init__(self, params: Any, lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        b1, b2 = (t(b) for b in group["betas"])
        step = self.step_count
        lr_t = t(lr) * np.sqrt(t(1) - b2 ** step) / (t(1) - b1 ** step)
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m + (g - m) * (t(1) - b1)
        v[...] = v + (g * g - v) * (t(1) - b2)
        p[...] = p - lr_t * m / (np.sqrt(v) + t(group["eps"]))


class AdamW(_TorchAdamSlots):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: ``param *= 1 - lr * weight_decay``, then
    ``param -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)`` (``v`` its running maximum with
    ``amsgrad``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = AdamW([w], lr=0.5, weight_decay=0.2)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.39999998]
    """
    decay_grad = False

    def __init__(self, params: Any, lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        b1, b2 = (t(b) for b in group["betas"])
        step = self.step_count
        shrink = t(1) - t(lr) * t(group["weight_decay"])
        step_size = t(lr) / (t(1) - b1 ** step)
        bc2_sqrt = np.sqrt(t(1) - b2 ** step)
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        new_p = p * shrink
        m[...] = m * b1 + g * (t(1) - b1)
        v[...] = v * b2 + g * g * (t(1) - b2)
        if group["amsgrad"]:
            vmax = self.max_exp_avg_sq[i]._data
            vmax[...] = np.maximum(vmax, v)
            v = vmax
        p[...] = new_p - (m / (np.sqrt(v) / bc2_sqrt + t(group["eps"]))) * step_size


class Adamax(StepOptimizer):
    """``Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *, maximize=False)``:
    ``u = max(beta2 * u, |g| + eps)``; ``param -= lr / (1 - beta1^t) * m / u``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Adamax([w], lr=0.1)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.9]
    """
    step_name = "step_t"

    def __init__(self, params: Any, lr: float = 2e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, *, maximize: bool = False) -> None:
        _range_checks("Adamax", lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "maximize": maximize})
        self.exp_avg = self.slots("exp_avg")
        self.exp_inf = self.slots("exp_inf")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        b1, b2 = (t(b) for b in group["betas"])
        clr = t(lr) / (t(1) - b1 ** self.step_count)
        m, u = self.exp_avg[i]._data, self.exp_inf[i]._data
        m[...] = m * b1 + g * (t(1) - b1)
        u[...] = np.maximum(u * b2, np.abs(g) + t(group["eps"]))
        p[...] = p - clr * m / u


class NAdam(StepOptimizer):
    """``NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3)``: Adam
    with Nesterov momentum, ``mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = NAdam([w], lr=0.1)((ms.Tensor([2.0]),)); print(w.asnumpy().round(4))
        [0.8944]
    """
    step_name = "step_t"
    negate = False

    def __init__(self, params: Any, lr: float = 2e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, momentum_decay: float = 4e-3) -> None:
        check_not_less_than_without_equal(lr, "lr", "NAdam")
        check_not_less_than_without_equal(eps, "eps", "NAdam")
        check_not_less_than(weight_decay, "weight_decay", "NAdam")
        check_not_less_than(momentum_decay, "momentum_decay", "NAdam")
        check_float_range(betas[0], 0.0, 1.0, "left", "betas[0]", "NAdam")
        check_float_range(betas[1], 0.0, 1.0, "left", "betas[1]", "NAdam")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay})
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")
        self.mu_product = self.scalar_slots("mu_product", 1.0)

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        b1, b2 = (t(b) for b in group["betas"])
        step, decay = self.step_count, t(group["momentum_decay"])
        bc2 = t(1) - b2 ** step
        mu = b1 * (t(1) - t(0.5) * t(0.96) ** (t(step) * decay))
        mu_next = b1 * (t(1) - t(0.5) * t(0.96) ** (t(step + 1) * decay))
        prod = self.mu_product[i]._data
        prod[...] = prod * mu
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m * b1 + g * (t(1) - b1)
        v[...] = v * b2 + g * g * (t(1) - b2)
        denom = np.sqrt(v / bc2) + t(group["eps"])
        p[...] = p - t(lr) * (t(1) - mu) / (t(1) - prod) * g / denom
        p[...] = p - (t(lr) * mu_next) / (t(1) - prod * mu_next) * m / denom


class RAdam(StepOptimizer):
    """``RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)``: Adam whose adaptive step is
    rectified once the variance estimate is tractable (``rho_t > 5``), plain momentum before.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = RAdam([w], lr=0.1)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.8]
    """
    step_name = "step_t"
    negate = False

    def __init__(self, params: Any, lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0) -> None:
        _range_checks("RAdam", lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay})
        self.exp_avg = self.slots("exp_avg")
        self.exp_avg_sq = self.slots("exp_avg_sq")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        b1, b2 = (t(b) for b in group["betas"])
        step = self.step_count
        bc1, bc2 = t(1) - b1 ** step, t(1) - b2 ** step
        rho_inf = t(2) / (t(1) - b2) - t(1)  # float32, as MindSpore's compiled step computes it
        rho_t = rho_inf - t(2) * t(step) * b2 ** step / bc2
        m, v = self.exp_avg[i]._data, self.exp_avg_sq[i]._data
        m[...] = m * b1 + g * (t(1) - b1)
        v[...] = v * b2 + g * g * (t(1) - b2)
        corrected = m / bc1
        if rho_t > 5.0:
            rect = np.sqrt((rho_t - t(4)) * (rho_t - t(2)) * rho_inf / ((rho_inf - t(4)) * (rho_inf - t(2)) * rho_t))
            adaptive = np.sqrt(bc2) / (np.sqrt(v) + t(group["eps"]))
            p[...] = p - corrected * t(lr) * adaptive * rect
        else:
            p[...] = p - corrected * t(lr)
