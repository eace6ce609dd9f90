"""numpy array access for the C++ headers, in C (``arrays.c``): built on first use through the build layer
(then cached on disk, per numpy version), like the per-call helpers of the Custom kinds.

The C++ headers do not include numpy's. Allocating a tensor's array (``numpy.empty``) and reading an
array's layout (the buffer protocol) from C++ therefore go through Python objects on every call; the
capsule from :func:`array_api` gives the headers two C functions doing the same with numpy's C API. When the
extension cannot be built, :func:`array_api` returns None and the headers keep the Python path (same results).

Example:
    >>> type(array_api()).__name__ in ("PyCapsule", "NoneType")
    True
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any, Optional

__all__ = ["array_api"]

log = logging.getLogger("mskernel.cpp")

_capsule: Optional[Any] = None
_failed = False
_lock = threading.Lock()


def array_api() -> Optional[Any]:
    """The ``mskernel.cpp.array_api`` capsule (a ``MkArrayApi`` of ``arrays.c``), or None when the
    extension could not be built (the reason is logged once; the C++ headers then use numpy through Python).

    Example:
        >>> array_api() is array_api()
        True
    """
    global _capsule, _failed
    if _capsule is None and not _failed:
        with _lock:
            if _capsule is None and not _failed:
                from mskernel.toolchain.numpy_ext import build_numpy_extension
                try:
                    module = build_numpy_extension("mskernel_cpp_arrays", Path(__file__).with_name("arrays.c"),
                                                   "_mskernel_cpp_arrays")
                    _capsule = module.capsule()
                except Exception as e:  # noqa: BLE001 (any build or load failure: the Python path works)
                    _failed = True
                    log.warning("the C array helpers of the C++ headers could not be built (%s); C++ ops "
                                "allocate and inspect numpy arrays through Python instead", e)
    return _capsule
