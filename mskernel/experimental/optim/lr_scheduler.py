"""``experimental.optim.lr_scheduler``: schedulers that assign each epoch's learning rate to the optimizer's
``lr`` Parameters (``optimizer.lrs``). ``scheduler.step()`` moves one epoch on; ``get_last_lr()`` gives the
rates as float32 Tensors. The arithmetic is float32, as MindSpore's.

Example:
    >>> import mskernel as ms
    >>> from mskernel.experimental import optim
    >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=0.1)
    >>> sched = StepLR(opt, step_size=2, gamma=0.5)
    >>> for _ in range(4):
    ...     _ = sched.step()
    >>> print(sched.get_last_lr())
    [Tensor(shape=[], dtype=Float32, value= 0.025)]
"""
from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from typing import Any, Callable, List, Optional, Sequence, Union

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.experimental.optim.optimizer import Optimizer, check_value_type

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR", "MultiplicativeLR", "ConstantLR",
           "MultiStepLR", "LambdaLR", "SequentialLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "CosineAnnealingLR"]

_F = np.float32


def _f(x: Any) -> np.float32:
    """A float32 scalar from a number, Tensor or Parameter."""
    if isinstance(x, Tensor):
        return _F(x.asnumpy().reshape(()))
    return _F(x)


def _set(p: Parameter, value: Any) -> None:
    p._data[...] = _f(value)


def _epoch_param(value: float, name: str) -> Parameter:
    return Parameter(Tensor(_F(value)), name=name)


class LRScheduler:
    """``LRScheduler(optimizer, last_epoch=-1)``: the base; subclasses define ``get_lr()`` (the rates of the epoch
    ``last_epoch``, from ``_last_lr`` or ``base_lrs``) and optionally ``_get_closed_form_lr()`` (for
    ``step(epoch)``). Constructing one takes the first step (epoch 0).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=0.1)
        >>> LRScheduler(opt)
        Traceback (most recent call last):
        ...
        NotImplementedError
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        check_value_type("last_epoch", last_epoch, [int], "LRScheduler")
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", Tensor(group["lr"].asnumpy().copy()))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an "
                                   "optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = _epoch_param(last_epoch, "last_epoch_" + type(self).__name__)
        self.step()

    @property
    def _epoch(self) -> np.float32:
        return _f(self.last_epoch)

    def get_lr(self) -> List[Any]:
        raise NotImplementedError

    def get_last_lr(self) -> List[Tensor]:
        """The current rate of each group (float32 scalar Tensors)."""
        return [lr.value() for lr in self._last_lr]

    def step(self, epoch: Optional[Union[int, float, Tensor]] = None) -> bool:
        """Move to the next epoch, or to ``epoch`` (by the closed form where the scheduler has one)."""
        if epoch is None:
            _set(self.last_epoch, self._epoch + _F(1))
            values = self.get_lr()
        else:
            _set(self.last_epoch, epoch)
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        for i in range(self.groups_num):
            _set(self._last_lr[i], values[i])
        return True

    def _scaled(self, factor: Any) -> List[np.float32]:
        return [_f(lr) * _F(factor) for lr in self._last_lr]


class StepLR(LRScheduler):
    """``StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1)``: the rate times ``gamma`` every ``step_size``
    epochs.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = StepLR(opt, 1, gamma=0.5); _ = s.step(); print(s.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        if not isinstance(step_size, int):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got {type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        e = self._epoch
        if e == 0 or e % self.step_size != 0:
            return self._scaled(1.0)
        return self._scaled(self.gamma)

    def _get_closed_form_lr(self) -> List[Any]:
        return [_f(b) * _F(self.gamma ** float(self._epoch // self.step_size)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """``LinearLR(optimizer, start_factor=1/3, end_factor=1.0, total_iters=5, last_epoch=-1)``: the factor moves
    linearly from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = LinearLR(opt, start_factor=0.5, total_iters=2); print(s.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less than or equal "
                             "to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'LinearLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        e = self._epoch
        if e == 0:
            return self._scaled(self.start_factor)
        if e > self.total_iters:
            return self._scaled(1.0)
        d = _F(self.end_factor - self.start_factor)
        factor = _F(1) + d / (_F(self.total_iters * self.start_factor) + (e - _F(1)) * d)
        return self._scaled(factor)

    def _get_closed_form_lr(self) -> List[Any]:
        e = min(_F(self.total_iters), self._epoch)
        f = _F(self.start_factor) + _F(self.end_factor - self.start_factor) * e / _F(self.total_iters)
        return [_f(b) * f for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``ExponentialLR(optimizer, gamma, last_epoch=-1)``: the rate times ``gamma`` each epoch.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = ExponentialLR(opt, 0.5); _ = s.step(); _ = s.step(); print(s.get_last_lr()[0])
        0.25
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        return self._scaled(1.0 if self._epoch == 0 else self.gamma)

    def _get_closed_form_lr(self) -> List[Any]:
        return [_f(b) * _F(self.gamma) ** self._epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """``PolynomialLR(optimizer, total_iters=5, power=1.0, last_epoch=-1)``: ``base * (1 - t / total_iters)^power``
    up to ``total_iters``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = PolynomialLR(opt, total_iters=4); _ = s.step(); print(s.get_last_lr()[0])
        0.75
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        if not isinstance(power, float):
            raise TypeError(f"For 'PolynomialLR', the 'power' must be float, but got {type(power)}.")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'PolynomialLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        e = self._epoch
        if e == 0 or e > self.total_iters:
            return self._scaled(1.0)
        n = _F(self.total_iters)
        factor = ((_F(1) - e / n) / (_F(1) - (e - _F(1)) / n)) ** _F(self.power)
        return self._scaled(factor)

    def _get_closed_form_lr(self) -> List[Any]:
        e = min(_F(self.total_iters), self._epoch)
        return [_f(b) * (_F(1) - e / _F(self.total_iters)) ** _F(self.power) for b in self.base_lrs]


def _lambdas(optimizer: Optimizer, lr_lambda: Any) -> List[Callable[[Any], Any]]:
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n


class LambdaLR(LRScheduler):
    """``LambdaLR(optimizer, lr_lambda, last_epoch=-1)``: ``base * lr_lambda(epoch)`` (one function, or one per
    group); the function gets the epoch as a float32 Tensor.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = LambdaLR(opt, lambda e: 0.5 ** e); _ = s.step(); print(s.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        return [_f(b) * _f(fn(self.last_epoch.value())) for fn, b in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """``MultiplicativeLR(optimizer, lr_lambda, last_epoch=-1)``: the rate times ``lr_lambda(epoch)`` each epoch.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = MultiplicativeLR(opt, lambda e: 0.5); _ = s.step(); _ = s.step(); print(s.get_last_lr()[0])
        0.25
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        if self._epoch > 0:
            return [_f(lr) * _f(fn(self.last_epoch.value())) for fn, lr in zip(self.lr_lambdas, self._last_lr)]
        return self._scaled(1.0)


class MultiStepLR(LRScheduler):
    """``MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1)``: the rate times ``gamma`` at each milestone
    (``gamma^k`` at a milestone listed ``k`` times).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = MultiStepLR(opt, [1, 1]); _ = s.step(); print(s.get_last_lr()[0])
        0.01
    """

    def __init__(self, optimizer: Optimizer, milestones: List[int], gamma: float = 0.1, last_epoch: int = -1) -> None:
        if not isinstance(milestones, list):
            raise TypeError(f"The type of 'milestones' should be 'list', but got type '{type(milestones).__name__}'.")
        for m in milestones:
            if not isinstance(m, int):
                raise TypeError("For 'MultiStepLR', elements of the 'milestones' must be type of int, but got one "
                                f"element of 'milestones' type: {type(m)}.")
        if not isinstance(gamma, (float, int)) or isinstance(gamma, bool):
            raise TypeError(f"The type of 'gamma' should be one of '['float', 'int']', but got type "
                            f"'{type(gamma).__name__}'.")
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        count = self.milestones.get(int(self._epoch), 0)
        return self._scaled(self.gamma ** count if count else 1.0)


class ConstantLR(LRScheduler):
    """``ConstantLR(optimizer, factor=1/3, total_iters=5, last_epoch=-1)``: the rate times ``factor`` for the first
    ``total_iters`` epochs.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = ConstantLR(opt, factor=0.5, total_iters=1); print(s.get_last_lr()[0]); _ = s.step()
        0.5
        >>> print(s.get_last_lr()[0])
        1.0
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError(f"For 'ConstantLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        e = self._epoch
        if e == 0:
            return self._scaled(self.factor)
        if e != self.total_iters:
            return self._scaled(1.0)
        return [_f(lr) / _F(self.factor) for lr in self._last_lr]

    def _get_closed_form_lr(self) -> List[Any]:
        f = _F(self.factor) + _F(self._epoch >= self.total_iters) * _F(1 - self.factor)
        return [_f(b) * f for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """``CosineAnnealingLR(optimizer, T_max, eta_min=0.0, last_epoch=-1)``: cosine annealing from the base rate
    to ``eta_min`` over ``T_max`` epochs (and back up over the next ``T_max``).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = CosineAnnealingLR(opt, T_max=4); _ = s.step(); print(s.get_last_lr()[0])
        0.8535534
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if not isinstance(eta_min, (float, int)):
            raise TypeError(f"For 'CosineAnnealingLR', the 'eta_min' must be float or int, but got {type(eta_min)}.")
        if not isinstance(T_max, int):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got {type(eta_min)}.")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        e, n, lo = self._epoch, self.T_max, _F(self.eta_min)
        if e == 0:
            return self._scaled(1.0)
        if (e - 1 - n) % (2 * n) == 0:
            half = (_F(1) - np.cos(_F(math.pi / n))) / _F(2)
            return [_f(lr) + (_f(b) - lo) * half for b, lr in zip(self.base_lrs, self._last_lr)]
        pi = _F(math.pi)
        ratio = (_F(1) + np.cos(pi * e / _F(n))) / (_F(1) + np.cos(pi * (e - _F(1)) / _F(n)))
        return [ratio * (_f(lr) - lo) + lo for lr in self._last_lr]

    def _get_closed_form_lr(self) -> List[Any]:
        lo = _F(self.eta_min)
        c = (_F(1) + np.cos(_F(math.pi) * self._epoch / _F(self.T_max))) / _F(2)
        return [lo + (_f(b) - lo) * c for b in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """``CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1)``: cosine annealing that
    restarts at the base rate after ``T_0`` epochs, each period ``T_mult`` times the last.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = CosineAnnealingWarmRestarts(opt, T_0=2)
        >>> for _ in range(2):
        ...     s.step()
        >>> print(s.get_last_lr()[0])
        1.0
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0,
                 last_epoch: int = -1) -> None:
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got {T_mult}")
        check_value_type("eta_min", eta_min, [float, int], "CosineAnnealingWarmRestarts")
        self.T_0 = _epoch_param(T_0, "T_0")
        self.T_i = _epoch_param(T_0, "T_i")
        self.T_mult = T_mult
        self.eta_min = Tensor(eta_min)
        self.T_cur = _epoch_param(last_epoch, "T_cur")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> List[Any]:
        pct = _F(math.pi) * _f(self.T_cur) / _f(self.T_i)
        lo = _f(self.eta_min)
        return [lo + (_f(b) - lo) * (_F(1) + np.cos(pct)) / _F(2) for b in self.base_lrs]

    def step(self, epoch: Optional[Union[int, float, Tensor]] = None) -> None:  # type: ignore[override]
        """Move one epoch on, or to ``epoch`` (a restart where a period ends)."""
        if epoch is None and self._epoch < 0:
            epoch = 0
        if epoch is None:
            new_epoch = self._epoch + _F(1)
            _set(self.T_cur, _f(self.T_cur) + _F(1))
            if _f(self.T_cur) >= _f(self.T_i):
                _set(self.T_cur, _f(self.T_cur) - _f(self.T_i))
                _set(self.T_i, _f(self.T_i) * _F(self.T_mult))
        else:
            if _f(epoch) < 0:
                raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
            new_epoch = _f(epoch)
            t0 = _f(self.T_0)
            if new_epoch >= t0:
                if self.T_mult == 1:
                    _set(self.T_cur, new_epoch % t0)
                else:
                    n = int(math.log(float(new_epoch / t0 * _F(self.T_mult - 1) + _F(1)), self.T_mult))
                    _set(self.T_cur, new_epoch - t0 * _F(self.T_mult ** n - 1) / _F(self.T_mult - 1))
                    _set(self.T_i, t0 * _F(self.T_mult ** n))
            else:
                _set(self.T_i, t0)
                _set(self.T_cur, new_epoch)
        _set(self.last_epoch, np.floor(new_epoch))
        for i, lr in enumerate(self.get_lr()):
            _set(self.optimizer.param_groups[i]["lr"], lr)


class CyclicLR(LRScheduler):
    """``CyclicLR(optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode='triangular', gamma=1.0,
    scale_fn=None, scale_mode='cycle', last_epoch=-1)``: the rate cycles between ``base_lr`` and ``max_lr``
    (``triangular``; ``triangular2`` halves the amplitude each cycle; ``exp_range`` scales it by
    ``gamma^epoch``).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2); _ = s.step(); print(s.get_last_lr()[0])
        0.3
    """

    def __init__(self, optimizer: Optimizer, base_lr: Any, max_lr: Any, step_size_up: int = 2000,
                 step_size_down: Optional[int] = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Optional[Callable[[Any], Any]] = None, scale_mode: str = "cycle",
                 last_epoch: int = -1) -> None:
        base_lrs = self._per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _set(group["lr"], lr)
        self.max_lrs = [Tensor(_F(lr)) for lr in self._per_group(optimizer, max_lr, "max_lr")]
        up = float(step_size_up)
        down = up if step_size_down is None else float(step_size_down)
        self.total_step_size = up + down
        self.step_up_ratio = up / self.total_step_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma, self._scale_fn_custom = mode, gamma, scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [Tensor(_F(lr)) for lr in base_lrs]

    @staticmethod
    def _per_group(optimizer: Optimizer, value: Any, name: str) -> List[Any]:
        n = len(optimizer.param_groups)
        if isinstance(value, (list, tuple)):
            if len(value) != n:
                raise ValueError(f"Expected {n} values for {name}, got {len(value)}")
            return list(value)
        return [value] * n

    def scale_fn(self, x: Any) -> Any:
        """The amplitude's scale at cycle (or epoch) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self) -> List[Any]:
        e = self._epoch
        cycle = np.floor(_F(1) + e / _F(self.total_step_size))
        x = _F(1) + e / _F(self.total_step_size) - cycle
        ratio = _F(self.step_up_ratio)
        scale = x / ratio if x <= ratio else (x - _F(1)) / (ratio - _F(1))
        at = Tensor(cycle) if self.scale_mode == "cycle" else self.last_epoch.value()
        return [_f(b) + (_f(m) - _f(b)) * scale * _f(self.scale_fn(at)) for b, m in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """``SequentialLR(optimizer, schedulers, milestones, last_epoch=-1)``: ``schedulers[k]`` runs from
    ``milestones[k - 1]`` on (restarted at its epoch 0 there).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> warm = ConstantLR(opt, factor=0.5, total_iters=2)
        >>> decay = ExponentialLR(opt, gamma=0.5)
        >>> s = SequentialLR(opt, [warm, decay], milestones=[2])
        >>> lrs = []
        >>> for _ in range(4):
        ...     s.step(); lrs.append(float(s.get_last_lr()[0].asnumpy()))
        >>> lrs
        [0.5, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[LRScheduler], milestones: List[int],
                 last_epoch: int = -1) -> None:
        for k, sched in enumerate(schedulers):
            if sched.optimizer != optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                                 f"got scheduler at index {k} is different from the optimizer passed in.")
            if sched.optimizer != schedulers[0].optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                                 f"got schedulers at index 0 and {k} are different.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             "number of milestone points, but got number of schedulers "
                             f"{len(schedulers)} and the number of milestones {len(milestones)}")
        self._schedulers = schedulers
        self.milestones = milestones
        self.milestones_len = len(milestones)
        self.last_epoch = _epoch_param(last_epoch + 1, "last_epoch_SequentialLR")
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            _set(group["lr"], group["initial_lr"])
        for sched in schedulers:
            _set(sched.last_epoch, _f(sched.last_epoch) - _F(1))
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    def step(self) -> None:
        """Move one epoch on, through the scheduler whose span it is."""
        _set(self.last_epoch, _f(self.last_epoch) + _F(1))
        epoch = int(_f(self.last_epoch))
        k = bisect_right(self.milestones, epoch)
        sched = self._schedulers[k]
        if k > 0 and self.milestones[k - 1] == epoch:
            sched.step(0)
        else:
            sched.step()

    def get_last_lr(self) -> List[Tensor]:
        """The current rate of each group."""
        return [lr.value() for lr in self._last_lr]


class ReduceLROnPlateau:
    """``ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4, threshold_mode='rel',
    cooldown=0, min_lr=0, eps=1e-8)``: ``step(metric)``; the rate times ``factor`` (not below ``min_lr``) once the
    metric has not improved for more than ``patience`` epochs, then ``cooldown`` epochs of rest.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.experimental import optim
        >>> opt = optim.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], lr=1.0)
        >>> s = ReduceLROnPlateau(opt, factor=0.5, patience=0)
        >>> for loss in (1.0, 1.0):
        ...     _ = s.step(ms.Tensor(loss))
        >>> print(s.get_last_lr()[0])
        0.5
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: Any = 0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"Expected {n} min_lrs, got {len(min_lr)}")
            self.min_lrs = [Tensor(_F(lr)) for lr in min_lr]
        else:
            self.min_lrs = [Tensor(_F(min_lr))] * n
        self.mode, self.patience, self.threshold = mode, patience, threshold
        self.threshold_mode, self.cooldown, self.eps = threshold_mode, cooldown, eps
        self.last_epoch = Parameter(Tensor(np.int32(0)), name="last_epoch_ReduceLROnPlateau")
        if mode not in {"min", "max"}:
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got {threshold_mode}.")
        self.mode_worse = float("inf") if mode == "min" else float("-inf")
        self.best = _epoch_param(self.mode_worse, "best")
        self.cooldown_counter = _epoch_param(0, "cooldown_counter")
        self.wait = _epoch_param(0, "wait")
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self, metrics: Any) -> bool:
        """Record this epoch's metric; reduce the rates where it has stalled."""
        self.last_epoch._data[...] = self.last_epoch._data + np.int32(1)
        current = _f(metrics)
        if self._is_improvement(current, _f(self.best)):
            _set(self.best, current)
            _set(self.wait, 0)
        else:
            _set(self.wait, _f(self.wait) + _F(1))
        if self.in_cooldown():
            _set(self.cooldown_counter, _f(self.cooldown_counter) - _F(1))
            _set(self.wait, 0)
        if _f(self.wait) > self.patience:
            for i, lr in enumerate(self._last_lr):
                old = _f(lr)
                new = max(old * _F(self.factor), _f(self.min_lrs[i]))
                if old > new + _F(self.eps):
                    _set(lr, new)
            _set(self.cooldown_counter, self.cooldown)
            _set(self.wait, 0)
        return True

    def in_cooldown(self) -> bool:
        """Whether the scheduler is resting after a reduction."""
        return bool(_f(self.cooldown_counter) > 0)

    def _is_improvement(self, current: np.float32, best: np.float32) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return bool(current < best * _F(1.0 - self.threshold))
        if self.mode == "min":
            return bool(current < best - _F(self.threshold))
        if self.threshold_mode == "rel":
            return bool(current > best * _F(self.threshold + 1.0))
        return bool(current > best + _F(self.threshold))

    def get_last_lr(self) -> List[Tensor]:
        """The current rate of each group."""
        return [lr.value() for lr in self._last_lr]
