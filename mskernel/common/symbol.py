"""``Symbol``: a named dynamic dimension for ``Tensor(shape=...)`` placeholders given to ``Cell.set_inputs``, with
the sizes MindSpore's graph compiler may assume (``min``/``max``, ``divisor``/``remainder``, ``unique``). In
PyNative mode the wheel records them and checks nothing at a call; mskernel runs eagerly and does the same.

Example:
    >>> import mskernel as ms
    >>> s = Symbol(max=8)
    >>> print(s, ms.Tensor(shape=(None, s), dtype=ms.float32).shape)
    {'max': 8} (-1, -1)
"""
from __future__ import annotations

from typing import Any, Dict

__all__ = ["Symbol"]

_DEFAULTS = {"max": 0, "min": 1, "divisor": 1, "remainder": 0, "unique": False}


class Symbol:
    """A dynamic dimension with the constraints MindSpore's compiler may use; ``str`` shows those given.

    Example:
        >>> Symbol(divisor=0)
        Traceback (most recent call last):
        ...
        ValueError: For 'Symbol', the 'divisor' value should be positive, but got 0
    """

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0, unique: bool = False,
                 **kwargs: Any) -> None:
        given = {"max": max, "min": min, "divisor": divisor, "remainder": remainder, "unique": unique}
        for name in ("max", "min", "divisor", "remainder"):
            if isinstance(given[name], bool) or not isinstance(given[name], int):
                raise TypeError(f"For 'Symbol', the type of '{name}' should be int, but got "
                                f"{type(given[name]).__name__}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the type of 'unique' should be bool, but got {type(unique).__name__}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self._given: Dict[str, Any] = {k: v for k, v in given.items() if v != _DEFAULTS[k] and k != "unique"}
        if unique:  # a unique symbol is told apart by its identity, as MindSpore shows it
            self._given["id"] = id(self)
        self._given.update(kwargs)

    def __str__(self) -> str:
        return str(self._given)
