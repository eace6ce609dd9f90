"""``mindspore.set_seed``: one global seed for every random op, initializer and dataset shuffle.

MindSpore's random streams (Philox on its devices) cannot be reproduced here; what is kept is what
code relies on: after ``set_seed(s)`` a program draws the same numbers every run, and draws of the
same shape, dtype and distribution. Random ops take their numbers from :func:`generator`.

Example:
    >>> set_seed(1); a = generator().random()
    >>> set_seed(1); a == generator().random(), get_seed()
    (True, 1)
"""
from __future__ import annotations

from typing import Optional

import numpy as np

__all__ = ["set_seed", "get_seed", "generator"]

_STATE = {"seed": None, "gen": np.random.default_rng()}


def set_seed(seed: int) -> None:
    """Seed every random op, the initializers and numpy's global generator (MindSpore's ``set_seed``);
    ``seed`` must be a non-negative int.

    Example:
        >>> set_seed(0); get_seed()
        0
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"The argument 'seed' must be greater than or equal to 0, but got {seed}.")
    _STATE["seed"] = seed
    _STATE["gen"] = np.random.default_rng(seed)
    np.random.seed(seed)  # as MindSpore's: numpy's global generator (which initializers draw from) too


def get_seed() -> Optional[int]:
    """The seed given to :func:`set_seed`, or None.

    Example:
        >>> set_seed(7); get_seed()
        7
    """
    return _STATE["seed"]


def generator() -> np.random.Generator:
    """The numpy Generator random ops draw from (re-created by :func:`set_seed`).

    Example:
        >>> generator().standard_normal(2).shape
        (2,)
    """
    return _STATE["gen"]
