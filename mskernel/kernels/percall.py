"""The per-call helpers of Custom kernel kinds, in C (``percall.c``): built on first use through the build
layer (then cached on disk), like the hybrid dispatcher.

``aot_call(plan, arrays)`` runs an AOT kernel for a prepared signature; ``pyfunc_args(arrays, scalars)``
makes the read-only views a pyfunc's function receives. See ``percall.c`` for their contracts.

Example:
    >>> import numpy as np
    >>> args = percall().pyfunc_args((np.arange(3.0), np.array(2.0)), b"\\x00\\x01")
    >>> args[0].flags.writeable, args[1]
    (False, 2.0)
"""
from __future__ import annotations

import threading
from pathlib import Path
from types import ModuleType
from typing import Optional


__all__ = ["percall"]

_module: Optional[ModuleType] = None
_lock = threading.Lock()


def percall() -> ModuleType:
    """The compiled ``_mskernel_percall`` module (built once per numpy version, then loaded from the cache).

    Example:
        >>> callable(percall().aot_call)
        True
    """
    global _module
    if _module is None:
        from mskernel.toolchain.numpy_ext import build_numpy_extension
        with _lock:
            if _module is None:
                _module = build_numpy_extension("mskernel_percall", Path(__file__).with_name("percall.c"),
                                                "_mskernel_percall")
    return _module
