"""Random composition of ``mindspore.dataset.transforms``: ``RandomApply``, ``RandomChoice``, ``RandomOrder``,
and the ``not_random`` marker. Draws come from the dataset generator (``dataset.config.set_seed``).

Example:
    >>> import numpy as np
    >>> RandomApply([lambda x: x + 1], prob=1.0)(np.array(1))
    np.int64(2)
"""
from __future__ import annotations

from typing import Any, Callable, List

from mskernel.dataset import config

__all__ = ["RandomApply", "RandomChoice", "RandomOrder", "not_random"]


def _check(transforms: Any) -> List[Callable]:
    if not isinstance(transforms, list):
        raise TypeError(f"Argument transforms with value {transforms} is not of type [<class 'list'>], "
                        f"but got {type(transforms)}.")
    if not transforms:
        raise ValueError("transforms list can not be empty.")
    for i, t in enumerate(transforms):
        if not callable(t):
            raise TypeError(f"transforms[{i}] is neither a transforms op (TensorOperation) nor a callable pyfunc.")
    return transforms


def _run(transforms: List[Callable], args: tuple) -> Any:
    for t in transforms:
        out = t(*args)
        args = out if isinstance(out, tuple) else (out,)
    return args[0] if len(args) == 1 else args


class RandomApply:
    """All of ``transforms`` in order, with probability ``prob``; otherwise the input unchanged.

    Example:
        >>> RandomApply([lambda x: x + 1], prob=0.0)(1)
        1
    """

    def __init__(self, transforms: List[Callable], prob: float = 0.5) -> None:
        self.transforms = _check(transforms)
        if not 0 <= prob <= 1:
            raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
        self.prob = prob

    def __call__(self, *args: Any) -> Any:
        if config.rng().random() < self.prob:
            return _run(self.transforms, args)
        return args[0] if len(args) == 1 else args


class RandomChoice:
    """One of ``transforms``, drawn uniformly.

    Example:
        >>> RandomChoice([lambda x: x * 2])(3)
        6
    """

    def __init__(self, transforms: List[Callable]) -> None:
        self.transforms = _check(transforms)

    def __call__(self, *args: Any) -> Any:
        return _run([self.transforms[int(config.rng().integers(0, len(self.transforms)))]], args)


class RandomOrder:
    """All of ``transforms``, in a random order.

    Example:
        >>> RandomOrder([lambda x: x + 1, lambda x: x + 2])(0)
        3
    """

    def __init__(self, transforms: List[Callable]) -> None:
        self.transforms = _check(transforms)

    def __call__(self, *args: Any) -> Any:
        order = config.rng().permutation(len(self.transforms))
        return _run([self.transforms[int(k)] for k in order], args)


def not_random(function: Callable) -> Callable:
    """Mark a Python function as deterministic (MindSpore uses the mark when it reorders a pipeline; here it is
    only recorded as ``function.random = False``).

    Example:
        >>> @not_random
        ... def f(x):
        ...     return x
        >>> f.random
        False
    """
    function.random = False  # type: ignore[attr-defined]
    return function
