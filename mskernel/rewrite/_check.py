"""The argument checks of the rewrite API, with MindSpore's error texts.

Example:
    >>> check_type("name", 3, [str], "ScopedValue")
    Traceback (most recent call last):
    ...
    TypeError: For 'ScopedValue', the type of 'name' should be 'str', but got type 'int'.
"""
from __future__ import annotations

from typing import Any, List


def check_type(arg: str, value: Any, types: List[type], owner: str) -> None:
    """Raise TypeError unless ``value`` is one of ``types`` (bool is not an int here)."""
    if isinstance(value, tuple(types)) and not (isinstance(value, bool) and bool not in types):
        return
    names = [t.__name__ for t in types]
    want = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
    raise TypeError(f"For '{owner}', the type of '{arg}' should be {want}, but got type '{type(value).__name__}'.")


def check_elements(arg: str, value: Any, types: List[type], owner: str) -> None:
    """Raise TypeError unless ``value`` is a list or tuple of ``types``."""
    check_type(arg, value, [list, tuple], owner)
    for v in value:
        if not isinstance(v, tuple(types)):
            names = [t.__name__ for t in types]
            want = f"one of {names}" if len(names) > 1 else names[0]
            raise TypeError(f"For '{owner}', the type of '{arg}' should be {want}, but got '{v}' with type "
                            f"'{type(v).__name__}'.")
