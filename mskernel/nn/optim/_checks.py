"""The argument checks MindSpore's optimizers share, with its error texts (``For 'Lamb', the 'beta1' must be in range
of (0.0, 1.0), ...``).

Example:
    >>> float_in("Lamb", "beta1", 0.9)
    0.9
"""
from __future__ import annotations

from typing import Any

__all__ = ["of_type", "float_in", "positive_float", "at_least"]


def of_type(cls: str, name: str, value: Any, kinds: tuple) -> Any:
    """``value`` when it is an instance of ``kinds`` (a bool is not a number), else MindSpore's TypeError.

    Example:
        >>> of_type("ASGD", "lambd", 1, (float,))
        Traceback (most recent call last):
        ...
        TypeError: For 'ASGD', the type of 'lambd' should be 'float', but got type 'int'.
    """
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        want = "', '".join(k.__name__ for k in kinds)
        raise TypeError(f"For '{cls}', the type of '{name}' should be '{want}', but got type "
                        f"'{type(value).__name__}'.")
    return value


def float_in(cls: str, name: str, value: Any, lo: float = 0.0, hi: float = 1.0) -> float:
    """A float strictly between ``lo`` and ``hi``.

    Example:
        >>> float_in("Lamb", "beta1", 1.0)
        Traceback (most recent call last):
        ...
        ValueError: For 'Lamb', the 'beta1' must be in range of (0.0, 1.0), but got 1.0 with type 'float'.
    """
    of_type(cls, name, value, (float,))
    if not lo < value < hi:
        raise ValueError(f"For '{cls}', the '{name}' must be in range of ({lo}, {hi}), but got {value} with type "
                         f"'{type(value).__name__}'.")
    return float(value)


def positive_float(cls: str, name: str, value: Any) -> float:
    """A float above 0.

    Example:
        >>> positive_float("AdamOffload", "eps", 0.0)
        Traceback (most recent call last):
        ...
        ValueError: For 'AdamOffload', the 'eps' must be float and must > 0, but got '0.0' with type 'float'.
    """
    of_type(cls, name, value, (float,))
    if not value > 0:
        raise ValueError(f"For '{cls}', the '{name}' must be float and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return float(value)


def at_least(cls: str, name: str, value: Any, bound: float) -> float:
    """A float at least ``bound``.

    Example:
        >>> at_least("FTRL", "l1", -1.0, 0.0)
        Traceback (most recent call last):
        ...
        ValueError: For 'FTRL', the argument 'l1' must >= 0.0, but got -1.0.
    """
    of_type(cls, name, value, (float,))
    if not value >= bound:
        raise ValueError(f"For '{cls}', the argument '{name}' must >= {bound}, but got {value}.")
    return float(value)
