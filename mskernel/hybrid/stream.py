"""Streaming (non-temporal) stores for large elementwise loops.

An elementwise loop that writes a fresh output once and never reads it back is limited by
memory bandwidth; ordinary stores first read every destination cache line (read-for-
ownership), non-temporal stores do not, which is what makes ``memcpy`` fast. GCC does not
emit them on its own, so for an *eligible* innermost loop the contiguous instantiation gets a
second, explicitly vectorized version (GCC vector extensions, 32-byte vectors) that stores
with ``_mm256_stream_ps/pd``, used when the loop's *footprint* -- the bytes of every array it reads
or writes over its extent -- reaches three quarters of the last-level cache (:func:`stream_min_footprint`).
Below that the arrays stay in the cache between calls, and ordinary stores leave the output there for
the next kernel to read. Measured on a 32 MB-L3 EPYC (``benchmarks/stream_threshold.py``, and
``benchmarks/kernel_bandwidth.py`` against numba): streaming stores write at the memory's bandwidth (about
27 GB/s there, whatever the size) while ordinary ones run from the cache at 60-90 GB/s until the footprint
nears the cache's size. So ``y = x*x`` (two arrays) gains from streaming from a 10-12 MB output, and kernels
that read more per byte written earlier: ``a*b + c`` (four arrays) runs 1.3x faster streaming a 4 MB output
-- alone; followed by a kernel that reads that output, the pair runs at 0.76-0.98x, since the output then
comes from memory instead of the cache. From three quarters of the cache the pair ran level or faster too.
The rule before (an output of a quarter of the cache) streamed ``x*x`` at 8 MB, where it ran at 0.83x
numba's ordinary stores in one run.

Eligible: unit step; the body is only stores to float32/float64 ``output_tensor``s, each
written once, indexed by the loop variable in its last dimension and not read in the loop;
values made of loads of the same dtype indexed the same way, loop-invariant scalars,
literals, ``+ - * /`` and unary minus -- exactly the operations whose vector and scalar forms
round identically.

Example:
    >>> from mskernel.hybrid import ir
    >>> i = ir.Var((1, 1), "i")
    >>> loop = ir.For((1, 1), "i", "range", ir.Const((1, 1), 0), ir.Const((1, 1), 9), ir.Const((1, 1), 1),
    ...               [ir.Store((2, 1), "y", [i], ir.Load((2, 8), "x", [i]))])
    >>> uses_loop_var(ir.Load((2, 8), "x", [i]), "i")
    True
"""
from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Callable, Optional

from . import ir
from .cexpr import bare
from .check import Typed
from .schedule import LoopPlan
from .work import estimate

__all__ = ["streamable", "uses_loop_var", "VectorEmitter", "stream_min_footprint", "loop_arrays", "emit",
           "last_level_cache_bytes"]

_OPS = ("+", "-", "*", "/")


def last_level_cache_bytes() -> Optional[int]:
    """The size of this machine's last-level data cache in bytes (Linux sysfs, then sysconf), or None.

    Example:
        >>> size = last_level_cache_bytes()
        >>> size is None or size > 0
        True
    """
    best: tuple[int, int] | None = None
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            if (index / "type").read_text().strip() == "Instruction":
                continue
            level = int((index / "level").read_text())
            text = (index / "size").read_text().strip().upper()
        except (OSError, ValueError):
            continue
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit() and (best is None or level > best[0]):
            best = (level, int(digits) * scale)
    if best is not None:
        return best[1]
    for name in ("SC_LEVEL3_CACHE_SIZE", "SC_LEVEL2_CACHE_SIZE"):
        try:
            size = os.sysconf(name)
        except (ValueError, OSError):
            continue
        if size > 0:
            return size
    return None


@functools.lru_cache(maxsize=None)
def stream_min_footprint() -> int:
    """The footprint (bytes of all the arrays an eligible loop reads and writes over its extent) from which
    it uses streaming stores: three quarters of the last-level cache, at least 6 MB (24 MB when the cache
    size is unknown).

    Example:
        >>> stream_min_footprint() >= 6 << 20
        True
    """
    llc = last_level_cache_bytes()
    return max(6 << 20, llc * 3 // 4) if llc else 24 << 20


def loop_arrays(loop: ir.For, stores: list[ir.Store]) -> list[str]:
    """The arrays an eligible loop (``stores``: its body) touches, in order of first appearance: its footprint
    per iteration is their item size times their count (they share one dtype).

    Example:
        >>> i = ir.Var((1, 1), "i")
        >>> x = ir.Load((2, 8), "x", [i])
        >>> st = ir.Store((2, 1), "y", [i], ir.BinOp((2, 8), "*", x, x))
        >>> loop_arrays(ir.For((1, 1), "i", "range", ir.Const((1, 1), 0), ir.Const((1, 1), 9),
        ...                    ir.Const((1, 1), 1), [st]), [st])
        ['y', 'x']
    """
    names: list[str] = []
    for st in stores:
        for name in [st.tensor] + [e.tensor for e in ir.walk_exprs(st.value) if isinstance(e, ir.Load)]:
            if name not in names:
                names.append(name)
    return names


def uses_loop_var(e: ir.Expr, var: str) -> bool:
    """True if the loop variable ``var`` occurs in ``e``."""
    return any(isinstance(x, ir.Var) and x.name == var for x in ir.walk_exprs(e))


def _vector_ok(e: ir.Expr, t: Typed, var: str, dtype: str, written: set[str]) -> bool:
    if isinstance(e, ir.Const):
        return not isinstance(e.value, bool)
    if isinstance(e, (ir.Param, ir.ShapeDim, ir.Rank)):
        return True
    if isinstance(e, ir.Var):
        return True  # nothing is assigned in an eligible loop: every variable is invariant
    if isinstance(e, ir.Load):
        info = t.tensors[e.tensor]
        return (e.grid is None and info.dtype == dtype and e.tensor not in written and info.rank > 0
                and _indexed_by(e.indices, var))
    if isinstance(e, ir.BinOp):
        return (e.op in _OPS and t.type_of(e) == dtype
                and _vector_ok(e.left, t, var, dtype, written) and _vector_ok(e.right, t, var, dtype, written))
    if isinstance(e, ir.UnaryOp):
        return e.op == "-" and t.type_of(e) == dtype and _vector_ok(e.operand, t, var, dtype, written)
    return False


def _indexed_by(indices: list[ir.Expr], var: str) -> bool:
    last = indices[-1] if indices else None
    return (isinstance(last, ir.Var) and last.name == var
            and not any(uses_loop_var(i, var) for i in indices[:-1]))


def streamable(loop: ir.For, t: Typed, debug: bool) -> Optional[list[ir.Store]]:
    """The stores of ``loop`` if it can use streaming stores, else None."""
    if debug or loop.kind == "grid" or not (isinstance(loop.step, ir.Const) and loop.step.value == 1):
        return None
    stores = loop.body
    if not stores or not all(isinstance(s, ir.Store) for s in stores):
        return None
    written = {s.tensor for s in stores}  # type: ignore[union-attr]
    if len(written) != len(stores):
        return None
    dtypes = set()
    for s in stores:
        info = t.tensors[s.tensor]  # type: ignore[union-attr]
        if info.kind != "output" or info.dtype not in ("float32", "float64") or s.grid is not None:  # type: ignore[union-attr]
            return None
        if not _indexed_by(s.indices, loop.var) or not _vector_ok(s.value, t, loop.var, info.dtype, written):  # type: ignore[union-attr]
            return None
        dtypes.add(info.dtype)
    return stores if len(dtypes) == 1 else None  # type: ignore[return-value]


class VectorEmitter:
    """C++ (GCC vector extension) text of an eligible value: loads become ``mskh::vload``."""

    def __init__(self, t: Typed, dtype: str, scalar: Callable[[ir.Expr, str], str],
                 address: Callable[[ir.Load], str]):
        self.t = t
        self.dtype = dtype
        self.scalar = scalar
        self.address = address

    def emit(self, e: ir.Expr) -> str:
        if isinstance(e, ir.Load):
            return f"mskh::vload({self.address(e)})"
        if isinstance(e, ir.BinOp):
            return f"({self.emit(e.left)} {e.op} {self.emit(e.right)})"
        if isinstance(e, ir.UnaryOp):
            return f"(-{self.emit(e.operand)})"
        return self.scalar(e, self.dtype)


def emit(gen: Any, s: ir.For, p: LoopPlan, stores: list[ir.Store], start: str, stop: str) -> None:
    """Open ``if (large contiguous) {`` in the code generator ``gen`` (:mod:`.codegen`) and emit the non-temporal
    version of the eligible loop ``s`` (``stores``: its body, :func:`streamable`), from ``start`` to ``stop``;
    the caller emits the ``} else {`` with the ordinary loop.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
        >>> [ln.strip() for ln in hk.source(["float32"], [1]).splitlines() if "mskh::stream(" in ln]
        ['mskh::stream(&y[i * y_s0], mskh::vload(&x[i * x_s0]) * 2.0f);']
    """
    v = gen.cname(s.var)
    dtype = gen.t.tensors[stores[0].tensor].dtype
    width = 8 if dtype == "float32" else 4
    size = 4 if dtype == "float32" else 8
    names = ", ".join(st.tensor for st in stores)
    span = stop if start == "0" else f"({stop} - {start})"
    arrays = loop_arrays(s, stores)
    gen.emit(f"if (kContig && {span} * {size * len(arrays)} >= {stream_min_footprint()}) {{  "
             f"// the loop's {len(arrays)} arrays fill 3/4 of the last-level cache")
    gen.depth += 1
    gen.emit(f"// streaming stores: {names} written once and not read here, bypassing the cache")
    gen.emit(f"int64_t {v} = {start};")
    first = gen.access(stores[0], gen.ex.indices(stores[0]))
    gen.quiet = True
    gen.emit(f"for (; {v} < {stop} && !mskh::aligned(&{first}); ++{v}) {{")
    gen.depth += 1
    gen.block(s.body)
    gen.depth -= 1
    gen.emit("}")
    others = [f"mskh::aligned(&{gen.access(st, gen.ex.indices(st))})" for st in stores[1:]]
    if others:
        gen.emit(f"if ({' && '.join(others)}) {{")
        gen.depth += 1
    begin, end = gen.fresh(f"{v}_vec_begin"), gen.fresh(f"{v}_vec_end")
    gen.emit(f"const int64_t {begin} = {v};")
    gen.emit(f"const int64_t {end} = {v} + ({stop} - {v}) / {width} * {width};")
    vec = VectorEmitter(gen.t, dtype, gen.ex.as_type, lambda e: "&" + gen.access(e, gen.ex.indices(e)))
    if gen.pragma(LoopPlan(p.pragma if p.pragma == "parallel" else None)):
        work = estimate(s, f"({end} - {begin})", gen.trip)
        gen.parallel_open(work, f"({end} - {begin}) / {width}", v, begin, width)
        for st in stores:
            gen.emit(f"mskh::stream(&{gen.access(st, gen.ex.indices(st))}, {bare(vec.emit(st.value))});")
        gen.parallel_close("mskh::fence();  // this thread's streaming stores drained before its chunk is done")
    else:
        gen.emit(f"for (int64_t {v} = {begin}; {v} < {end}; {v} += {width}) {{")
        for st in stores:
            gen.emit(f"  mskh::stream(&{gen.access(st, gen.ex.indices(st))}, {bare(vec.emit(st.value))});")
        gen.emit("}")
    gen.emit(f"{v} = {end};")
    if others:
        gen.depth -= 1
        gen.emit("}")
    gen.emit(f"for (; {v} < {stop}; ++{v}) {{")
    gen.depth += 1
    gen.block(s.body)
    gen.depth -= 1
    gen.emit("}")
    gen.quiet = False
    gen.emit("mskh::fence();")
    gen.depth -= 1
