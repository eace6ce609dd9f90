"""The support library of lite pybind11 builds: pybind11's runtime, compiled once.

A lite build (see :mod:`mskernel.toolchain.lite`) compiles a custom op against
``mskernel/pybind11_lite.h``, which includes only pybind11's type-caster headers. The non-template
part of pybind11 -- ``cpp_function::initialize_generic``, the dispatcher and its exception
translation, internals, ``error_already_set``'s members, ``PYBIND11_MODULE``'s init code -- lives
in ``lite_support.cpp``, compiled here once per (compiler, code-generation flags, pybind11,
Python, source text) into an object file that every lite module links statically. Statically,
so a module in the cache is self-contained (nothing to find at load time, no rpath; deleting
the support entry never breaks a built op) and the cached load stays one ``dlopen``.

The object is published like a cache entry (``<pch_dir>/lite-support-<key[:16]>/`` with a
manifest holding its sha256, verified before use, rebuilt when corrupt), under its own file lock
(concurrent builds do it once), from a temp dir renamed into place (a killed build leaves no
broken entry). A failed build is never published; it is remembered for the rest of the process
only (lite builds then fall back to full pybind11), and retried by the next process.

Example:
    >>> s = prepare_support()           # ~9 s once, then a cached lookup
    >>> s.object.name, s.object.exists()
    ('mskernel_lite_support.o', True)
"""
from __future__ import annotations

import logging
import re
import shlex
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from mskernel._version import __version__
from mskernel.toolchain.cache import (FileLock, cleanup_stale, compute_key, lock_path, new_temp_dir, pch_dir,
                                  publish, sha256_bytes, verify_entry, write_manifest)
from mskernel.toolchain.pch import pch_flags
from mskernel.toolchain.discover import ToolchainError, find_toolchain, include_dir

__all__ = ["SupportLibrary", "support_spec", "find_support", "prepare_support", "start_support", "failed_output", "SOURCE"]

log = logging.getLogger("mskernel.toolchain")

SOURCE = Path(__file__).with_name("lite_support.cpp")
OBJECT = "mskernel_lite_support.o"
# The headers the support source includes from mskernel (their text is part of the key).
_HEADERS = ("mskernel/pybind11_lite.h", "mskernel/pybind11_lite_stl.h", "mskernel/set_python_error.inc")
_CODEGEN_LEVEL = re.compile(r"-O([0-3sgz]|fast)?|-g\w*")
_failed: dict[str, str] = {}  # key -> compiler output, for this process only


@dataclass(frozen=True)
class SupportLibrary:
    """A published support object: link ``object`` into a lite module.

    ``cached`` is False when it was compiled by this call (``seconds`` = compile time).

    Example:
        >>> s = prepare_support()
        >>> len(s.key), s.entry.name.startswith("lite-support-")
        (64, True)
    """

    object: Path
    key: str
    cached: bool
    seconds: float

    @property
    def entry(self) -> Path:
        """The cache entry (directory) holding the object and its manifest."""
        return self.object.parent


@dataclass(frozen=True)
class _Spec:
    flags: tuple[str, ...]
    key: str
    root: Path

    @property
    def entry_name(self) -> str:
        return f"lite-support-{self.key[:16]}"

    @property
    def entry(self) -> Path:
        return self.root / self.entry_name

    @property
    def object(self) -> Path:
        """Where the published object is (or will be)."""
        return self.entry / OBJECT


def _codegen_cflags(cflags: Sequence[str]) -> list[str]:
    """The user's cflags minus optimization/debug levels: the support code is always -O2 (its
    dispatcher runs on every call), whatever level the op itself is built at."""
    return [f for f in cflags if not _CODEGEN_LEVEL.fullmatch(f)]


def support_spec(cflags: Sequence[str] = ()) -> _Spec:
    """Flags, key and location of the support library for a build with these user cflags.

    Cheap (reads three small files, runs no compiler): the key is part of every lite op's key.

    Example:
        >>> support_spec().key == support_spec(["-DMS_EXTENSION_NAME=x", "-O3", "-Wall"]).key
        True
    """
    tc = find_toolchain().require("pybind11")
    flags = pch_flags(tc, optimize="-O2", debug=False, openmp=False, cflags=_codegen_cflags(cflags))
    flags += ["-I", str(include_dir())]
    texts = [sha256_bytes(SOURCE.read_bytes())] + [sha256_bytes((include_dir() / h).read_bytes()) for h in _HEADERS]
    key = compute_key({"v": 1, "cxx": tc.cxx_argv, "cxx_version": tc.cxx_version, "flags": flags,
                       "pybind11": tc.pybind11_version, "python": tc.ext_suffix, "texts": texts})
    return _Spec(tuple(flags), key, pch_dir())


def _lookup(spec: _Spec) -> Optional[SupportLibrary]:
    manifest = verify_entry(spec.entry, spec.key)
    if manifest is None or manifest.get("file") != OBJECT:
        return None
    return SupportLibrary(spec.entry / OBJECT, spec.key, cached=True, seconds=0.0)


def find_support(cflags: Sequence[str] = ()) -> Optional[SupportLibrary]:
    """The published, intact support library for these cflags, or None; never compiles.

    Example:
        >>> find_support() == prepare_support() or find_support().object == prepare_support().object
        True
    """
    return _lookup(support_spec(cflags))


def failed_output(cflags: Sequence[str] = (), *, key: Optional[str] = None) -> Optional[str]:
    """The compiler output if building this support library failed earlier in this process
    (lite builds then use full pybind11 until the process ends), else None. ``key``: the
    support library's key, if the caller has it already (saves recomputing it).

    Example:
        >>> failed_output() is None
        True
    """
    return _failed.get(key if key is not None else support_spec(cflags).key)


def prepare_support(cflags: Sequence[str] = ()) -> SupportLibrary:
    """Return the support library for these cflags, compiling it first if needed (~9 s, once).

    Waits for another process that is building the same one.

    Raises:
        ToolchainError: it failed to compile (nothing is published; the next call tries again).

    Example:
        >>> prepare_support().cached
        True
    """
    spec = support_spec(cflags)
    found = _lookup(spec)
    if found:
        return found
    with FileLock(lock_path(spec.root, spec.entry_name)) as lock:
        found = _lookup(spec)
        if found:
            return found
        cleanup_stale(spec.root, held=[spec.entry_name])
        tc = find_toolchain()
        tmp = new_temp_dir(spec.root, spec.entry_name)
        cmd = list(tc.cxx_argv) + list(spec.flags) + ["-c", str(SOURCE), "-o", str(tmp / OBJECT)]
        log.info("building the lite pybind11 support library (one-time, ~9 s): %s", spec.entry)
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, pass_fds=(lock.fileno(),),
                                  stdin=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            if proc.returncode != 0:
                _failed[spec.key] = proc.stdout + proc.stderr
                raise ToolchainError(
                    f"compiling the lite pybind11 support library failed (exit {proc.returncode}); command: "
                    f"{shlex.join(cmd)}\n{(proc.stderr or proc.stdout)[-3000:]}\n"
                    f"-> builds use full pybind11 instead; pass cflags=['-DMSKERNEL_FULL_PYBIND11'] to skip trying")
            (tmp / "build.log").write_text(proc.stdout + proc.stderr)
            write_manifest(tmp, OBJECT, spec.key, {
                "command": shlex.join(cmd), "compiler_version": tc.cxx_version, "pybind11": tc.pybind11_version,
                "mskernel_version": __version__, "build_seconds": round(seconds, 3)})
            publish(tmp, spec.entry)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        _failed.pop(spec.key, None)
    return SupportLibrary(spec.entry / OBJECT, spec.key, cached=False, seconds=seconds)


class _Pending:
    """A support library being built on a thread (see :func:`start_support`)."""

    def __init__(self, cflags: Sequence[str]):
        self._cflags = list(cflags)
        self._result: Optional[SupportLibrary] = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, name="mskernel-lite-support", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = prepare_support(self._cflags)
        except BaseException as exc:  # handed to result()
            self._error = exc

    def result(self) -> SupportLibrary:
        """Wait for the build; return the library or raise what building it raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


def start_support(cflags: Sequence[str] = ()) -> _Pending:
    """Start :func:`prepare_support` on a thread (the compiler runs alongside the op's own
    compile on another core); ``.result()`` waits for it.

    Example:
        >>> start_support().result().object.exists()
        True
    """
    return _Pending(cflags)
