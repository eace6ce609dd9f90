"""``mindspore.nn`` dynamic learning rates: Python lists with one rate per step, for an optimizer's
``learning_rate``. Epochs are ``step // step_per_epoch``; formulas as MindSpore documents them.

Example:
    >>> from mskernel import nn
    >>> nn.piecewise_constant_lr([2, 5], [0.1, 0.05])
    [0.1, 0.1, 0.05, 0.05, 0.05]
    >>> nn.warmup_lr(0.1, 6, 2, 2)
    [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
"""
from __future__ import annotations

import math
from typing import List, Sequence

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _positive_ints(fn: str, **values: int) -> None:
    """MindSpore's checks and texts (which do not name the function ``fn``) for step counts."""
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"The '{name}' must be int, but got '{type(v).__name__}'")
        if v <= 0:
            raise ValueError(f"The '{name}' must be int and must > 0, but got '{v}' with type 'int'.")


def piecewise_constant_lr(milestone: Sequence[int], learning_rates: Sequence[float]) -> List[float]:
    """``learning_rates[i]`` for the steps before ``milestone[i]`` (increasing), up to the last milestone.

    Example:
        >>> piecewise_constant_lr([1, 3], [0.5, 0.1])
        [0.5, 0.1, 0.1]
    """
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of "
                         f"'learning_rates', but got 'milestone' size: {len(milestone)}, 'learning_rates' size: "
                         f"{len(learning_rates)}.")
    if any(b <= a for a, b in zip(milestone, milestone[1:])):
        raise ValueError(f"For 'piecewise_constant_lr', the 'milestone' must be a sorted list of increasing ints, "
                         f"but got {list(milestone)}.")
    out: List[float] = []
    last = 0
    for m, lr in zip(milestone, learning_rates):
        out += [lr] * (m - last)
        last = m
    return out


def _epochs(total_step: int, step_per_epoch: int) -> List[int]:
    return [i // step_per_epoch for i in range(total_step)]


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> List[float]:
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` (floored with ``is_stair``).

    Example:
        >>> exponential_decay_lr(1.0, 0.5, 4, 1, 2, True)
        [1.0, 1.0, 0.5, 0.5]
    """
    _positive_ints("exponential_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch,
                   decay_epoch=decay_epoch)
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = e / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> List[float]:
    """``learning_rate * exp(-decay_rate * epoch)`` (the epoch floored to a multiple of ``decay_epoch`` with
    ``is_stair``).

    Example:
        >>> natural_exp_decay_lr(1.0, 0.0, 2, 1, 1)
        [1.0, 1.0]
    """
    _positive_ints("natural_exp_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch,
                   decay_epoch=decay_epoch)
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = math.floor(e / decay_epoch) * decay_epoch if is_stair else e
        out.append(learning_rate * math.exp(-decay_rate * p))
    return out


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                     decay_epoch: int, is_stair: bool = False) -> List[float]:
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` (floored with ``is_stair``).

    Example:
        >>> inverse_decay_lr(1.0, 1.0, 3, 1, 1)
        [1.0, 0.5, 0.3333333333333333]
    """
    _positive_ints("inverse_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch, decay_epoch=decay_epoch)
    out = []
    for e in _epochs(total_step, step_per_epoch):
        p = e / decay_epoch
        out.append(learning_rate / (1 + decay_rate * (math.floor(p) if is_stair else p)))
    return out


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> List[float]:
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch)) / 2``.

    Example:
        >>> cosine_decay_lr(0.0, 1.0, 3, 1, 2)
        [1.0, 0.5, 0.0]
    """
    _positive_ints("cosine_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch, decay_epoch=decay_epoch)
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', but got "
                         f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    return [min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * min(e, decay_epoch) / decay_epoch))
            for e in _epochs(total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int, step_per_epoch: int,
                        decay_epoch: int, power: float, update_decay_epoch: bool = False) -> List[float]:
    """``(learning_rate - end_learning_rate) * (1 - epoch / decay_epoch) ** power + end_learning_rate``, the
    epoch capped at ``decay_epoch`` (or the period stretched to the next multiple with ``update_decay_epoch``).

    Example:
        >>> polynomial_decay_lr(1.0, 0.0, 3, 1, 2, 1.0)
        [1.0, 0.5, 0.0]
    """
    _positive_ints("polynomial_decay_lr", total_step=total_step, step_per_epoch=step_per_epoch,
                   decay_epoch=decay_epoch)
    out = []
    for e in _epochs(total_step, step_per_epoch):
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(e / decay_epoch), 1)
            p = e / period
        else:
            p = min(e, decay_epoch) / decay_epoch
        out.append((learning_rate - end_learning_rate) * (1 - p) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int, warmup_epoch: int) -> List[float]:
    """``learning_rate * min(epoch, warmup_epoch) / warmup_epoch``.

    Example:
        >>> warmup_lr(1.0, 3, 1, 2)
        [0.0, 0.5, 1.0]
    """
    _positive_ints("warmup_lr", total_step=total_step, step_per_epoch=step_per_epoch, warmup_epoch=warmup_epoch)
    return [learning_rate * min(e, warmup_epoch) / warmup_epoch for e in _epochs(total_step, step_per_epoch)]
