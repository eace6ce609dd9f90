"""The checked run of a hybrid kernel: build it with shadow memory, call it once, read its report.

The checked build (:mod:`mskernel.hybrid.checked_codegen`, runtime ``hybrid_check.h``) runs the
kernel serially on contiguous copies of the inputs (the caller's arrays are never written), with
outputs and ``allocate`` buffers poisoned (NaN for floats, ``0xA5`` bytes for integers, ``True``
for bools) and a shadow per element of every output, temporary and tensor written inside a
parallel loop. Its report rows become :class:`~mskernel.kernelcheck.report.Finding` s:

* ``race``: two iterations of one execution of a ``parallel``/``vectorize`` loop touched an element
  and one wrote it -- exactly when the data makes them collide (``y[idx[i]] = ...``);
* ``uninitialised-read``: an output or temporary element read before anything wrote it;
* ``unwritten-output``: output elements nothing wrote (found from the shadow after the run);
* ``out-of-bounds``: an index outside its tensor's shape (the run stops there, as in debug mode).

Example:
    >>> import numpy as np
    >>> from mskernel.hybrid import HybridKernel
    >>> hk = HybridKernel.from_source("def head(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0] - 1):\\n        y[i] = x[i]\\n    return y\\n", filename="<cell head>")
    >>> check = check_hybrid(hk, [np.arange(4, dtype=np.float32)], [])
    >>> print(check)
    check_kernel(head): 1 finding (ran once, serially, on inputs of shape (4,); new memory poisoned)
      unwritten-output at <cell head>:2: y[3] is never written: a device returns whatever the memory held there
          y = output_tensor(x.shape, x.dtype)
    >>> check.outputs[0]
    array([ 0.,  1.,  2., nan], dtype=float32)
"""
from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Optional, Sequence

import numpy as np

from mskernel.hybrid import ir
from mskernel.hybrid.checked_codegen import CheckedGenerated, generate_checked
from mskernel.hybrid.compiler import load_generated
from mskernel.hybrid.dsl import to_numpy
from mskernel.hybrid.dtypes import normalize_dtype
from mskernel.hybrid.runner import alloc_error, plain_attr
from mskernel.hybrid.shapes import make_infer

from .report import KINDS, Finding, KernelCheck

__all__ = ["check_hybrid", "poisoned"]

_ROW = 16  # one report row: kind, site, other site, loop, iteration a, iteration b, count, rank, index[8]
_CAP = 256  # report rows (one per kind and access site)
_RACE_WORDS = {1: ("written", "written"), 2: ("read", "written"), 3: ("written", "read")}


def poisoned(shape: Sequence[int], dtype: Any) -> np.ndarray:
    """A new array that is not the zeros the emulation gives: NaN, ``0xA5`` bytes, or True.

    Example:
        >>> poisoned((2,), "float32"), poisoned((1,), "int8"), poisoned((1,), "bool")
        (array([nan, nan], dtype=float32), array([-91], dtype=int8), array([ True]))
    """
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype)
    if dtype.kind == "b":
        return np.ones(shape, dtype)
    out = np.empty(shape, dtype)
    out.view(np.uint8)[...] = 0xA5
    return out


def _native(dtype: np.dtype) -> np.dtype:
    name = normalize_dtype(dtype.newbyteorder("="))
    if name is None:
        raise TypeError(f"check_kernel: unsupported dtype for a hybrid kernel: {dtype}")
    return np.dtype(name)


def _contiguous(arr: np.ndarray, copy: bool) -> np.ndarray:
    """``arr`` as the checked build reads it: C-contiguous, native; a copy when the kernel writes it (the caller's
    array is never written), else only when it is not that already."""
    want = _native(arr.dtype)
    if not copy and arr.dtype == want and arr.flags.c_contiguous and arr.flags.aligned:
        return arr
    return np.array(arr, dtype=want, order="C", copy=True)


@dataclass
class _Build:
    """The checked build of one signature: the typed kernel, its C++, the entry point, the shape function."""

    typed: Any
    gen: CheckedGenerated
    fn: Any
    infer: Any
    written: set[str]


_BUILDS: "weakref.WeakKeyDictionary[Any, dict[Any, _Build]]" = weakref.WeakKeyDictionary()


def _build(hk: Any, dtypes: list[np.dtype], ranks: list[int], attrs: tuple[Any, ...]) -> _Build:
    sig = hk.signature([_native(d) for d in dtypes], ranks, attrs, debug=False)
    builds = _BUILDS.setdefault(hk, {})
    if sig not in builds:
        typed = hk.specialize(sig)
        gen = generate_checked(typed)
        _, lib, _ = load_generated(f"{hk.name}_checked", gen, optimize="-O2")
        fn = lib.mskh_kernel_checked
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p] * 8 + [ctypes.c_int64]
        written = {s.tensor for s in ir.walk_stmts(typed.kernel.body) if isinstance(s, ir.Store)}
        builds[sig] = _Build(typed, gen, fn, make_infer(typed), written)
    return builds[sig]


def _location(k: Any, loc: tuple[int, int]) -> tuple[int, Optional[str]]:
    return loc[0], k.lines.get(loc[0])


class _Reader:
    """Turns the checked build's report into findings, in the kernel's own words."""

    def __init__(self, gen: CheckedGenerated, typed: Any) -> None:
        self.gen, self.k = gen, typed.kernel

    def finding(self, kind: str, tensor: Optional[str], index: Optional[tuple[int, ...]], line: int,
                message: str, **kw: Any) -> Finding:
        return Finding(kind, tensor, index, line, message, file=self.k.filename, source=self.k.lines.get(line), **kw)

    def element(self, tensor: str, index: tuple[int, ...]) -> str:
        return f"{tensor}[{', '.join(map(str, index))}]" if index else f"{tensor}[()]"

    def row(self, row: np.ndarray) -> Finding:
        kind, site, other, loop, it_a, it_b, count, rank = (int(v) for v in row[:8])
        index = tuple(int(v) for v in row[8:8 + rank])
        tensor, loc = self.gen.sites[site]
        elem = self.element(tensor, index)
        if kind == 4:
            alloc = self.k.allocs[tensor]
            what = "output_tensor" if alloc.kind == "output" else "allocate"
            return self.finding("uninitialised-read", tensor, index, loc[0],
                                f"{elem} is read before anything wrote it ({what} at line {alloc.loc[0]}); a device "
                                f"does not zero new memory", count=count)
        var, loop_loc = self.gen.loops[loop]
        then, now = _RACE_WORDS[kind]
        other_line = self.gen.sites[other][1][0] if other >= 0 else loc[0]
        message = (f"{elem} is {then} by iteration {var}={it_a} (line {other_line}) and {now} by iteration "
                   f"{var}={it_b} (line {loc[0]}) of the parallel loop at line {loop_loc[0]}; on a device they run "
                   f"at the same time")
        return self.finding("race", tensor, index, loc[0], message, iterations=(it_a, it_b), loop=var, count=count)

    def out_of_bounds(self, err: np.ndarray) -> Finding:
        site, rank = int(err[0]), int(err[1])
        index = tuple(int(v) for v in err[2:2 + rank])
        shape = tuple(int(v) for v in err[2 + rank:2 + 2 * rank])
        tensor, loc = self.gen.sites[site]
        return self.finding("out-of-bounds", tensor, index, loc[0],
                            f"{self.element(tensor, index)} is out of bounds for shape {shape}; the checked run "
                            f"stopped here")

    def unwritten(self, tensor: str, shadow: np.ndarray) -> Finding:
        missing = shadow == 0
        n = int(missing.sum())
        index = tuple(int(v) for v in np.unravel_index(int(np.argmax(missing)), shadow.shape))
        alloc = self.k.allocs[tensor]
        what = self.element(tensor, index) + ("" if n == 1 else f" and {n - 1} more of its {shadow.size} elements")
        return self.finding("unwritten-output", tensor, index, alloc.loc[0],
                            f"{what} {'is' if n == 1 else 'are'} never written: a device returns whatever the memory "
                            f"held there", count=n)


def _merge(findings: list[Finding]) -> list[Finding]:
    """One finding per kind, tensor and line: the read and write sides of one statement are one race, two reads
    of one tensor in a statement one uninitialised read (the first one found is kept, the counts add up)."""
    out: list[Finding] = []
    seen: dict[tuple[str, Optional[str], Optional[int]], int] = {}
    for f in findings:
        key = (f.kind, f.tensor, f.line)
        if key in seen:
            first = out[seen[key]]
            out[seen[key]] = Finding(**{**first.__dict__, "count": first.count + f.count})
            continue
        seen[key] = len(out)
        out.append(f)
    return out


def check_hybrid(hk: Any, tensors: Sequence[Any], attrs: Sequence[Any], name: Optional[str] = None) -> KernelCheck:
    """Run the :class:`~mskernel.hybrid.HybridKernel` ``hk`` once in its checked build (see the module docstring).

    Example:
        >>> import numpy as np
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def scatter(x, idx):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = 0.0\\n"
        ...     "    for i in parallel(x.shape[0]):\\n        y[idx[i]] = x[i]\\n    return y\\n")
        >>> x = np.ones(4, np.float32)
        >>> check_hybrid(hk, [x, np.array([0, 1, 2, 3])], []).ok
        True
        >>> race = check_hybrid(hk, [x, np.array([0, 2, 2, 3])], []).findings[0]
        >>> race.kind, race.index, race.line, race.loop, race.iterations
        ('race', (2,), 6, 'i', (1, 2))
    """
    name = name or hk.name
    plain = tuple(plain_attr(a) for a in attrs)
    if len(tensors) + len(plain) != hk.num_inputs:
        raise TypeError(f"check_kernel: the hybrid kernel '{hk.name}' takes {hk.num_inputs} inputs (tensors, then "
                        f"attributes), but got {len(tensors)} tensors and {len(plain)} attributes")
    for param, value in zip(hk.input_names[len(tensors):], plain):
        if not isinstance(value, (bool, int, float)):
            raise TypeError(f"check_kernel: the hybrid kernel '{hk.name}' takes its tensors first, then scalar "
                            f"attributes, so its parameter {param} is an attribute: it must be a bool, int or float "
                            f"(or a tensor, given before the attributes), but got {type(value).__name__} {value!r}")
    given = [np.asarray(to_numpy(t)) for t in tensors]
    build = _build(hk, [a.dtype for a in given], [a.ndim for a in given], plain)
    typed, gen = build.typed, build.gen
    arrays = [_contiguous(a, copy=p in build.written) for a, p in zip(given, typed.kernel.params)]
    params, returns = typed.kernel.params, typed.kernel.returns
    specs = build.infer([a.shape for a in arrays], plain)
    outs = [(poisoned if ret in gen.tracked else np.empty)(shape, dtype)
            for (shape, dtype), ret in zip(specs, returns) if ret not in params]
    fresh = iter(outs)
    results = tuple(arrays[params.index(r)] if r in params else next(fresh) for r in returns)
    slots = [*arrays, *outs]
    shadows: list[Any] = []
    flags = np.zeros(max(len(slots), 1), np.int64)
    written = np.zeros(max(len(slots), 1), np.int64)
    kept: dict[str, Any] = {}
    for k, (slot_name, arr) in enumerate(zip(gen.arrays, slots)):
        track = gen.tracked.get(slot_name)
        if track is None:
            shadows += [None] * 4
            continue
        w = np.zeros(arr.shape, np.uint64) if track.init else np.ones(arr.shape, np.uint64)  # 1: written by the caller
        readers = [np.zeros(arr.shape, np.uint64) for _ in range(2)] if track.reads else []
        kept[slot_name] = (w, k, readers)
        shadows += [w.ctypes.data, *(r.ctypes.data for r in readers)] + [None] * (2 - len(readers))
        shadows.append(written.ctypes.data + 8 * k)
        flags[k] = int(track.init)
    attr_words = np.zeros(max(len(plain), 1), np.int64)
    for _, (i, kind) in typed.attrs.items():
        attr_words[i] = np.float64(plain[i]).view(np.int64) if kind == "float" else int(plain[i])
    shape = np.array([d for a in slots for d in a.shape] or [0], np.int64)
    stride = np.array([s // a.itemsize for a in slots for s in a.strides] or [0], np.int64)
    err = np.zeros(2 + 4 * 64, np.int64)
    report = np.zeros(1 + _CAP * _ROW, np.int64)
    code = build.fn((ctypes.c_void_p * max(len(slots), 1))(*[a.ctypes.data for a in slots]), shape.ctypes.data,
                    stride.ctypes.data, attr_words.ctypes.data, err.ctypes.data,
                    (ctypes.c_void_p * max(len(shadows), 1))(*shadows), flags.ctypes.data, report.ctypes.data, _CAP)
    reader = _Reader(gen, typed)
    if code == 2:
        raise ValueError(f"check_kernel: hybrid kernel '{hk.name}': range() arg 3 must not be zero")
    if code in (3, 4):
        raise alloc_error(hk, SimpleNamespace(generated=gen, typed=typed), (code, *err.tolist()))
    rows = report[1:1 + int(report[0]) * _ROW].reshape(-1, _ROW)
    findings = [reader.row(r) for r in rows]
    if code == 1:
        findings.append(reader.out_of_bounds(err))
    else:
        for out_name in typed.kernel.outputs:
            w, k, _ = kept.get(out_name, (None, 0, None))
            init = out_name in gen.tracked and gen.tracked[out_name].init  # (else provably written in full)
            if init and written[k] < w.size:  # (the kernel counted its first writes of each element)
                findings.append(reader.unwritten(out_name, w))
    order = list(KINDS)
    findings = _merge(sorted(findings, key=lambda f: (f.line or 0, order.index(f.kind))))
    shapes = ", ".join(str(a.shape) for a in arrays) or "no tensors"
    notes = [f"ran once, serially, on inputs of shape {shapes}" + ("" if code != 1 else "; stopped at the "
                                                                    "out-of-bounds access"), "new memory poisoned"]
    if gen.loops:
        notes.insert(1, f"{len(gen.loops)} parallel loop{'s' if len(gen.loops) > 1 else ''} checked for races")
    return KernelCheck(name, "hybrid", findings, outputs=results, notes=notes)
