"""The per-coordinate step-size optimizers of ``experimental.optim``: ``Adadelta``, ``Adagrad``, ``RMSprop``,
``Rprop`` and ``ASGD`` (averaged SGD), each as MindSpore 2.10 steps it.

Example:
    >>> import mskernel as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> _ = Adagrad([w], lr=0.1)((ms.Tensor([2.0]),)); print(w.asnumpy())
    [0.9]
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from mskernel.experimental.optim.optimizer import (check_float_range, check_not_less_than,
                                                   check_not_less_than_without_equal)
from mskernel.experimental.optim.stepper import StepOptimizer

__all__ = ["Adadelta", "Adagrad", "RMSprop", "Rprop", "ASGD"]


class Adadelta(StepOptimizer):
    """``Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False)``:
    ``accum = rho * accum + (1 - rho) * g^2``; ``u = sqrt(accum_update + eps) / sqrt(accum + eps) * g``;
    ``accum_update = rho * accum_update + (1 - rho) * u^2``; ``param -= lr * u``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Adadelta([w], lr=1.0)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.99683774]
    """

    def __init__(self, params: Any, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6, weight_decay: float = 0.0,
                 *, maximize: bool = False) -> None:
        check_not_less_than_without_equal(lr, "lr", "Adadelta")
        check_not_less_than_without_equal(eps, "eps", "Adadelta")
        check_not_less_than(weight_decay, "weight_decay", "Adadelta")
        check_float_range(rho, 0.0, 1.0, "both", "rho", "Adadelta")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize))
        self.accum = self.slots("accum")
        self.accum_update = self.slots("accum_update")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        rho, eps = t(group["rho"]), t(group["eps"])
        acc, acc_up = self.accum[i]._data, self.accum_update[i]._data
        acc[...] = acc * rho + g * g * (t(1) - rho)
        u = np.sqrt(acc_up + eps) / np.sqrt(acc + eps) * g
        acc_up[...] = acc_up * rho + u * u * (t(1) - rho)
        p[...] = p - t(lr) * u


class Adagrad(StepOptimizer):
    """``Adagrad(params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, *,
    maximize=False)``: ``accum += g^2``; ``param -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(accum) + eps)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = Adagrad([w], lr=0.1, initial_accumulator_value=0.5)
        >>> print(opt.accum[0].asnumpy())
        [0.5]
    """
    step_name = "step_t"
    count_after = True

    def __init__(self, params: Any, lr: float = 1e-2, lr_decay: float = 0.0, weight_decay: float = 0.0,
                 initial_accumulator_value: float = 0.0, eps: float = 1e-10, *, maximize: bool = False) -> None:
        check_not_less_than_without_equal(lr, "lr", "Adagrad")
        check_not_less_than(lr_decay, "lr_decay", "Adagrad")
        check_not_less_than(weight_decay, "weight_decay", "Adagrad")
        check_not_less_than(initial_accumulator_value, "initial_accumulator_value", "Adagrad")
        check_not_less_than_without_equal(eps, "eps", "Adagrad")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))
        self.accum = self.slots("accum", init="zeros")
        for a in self.accum:
            a._data[...] = initial_accumulator_value

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        decayed = t(lr) / (t(1) + t(self.step_count) * t(group["lr_decay"]))
        acc = self.accum[i]._data
        acc[...] = acc + g * g
        p[...] = p - decayed * g / (np.sqrt(acc) + t(group["eps"]))


class RMSprop(StepOptimizer):
    """``RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
    maximize=False)``: ``sq = alpha * sq + (1 - alpha) * g^2``; ``avg = sqrt(sq - mean_grad^2 if centered else sq)
    + eps``; ``param -= lr * g / avg`` (through the buffer ``moment = momentum * moment + g / avg`` with momentum).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = RMSprop([w], lr=0.01, alpha=0.75)((ms.Tensor([2.0]),)); print(w.asnumpy())
        [0.98]
    """

    def __init__(self, params: Any, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0.0, momentum: float = 0.0, centered: bool = False,
                 maximize: bool = False) -> None:
        check_not_less_than_without_equal(lr, "lr", "RMSprop")
        check_not_less_than(alpha, "alpha", "RMSprop")
        check_not_less_than_without_equal(eps, "eps", "RMSprop")
        check_not_less_than(momentum, "momentum", "RMSprop")
        check_not_less_than(weight_decay, "weight_decay", "RMSprop")
        super().__init__(params, {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                                  "weight_decay": weight_decay, "maximize": maximize})
        self.mean_grad = self.slots("mean_grad")
        self.mean_square = self.slots("mean_square")
        self.moment = self.slots("moment")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        alpha, eps, momentum = t(group["alpha"]), t(group["eps"]), group["momentum"]
        sq = self.mean_square[i]._data
        sq[...] = sq * alpha + g * g * (t(1) - alpha)
        if group["centered"]:
            mg = self.mean_grad[i]._data
            mg[...] = mg * alpha + g * (t(1) - alpha)
            avg = np.sqrt(sq - mg * mg) + eps
        else:
            avg = np.sqrt(sq) + eps
        if momentum > 0:
            mom = self.moment[i]._data
            mom[...] = mom * t(momentum) + g / avg
            p[...] = p - mom * t(lr)
        else:
            p[...] = p - t(lr) * g / avg


class Rprop(StepOptimizer):
    """``Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False)``: each coordinate's step
    size grows by ``etas[1]`` while its gradient keeps its sign and shrinks by ``etas[0]`` (skipping that step)
    when it flips, clipped to ``step_sizes``; ``param -= sign(g) * step_size``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = Rprop([w], lr=0.1)
        >>> for _ in range(2):
        ...     _ = opt((ms.Tensor([2.0]),))
        >>> print(w.asnumpy())
        [0.78]
    """
    step_name = "step_t"
    decay_grad = False

    def __init__(self, params: Any, lr: float = 1e-2, etas: Tuple[float, float] = (0.5, 1.2),
                 step_sizes: Tuple[float, float] = (1e-6, 50), *, maximize: bool = False) -> None:
        check_not_less_than_without_equal(lr, "lr", "Rprop")
        check_not_less_than_without_equal(etas[1], "etas[1]", "Rprop", 1.0)
        check_float_range(etas[0], 0.0, 1.0, "neither", "etas[0]", "Rprop")
        super().__init__(params, {"lr": lr, "etas": etas, "step_sizes": step_sizes, "maximize": maximize})
        self.prev = self.slots("prev")
        self.step_size = self.slots("step_size")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        minus, plus = np.float32(group["etas"][0]), np.float32(group["etas"][1])
        lo, hi = group["step_sizes"]
        size, prev = self.step_size[i]._data, self.prev[i]._data
        current = np.full_like(size, lr) if self.step_count == 1 else size.copy()
        s = np.sign(g * prev)
        factor = np.where(s > 0, plus, np.where(s < 0, minus, np.float32(1))).astype(p.dtype)
        clipped = np.clip(current * factor, t(lo), t(hi))
        size[...] = clipped
        kept = np.where(factor == minus, t(0), g)
        prev[...] = kept
        p[...] = p - np.sign(kept) * clipped


class ASGD(StepOptimizer):
    """``ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False)``: SGD with the
    step ``eta_t = lr / (1 + lambd * lr * t)^alpha`` and parameter decay ``1 - lambd * eta``, keeping the running
    average ``ax`` of the parameters from step ``t0`` on (``mu = 1 / max(1, t - t0)``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = ASGD([w], lr=0.1, lambd=0.0)
        >>> _ = opt((ms.Tensor([2.0]),)); print(w.asnumpy(), opt.ax[0].asnumpy())
        [0.8] [0.8]
    """
    step_name = "step_t"

    def __init__(self, params: Any, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75, t0: float = 1e6,
                 weight_decay: float = 0.0, maximize: bool = False) -> None:
        check_not_less_than_without_equal(lr, "lr", "ASGD")
        check_not_less_than(weight_decay, "weight_decay", "ASGD")
        if not isinstance(lambd, float):
            raise TypeError(f"For 'ASGD', the type of lambd must be float, but got {type(lambd)}.")
        if not isinstance(t0, float):
            raise TypeError(f"For 'ASGD', the type of t0 must be float, but got {type(t0)}.")
        super().__init__(params, {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                                  "maximize": maximize})
        self.mu = self.scalar_slots("mu", 1.0)
        self.eta = self.scalar_slots("eta", 0.0)
        self.ax = self.slots("ax")

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        t = p.dtype.type
        step = self.step_count
        lambd = t(group["lambd"])
        eta, mu, ax = self.eta[i]._data, self.mu[i]._data, self.ax[i]._data
        if step == 1:
            eta[...] = lr
        p[...] = p * (t(1) - lambd * eta) - eta * g
        if mu != 1:
            ax[...] = ax + (p - ax) * mu
        else:
            ax[...] = p
        eta[...] = lr / (t(1) + lambd * lr * t(step)) ** t(group["alpha"])
        mu[...] = t(1) / max(t(1), t(step) - t(group["t0"]))
