"""``nn.LearningRateSchedule`` and MindSpore's schedules: a Cell mapping ``global_step`` (a Tensor) to a
Float32 learning rate of the same shape.

``ExponentialDecayLR``, ``NaturalExpDecayLR``, ``InverseDecayLR`` (``p = step / decay_steps``, floored with
``is_stair``), ``CosineDecayLR``, ``PolynomialDecayLR`` (``update_decay_steps`` stretches the period past its end)
and ``WarmUpLR``; formulas as MindSpore documents them, values checked against the 2.10 wheel.

Example:
    >>> import mskernel as ms
    >>> sched = CosineDecayLR(0.01, 0.1, 4)
    >>> print(sched(ms.Tensor([0, 2, 9], ms.int32)))
    [0.1   0.055 0.01 ]
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns the rate.

    Example:
        >>> isinstance(LearningRateSchedule(), Cell)
        True
    """


def _step(global_step: Any) -> np.ndarray:
    return np.asarray(global_step._data if isinstance(global_step, Tensor) else global_step, np.float64)


def _out(v: np.ndarray) -> Tensor:
    return Tensor._wrap(np.asarray(v, np.float32))


def _check(cls: str, **values: Any) -> None:
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For '{cls}', the '{name}' must be a number, but got {type(v).__name__}.")
        if name.endswith("steps") and not isinstance(v, int):
            raise TypeError(f"For '{cls}', the '{name}' must be int, but got '{type(v).__name__}'")
        if name.endswith("steps") and v <= 0:
            raise ValueError(f"For '{cls}', the '{name}' must be int and must > 0, but got '{v}' with type 'int'.")
        if name in ("learning_rate", "max_lr", "decay_rate") and v <= 0:
            raise ValueError(f"For '{cls}', the '{name}' must be greater than 0, but got {v}.")
        if name in ("min_lr", "end_learning_rate", "power") and v < 0:
            raise ValueError(f"For '{cls}', the '{name}' must be greater than or equal to 0, but got {v}.")


class _Decay(LearningRateSchedule):
    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        _check(type(self).__name__, learning_rate=learning_rate, decay_rate=decay_rate, decay_steps=decay_steps)
        self.learning_rate, self.decay_rate, self.decay_steps, self.is_stair = learning_rate, decay_rate, \
            decay_steps, is_stair

    def _p(self, global_step: Any) -> np.ndarray:
        p = _step(global_step) / self.decay_steps
        return np.floor(p) if self.is_stair else p


class ExponentialDecayLR(_Decay):
    """``learning_rate * decay_rate ** p``.

    Example:
        >>> import mskernel as ms
        >>> print(ExponentialDecayLR(0.1, 0.9, 4, is_stair=True)(ms.Tensor([5], ms.int32)))
        [0.09]
    """

    def construct(self, global_step: Any) -> Tensor:
        return _out(self.learning_rate * self.decay_rate ** self._p(global_step))


class NaturalExpDecayLR(_Decay):
    """``learning_rate * exp(-decay_rate * step)`` (the step floored to a multiple of ``decay_steps`` with
    ``is_stair``).

    Example:
        >>> import mskernel as ms
        >>> print(NaturalExpDecayLR(0.1, 0.9, 4)(ms.Tensor([0], ms.int32)))
        [0.1]
    """

    def construct(self, global_step: Any) -> Tensor:
        return _out(self.learning_rate * np.exp(-self.decay_rate * self._p(global_step) * self.decay_steps))


class InverseDecayLR(_Decay):
    """``learning_rate / (1 + decay_rate * p)``.

    Example:
        >>> import mskernel as ms
        >>> print(InverseDecayLR(0.1, 0.5, 4)(ms.Tensor([2], ms.int32)))
        [0.08]
    """

    def construct(self, global_step: Any) -> Tensor:
        return _out(self.learning_rate / (1 + self.decay_rate * self._p(global_step)))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2``.

    Example:
        >>> import mskernel as ms
        >>> print(CosineDecayLR(0.0, 1.0, 2)(ms.Tensor([1], ms.int32)))
        [0.5]
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        _check("CosineDecayLR", min_lr=min_lr, max_lr=max_lr, decay_steps=decay_steps)
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', but got "
                             f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps

    def construct(self, global_step: Any) -> Tensor:
        p = np.minimum(_step(global_step), self.decay_steps) / self.decay_steps
        return _out(self.min_lr + 0.5 * (self.max_lr - self.min_lr) * (1 + np.cos(math.pi * p)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate`` with
    ``p = min(step, decay_steps) / decay_steps``; ``update_decay_steps`` makes the period the next multiple of
    ``decay_steps`` past the step instead.

    Example:
        >>> import mskernel as ms
        >>> print(PolynomialDecayLR(0.1, 0.01, 4, 1.0)(ms.Tensor([2], ms.int32)))
        [0.055]
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 update_decay_steps: bool = False) -> None:
        super().__init__()
        _check("PolynomialDecayLR", learning_rate=learning_rate, end_learning_rate=end_learning_rate,
               decay_steps=decay_steps, power=power)
        self.learning_rate, self.end_learning_rate, self.decay_steps = learning_rate, end_learning_rate, decay_steps
        self.power, self.update_decay_steps = power, update_decay_steps

    def construct(self, global_step: Any) -> Tensor:
        step = _step(global_step)
        if self.update_decay_steps:
            steps = self.decay_steps * np.maximum(np.ceil(step / self.decay_steps), 1)
            p = step / steps
        else:
            p = np.minimum(step, self.decay_steps) / self.decay_steps
        return _out((self.learning_rate - self.end_learning_rate) * (1 - p) ** self.power + self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``.

    Example:
        >>> import mskernel as ms
        >>> print(WarmUpLR(0.1, 4)(ms.Tensor([2], ms.int32)))
        [0.05]
    """

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        _check("WarmUpLR", learning_rate=learning_rate, warmup_steps=warmup_steps)
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step: Any) -> Tensor:
        return _out(self.learning_rate * np.minimum(_step(global_step), self.warmup_steps) / self.warmup_steps)
