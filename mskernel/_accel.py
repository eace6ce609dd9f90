"""The engine core (``mskernel.autograd._cengine``, built from ``autograd/_cengine*.c`` at install).

It is the autograd engine: recording, the backward pass, the gradient calls, the Tensor operators'
C path. mskernel needs it (``pip install`` builds it with the C compiler mskernel needs anyway);
``python -m mskernel doctor`` says when it is missing and how to build it.

This module sits at the package root, below :mod:`mskernel.common.tensor`, because Tensor uses the core
too (allocation, the fast operators). It loads the extension through the import system's finders
with the autograd folder as the search path, so that ``mskernel/autograd/__init__.py`` (which
imports tensor.py) does not run first.

Example:
    >>> from mskernel._accel import cengine
    >>> hasattr(cengine(), "gradients")
    True
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["cengine", "EngineCoreMissing"]

_NAME = "mskernel.autograd._cengine"


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


class EngineCoreMissing(ImportError):
    """The engine core is not built: mskernel cannot run without it (the message says how to build it)."""


def _load() -> ModuleType:
    try:
        return _import_core()
    except ImportError as e:  # not built: no C compiler at install time, or a source tree without build_ext
        raise EngineCoreMissing(
            f"mskernel's engine core ({_NAME}) is not built ({e}). Install mskernel with a C compiler available "
            f"(on Debian/Ubuntu: apt-get install build-essential), e.g. pip install -e . in a source tree, or "
            f"build it in place: python setup.py build_ext --inplace") from e


_C = _load()


def cengine() -> ModuleType:
    """The engine core module.

    Example:
        >>> hasattr(cengine(), "gradients")
        True
    """
    return _C
