"""``mindspore.graph.register_custom_backend``: name a backend plugin for ``jit(backend=...)``.

The wheel checks the path, loads the shared library (``False`` when it cannot), records the name and answers
``True``; the plugin (written against MindSpore's C++ backend API) is used when a ``jit`` function naming it
runs. mskernel does the same checks and loading and records the name; running such a ``jit`` function raises
:class:`~mskernel.errors.RefusedError`, as mskernel has no graph compiler for the plugin to extend.

Example:
    >>> register_custom_backend("my_backend", "relative/my_backend.so")
    Traceback (most recent call last):
    ...
    ValueError: The backend_path must be an absolute path, got: relative/my_backend.so
"""
from __future__ import annotations

import ctypes
import logging
import os

from mskernel.common import jit_scope

__all__ = ["register_custom_backend"]

logger = logging.getLogger(__name__)


def register_custom_backend(backend_name: str, backend_path: str) -> bool:
    """Record ``backend_name`` as the backend of the plugin ``backend_path`` (an absolute path to a readable
    ``.so`` file; ValueError otherwise, with the wheel's messages) and return ``True`` (``False`` when the library
    does not load; a name already registered is kept) (``False`` for ``"GE"``,
    whose libraries the CPU wheel lacks too; the built-in ``"ms_backend"`` is a RuntimeError). A ``jit`` function
    with ``backend=backend_name`` then raises :class:`~mskernel.errors.RefusedError` when it runs (one naming
    a backend never registered raises RuntimeError, as in the wheel).

    Example:
        >>> import mskernel as ms
        >>> register_custom_backend("my_backend", "/path/to/my_backend.so")
        Traceback (most recent call last):
        ...
        ValueError: The file /path/to/my_backend.so does not exist or permission denied!
        >>> ms.jit(lambda x: x, backend="not_registered")(1)
        Traceback (most recent call last):
        ...
        RuntimeError: Invalid backend name: not_registered, you should register custom backend first
    """
    if backend_name is None or backend_path is None:
        raise ValueError("Both backend_name and backend_path must be provided.")
    if not os.path.isabs(backend_path):
        raise ValueError(f"The backend_path must be an absolute path, got: {backend_path}")
    backend_path = os.path.realpath(backend_path)
    if not os.path.isfile(backend_path) or not os.access(backend_path, os.R_OK):
        raise ValueError(f"The file {backend_path} does not exist or permission denied!")
    if not backend_path.endswith(".so"):
        raise ValueError(f"The file {backend_path} is not a shared library!")
    if not isinstance(backend_name, str):
        raise TypeError("register_custom_backend(): incompatible function arguments. The following argument types "
                        "are supported:\n    1. (backend_name: str, plugin_so_path: str) -> bool\n\nInvoked with: "
                        f"{backend_name!r}, {backend_path!r}")
    if backend_name == "ms_backend":
        raise RuntimeError("MS backend is bulit-in backend, don't support the dynamic load.")
    if backend_name == "GE":  # the wheel loads its own GE backend for the name, which needs Ascend's libraries
        logger.error("Loading the GE backend failed: it needs the Ascend software stack (libge_runner.so)")
        return False
    if backend_name not in jit_scope.CUSTOM_BACKENDS:  # the wheel loads a name's library once
        try:
            ctypes.CDLL(backend_path)
        except OSError as e:
            logger.error("Loading %s failed. Error: %s", backend_path, e)
            logger.error("Failed to load custom backend plugin from: %s for backend: %s, please check the plugin path "
                         "and name is valid", backend_path, backend_name)
            return False
        jit_scope.CUSTOM_BACKENDS[backend_name] = backend_path
    return True
