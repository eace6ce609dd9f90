"""``mindspore.dataset.config``: the seed for shuffling and random transforms, and accepted tuning knobs.

Example:
    >>> from mskernel.dataset import config
    >>> config.set_seed(5); config.get_seed()
    5
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["set_seed", "get_seed", "rng", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size"]

_STATE: dict = {"seed": None, "rng": np.random.default_rng(), "workers": 8, "prefetch": 16}


def set_seed(seed: int) -> None:
    """Seed shuffles and random transforms (MindSpore's ``dataset.config.set_seed``).

    Example:
        >>> set_seed(1); a = rng().random(); set_seed(1); a == rng().random()
        True
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2 ** 32 - 1:
        raise ValueError(f"seed given is not within the required range [0, {2 ** 32 - 1}].")
    _STATE["seed"] = seed
    _STATE["rng"] = np.random.default_rng(seed)


def get_seed() -> Any:
    """The seed given to :func:`set_seed`; before one is set, MindSpore's default, 5489 (the Mersenne Twister's
    default seed), although the generator itself is then unseeded."""
    return 5489 if _STATE["seed"] is None else _STATE["seed"]


def rng() -> np.random.Generator:
    """The generator shuffles and random transforms draw from."""
    return _STATE["rng"]


def set_num_parallel_workers(num: int) -> None:
    """Accepted (everything runs in this process)."""
    _STATE["workers"] = int(num)


def get_num_parallel_workers() -> int:
    """The value given to :func:`set_num_parallel_workers`."""
    return _STATE["workers"]


def set_prefetch_size(size: int) -> None:
    """Accepted (rows are computed when iterated)."""
    _STATE["prefetch"] = int(size)


def get_prefetch_size() -> int:
    """The value given to :func:`set_prefetch_size`."""
    return _STATE["prefetch"]
