"""C++ ops under AddressSanitizer and UndefinedBehaviorSanitizer, run in a child process.

:func:`cpp_target` traces a C++ op back to what built it: the op of a C++ ``%%custom_op`` cell (a
:class:`~mskernel.cells.ForwardBackwardOp`: its ``module`` and forward function) or a function of
a module built by mskernel's build layer (a C++ cell's module, ``CustomOpBuilder(...).load()``; a
``Function<T>`` op is reached the same way, through the module function that applies it). The
loader remembers the :class:`~mskernel.toolchain.Artifact` each module came from
(:func:`~mskernel.toolchain.artifact_of`), and the artifact its
:class:`~mskernel.toolchain.BuildRequest`: the sources as compiled, the flags and include paths.

:func:`check_cpp` builds that request again through the same build layer with
``-fsanitize=address,undefined -fno-omit-frame-pointer -g -O0`` (full pybind11, no precompiled
header: a separate cache entry, built once per source), then calls the function once in a child
Python started with the sanitizer runtime preloaded (``LD_PRELOAD``), so a crash never takes the
session with it. The inputs travel as ``.npy`` files (scalars as JSON) in a temporary directory.
New heap memory is filled with a byte pattern (``malloc_fill_byte``); when the first run finished
cleanly a second run with another pattern shows outputs that depend on memory nothing wrote.

The sanitizers' reports become :class:`~mskernel.kernelcheck.Finding` s (:mod:`.sanitizer_reports`):
``"address"`` (heap or stack overflow, use after free, double free, a bad pointer) and
``"undefined-behaviour"`` (signed overflow, bad shift, misaligned access, ...), located at the first
stack frame in the op's own source -- a C++ cell's line numbers are the notebook's -- and
``"uninitialised-read"`` / ``"unwritten-output"`` from the two runs' outputs.

Example:
    >>> from mskernel.toolchain import CustomOpBuilder
    >>> src = ('#include "ms_extension.h"\\n'
    ...        'ms::Tensor twice(const ms::Tensor &x) { return x; }\\n'
    ...        'PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("twice", &twice); }\\n')
    >>> target = cpp_target(CustomOpBuilder("doc_kc_twice", src).load().twice)
    >>> target.name, target.function, target.request.sources[0].name
    ('doc_kc_twice.twice', 'twice', 'doc_kc_twice_inline_0.cpp')
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from mskernel.errors import MskernelError
from mskernel.kernelcheck.report import Finding, KernelCheck
from mskernel.kernelcheck.sanitizer_reports import parse_reports
from mskernel.toolchain import Artifact, BuildRequest, artifact_of, find_toolchain, load_python_module, rebuild

__all__ = ["CppTarget", "cpp_target", "check_cpp", "SanitizerUnavailableError", "CheckedRunError",
           "SANITIZE_FLAGS"]

#: what the checked build adds to the op's own compiler flags (linking adds ``-fsanitize=address,undefined``)
SANITIZE_FLAGS: tuple[str, ...] = ("-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g", "-O0")
_LINK_FLAGS = ("-fsanitize=address,undefined",)
#: bytes new heap memory is filled with in the first and the second run
FILL_BYTES = (0xBE, 0x5A)
_TIMEOUT = 120.0
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp")


class SanitizerUnavailableError(MskernelError):
    """The C++ compiler cannot build with AddressSanitizer and UndefinedBehaviorSanitizer.

    The message names the compiler and what to install.

    Example:
        >>> isinstance(SanitizerUnavailableError("g++ has no libasan -> apt-get install libasan8"), MskernelError)
        True
    """


class CheckedRunError(MskernelError):
    """The checked child process failed without a sanitizer report to show for it: it crashed,
    timed out, or the op raised. ``log`` is the child's stderr.

    Example:
        >>> str(CheckedRunError("op: the checked run did not finish within 1 s", log=""))
        'op: the checked run did not finish within 1 s'
    """

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log


@dataclass(frozen=True)
class CppTarget:
    """What :func:`check_cpp` rebuilds and calls: ``request`` (the module's sources and flags),
    ``module`` (its name, ``PyInit_<module>``), ``function`` (the attribute called), ``name`` (shown
    in the report) and ``signature`` (pybind11's ``f(arg0: Tensor) -> Tensor``, when known).

    Example:
        >>> from mskernel.toolchain import BuildRequest, Source
        >>> t = CppTarget("m.f", "m", "f", BuildRequest("m", (Source("<cell m>", "..."),), "pybind11"))
        >>> t.sources
        {'<cell m>': '...'}
    """

    name: str
    module: str
    function: str
    request: BuildRequest
    signature: str = ""

    @property
    def sources(self) -> dict[str, str]:
        """Each source's name (as diagnostics and debug information show it) -> its text."""
        return {s.name: s.text for s in self.request.sources}


def _signature(function: Any) -> str:
    doc = (getattr(function, "__doc__", None) or "").strip().splitlines()
    return doc[0] if doc else ""


_ACCEPTED = ("a C++ op: a C++ %%custom_op cell's op (--forward/--backward) or a function of its module, or a "
             "function of a module built by CustomOpBuilder(...).load()")


def cpp_target(op: Any) -> CppTarget:
    """The :class:`CppTarget` of a C++ op; ``TypeError`` for anything else.

    Example:
        >>> try:
        ...     cpp_target(len)
        ... except TypeError as e:
        ...     print(str(e).split(":")[1])
         expected a C++ op
    """
    # a C++ cell's op (mskernel.cells.ForwardBackwardOp, a layer above this one): a module and its forward function
    if getattr(op, "module", None) is not None and callable(getattr(op, "forward", None)) \
            and isinstance(getattr(op, "name", None), str):
        art = artifact_of(op.module)
        fname = getattr(op.forward, "__name__", None)
        if isinstance(art, Artifact) and art.request is not None and isinstance(fname, str) \
                and getattr(op.module, fname, None) is op.forward:
            return CppTarget(op.name, art.name, fname, art.request, _signature(op.forward))
    elif callable(op) and not isinstance(op, type):
        art = artifact_of(op)
        fname = getattr(op, "__name__", None)
        if isinstance(art, Artifact) and art.request is not None and art.kind in ("pybind11", "cpython") \
                and isinstance(fname, str):
            module = load_python_module(art, art.name)  # already loaded: the same module object
            if getattr(module, fname, None) is op:
                return CppTarget(f"{art.name}.{fname}", art.name, fname, art.request, _signature(op))
    raise TypeError(f"cpp_target: expected {_ACCEPTED}, but got {type(op).__name__}")


# --- the sanitizers: probed once per compiler ------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _probe(cxx: tuple[str, ...], version: str) -> tuple[str, ...]:
    """What the checked child preloads: the shared ASan runtime, then the C++ runtime (so that ASan's
    interceptor of ``__cxa_throw`` finds the real one: a C++ exception in a process started by Python
    otherwise stops ASan with "CHECK failed"); raises SanitizerUnavailableError."""
    name = f"{cxx[0]} ({version})" if version else cxx[0]
    install = ("install GCC's sanitizer runtimes (Debian/Ubuntu: apt-get install libasan8 libubsan1, which g++ "
               "normally brings), or point the CXX environment variable at a g++ that has them")
    with tempfile.TemporaryDirectory(prefix="mskernel-sanprobe-") as tmp:
        src = os.path.join(tmp, "probe.cpp")
        Path(src).write_text("int probe(int *p, int i) { return p[i] + i; }\n")
        cmd = [*cxx, *SANITIZE_FLAGS, "-fPIC", "-shared", src, "-o", os.path.join(tmp, "probe.so")]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SanitizerUnavailableError(f"check_kernel: the C++ compiler {name} could not be run to test "
                                            f"-fsanitize=address,undefined ({exc}) -> {install}") from None
        if done.returncode != 0:
            said = " ".join((done.stderr or done.stdout).split())[:300]
            raise SanitizerUnavailableError(
                f"check_kernel: the C++ compiler {name} cannot build with AddressSanitizer and "
                f"UndefinedBehaviorSanitizer (-fsanitize=address,undefined failed: {said}) -> {install}")
    asan, cxxrt = (_library(cxx, lib) for lib in ("libasan.so", "libstdc++.so.6"))
    if asan is None:
        raise SanitizerUnavailableError(
            f"check_kernel: the C++ compiler {name} builds with -fsanitize=address but has no shared ASan "
            f"runtime (libasan.so) to start a checked process with -> {install}")
    return (asan,) + ((cxxrt,) if cxxrt else ())


def _library(cxx: tuple[str, ...], filename: str) -> Optional[str]:
    """Where the compiler finds a library (``-print-file-name``), or None."""
    try:
        found = subprocess.run([*cxx, f"-print-file-name={filename}"], capture_output=True, text=True,
                               timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return os.path.realpath(found) if os.path.isabs(found) and os.path.exists(found) else None


def sanitizer_runtime() -> str:
    """The shared AddressSanitizer runtime of the toolchain's compiler (checked with one tiny compile,
    once per compiler and process); raises :class:`SanitizerUnavailableError` when it has none.

    Example:
        >>> os.path.basename(sanitizer_runtime()).startswith("libasan.so")
        True
    """
    return _preload()[0]


def _preload() -> tuple[str, ...]:
    tc = find_toolchain()
    return _probe(tuple(tc.cxx_argv), tc.cxx_version)


# --- the checked run -------------------------------------------------------------------------------------------

def _param_kinds(signature: str, n: int) -> list[str]:
    """Per positional parameter, ``"array"`` when pybind11's signature says numpy.ndarray, else ``"tensor"``."""
    m = re.match(r"^\w+\((.*)\)\s*(->.*)?$", signature)
    params: list[str] = []
    if m is not None:
        depth, cur = 0, ""
        for ch in m.group(1):
            depth += ch in "[(" and 1 or (-1 if ch in "])" else 0)
            if ch == "," and depth == 0:
                params.append(cur)
                cur = ""
            else:
                cur += ch
        params.append(cur)
    return ["array" if i < len(params) and "numpy" in params[i] else "tensor" for i in range(n)]


def _write_inputs(directory: str, inputs: Sequence[Any], kinds: Sequence[str]) -> list[dict]:
    import numpy as np

    from mskernel.common.tensor import Tensor

    out: list[dict] = []
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor):
            x = x.asnumpy()
        if isinstance(x, np.ndarray):
            np.save(os.path.join(directory, f"in{i}.npy"), np.ascontiguousarray(x), allow_pickle=False)
            out.append({"npy": f"in{i}.npy", "as": kinds[i]})
            continue
        if isinstance(x, np.generic):
            x = x.item()
        try:
            json.dumps(x)
        except (TypeError, ValueError):
            raise TypeError(f"check_kernel: input {i} must be a Tensor, a numpy array or a scalar (int, float, bool, "
                            f"str, or a list of them), but got {type(x).__name__}") from None
        out.append({"json": x})
    return out


@dataclass
class _Run:
    stderr: str
    returncode: Optional[int]  # None: timed out
    result: Optional[dict]
    seconds: float
    directory: str


def _child_env(preload: Sequence[str], fill: int) -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # the directory holding this mskernel package
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["LD_PRELOAD"] = " ".join([*preload] + ([env["LD_PRELOAD"]] if env.get("LD_PRELOAD") else []))
    asan = (f"detect_leaks=0:halt_on_error=1:abort_on_error=0:malloc_fill_byte={fill}:max_malloc_fill_size=268435456"
            ":detect_odr_violation=0:symbolize=1:handle_abort=0:allocator_may_return_null=1")
    env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), asan) if o)
    ubsan = "print_stacktrace=1:halt_on_error=0:report_error_type=1:symbolize=1"
    env["UBSAN_OPTIONS"] = ":".join(o for o in (env.get("UBSAN_OPTIONS"), ubsan) if o)
    env.pop("PYTHONSTARTUP", None)
    return env


def _run(art: Artifact, target: CppTarget, directory: str, inputs: list[dict], preload: Sequence[str], fill: int,
         timeout: float) -> _Run:
    Path(directory).mkdir(exist_ok=True)
    for item in inputs:  # each run its own directory: its outputs never mix with the other run's
        if "npy" in item:
            shutil.copyfile(os.path.join(os.path.dirname(directory), item["npy"]), os.path.join(directory, item["npy"]))
    call = {"path": str(art.path), "module": target.module, "function": target.function, "inputs": inputs}
    Path(directory, "call.json").write_text(json.dumps(call))
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "mskernel.kernelcheck._cpp_child", directory],
                              env=_child_env(preload, fill), capture_output=True, text=True, errors="replace",
                              timeout=timeout, stdin=subprocess.DEVNULL)
        stderr, rc = done.stderr, done.returncode
    except subprocess.TimeoutExpired as exc:  # subprocess.run has killed it
        err = exc.stderr
        stderr = err.decode(errors="replace") if isinstance(err, bytes) else (err or "")
        rc = None
    result_file = Path(directory, "result.json")
    result = json.loads(result_file.read_text()) if result_file.exists() else None
    return _Run(stderr, rc, result, time.perf_counter() - t0, directory)


def _tensor(run: _Run, name: str) -> Any:
    import numpy as np

    from mskernel.common.tensor import Tensor

    return Tensor(np.load(os.path.join(run.directory, name), allow_pickle=False))


def _outputs(run: _Run, as_tensors: bool = False) -> list[Any]:
    import numpy as np

    values: list[Any] = []
    for item in (run.result or {}).get("outputs", []):
        if "npy" in item:
            values.append(np.load(os.path.join(run.directory, item["npy"]), allow_pickle=False)
                          if item.get("as") != "tensor" or not as_tensors else _tensor(run, item["npy"]))
        else:
            values.append(item.get("json", item.get("repr")))
    return values


def _compare(first: list[Any], second: list[Any], file: Optional[str]) -> list[Finding]:
    """Findings from two runs' outputs that differ only in the byte new memory was filled with (``file``:
    the op's main source, where they are reported, without a line)."""
    import numpy as np

    findings = []
    for i, (a, b) in enumerate(zip(first, second)):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape or a.dtype != b.dtype:
            continue
        size = a.dtype.itemsize
        ab = np.ascontiguousarray(a).view(np.uint8).reshape(-1, size) if a.size else np.zeros((0, size), np.uint8)
        bb = np.ascontiguousarray(b).view(np.uint8).reshape(-1, size) if b.size else np.zeros((0, size), np.uint8)
        differ = np.flatnonzero((ab != bb).any(axis=1))
        if differ.size == 0:
            continue
        index = tuple(int(k) for k in np.unravel_index(int(differ[0]), a.shape))
        n = int(differ.size)
        unwritten = bool((ab[differ] == FILL_BYTES[0]).all() and (bb[differ] == FILL_BYTES[1]).all())
        tensor = f"out{i}" if len(first) > 1 else "out"
        if unwritten:
            findings.append(Finding(
                "unwritten-output", tensor, index, None,
                f"{n} of {a.size} elements of output {i} are never written: they hold whatever memory held "
                f"(the fill byte {FILL_BYTES[0]:#04x} in one run, {FILL_BYTES[1]:#04x} in the other)", file=file,
                count=n))
        else:
            findings.append(Finding(
                "uninitialised-read", tensor, index, None,
                f"{n} of {a.size} elements of output {i} change when new memory is filled with another byte "
                f"({FILL_BYTES[0]:#04x}, then {FILL_BYTES[1]:#04x}): the op reads memory nothing wrote, or leaves "
                f"them unwritten (the sanitizers cannot say where; or the op is not deterministic)", file=file,
                count=n))
    return findings


def _died(run: _Run) -> str:
    if run.returncode is None:
        return "did not finish"
    if run.returncode < 0:
        try:
            return f"was killed by {signal.Signals(-run.returncode).name}"
        except ValueError:
            return f"was killed by signal {-run.returncode}"
    return f"exited with status {run.returncode}"


def _tail(text: str, n: int = 12) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


def check_cpp(target: CppTarget, inputs: Sequence[Any], *, timeout: float = _TIMEOUT) -> KernelCheck:
    """Build ``target`` with the sanitizers and call it once on ``inputs`` in a child process.

    ``inputs`` are Tensors or numpy arrays (passed as :class:`mskernel.Tensor` unless the function's
    parameter is a ``numpy.ndarray``) and JSON-able scalars. Returns a :class:`KernelCheck` of the
    sanitizers' findings (``language="cpp"``, ``outputs`` the first run's outputs as the op returned them,
    ``log`` the child's stderr). Raises :class:`SanitizerUnavailableError` when the compiler has no
    sanitizers, :class:`CheckedRunError` when the child crashed without a report, did not finish
    within ``timeout`` seconds, or the op raised and nothing was found, and the build layer's
    ``BuildError`` if the sanitized build fails.

    Example:
        >>> from mskernel.toolchain import CustomOpBuilder
        >>> src = ('#include "ms_extension.h"\\n'
        ...        'ms::Tensor same(const ms::Tensor &x) { return x; }\\n'
        ...        'PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("same", &same); }\\n')
        >>> same = CustomOpBuilder("doc_kc_same", src).load().same
        >>> check_cpp(cpp_target(same), [np.ones(4, np.float32)]).ok  # doctest: +SKIP
        True

    (Skipped in the doctests: the sanitized build of a new source takes about 10 s.)
    """
    runtime = _preload()
    req = target.request
    t0 = time.perf_counter()
    art = rebuild(req, cflags=[*req.cflags, *SANITIZE_FLAGS], ldflags=[*req.ldflags, *_LINK_FLAGS], debug=True,
                    optimize="-O0", split=False, pch=False)
    built = "from the build cache" if art.cached else f"in {time.perf_counter() - t0:.1f} s"
    sources = target.sources
    notes = [f"built with {' '.join(SANITIZE_FLAGS)} ({built})"]
    with tempfile.TemporaryDirectory(prefix="mskernel-kernelcheck-") as tmp:
        # (never loaded here: a sanitized module aborts a process its runtime did not start)
        args = _write_inputs(tmp, inputs, _param_kinds(target.signature, len(inputs)))
        first = _run(art, target, os.path.join(tmp, "run1"), args, runtime, FILL_BYTES[0], timeout)
        findings = parse_reports(first.stderr, sources)
        log = first.stderr
        n = len(inputs)
        notes.append(f"ran {target.function} once on {n} input{'s' if n != 1 else ''} in a child process "
                     f"({first.seconds:.1f} s)")
        if first.returncode is None:
            raise CheckedRunError(f"{target.name}: the checked run did not finish within {timeout:g} s (an endless "
                                  f"loop, or waiting for input?); the child was stopped", log=log)
        if first.result is None and not findings:
            raise CheckedRunError(f"{target.name}: the checked child process {_died(first)} without a sanitizer "
                                  f"report; its last output:\n{_tail(log)}", log=log)
        if first.result is None:
            notes.append(f"the child {_died(first)} at the first memory error")
        raised = (first.result or {}).get("raised")
        if raised and not findings:
            raise CheckedRunError(f"{target.name}: the op raised in the checked run: {raised}", log=log)
        if raised:
            notes.append(f"the call then raised {raised}")
        outputs = _outputs(first)
        if first.result is not None and not raised and not any(f.kind == "address" for f in findings):
            second = _run(art, target, os.path.join(tmp, "run2"), args, runtime, FILL_BYTES[1], timeout)
            if second.result is not None and "outputs" in second.result:
                main = next((s.name for s in req.sources if not s.name.endswith(_HEADERS)), None)
                more = _compare(outputs, _outputs(second), main)
                findings += more
                notes.append("ran again with new memory filled with another byte: "
                             + ("outputs differ" if more else "same outputs"))
        returned = _outputs(first, as_tensors=True)
    return KernelCheck(target.name, "cpp", findings, outputs=tuple(returned), notes=notes, log=log)
