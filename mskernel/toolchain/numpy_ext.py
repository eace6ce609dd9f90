"""CPython extensions written against numpy's C API, shipped as C sources in the package and built once.

The hybrid dispatcher (``hybrid/dispatch.c``) and the per-call helpers of the Custom kinds
(``kernels/percall.c``) are such extensions: built through :func:`~mskernel.toolchain.build` on first use
with numpy's headers, keyed by the source and the numpy version (a numpy upgrade rebuilds them, as its
C API may change), then loaded from the build cache.

Example:
    >>> from pathlib import Path
    >>> import mskernel.kernels
    >>> src = Path(mskernel.kernels.__file__).with_name("percall.c")
    >>> callable(build_numpy_extension("mskernel_percall", src, "_mskernel_percall").aot_call)
    True
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Sequence

import numpy as np

from mskernel.toolchain.api import Source, build
from mskernel.toolchain.loader import load_python_module

__all__ = ["build_numpy_extension"]


def build_numpy_extension(name: str, source: Path, module_name: str, include_paths: Sequence[str] = ()) -> ModuleType:
    """Build ``source`` (C, numpy's C API) as the CPython extension ``module_name`` and load it.

    ``name`` names the build (its cache entry); ``include_paths``: directories of local headers it includes
    (part of the build's key, like the source); raises :class:`~mskernel.toolchain.BuildError` when it
    does not compile. See the module docstring for an example.
    """
    text = Path(source).read_text() + f"\n/* built against numpy {np.__version__} */\n"
    art = build(name, [Source(f"{name}.c", text)], kind="cpython", include_paths=[np.get_include(), *include_paths],
                optimize="-O2")
    return load_python_module(art, module_name)
