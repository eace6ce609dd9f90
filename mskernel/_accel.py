"""The optional compiled engine core (``mskernel.autograd._cengine``, built from ``autograd/_cengine*.c`` at install).

The pure-Python engine (``mskernel/autograd/engine.py``, ``node.py``) is the reference; the C module
runs the same steps faster. It is used when it was built and ``MSKERNEL_PURE_PYTHON`` is not set to
a non-empty value other than ``0``. ``python -m mskernel doctor`` reports which one is active.

This module sits at the package root, below :mod:`mskernel.common.tensor`, because Tensor uses the core
too (allocation, the fast operators). It loads the extension through the import system's finders
with the autograd folder as the search path, so that ``mskernel/autograd/__init__.py`` (which
imports tensor.py) does not run first.

Example:
    >>> from mskernel._accel import engine_name
    >>> engine_name() in ("C", "Python")
    True
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Optional

__all__ = ["cengine", "engine_name", "unavailable_reason"]

_NAME = "mskernel.autograd._cengine"
_REASON: Optional[str] = None


def _import_core() -> ModuleType:
    """Import the extension like ``import mskernel.autograd._cengine``, without running the autograd package."""
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    path = [str(Path(__file__).with_name("autograd"))]
    spec = next((s for f in sys.meta_path if hasattr(f, "find_spec") and (s := f.find_spec(_NAME, path))), None)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {_NAME!r}", name=_NAME)
    module = importlib.util.module_from_spec(spec)
    sys.modules[_NAME] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[_NAME]
        raise
    return module


def _load() -> Optional[ModuleType]:
    global _REASON
    if os.environ.get("MSKERNEL_PURE_PYTHON", "") not in ("", "0"):
        _REASON = "disabled by MSKERNEL_PURE_PYTHON"
        return None
    try:
        core = _import_core()
    except ImportError as e:  # not built (no compiler at install time): the Python engine runs
        _REASON = f"not built ({e}); reinstall with a C compiler: pip install -e ."
        return None
    return core


_C = _load()


def cengine() -> Optional[ModuleType]:
    """The compiled core module, or None when the pure-Python engine runs.

    Example:
        >>> cengine() is None or hasattr(cengine(), "gradients")
        True
    """
    return _C


def engine_name() -> str:
    """``"C"`` when the compiled core is active, else ``"Python"``.

    Example:
        >>> engine_name() in ("C", "Python")
        True
    """
    return "C" if _C is not None else "Python"


def unavailable_reason() -> Optional[str]:
    """Why the compiled core is not active (None when it is).

    Example:
        >>> unavailable_reason() is None or isinstance(unavailable_reason(), str)
        True
    """
    return _REASON
