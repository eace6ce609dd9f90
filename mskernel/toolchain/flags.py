"""Compiler and linker flags for each build kind, in one place.

The precompiled header and the sources that use it must be compiled with the same
code-generation flags, so both get theirs from :func:`base_flags`; a source adds only
include paths, ``-D`` module-name defines and (last, so they win) the user's cflags.

Choices (g++ 12 on the project's 2-core machine; numbers from ``benchmarks/build_layer.py``
and experiments recorded in ``pch.py``):

* ``-O2`` by default: kernels need it (g++ 12 vectorizes at -O2, not at -O1). A global
  ``-O1`` would cut a pybind11 build by ~30 % but slows kernels, so the speed-up for
  pybind11 modules comes from elsewhere: split builds (``split.py``: pybind11's runtime
  compiled once, in ``support.py``) and the precompiled headers (``pch.py``; the full-mode one
  also compiles pybind11's own runtime at -O1). ``debug=True`` gives ``-g -O0``, no stripping.
* ``-fvisibility=hidden`` for pybind11 modules (pybind11's recommendation: a smaller
  export table; no measurable compile-time effect).
* ``-fdiagnostics-color=never`` and (gcc >= 11) ``-fdiagnostics-column-unit=byte`` so the
  log parses reliably and columns map to source characters.
* ``-s`` (strip) at link unless debugging; ``-Wl,-z,defs`` for ``kind="plain"`` so a missing
  function is a readable link error instead of a failure at load time (pass
  ``ldflags=["-Wl,-z,undefs"]`` to opt out). Python extension kinds cannot use it: the
  Python C API is resolved only when the interpreter loads the module (the loader turns
  an ``undefined symbol`` at load time into a readable BuildError instead).
* Tried and not adopted (no difference beyond the +-0.5 s noise of a 6 s compile):
  ``-pipe``, ``-fno-plt``, ``-fvisibility-inlines-hidden``; ``-g0`` is already the default.

Example:
    >>> from mskernel.toolchain.discover import find_toolchain
    >>> f = base_flags(find_toolchain(), kind="plain", lang="c++", optimize="-O2", debug=False, openmp=False)
    >>> f[:3]
    ['-std=c++17', '-fPIC', '-O2']
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from mskernel.toolchain.discover import Toolchain, include_dir

__all__ = ["KINDS", "base_flags", "source_flags", "link_flags", "effective_opt_level", "check_optimize"]

KINDS = ("plain", "cpython", "pybind11")


def check_optimize(optimize: str) -> str:
    """Validate an ``optimize`` argument (``-O0``..``-O3``, ``-Os``, ``-Og``, ``-Ofast``, ``-Oz``).

    Example:
        >>> check_optimize("-O3")
        '-O3'
    """
    if not isinstance(optimize, str) or not re.fullmatch(r"-O([0-3sgz]|fast)?", optimize):
        raise ValueError(f"optimize must be one of '-O0', '-O1', '-O2', '-O3', '-Os', '-Og', '-Ofast', "
                         f"but got {optimize!r}")
    return optimize


def effective_opt_level(optimize: str, debug: bool, cflags: Sequence[str]) -> str:
    """The optimization flag the compiler will honour (the last ``-O`` wins; debug means -O0).

    Example:
        >>> effective_opt_level("-O2", False, ["-O3"])
        '-O3'
    """
    if debug:
        return "-O0"
    level = optimize
    for flag in cflags:
        if re.fullmatch(r"-O([0-3sgz]|fast)?", flag):
            level = flag
    return level


def _gcc_major(tc: Toolchain) -> int:
    nums = re.findall(r"(\d+)\.\d+(?:\.\d+)?", tc.cxx_version)
    return int(nums[-1]) if nums else 0


def base_flags(tc: Toolchain, *, kind: str, lang: str, optimize: str, debug: bool, openmp: bool,
               split_include: Optional[str] = None, glue_include: Optional[str] = None) -> list[str]:
    """Code-generation and system-include flags shared by a kind's sources and its PCH.

    ``split_include``: split pybind11 builds' derived headers, searched before pybind11's own;
    ``glue_include``: their declared copy of mskernel's headers (``mskernel.toolchain.glue``), searched
    before ``include_dir()``.
    """
    flags: list[str] = ["-std=c++17"] if lang == "c++" else []
    flags.append("-fPIC")
    flags += ["-g", "-O0"] if debug else [optimize]
    flags.append("-fdiagnostics-color=never")
    if tc.is_gcc and _gcc_major(tc) >= 11:
        flags.append("-fdiagnostics-column-unit=byte")
    if kind == "pybind11":
        flags.append("-fvisibility=hidden")
        if not debug:  # pybind11 checks the GIL at every reference count change unless NDEBUG; debug builds keep it
            flags.append("-DPYBIND11_NO_ASSERT_GIL_HELD_INCREF_DECREF")
    if kind in ("cpython", "pybind11"):
        tc.require("python")
        flags += ["-isystem", str(tc.python_include)]
    if kind == "pybind11" and lang == "c++":
        tc.require("pybind11")
        if split_include:
            flags += ["-isystem", split_include]
        if glue_include:
            flags += ["-I", glue_include]
        flags += ["-isystem", str(tc.pybind11_include)]
    if openmp:
        flags += list(tc.require("openmp").openmp_flags)
    return flags


def source_flags(tc: Toolchain, *, kind: str, lang: str, optimize: str, debug: bool, openmp: bool,
                 include_paths: Sequence[str], cflags: Sequence[str], name: str,
                 define_module_name: bool, split_include: Optional[str] = None,
                 glue_include: Optional[str] = None) -> list[str]:
    """All flags for compiling one source of a build (per-source ``-iquote`` excluded)."""
    flags = base_flags(tc, kind=kind, lang=lang, optimize=optimize, debug=debug, openmp=openmp,
                       split_include=split_include, glue_include=glue_include)
    for p in include_paths:
        flags += ["-I", p]
    flags += ["-I", str(include_dir())]
    if kind == "pybind11" and define_module_name:
        flags += [f"-DMS_EXTENSION_NAME={name}", f"-DTORCH_EXTENSION_NAME={name}"]
    return flags + list(cflags)


def link_flags(tc: Toolchain, *, kind: str, debug: bool, openmp: bool, ldflags: Sequence[str]) -> list[str]:
    """Flags for linking the shared library."""
    flags = ["-shared"]
    if not debug:
        flags.append("-s")
    if kind == "plain":
        flags.append("-Wl,-z,defs")
    if openmp:
        flags += list(tc.openmp_flags)
    return flags + list(ldflags)
