"""``mindspore.Generator`` and the default one: a seed and an offset, the state MindSpore 2.10 keeps (16 bytes,
``get_state``/``set_state``), and the functions on the default generator (``seed``, ``manual_seed``,
``initial_seed``, ``get_rng_state``, ``set_rng_state``).

Each draw takes a numpy generator made from (seed, offset) and advances the offset, so restoring a state
repeats the draws that followed it. The numbers differ from MindSpore's (another generator).

Example:
    >>> g = Generator().manual_seed(5)
    >>> state = g.get_state(); a = g._draw().random()
    >>> g.set_state(state); a == g._draw().random(), g.initial_seed()
    (True, 5)
"""
from __future__ import annotations

import os

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "get_rng_state",
           "set_rng_state"]


class Generator:
    """A random-number generator object: ops that take ``generator=`` draw from it.

    Example:
        >>> Generator().manual_seed(3).initial_seed()
        3
    """

    def __init__(self) -> None:
        self._seed = 0
        self._offset = 0

    def manual_seed(self, seed: int) -> "Generator":
        """Set the seed (the offset back to 0); returns the generator.

        Example:
            >>> Generator().manual_seed(7).initial_seed()
            7
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError("Seed must be an integer.")
        self._seed = int(seed)
        self._offset = 0
        return self

    def seed(self) -> int:
        """Seed with a fresh random number (from the operating system) and return it.

        Example:
            >>> g = Generator(); s = g.seed(); s == g.initial_seed()
            True
        """
        value = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """The seed last set.

        Example:
            >>> Generator().initial_seed()
            0
        """
        return self._seed

    def get_state(self) -> Tensor:
        """The state: a UInt8 Tensor of 16 bytes (the seed, then the offset, as little-endian int64).

        Example:
            >>> print(Generator().manual_seed(5).get_state())
            [5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]
        """
        return Tensor._wrap(np.array([self._seed, self._offset], "<i8").view(np.uint8).copy())

    def set_state(self, state: Tensor) -> None:
        """Restore a state from :meth:`get_state`.

        Example:
            >>> g = Generator(); s = g.get_state(); g.manual_seed(9).set_state(s); g.initial_seed()
            0
        """
        if not isinstance(state, Tensor) or state._data.dtype != np.uint8 or state._data.size != 16:
            raise RuntimeError("Invalid tensor input: State")
        self._seed, self._offset = (int(v) for v in state._data.reshape(-1).view("<i8"))

    def _draw(self) -> np.random.Generator:
        """A numpy generator for one op's draws (the offset advances)."""
        rng = np.random.default_rng([self._seed & 0xFFFFFFFFFFFFFFFF, self._offset])
        self._offset += 1
        return rng


#: the generator ops use when given none
default_generator = Generator()


def seed() -> int:
    """Seed the default generator with a fresh random number and return it.

    Example:
        >>> isinstance(seed(), int)
        True
    """
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:
    """Seed the default generator; returns it.

    Example:
        >>> manual_seed(13).initial_seed()
        13
    """
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """The default generator's seed.

    Example:
        >>> _ = manual_seed(14); initial_seed()
        14
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state (see :meth:`Generator.get_state`).

    Example:
        >>> get_rng_state().shape
        (16,)
    """
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    """Restore the default generator's state.

    Example:
        >>> st = get_rng_state(); _ = manual_seed(4); set_rng_state(st); initial_seed() == 4
        False
    """
    default_generator.set_state(state)


def draw(generator: "Generator | None") -> np.random.Generator:
    """The numpy generator an op with ``generator=`` draws from (the default generator's when None).

    Example:
        >>> draw(None).random() < 1.0
        True
    """
    if generator is None:
        return default_generator._draw()
    if not isinstance(generator, Generator):
        raise TypeError(f"The argument 'generator' must be a Generator, but got {type(generator).__name__}.")
    return generator._draw()
