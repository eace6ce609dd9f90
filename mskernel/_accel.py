"""The optional compiled engine core (``mskernel._cengine``, built from ``_cengine.c`` at install time).

The pure-Python engine (``mskernel/autograd/engine.py``, ``node.py``) is the reference; the C module
runs the same steps faster. It is used when it was built and ``MSKERNEL_PURE_PYTHON`` is not set to
a non-empty value other than ``0``. ``python -m mskernel doctor`` reports which one is active.

Example:
    >>> from mskernel._accel import engine_name
    >>> engine_name() in ("C", "Python")
    True
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Optional

__all__ = ["cengine", "engine_name", "unavailable_reason"]

_REASON: Optional[str] = None


def _load() -> Optional[ModuleType]:
    global _REASON
    if os.environ.get("MSKERNEL_PURE_PYTHON", "") not in ("", "0"):
        _REASON = "disabled by MSKERNEL_PURE_PYTHON"
        return None
    try:
        from mskernel import _cengine  # type: ignore[attr-defined]
    except ImportError as e:  # not built (no compiler at install time): the Python engine runs
        _REASON = f"not built ({e}); reinstall with a C compiler: pip install -e ."
        return None
    return _cengine


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
