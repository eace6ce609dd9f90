"""Toolchain discovery: which C++/C compiler, ninja, Python and pybind11 headers to use.

Everything that compiles goes through :func:`find_toolchain`. Discovery is cheap (one
``<cxx> --version`` call) and cached per process, keyed by the ``CXX``/``CC`` environment
variables so a test or notebook that points ``CXX`` at another compiler gets a fresh
toolchain. The OpenMP probe (a tiny test compile) runs lazily, only when asked for.

A missing piece raises :class:`ToolchainError` whose message says what to install.

Example:
    >>> tc = find_toolchain()
    >>> tc.ext_suffix.endswith(".so")
    True
    >>> Path(tc.ninja).name
    'ninja'
"""
from __future__ import annotations

import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from mskernel.toolchain.cache import cache_dir
from mskernel.errors import MskernelError

__all__ = ["ToolchainError", "Toolchain", "find_toolchain", "include_dir"]


class ToolchainError(MskernelError):
    """A compiler, ninja, pybind11 or the Python headers are missing or broken.

    The message always ends with an actionable fix (what to install or set).

    Example:
        >>> str(ToolchainError("no C++ compiler found -> apt-get install g++"))
        'no C++ compiler found -> apt-get install g++'
    """


@functools.lru_cache(maxsize=None)
def include_dir() -> Path:
    """Directory of the C++ headers shipped with mskernel (``mskernel/include``).

    Every build gets ``-I include_dir()``, so sources can ``#include <mskernel/extension.h>``
    or ``#include "ms_extension.h"``. (Computed once per process: resolving the path is most of
    the cost of a cached build's bookkeeping otherwise.)

    Example:
        >>> include_dir().name
        'include'
    """
    return Path(__file__).resolve().parent.parent / "include"


def _probe_store_key(argv: Sequence[str]) -> Optional[str]:
    """Identity of a compiler binary for the on-disk probe store: argv + (mtime, size, inode) of
    the resolved program (the same "compiler_check=mtime" rule ccache uses by default)."""
    try:
        st = os.stat(argv[0])
    except OSError:
        return None
    return json.dumps([list(argv), st.st_mtime_ns, st.st_size, st.st_ino])


def _probe_store_path() -> Path:
    return cache_dir() / "toolchain-probes.json"


def _stored_probe(argv: Sequence[str], what: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per compiler binary, remembered in the cache dir across processes, so a
    cached build in a fresh process never runs the compiler (not even ``--version``)."""
    ident = _probe_store_key(argv)
    try:
        path = _probe_store_path()
        data = json.loads(path.read_text()) if path.exists() else {}
    except (OSError, ValueError, MskernelError):
        path, data = None, {}
    if ident is not None and isinstance(data.get(ident), dict) and what in data[ident]:
        return data[ident][what]
    value = compute()
    if ident is not None and path is not None:
        data.setdefault(ident, {})[what] = value
        tmp = path.with_name(f"{path.name}.{os.getpid()}")
        try:
            tmp.write_text(json.dumps(data))
            os.replace(tmp, path)
        except OSError:
            pass
    return value


def _run_version(cmd: list[str]) -> str:
    """First line of ``cmd --version``; raises ToolchainError when the program does not run."""
    try:
        proc = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainError(f"cannot run {' '.join(cmd)!r}: {exc}") from None
    if proc.returncode != 0:
        raise ToolchainError(
            f"{' '.join(cmd)!r} --version failed with exit code {proc.returncode}: "
            f"{(proc.stderr or proc.stdout).strip()[:300]}")
    lines = (proc.stdout or proc.stderr).strip().splitlines()
    return lines[0].strip() if lines else ""


def _resolve_program(spec: str) -> Optional[list[str]]:
    """Split a ``CXX``-style spec (``"g++"``, ``"/usr/bin/g++-12"``, ``"ccache g++"``) into an argv
    whose first element is an absolute path; None when the program is not found."""
    parts = shlex.split(spec)
    if not parts:
        return None
    exe = shutil.which(parts[0])
    if exe is None:
        return None
    return [os.path.abspath(exe)] + parts[1:]


_CXX_TO_CC = (("clang++", "clang"), ("g++", "gcc"), ("c++", "cc"))


def _guess_cc(cxx: list[str]) -> Optional[list[str]]:
    """The C compiler matching a C++ compiler: ``$CC``, else g++ -> gcc, clang++ -> clang, c++ -> cc."""
    env = os.environ.get("CC")
    if env:
        return _resolve_program(env)
    base = os.path.basename(cxx[-1])
    for cxx_name, cc_name in _CXX_TO_CC:
        if cxx_name in base:
            sibling = os.path.join(os.path.dirname(cxx[-1]), base.replace(cxx_name, cc_name, 1))
            candidate = cxx[:-1] + [sibling]
            if os.path.isfile(sibling) and os.access(sibling, os.X_OK):
                return candidate
            found = _resolve_program(base.replace(cxx_name, cc_name, 1))
            if found:
                return cxx[:-1] + found
    for name in ("gcc", "cc", "clang"):
        found = _resolve_program(name)
        if found:
            return found
    return None


def _find_ninja() -> Optional[str]:
    """The ninja binary: the PyPI ``ninja`` package first, then ``PATH``."""
    try:
        import ninja  # type: ignore[import-not-found]

        exe = os.path.join(ninja.BIN_DIR, "ninja")
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return exe
    except ImportError:
        pass
    found = shutil.which("ninja")
    return os.path.abspath(found) if found else None


def _python_include() -> Optional[str]:
    inc = sysconfig.get_paths().get("include")
    if inc and os.path.isfile(os.path.join(inc, "Python.h")):
        return inc
    return None


def _pybind11_info() -> tuple[Optional[str], Optional[str]]:
    try:
        import pybind11  # type: ignore[import-not-found]
    except ImportError:
        return None, None
    inc = pybind11.get_include()
    if not os.path.isfile(os.path.join(inc, "pybind11", "pybind11.h")):
        return None, getattr(pybind11, "__version__", None)
    return inc, pybind11.__version__


@dataclass(frozen=True)
class Toolchain:
    """The programs and header directories one build uses.

    Fields that belong to optional components (C compiler, pybind11, Python headers) may be
    None; :meth:`require` turns a missing one into an actionable :class:`ToolchainError`.

    Example:
        >>> tc = find_toolchain()
        >>> tc.cxx_argv[0] == tc.cxx
        True
        >>> tc.require("pybind11").pybind11_include is not None
        True
    """

    cxx: str
    """Absolute path of the C++ compiler."""
    cxx_argv: tuple[str, ...]
    """Full compiler command (``cxx`` plus any launcher/arguments given in ``$CXX``)."""
    cxx_version: str
    """First line of ``cxx --version``."""
    ninja: str
    python_include: Optional[str]
    pybind11_include: Optional[str]
    pybind11_version: Optional[str]
    ext_suffix: str
    cc_argv: Optional[tuple[str, ...]] = None
    _memo: dict = field(default_factory=dict, repr=False, compare=False, hash=False)

    @property
    def is_gcc(self) -> bool:
        """True for GNU g++ (precompiled headers in ``.gch`` format are used only then)."""
        return "clang" not in self.cxx_version.lower()

    @property
    def cc(self) -> Optional[str]:
        """Absolute path of the matching C compiler, or None."""
        return self.cc_argv[0] if self.cc_argv else None

    @property
    def cc_version(self) -> str:
        """First line of ``cc --version`` (computed on first use)."""
        if "cc_version" not in self._memo:
            if not self.cc_argv:
                raise ToolchainError("no C compiler found -> apt-get install gcc (or set $CC)")
            argv = list(self.cc_argv)
            self._memo["cc_version"] = _stored_probe(argv, "version", lambda: _run_version(argv))
        return self._memo["cc_version"]

    @property
    def openmp_flags(self) -> tuple[str, ...]:
        """``('-fopenmp',)`` when compiling and linking an OpenMP program works, else ``()``.

        The probe (one tiny compile) runs on first access and is cached.
        """
        if "openmp" not in self._memo:
            flags = _stored_probe(self.cxx_argv, "openmp", lambda: list(_probe_openmp(self.cxx_argv)))
            self._memo["openmp"] = tuple(flags)
        return self._memo["openmp"]

    def require(self, *parts: str) -> "Toolchain":
        """Raise ToolchainError unless every named part (``"python"``, ``"pybind11"``, ``"cc"``,
        ``"openmp"``) is available; returns self for chaining."""
        for part in parts:
            if part == "python" and not self.python_include:
                raise ToolchainError(
                    f"Python development headers (Python.h) not found in "
                    f"{sysconfig.get_paths().get('include')!r} -> apt-get install python3-dev "
                    f"(or the -dev package matching {sys.executable})")
            if part == "pybind11" and not self.pybind11_include:
                raise ToolchainError("pybind11 headers not found -> pip install pybind11")
            if part == "cc" and not self.cc_argv:
                raise ToolchainError("no C compiler found for .c sources -> apt-get install gcc (or set $CC)")
            if part == "openmp" and not self.openmp_flags:
                raise ToolchainError(
                    f"{self.cxx} cannot build OpenMP code -> apt-get install libgomp1 "
                    f"(g++ ships -fopenmp; for clang: apt-get install libomp-dev)")
        return self


def _probe_openmp(cxx_argv: tuple[str, ...]) -> tuple[str, ...]:
    src = ("#include <omp.h>\nextern \"C\" int f(){int n=0;\n#pragma omp parallel reduction(+:n)\n"
           "n+=1;\nreturn n+omp_get_max_threads();}\n")
    with tempfile.TemporaryDirectory(prefix="mskernel-omp-") as tmp:
        path = os.path.join(tmp, "omp.cpp")
        with open(path, "w") as f:
            f.write(src)
        try:
            proc = subprocess.run(list(cxx_argv) + ["-fopenmp", "-shared", "-fPIC", path, "-o",
                                                    os.path.join(tmp, "omp.so")],
                                  capture_output=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return ()
    return ("-fopenmp",) if proc.returncode == 0 else ()


@functools.lru_cache(maxsize=None)
def _find_toolchain_cached(cxx_env: Optional[str], cc_env: Optional[str]) -> Toolchain:
    if cxx_env:
        cxx = _resolve_program(cxx_env)
        if cxx is None:
            raise ToolchainError(
                f"$CXX is set to {cxx_env!r} but that program was not found -> "
                f"fix or unset CXX, or apt-get install g++")
    else:
        cxx = next((p for p in (_resolve_program(n) for n in ("g++", "c++", "clang++")) if p), None)
        if cxx is None:
            raise ToolchainError("no C++ compiler found (tried $CXX, g++, c++, clang++) -> apt-get install g++")
    version = _stored_probe(cxx, "version", lambda: _run_version(cxx))
    ninja = _find_ninja()
    if ninja is None:
        raise ToolchainError("ninja not found -> pip install ninja (or apt-get install ninja-build)")
    pyinc = _python_include()
    pb_inc, pb_ver = _pybind11_info()
    cc = _guess_cc(cxx)
    return Toolchain(cxx=cxx[0], cxx_argv=tuple(cxx), cxx_version=version, ninja=ninja,
                     python_include=pyinc, pybind11_include=pb_inc, pybind11_version=pb_ver,
                     ext_suffix=sysconfig.get_config_var("EXT_SUFFIX") or ".so",
                     cc_argv=tuple(cc) if cc else None)


def find_toolchain() -> Toolchain:
    """Discover the toolchain (cached per process and per ``$CXX``/``$CC`` value).

    Raises:
        ToolchainError: no working C++ compiler or no ninja.

    Example:
        >>> find_toolchain() is find_toolchain()
        True
    """
    return _find_toolchain_cached(os.environ.get("CXX") or None, os.environ.get("CC") or None)


_VERSION_NUMBER = re.compile(r"(\d+\.\d+(?:\.\d+)?)")


def short_version(version_line: str) -> str:
    """The last dotted version number in a ``--version`` line (``'12.2.0'``), for display.

    Example:
        >>> short_version("g++ (Debian 12.2.0-14) 12.2.0")
        '12.2.0'
    """
    found = _VERSION_NUMBER.findall(version_line)
    return found[-1] if found else version_line
