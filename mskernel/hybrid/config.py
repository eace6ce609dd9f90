"""The global debug switch of hybrid kernels.

Debug kernels bounds-check every tensor access one by one and raise ``IndexError`` (naming the
kernel, the tensor, the indices, the shape and the DSL line). Kernels compiled without debug are
as safe -- their loop nests are proved in bounds before they run, or run checked (see
:mod:`mskernel.hybrid.bounds`) -- and as fast as unchecked code.
A kernel's own ``debug=`` argument wins over this switch; the switch defaults to the
environment variable ``MSKERNEL_HYBRID_DEBUG`` (``1``/``true``/``yes`` = on).

Example:
    >>> previous = get_debug()
    >>> set_debug(True); get_debug()
    True
    >>> set_debug(previous)
"""
from __future__ import annotations

import os
from typing import Optional

__all__ = ["set_debug", "get_debug"]

_debug: Optional[bool] = None

#: bumped by every set_debug() call, so kernels drop their cached fast path
generation = 0


def set_debug(flag: Optional[bool]) -> None:
    """Turn debug mode on or off for kernels created without ``debug=`` (None: use the env).

    Example:
        >>> set_debug(None)
    """
    global _debug, generation
    _debug = None if flag is None else bool(flag)
    generation += 1


def get_debug() -> bool:
    """Whether kernels without an explicit ``debug=`` are compiled in debug mode.

    Example:
        >>> isinstance(get_debug(), bool)
        True
    """
    if _debug is not None:
        return _debug
    return os.environ.get("MSKERNEL_HYBRID_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")
