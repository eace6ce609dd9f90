"""mskernel's one build layer: toolchain, ninja, content-addressed cache, locks, loader, diagnostics.

Everything in mskernel that compiles C/C++ (hybrid kernels, AOT sources, CustomOpBuilder,
the ``%%custom_op`` magic) calls :func:`build` and one of the loaders::

    from mskernel.toolchain import build, Source, load_library, load_python_module

    # (a) a plain extern "C" kernel library, called through ctypes
    art = build("my_add", [Source("<cell 1>", 'extern "C" int add(int a, int b) { return a + b; }')])
    load_library(art).add(2, 3)                       # -> 5

    # (b) a pybind11 module using mskernel's headers (include_dir() is always on the path)
    src = Source("ops.cpp", '#include <pybind11/pybind11.h>\\n'
                 'PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("one", [] { return 1; }); }')
    mod = load_python_module(build("my_ops", [src], kind="pybind11"), "my_ops")

pybind11 modules build "split" (:mod:`mskernel.toolchain.split`): against pybind11 headers derived
in the cache from the installed ones, in which pybind11's runtime is only declared, linking a
support object that compiles that runtime once (:mod:`mskernel.toolchain.support`).
Unchanged inputs load from the cache without running the compiler; an edited source
gets a new key, a new file and a new module object in the same process. Compile errors
raise :class:`BuildError` pointing at the user's file/cell line. ``python -m mskernel
doctor`` checks the toolchain end to end.

This package imports nothing from mskernel except ``mskernel.errors`` and ``mskernel._version``.

Example:
    >>> from mskernel.toolchain import build, Source, load_library
    >>> load_library(build("doc_init", [Source("k.c", "int nine(void) { return 9; }")])).nine()
    9
"""
from mskernel.toolchain.api import Artifact, BuildRequest, Source, build, rebuild
from mskernel.toolchain.builder import CustomOpBuilder
from mskernel.toolchain.cache import cache_dir, pch_dir
from mskernel.toolchain.diagnostics import BuildError, Diagnostic
from mskernel.toolchain.loader import artifact_of, load_library, load_python_module
from mskernel.toolchain.pch import PrecompiledHeader, find_pch, prepare_pch
from mskernel.toolchain.support import SupportLibrary, find_support, prepare_support
from mskernel.toolchain.discover import Toolchain, ToolchainError, find_toolchain, include_dir

__all__ = [
    "Artifact", "BuildError", "BuildRequest", "CustomOpBuilder", "Diagnostic", "PrecompiledHeader", "Source",
    "SupportLibrary", "Toolchain", "ToolchainError", "artifact_of", "build", "cache_dir", "find_pch", "find_support",
    "find_toolchain", "include_dir", "load_library", "load_python_module", "pch_dir", "prepare_pch", "prepare_support",
    "rebuild",
]
