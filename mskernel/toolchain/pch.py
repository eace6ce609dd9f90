"""Precompiled headers (gcc ``.gch``): pybind11's for full builds, mskernel's API for lite builds.

Why: a one-function pybind11 module spends ~2.5 s parsing pybind11 and ~5 s generating
code, mostly for pybind11's own runtime (internals, dispatcher, error handling: ~320
functions, 120 KB of code emitted into *every* module). That runtime is emitted even by a
source that uses nothing from pybind11 (``#include <pybind11/pybind11.h>`` + ``int main()``
compiles to 112 KB at -O2): pybind11 3's ``error_already_set::what()`` is declared in the
class and defined ``inline`` at the end of pybind11.h, which makes it the class's key
function, so every translation unit that sees that definition emits the vtable, ``what()``
and everything they reach (gil, internals, type registry, dispatcher). Including only
``pybind11/attr.h`` (cast.h, pytypes.h) emits nothing. The PCH removes the parsing. The
generated header also wraps ``pybind11/pybind11.h`` in ``#pragma GCC optimize ("O1")``, so
that runtime is compiled at -O1 while the user's kernels keep -O2: ~25 % less compile time
than the same PCH without the pragma (4.4 s vs 5.8 s CPU, interleaved runs), for ~30 ns
more per Python->C++ call (131 -> 164 ns for ``add(int, int)``); loops run at the same
speed (``benchmarks/build_layer.py``). Everything a kernel may call in a hot loop stays at the
user's level: the standard and Python headers are included *before* the pragma (their
inline functions and templates -- ``std::sqrt(float)``, ``std::vector::operator[]`` -- would
otherwise be stuck at -O1 and not inline into -O2 code), and ``stl.h``, ``functional.h``,
``numpy.h`` come after it (array accessors, list conversions). Compiling the runtime at
-O0 instead would save another ~25 % of compile time but triples the per-call overhead
(~200 -> ~700 ns) and makes list conversions ~6x slower, so it is not done.

The PCH is keyed by compiler, flags, pybind11 version and the header text; it is built
once, under its own lock, into ``pch_dir()`` and published atomically. ``build(pch=None)``
uses it when it is ready; when it is not, the build compiles without it and *then* starts
a detached, ``nice``-d background process that builds it (``prepare_pch(wait=False)``), so
the first pybind11 build on a machine costs what a plain compile does and later builds use
the PCH. (Building it *during* the first compile was measured slower on this 2-vCPU
machine: the first build then took 1.4x a bare compile instead of ~1x.)

The force-included header means every source sees pybind11 and the common standard
headers; code that forgets an ``#include`` still compiles here. Pass ``pch=False`` to
``build`` for a plain compile.

Lite builds (``mskernel.toolchain.lite``: custom ops that use only the pybind11 subset of MindSpore's
tutorials) never see pybind11.h -- that is the point of them, its runtime comes prebuilt from
``mskernel.toolchain.support`` -- so they use a second PCH, ``prepare_pch(lite=True)``: mskernel's
whole API (``mskernel/extension.h``) over pybind11's casters, compiled with
``-DMSKERNEL_PYBIND11_LITE=1`` and keyed by the text of every mskernel header too. It cuts a
lite build of the seed op from ~0.7x to ~0.45x of a bare pybind11 module. It is force-included
only into sources that include one of mskernel's API headers with nothing but system headers
and comments before it, so it never changes what a source means.

Example:
    >>> p = prepare_pch()               # builds once (~6 s), then a cached lookup
    >>> p.gch.exists(), p.header.name
    (True, 'mskernel_pch.h')
"""
from __future__ import annotations

import json
import logging
import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from mskernel.toolchain.cache import (FileLock, cleanup_stale, compute_key, lock_path, new_temp_dir, pch_dir,
                                  publish, sha256_bytes)
from mskernel.toolchain.flags import base_flags, check_optimize, effective_opt_level
from mskernel.toolchain.discover import Toolchain, ToolchainError, find_toolchain, include_dir

__all__ = ["PrecompiledHeader", "find_pch", "prepare_pch", "pch_header_text", "pch_flags"]

log = logging.getLogger("mskernel.toolchain")

HEADER = "mskernel_pch.h"
LITE_DEFINE = "-DMSKERNEL_PYBIND11_LITE=1"  # what lite sources are compiled with (mskernel.toolchain.lite)
_GCH_MAGIC = b"gpch"
_background: list[subprocess.Popen] = []

# Headers pybind11 may include that are not standard/portable, or must not be force-included.
_EXCLUDE = re.compile(r"^(Eigen|unsupported|experimental|pybind11)/|^(Python|frameobject|pythread|datetime|"
                      r"yvals|crtdefs|windows|io)\.h$")


@dataclass(frozen=True)
class PrecompiledHeader:
    """A published PCH: ``header`` is what sources ``-include``; gcc finds ``gch`` next to it.

    Example:
        >>> p = prepare_pch()
        >>> p.gch == p.header.with_name(p.header.name + ".gch")
        True
    """

    header: Path
    gch: Path
    key: str
    cached: bool
    seconds: float


def _std_headers(pybind11_include: str) -> list[str]:
    """Every non-pybind11 header that pybind11's headers include (sorted)."""
    found: set[str] = set()
    root = Path(pybind11_include) / "pybind11"
    for path in root.rglob("*.h"):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for m in re.finditer(r'^\s*#\s*include\s*<([^>]+)>', text, re.MULTILINE):
            if not _EXCLUDE.search(m.group(1)):
                found.add(m.group(1))
    return sorted(found)


def pch_header_text(tc: Toolchain, opt_level: str, lite: bool = False) -> str:
    """The header that is precompiled (and force-included into pybind11 sources).

    ``lite=True``: the header of lite builds (``mskernel/extension.h`` with
    ``MSKERNEL_PYBIND11_LITE``: mskernel's API over pybind11's casters, no pybind11.h), which is
    force-included only into sources that include one of mskernel's API headers first
    (:func:`mskernel.toolchain.lite.pch_eligible`).

    Example:
        >>> "pybind11/pybind11.h" in pch_header_text(find_toolchain(), "-O2")
        True
        >>> "pybind11/pybind11.h" in pch_header_text(find_toolchain(), "-O2", lite=True)
        False
    """
    tc.require("pybind11")
    if lite:
        return "\n".join(["// generated by mskernel.toolchain.pch -- do not edit (lite pybind11 builds)",
                          "#pragma once", "#include <mskernel/extension.h>", ""])
    lines = ["// generated by mskernel.toolchain.pch -- do not edit",
             "#pragma once",
             "#if __has_include(<pybind11/conduit/wrap_include_python_h.h>)",
             "#  include <pybind11/conduit/wrap_include_python_h.h>",
             "#else",
             "#  include <Python.h>",
             "#endif"]
    for h in _std_headers(str(tc.pybind11_include)):
        lines += [f"#if __has_include(<{h}>)", f"#  include <{h}>", "#endif"]
    glue_pragma = opt_level in ("-O2", "-O3", "-Ofast")
    if glue_pragma:
        lines += ["#pragma GCC push_options", '#pragma GCC optimize ("O1")']
    lines.append("#include <pybind11/pybind11.h>")
    if glue_pragma:
        lines.append("#pragma GCC pop_options")
    lines += ["#include <pybind11/stl.h>", "#include <pybind11/functional.h>", "#include <pybind11/numpy.h>", ""]
    return "\n".join(lines)


# Flags that cannot change what the precompiled headers mean: the per-op module names, the
# full-pybind11 override (only the build layer and mskernel's headers read it; the pybind11 PCH
# has no mskernel header, and lite PCHs are never used with it), warnings.
_IRRELEVANT = re.compile(r"^-D(MS|TORCH)_EXTENSION_NAME=|^-DMSKERNEL_FULL_PYBIND11(=.*)?$|^-W(?!invalid-pch)|^-w$")


def pch_flags(tc: Toolchain, *, optimize: str, debug: bool, openmp: bool, cflags: Sequence[str]) -> list[str]:
    """Flags the PCH is compiled with: the code-generation flags of a pybind11 source plus the
    user's cflags that can change what the headers mean.

    Dropped from the user's cflags (so ops with different names/includes share one PCH):
    the per-op module-name defines, ``-DMSKERNEL_FULL_PYBIND11``, include directories, warning
    options, and flags the base set already has. gcc verifies the rest (``-Winvalid-pch``) when
    the PCH is used.

    Example:
        >>> tc = find_toolchain()
        >>> base = pch_flags(tc, optimize="-O2", debug=False, openmp=False, cflags=[])
        >>> pch_flags(tc, optimize="-O2", debug=False, openmp=False,
        ...           cflags=["-DMS_EXTENSION_NAME=op", "-DMSKERNEL_FULL_PYBIND11", "-fPIC", "-Wall", "-I", "inc",
        ...                   "-DX=1"]) == base + ["-DX=1"]
        True
    """
    base = base_flags(tc, kind="pybind11", lang="c++", optimize=optimize, debug=debug, openmp=openmp)
    extra: list[str] = []
    it = iter(cflags)
    for flag in it:
        if flag in ("-I", "-iquote", "-idirafter"):
            next(it, None)
        elif flag.startswith(("-I", "-iquote")) or _IRRELEVANT.match(flag) or (flag in base and not extra):
            continue
        else:
            extra.append(flag)
    return base + extra


def _lookup(entry: Path, key: str) -> Optional[PrecompiledHeader]:
    header, gch = entry / HEADER, entry / (HEADER + ".gch")
    try:
        with open(entry / "manifest.json") as f:
            if json.load(f).get("key") != key:
                return None
        with open(gch, "rb") as f:
            if f.read(4) != _GCH_MAGIC:
                return None
    except (OSError, ValueError):
        return None
    return PrecompiledHeader(header, gch, key, cached=True, seconds=0.0)


def _mskernel_headers() -> list[tuple[str, str]]:
    """(relative path, sha256) of every header under include_dir(): what a lite PCH contains."""
    root = include_dir()
    return sorted((str(p.relative_to(root)), sha256_bytes(p.read_bytes())) for p in root.rglob("*.h"))


def _spec(optimize: str, debug: bool, openmp: bool, cflags: Sequence[str], lite: bool = False) -> tuple:
    """(toolchain, header text, flags, key, pch root, entry name) of the PCH for these options."""
    tc = find_toolchain()
    check_optimize(optimize)
    text = pch_header_text(tc, effective_opt_level(optimize, debug, cflags), lite=lite)
    flags = pch_flags(tc, optimize=optimize, debug=debug, openmp=openmp, cflags=cflags)
    parts = {"v": 1, "cxx": tc.cxx_argv, "cxx_version": tc.cxx_version, "flags": flags,
             "pybind11": tc.pybind11_version, "text": text}
    if lite:
        flags = flags + [LITE_DEFINE, "-I", str(include_dir())]
        parts.update(flags=flags, headers=_mskernel_headers())
    key = compute_key(parts)
    return tc, text, flags, key, pch_dir(), f"pybind11-{'lite-' if lite else ''}{key[:16]}"


def find_pch(*, optimize: str = "-O2", debug: bool = False, openmp: bool = False,
             cflags: Sequence[str] = (), lite: bool = False) -> Optional[PrecompiledHeader]:
    """The published PCH for these build options (``lite``: of lite builds), or None; never builds.

    Example:
        >>> p = prepare_pch()
        >>> find_pch() == p or find_pch().gch == p.gch
        True
    """
    _, _, _, key, root, entry_name = _spec(optimize, debug, openmp, cflags, lite)
    return _lookup(root / entry_name, key)


def prepare_pch(*, optimize: str = "-O2", debug: bool = False, openmp: bool = False,
                cflags: Sequence[str] = (), wait: bool = True, lite: bool = False) -> Optional[PrecompiledHeader]:
    """Return the pybind11 PCH for these build options, building it if needed.

    ``lite=True``: the PCH of lite builds (mskernel's headers over pybind11's casters).

    ``wait=True`` builds synchronously (or waits for another process building it) and
    returns it (``seconds`` = build time, ``cached`` False when it was built now).
    ``wait=False`` never blocks: it returns the PCH if it is ready, else starts a
    background build (unless one is running, or one already failed: see
    ``<pch_dir>/<entry>.failed.log``) and returns None.

    Raises:
        ToolchainError: pybind11/Python headers missing, or (wait=True) the PCH failed to compile.

    Example:
        >>> prepare_pch(wait=False) is None or prepare_pch().cached
        True
    """
    for p in _background[:]:
        if p.poll() is not None:
            _background.remove(p)
    tc, text, flags, key, root, entry_name = _spec(optimize, debug, openmp, cflags, lite)
    what = "lite pybind11 precompiled header" if lite else "pybind11 precompiled header"
    entry = root / entry_name
    found = _lookup(entry, key)
    if found:
        return found
    failed = root / f"{entry_name}.failed.log"  # a failed background build is not retried in the background
    if not wait and failed.exists():
        return None
    lock = FileLock(lock_path(root, entry_name))
    if not lock.acquire(blocking=wait):
        return None
    try:
        found = _lookup(entry, key)
        if found:
            return found
        cleanup_stale(root, held=[entry_name])
        tmp = new_temp_dir(root, entry_name)
        (tmp / HEADER).write_text(text)
        cmd = list(tc.cxx_argv) + flags + ["-x", "c++-header", str(tmp / HEADER), "-o", str(tmp / (HEADER + ".gch"))]
        with open(tmp / "manifest.json", "w") as f:
            json.dump({"key": key, "command": shlex.join(cmd), "compiler_version": tc.cxx_version,
                       "pybind11": tc.pybind11_version, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}, f)
        if os.path.lexists(entry):  # a corrupted PCH: move it out of the way under our lock
            trash = tmp.parent / f"{entry_name}~trash~{tmp.name.rsplit('~', 1)[-1]}"
            os.rename(entry, trash)
            shutil.rmtree(trash, ignore_errors=True)
        if not wait:
            build_log = shlex.quote(str(tmp / "build.log"))
            nice = "nice -n 19 " if shutil.which("nice") else ""  # yield the CPU to the foreground compile
            script = (f"if {nice}{shlex.join(cmd)} > {build_log} 2>&1; then "
                      f"exec mv -T {shlex.quote(str(tmp))} {shlex.quote(str(entry))}; "
                      f"else exec mv -f {build_log} {shlex.quote(str(failed))}; fi")
            _background.append(subprocess.Popen(
                ["/bin/sh", "-c", script], pass_fds=(lock.fileno(),), start_new_session=True,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            log.info("building the %s in the background (%s)", what, entry)
            return None
        log.info("building the %s (one-time, ~6-8 s): %s", what, entry)
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, pass_fds=(lock.fileno(),))
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            failed.write_text(proc.stdout + proc.stderr)
            doing = "precompiling mskernel's lite pybind11 headers" if lite else "precompiling pybind11"
            raise ToolchainError(f"{doing} failed (exit {proc.returncode}); command: "
                                 f"{shlex.join(cmd)}\n{(proc.stderr or proc.stdout)[-3000:]}\n"
                                 f"-> check the pybind11 install (pip install -U pybind11) or build with pch=False")
        publish(tmp, entry)
        if failed.exists():
            failed.unlink()
        return PrecompiledHeader(entry / HEADER, entry / (HEADER + ".gch"), key, cached=False, seconds=seconds)
    finally:
        lock.release()
