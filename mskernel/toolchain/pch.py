"""Precompiled headers (gcc ``.gch``): pybind11 for full and split builds, plus mskernel's API for split builds.

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

Split builds (:mod:`mskernel.toolchain.split`, the default for pybind11 modules on g++) compile
against derived pybind11 headers in which the runtime is only declared, so their PCH has no -O1
glue (what is left of pybind11 in a module is small and stays at the user's level). They have two
PCHs: ``prepare_pch(split=True)`` -- the same header over the derived pybind11 -- and
``prepare_pch(split=True, api=True)``, which adds mskernel's whole API (``mskernel/extension.h``)
and is keyed by the text of every mskernel header too. The API one is force-included only into
sources that include one of mskernel's API headers with nothing but system headers and comments
before it (:func:`pch_eligible`), so it never changes what a source means; other sources get the
plain one.

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

from mskernel.toolchain.cache import (INCLUDE_LINE, FileLock, cleanup_stale, compute_key, lock_path, new_temp_dir,
                                      pch_dir, publish, sha256_bytes)
from mskernel.toolchain.flags import base_flags, check_optimize, effective_opt_level
from mskernel.toolchain.discover import Toolchain, ToolchainError, find_toolchain, include_dir
from mskernel.toolchain.process import run_group
from mskernel.toolchain.glue import glue_headers
from mskernel.toolchain.split import split_headers

__all__ = ["PrecompiledHeader", "API_HEADERS", "PCH_SECONDS", "find_pch", "prepare_pch", "pch_header_text",
           "pch_flags", "pch_eligible"]

log = logging.getLogger("mskernel.toolchain")

HEADER = "mskernel_pch.h"
PCH_SECONDS = 8  # about how long building one takes on an idle 2-core machine (shown while a build waits for it)
# The headers that give a source all of mskernel's API (what the API precompiled header holds).
API_HEADERS = ("ms_extension.h", "ms_extension/api.h", "mskernel/extension.h")
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


def pch_header_text(tc: Toolchain, opt_level: str, split: bool = False, api: bool = False) -> str:
    """The header that is precompiled (and force-included into pybind11 sources).

    ``split=True``: for split builds (no -O1 glue: the runtime is not compiled in the module);
    ``api=True`` (split only) adds ``mskernel/extension.h``, for sources :func:`pch_eligible` accepts.

    Example:
        >>> "pybind11/pybind11.h" in pch_header_text(find_toolchain(), "-O2")
        True
        >>> "mskernel/extension.h" in pch_header_text(find_toolchain(), "-O2", split=True, api=True)
        True
    """
    tc.require("pybind11")
    lines = ["// generated by mskernel.toolchain.pch -- do not edit",
             "#pragma once",
             "#if __has_include(<pybind11/conduit/wrap_include_python_h.h>)",
             "#  include <pybind11/conduit/wrap_include_python_h.h>",
             "#else",
             "#  include <Python.h>",
             "#endif"]
    for h in _std_headers(str(tc.pybind11_include)):
        lines += [f"#if __has_include(<{h}>)", f"#  include <{h}>", "#endif"]
    glue_pragma = not split and opt_level in ("-O2", "-O3", "-Ofast")
    if glue_pragma:
        lines += ["#pragma GCC push_options", '#pragma GCC optimize ("O1")']
    lines.append("#include <pybind11/pybind11.h>")
    if glue_pragma:
        lines.append("#pragma GCC pop_options")
    lines += ["#include <pybind11/stl.h>", "#include <pybind11/functional.h>", "#include <pybind11/numpy.h>"]
    if api:
        lines.append("#include <mskernel/extension.h>")
    return "\n".join(lines + [""])


# Flags that cannot change what the precompiled headers mean: the per-op module names, the
# full-pybind11 override (only the build layer reads it: it selects full mode), warnings.
_IRRELEVANT = re.compile(r"^-D(MS|TORCH)_EXTENSION_NAME=|^-DMSKERNEL_FULL_PYBIND11(=.*)?$|^-W(?!invalid-pch)|^-w$")


def pch_flags(tc: Toolchain, *, optimize: str, debug: bool, openmp: bool, cflags: Sequence[str],
              split_include: Optional[str] = None, glue_include: Optional[str] = None) -> list[str]:
    """Flags the PCH is compiled with: the code-generation flags of a pybind11 source plus the
    user's cflags that can change what the headers mean.

    Dropped from the user's cflags (so ops with different names/includes share one PCH):
    the per-op module-name defines, ``-DMSKERNEL_FULL_PYBIND11``, include directories, warning
    options, and flags the base set already has. gcc verifies the rest (``-Winvalid-pch``) when
    the PCH is used. ``split_include``: the derived headers of split builds (searched first);
    ``glue_include``: their declared copy of mskernel's headers (see ``mskernel.toolchain.glue``).

    Example:
        >>> tc = find_toolchain()
        >>> base = pch_flags(tc, optimize="-O2", debug=False, openmp=False, cflags=[])
        >>> pch_flags(tc, optimize="-O2", debug=False, openmp=False,
        ...           cflags=["-DMS_EXTENSION_NAME=op", "-DMSKERNEL_FULL_PYBIND11", "-fPIC", "-Wall", "-I", "inc",
        ...                   "-DX=1"]) == base + ["-DX=1"]
        True
    """
    base = base_flags(tc, kind="pybind11", lang="c++", optimize=optimize, debug=debug, openmp=openmp,
                      split_include=split_include, glue_include=glue_include)
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
    """(relative path, sha256) of every header under include_dir(): what an API PCH contains."""
    root = include_dir()
    return sorted((str(p.relative_to(root)), sha256_bytes(p.read_bytes())) for p in root.rglob("*.h"))


def _spec(optimize: str, debug: bool, openmp: bool, cflags: Sequence[str], split: bool = False,
          api: bool = False) -> tuple:
    """(toolchain, header text, flags, key, pch root, entry name) of the PCH for these options."""
    tc = find_toolchain()
    check_optimize(optimize)
    api = api and split
    text = pch_header_text(tc, effective_opt_level(optimize, debug, cflags), split=split, api=api)
    flags = pch_flags(tc, optimize=optimize, debug=debug, openmp=openmp, cflags=cflags,
                      split_include=str(split_headers().include) if split else None,
                      glue_include=str(glue_headers().include) if split else None)
    parts = {"v": 3, "cxx": tc.cxx_argv, "cxx_version": tc.cxx_version, "flags": flags,
             "pybind11": tc.pybind11_version, "text": text}
    if split:
        parts["split"] = split_headers().key
    if api:
        flags = flags + ["-I", str(include_dir())]
        parts.update(flags=flags, headers=_mskernel_headers())
    key = compute_key(parts)
    variant = "split-api-" if api else "split-" if split else ""
    return tc, text, flags, key, pch_dir(), f"pybind11-{variant}{key[:16]}"


def find_pch(*, optimize: str = "-O2", debug: bool = False, openmp: bool = False, cflags: Sequence[str] = (),
             split: bool = False, api: bool = False) -> Optional[PrecompiledHeader]:
    """The published PCH for these build options (``split``/``api``: see :func:`prepare_pch`), or
    None; never builds.

    Example:
        >>> p = prepare_pch()
        >>> find_pch() == p or find_pch().gch == p.gch
        True
    """
    _, _, _, key, root, entry_name = _spec(optimize, debug, openmp, cflags, split, api)
    return _lookup(root / entry_name, key)


def prepare_pch(*, optimize: str = "-O2", debug: bool = False, openmp: bool = False,
                cflags: Sequence[str] = (), wait: bool = True, split: bool = False,
                api: bool = False) -> Optional[PrecompiledHeader]:
    """Return the pybind11 PCH for these build options, building it if needed.

    ``split=True``: the PCH of split builds (over the derived pybind11 headers); with ``api=True``
    it also holds mskernel's API headers.

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
    tc, text, flags, key, root, entry_name = _spec(optimize, debug, openmp, cflags, split, api)
    what = f"{'split ' if split else ''}pybind11{' + mskernel API' if api else ''} precompiled header"
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
        proc = run_group(cmd, pass_fds=(lock.fileno(),))
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            failed.write_text(proc.stdout + proc.stderr)
            doing = f"precompiling the {what}" if split else "precompiling pybind11"
            raise ToolchainError(f"{doing} failed (exit {proc.returncode}); command: "
                                 f"{shlex.join(cmd)}\n{(proc.stderr or proc.stdout)[-3000:]}\n"
                                 f"-> check the pybind11 install (pip install -U pybind11) or build with pch=False")
        publish(tmp, entry)
        if failed.exists():
            failed.unlink()
        return PrecompiledHeader(entry / HEADER, entry / (HEADER + ".gch"), key, cached=False, seconds=seconds)
    finally:
        lock.release()


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def _inside(path: str, root: Path) -> bool:
    """``path`` (normalized, as scan_local_headers gives them) is under ``root``."""
    return os.path.normpath(path).startswith(os.path.join(str(root), ""))


def pch_eligible(text: str, headers_by_spelling: dict) -> bool:
    """True when force-including ``mskernel/extension.h`` first cannot change what this source means:
    it includes one of :data:`API_HEADERS` (resolving to mskernel's own) and only system headers,
    blank lines and comments come before that include.

    Example:
        >>> pch_eligible('#include <string>\\n#include "ms_extension.h"\\nint x;', {})
        True
        >>> pch_eligible('#define N 4\\n#include "ms_extension.h"', {})
        False
    """
    code = _COMMENT.sub(" ", text)
    inc = include_dir()
    for line in code.splitlines():
        s = line.strip()
        if not s or s.startswith("#line") or s == "#pragma once":
            continue
        m = INCLUDE_LINE.match(line)
        if not m:
            return False
        spelling = m.group(2).strip()
        resolved = headers_by_spelling.get(spelling)
        if spelling in API_HEADERS:
            return resolved is None or _inside(resolved, inc)
        if m.group(1) == '"' or resolved is not None:
            return False  # a local header before the API header: it may define macros
    return False
