"""Typed kernel IR -> readable C++ (one extern "C" entry per memory layout).

The generated file is meant to be read: the user's variable names, two-space indentation,
and a ``// line N: <source>`` comment above every statement. Every tensor ``t`` gets its
runtime extents ``t_n0, t_n1, ...`` and element strides ``t_s0, ...``; the body is a template
on ``kContig`` and instantiated twice: ``mskh_kernel_contig`` (every array C-contiguous, so
strides are computed from extents and the innermost one is the constant 1, which lets the
compiler vectorize) and ``mskh_kernel_strided`` (strides from the caller). The ABI::

    int entry(void* const* data,          // inputs, then outputs that are not inputs
              const int64_t* shape,       // all extents, array after array
              const int64_t* stride,      // all strides in elements, array after array
              const mskh::Attr* attr,     // scalar attributes
              int64_t* err)               // debug: [site, rank, indices..., extents...]

returns 0, or a ``mskh::k...`` error code.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.check import specialize, Signature
    >>> k = parse(KernelSource.from_text("def neg(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = -x[i]\\n    return y\\n"))
    >>> g = generate(specialize(k, Signature(("float32",), (1,))))
    >>> print([ln.strip() for ln in g.source.splitlines() if "y[" in ln][1])
    y[i * y_s0] = -x[i * x_s0];
"""
from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import Optional

from . import ir, reduction, vector_math
from .cexpr import ExprEmitter, bare, convert
from .bounds import prove
from .check import Typed
from .coverage import fully_written
from .dtypes import ctype
from .schedule import LoopPlan, plan
from . import stream
from .stream import streamable
from .work import estimate

__all__ = ["Generated", "generate", "PARALLEL_MIN_WORK"]

#: a parallel loop goes to the thread pool only when its estimated work (:mod:`.work`: iterations times
#: operations per iteration; ``y[i] = x[i] * x[i]`` is 4 per iteration) reaches this; below, its body runs on
#: the calling thread. Measured on a 2-core EPYC VM, idle (load < 0.5) and busy (numpy float64 matmuls on
#: 2 OpenBLAS threads), through ``HybridKernel.run``: medians of 100 calls, 5 interleaved rounds of one
#: thread vs two, back to back and with 200 us of busy waiting between calls (the worker then sleeps
#: before each call: waking it costs the caller ~7-10 us and it starts ~20 us later). Idle, that map
#: loses below it (0.57-0.80x at 131072-262144 iterations), ties at it (524288 iterations: 1.03x with
#: gaps, 1.28x back to back) and wins above (1M: 1.29-1.39x); a row softmax (28 per element) already wins
#: from 16 rows of 1024 (459K: 1.31x). Busy, the worker seldom runs and every size is 0.95-1.0x.
PARALLEL_MIN_WORK = 1 << 21

_CPP_KEYWORDS = {
    "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default",
    "delete", "do", "double", "else", "enum", "explicit", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "operator",
    "private", "protected", "public", "register", "return", "short", "signed", "sizeof",
    "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "and",
    "or", "not", "xor", "bitand", "bitor", "compl", "std", "mskh", "main", "errno", "NAN",
    "INFINITY", "data", "shape", "stride", "attr", "err", "dbg", "kContig", "signed",
}


@dataclass
class Generated:
    """Generated C++ and what the caller needs to run it."""

    source: str
    arrays: list[str]
    parallel: bool  # has a loop that runs on the thread pool (hybrid_runtime.h's parallel_for)
    sites: list[tuple[str, ir.Loc]] = field(default_factory=list)
    contig_symbol: str = "mskh_kernel_contig"
    strided_symbol: str = "mskh_kernel_strided"


class _Gen:
    def __init__(self, typed: Typed, debug: bool, bounds: bool = True):
        self.t = typed
        self.bounds = bounds
        self.k = typed.kernel
        self.debug = debug
        self.checking = debug          # every access checked, no pragmas, stop after a failed statement
        self.unproved: set[int] = set()  # accesses the fast version checks (not covered by a bounds proof)
        self.pragma_depth = 0          # inside a parallel or SIMD loop: a failure is reported after the loop
        self.lines: list[str] = []
        self.depth = 1
        self.sites: list[tuple[str, ir.Loc]] = []
        self.chunk_locals: list[tuple[str, str, str]] = []  # (C type, name, value): the arrays, passed to each chunk
        self.plans: dict[int, LoopPlan] = plan(self.k, debug)
        self.covered = fully_written(typed)
        self.used: set[str] = set()
        self.used.update(typed.tensors, typed.attrs, typed.var_types, self.k.params)  # fresh names avoid the user's
        for loop in ir.walk_stmts(self.k.body):
            if isinstance(loop, ir.For):
                self.used.update([loop.var, *loop.grid_names])
        self.cnames: dict[str, str] = {}
        self.aliases: dict[int, str] = {}  # accesses emitted as a local: a reduce loop's accumulator element
        reserved = set(_CPP_KEYWORDS) | set(keyword.kwlist)
        for name, info in typed.tensors.items():
            reserved |= {f"{name}_n{d}" for d in range(info.rank)}
            reserved |= {f"{name}_s{d}" for d in range(info.rank)}
            reserved |= {f"{name}_shape", f"{name}_stride", f"{name}_buf"}
        self.reserved = reserved
        self.ex = ExprEmitter(typed, self.cname, self.access, self.grid_component)
        self.quiet = False

    # ------------------------------------------------------------------ names
    def cname(self, name: str) -> str:
        if name not in self.cnames:
            c = name if name not in self.reserved else name + "_"
            while c in self.reserved and c != name:
                c += "_"
            self.cnames[name] = c
        return self.cnames[name]

    def fresh(self, base: str) -> str:
        name, n = base, 1
        while name in self.used or name in self.reserved:
            name, n = f"{base}_{n}", n + 1
        self.used.add(name)
        return name

    def grid_component(self, var: str, k: int) -> str:
        loop = self._grid_loops[var]
        return self.cname(loop.grid_names[k]) if loop.grid_names else self.cname(f"{var.split('__')[0]}_{k}")

    # ------------------------------------------------------------------ output helpers
    def emit(self, text: str) -> None:
        self.lines.append("  " * self.depth + text if text else "")

    def comment(self, loc: ir.Loc, suffix: str = "") -> None:
        if self.quiet:
            return
        src = self.k.lines.get(loc[0], "").strip()
        self.emit(f"// line {loc[0]}: {src}{suffix}")

    def is_checked(self, node: ir.Load | ir.Store) -> bool:
        return self.checking or id(node) in self.unproved

    def has_checked(self, *exprs: ir.Expr) -> bool:
        return any(isinstance(x, ir.Load) and self.is_checked(x) for e in exprs for x in ir.walk_exprs(e))

    def subtree_checked(self, s: ir.Stmt) -> bool:
        stmts = list(ir.walk_stmts([s]))
        return any(isinstance(x, ir.Store) and self.is_checked(x) for x in stmts) or \
            any(self.has_checked(e) for x in stmts for e in ir.stmt_exprs(x)) or \
            any(isinstance(x, ir.Alloc) and x.kind == "temp" for x in stmts)

    def calls(self) -> set[str]:
        """The DSL functions the kernel calls (``exp``, ``max``...)."""
        return {e.func for s in ir.walk_stmts(self.k.body) for root in ir.stmt_exprs(s) for e in ir.walk_exprs(root)
                if isinstance(e, ir.Call)}

    def keeps_order(self, s: ir.Stmt) -> bool:
        """True if the reduce loops in ``s`` must run in order: their accesses are checked one by one."""
        return self.subtree_checked(s)

    def stop_if_failed(self) -> None:
        if not self.pragma_depth:
            self.emit("if (dbg.failed) return dbg.code;")

    def check_failed(self, *exprs: ir.Expr) -> None:
        if self.has_checked(*exprs):
            self.stop_if_failed()

    # ------------------------------------------------------------------ tensors
    def access(self, node: ir.Load | ir.Store, idx: list[str]) -> str:
        if id(node) in self.aliases:
            return self.aliases[id(node)]
        name = self.cname(node.tensor)
        rank = self.t.tensors[node.tensor].rank
        if rank == 0:
            return f"{name}[0]"
        if self.is_checked(node):
            self.sites.append((node.tensor, node.loc))
            site = len(self.sites) - 1
            return f"{name}[mskh::at<{rank}>(dbg, {site}, {name}_shape, {name}_stride, {', '.join(idx)})]"
        terms = [f"{i} * {name}_s{d}" for d, i in enumerate(idx) if i != "0"]
        return f"{name}[{' + '.join(terms) or '0'}]"

    def declare_tensor(self, name: str, dims: list[str], strides: Optional[list[str]]) -> None:
        """Extents, strides (given, or contiguous), and debug arrays of one tensor."""
        c = self.cname(name)
        rank = len(dims)
        for d, text in enumerate(dims):
            self.emit(f"const int64_t {c}_n{d} = {text};")
        for d in range(rank):
            contig = " * ".join(f"{c}_n{e}" for e in range(d + 1, rank)) or "1"
            value = contig if strides is None else f"kContig ? {contig} : {strides[d]}"
            self.emit(f"const int64_t {c}_s{d} = {value};")
        if rank:
            self.emit(f"const int64_t {c}_shape[{rank}] = {{{', '.join(f'{c}_n{d}' for d in range(rank))}}};")
            self.emit(f"const int64_t {c}_stride[{rank}] = {{{', '.join(f'{c}_s{d}' for d in range(rank))}}};")

    def prologue(self) -> list[str]:
        arrays = [p for p in self.k.params if p in self.t.tensors and self.t.tensors[p].kind == "input"]
        arrays += [r for r in self.k.returns if r not in self.k.params]
        written = {s.tensor for s in ir.walk_stmts(self.k.body) if isinstance(s, ir.Store)}
        offset = 0
        for slot, name in enumerate(arrays):
            info = self.t.tensors[name]
            const = "" if name in written else "const "
            c, ct = self.cname(name), ctype(info.dtype)
            role = "input" if info.kind == "input" else "output"
            self.emit(f"// {role} {name}: {info.dtype}, rank {info.rank}")
            self.emit(f"{const}{ct}* __restrict__ {c} = static_cast<{const}{ct}*>(data[{slot}]);")
            self.declare_tensor(name, [f"shape[{offset + d}]" for d in range(info.rank)],
                                [f"stride[{offset + d}]" for d in range(info.rank)])
            self.chunk_locals.append((f"{const}{ct}* __restrict__", c, c))
            self.chunk_locals += [("const int64_t", f"{c}_n{d}", f"{c}_n{d}") for d in range(info.rank)]
            self.chunk_locals += [("const int64_t", f"{c}_s{d}", f"kContig ? 1 : {c}_s{d}" if d == info.rank - 1
                                   else f"{c}_s{d}") for d in range(info.rank)]  # (a literal 1 where contiguous)
            offset += info.rank
        for name, (i, t) in self.t.attrs.items():
            value = f"attr[{i}].f" if t == "float" else f"attr[{i}].i" + (" != 0" if t == "bool" else "")
            self.emit(f"const {ctype(t) if t != 'bool' else 'bool'} {self.cname(name)} = {value};  // attribute {name}")
        self.emit("mskh::Debug dbg{err};  // where a checked access or an allocation failed")
        return arrays

    # ------------------------------------------------------------------ statements
    def declare_scalars(self, names: list[str]) -> None:
        for n in names:
            if n in self.t.var_types:
                self.emit(f"{ctype(self.t.var_types[n])} {self.cname(n)} = 0;")

    def block(self, stmts: list[ir.Stmt]) -> None:
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s)

    def s_Alloc(self, s: ir.Alloc) -> None:
        if s.kind == "output":
            line = self.covered.get(s.name)
            self.comment(s.loc, "  (allocated zero-filled by the caller)" if line is None else
                         f"  (allocated uninitialised by the caller: the loop at line {line} writes all of it)")
            return
        self.comment(s.loc)
        info = self.t.tensors[s.name]
        if s.shape.of is not None:
            src = self.cname(s.shape.of)
            dims = [f"{src}_n{d}" for d in range(info.rank)]
        else:
            dims = [self.ex.index(d) for d in s.shape.dims or []]
        c = self.cname(s.name)
        self.declare_tensor(s.name, dims, None)
        self.check_failed(*(s.shape.dims or []))
        self.sites.append((s.name, s.loc))
        shape = f"{c}_shape" if info.rank else "nullptr"
        self.emit(f"mskh::Buffer<{ctype(info.dtype)}> {c}_buf(dbg, {len(self.sites) - 1}, {info.rank}, {shape});")
        # a negative or impossible size: stop (inside a parallel loop, skip the iteration; reported after it)
        self.emit(f"if (!{c}_buf.data) {'continue' if self.pragma_depth else 'return dbg.code'};")
        self.emit(f"{ctype(info.dtype)}* __restrict__ {c} = {c}_buf.data;")

    def store_value(self, e: ir.Expr, dst: str) -> str:
        if dst == "float16":
            code = self.ex.as_type(e, "float32") if isinstance(e, ir.Const) else self.ex.emit(e)
            return f"(_Float16)({code})"
        if isinstance(e, ir.Const):
            return self.ex.as_type(e, dst)
        return convert(self.ex.emit(e), self.t.type_of(e), dst)

    def s_Store(self, s: ir.Store) -> None:
        self.comment(s.loc)
        dtype = self.t.tensors[s.tensor].dtype
        value = self.store_value(s.value, dtype)
        target = self.access(s, self.ex.indices(s))
        self.emit(f"{target} = {bare(value)};")
        if self.is_checked(s) or self.has_checked(s.value, *s.indices):
            self.stop_if_failed()

    def s_Assign(self, s: ir.Assign) -> None:
        self.comment(s.loc)
        self.emit(f"{self.cname(s.name)} = {bare(self.store_value(s.value, self.t.var_types[s.name]))};")
        self.check_failed(s.value)

    def s_If(self, s: ir.If, chained: bool = False) -> None:
        if not chained:
            self.comment(s.loc)
        cond = self.ex.emit(s.cond)
        if self.has_checked(s.cond) and not self.pragma_depth:
            var = self.fresh("cond")
            self.emit(f"const bool {var} = {cond};")
            self.check_failed(s.cond)
            cond = var
        self.emit(f"{'} else ' if chained else ''}if ({bare(cond)}) {{")
        self.depth += 1
        self.block(s.then)
        self.depth -= 1
        nested_if = len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If) and not self.has_checked(s.orelse[0].cond)
        if nested_if:
            self.s_If(s.orelse[0], chained=True)  # type: ignore[arg-type]
            return
        if s.orelse:
            self.emit("} else {")
            self.depth += 1
            self.block(s.orelse)
            self.depth -= 1
        self.emit("}")

    def bound(self, e: ir.Expr, name: str) -> str:
        text = self.ex.index(e)
        if isinstance(e, (ir.Const, ir.Var, ir.Param, ir.ShapeDim)):
            return text
        var = self.fresh(name)
        self.emit(f"const int64_t {var} = {text};")
        self.check_failed(e)
        return var

    def pragma(self, p: LoopPlan) -> bool:
        """Emit the loop's note and its SIMD pragma (none in checked code); True if the loop is SIMD or
        parallel (a parallel loop is opened by :meth:`parallel_open`)."""
        if self.checking:
            return False
        if p.note:
            self.emit(f"// {p.note}")
        if p.pragma == "simd":
            self.emit("#pragma omp simd")
        return p.pragma in ("parallel", "simd")

    def parallel_open(self, work: str, trip: str, v: str, first: str, step: int) -> None:
        """Open ``mskh::parallel_for(enough, trip, [&](lo, hi) {`` and the loop of ``v`` over iterations
        [lo, hi) of ``for (v = first; ...; v += step)``; :meth:`parallel_close` closes both."""
        lo, hi = self.fresh(f"{v}_lo"), self.fresh(f"{v}_hi")
        self.emit(f"// on the thread pool, in chunks of iterations, when the estimated work (operations) reaches "
                  f"{PARALLEL_MIN_WORK}; else here")
        self.emit(f"mskh::parallel_for({bare(work)} >= {PARALLEL_MIN_WORK}, {bare(trip)}, "
                  f"[&](int64_t {lo}, int64_t {hi}) {{")
        self.depth += 1
        if self.chunk_locals:
            # Read through the capture (a reference), an array's pointer and strides are memory the compiler
            # reloads in every iteration of a SIMD reduction, which it then vectorizes with gathers (20x
            # slower); as this inner lambda's parameters they are the chunk's own values.
            self.emit("// the arrays' pointers, extents and strides as the chunk's own values (for the vectorizer)")
            self.emit(f"[&]({', '.join(f'{t} {n}' for t, n, _ in self.chunk_locals)}) {{")
            self.depth += 1
        if not (first.isidentifier() or first.isdigit()):
            first = f"({bare(first)})"
        if step == 1:
            begin, end = (lo, hi) if first == "0" else (f"{first} + {lo}", f"{first} + {hi}")
            self.emit(f"for (int64_t {v} = {begin}; {v} < {end}; ++{v}) {{")
        else:
            cmp = "<" if step > 0 else ">"
            self.emit(f"for (int64_t {v} = {first} + {lo} * {step}; {v} {cmp} {first} + {hi} * {step}; "
                      f"{v} += {step}) {{")
        self.depth += 1

    def parallel_close(self, tail: Optional[str] = None) -> None:
        """Close what :meth:`parallel_open` opened; ``tail``: a statement after each chunk's loop."""
        self.depth -= 1
        self.emit("}")
        if tail:
            self.emit(tail)
        if self.chunk_locals:
            self.depth -= 1
            self.emit(f"}}({', '.join(v for _, _, v in self.chunk_locals)});")
        self.depth -= 1
        self.emit("});")

    def loop_body(self, s: ir.For, pragma: bool) -> None:
        """Declarations and body of loop ``s`` (already opened); failures in a parallel or SIMD loop stop it
        after the loop."""
        self.pragma_depth += pragma
        self.declare_scalars(s.decls)
        self.block(s.body)
        self.pragma_depth -= pragma

    def trip(self, loop: ir.For) -> str:
        if loop.kind == "grid":
            return " * ".join(self.grid_extents(loop)) or "1"
        start, stop = self.ex.index(loop.start), self.ex.index(loop.stop)  # type: ignore[arg-type]
        step = self.ex.index(loop.step)  # type: ignore[arg-type]
        if step == "1":
            return stop if start == "0" else f"({stop} - {start})"
        return f"mskh::trip({start}, {stop}, {step})"

    def grid_extents(self, loop: ir.For) -> list[str]:
        shape = loop.grid_shape
        if shape is not None and shape.of is not None:
            c = self.cname(shape.of)
            return [f"{c}_n{d}" for d in range(self.t.tensors[shape.of].rank)]
        return [self.ex.index(d) for d in (shape.dims if shape and shape.dims else [])]

    def s_For(self, s: ir.For) -> None:
        self.comment(s.loc)
        p = self.plans[id(s)]
        if p.reduction is not None and not self.checking:
            why = reduction.emit(self, s, p.reduction)
            if why is None:
                return
            p.note = f"reduce: serial accumulation, because {why}"
        if s.kind == "grid":
            self._grid_loops[s.var] = s
            shape = s.grid_shape
            if shape is not None and shape.dims is not None:
                extents = [self.bound(d, "extent") for d in shape.dims]
            else:
                extents = self.grid_extents(s)
            pragma = self.pragma(p)  # (grid loops are never parallel: schedule.plan)
            opened = 0
            for k, ext in enumerate(extents):
                v = self.grid_component(s.var, k)
                self.emit(f"for (int64_t {v} = 0; {v} < {ext}; ++{v}) {{")
                self.depth += 1
                opened += 1
            self.loop_body(s, pragma)
            for _ in range(opened):
                self.depth -= 1
                self.emit("}")
            if pragma and self.subtree_checked(s):
                self.stop_if_failed()
            return
        v = self.cname(s.var)
        start = self.ex.index(s.start)  # type: ignore[arg-type]
        stop = self.bound(s.stop, f"{v}_stop")  # type: ignore[arg-type]
        if isinstance(s.step, ir.Const):
            step = int(s.step.value)
            cond = f"{v} < {stop}" if step > 0 else f"{v} > {stop}"
            inc = f"++{v}" if step == 1 else f"{v} += {step}"
        else:
            sv = self.bound(s.step, f"{v}_step")  # type: ignore[arg-type]
            self.emit(f"if ({sv} == 0) return mskh::kZeroStep;")
            cond = f"({sv} > 0 ? {v} < {stop} : {v} > {stop})"
            inc = f"{v} += {sv}"
        if isinstance(s.start, ir.Expr) and self.has_checked(s.start):
            start = self.bound(s.start, f"{v}_start")  # type: ignore[arg-type]
        stores = streamable(s, self.t, self.checking or self.subtree_checked(s))
        if stores:
            stream.emit(self, s, p, stores, start, stop)
            self.emit("} else {")
            self.depth += 1
        pragma = self.pragma(p)
        if pragma and p.pragma == "parallel":  # (a constant step: see schedule.plan)
            work = estimate(s, self.trip(s), self.trip)
            self.parallel_open(work, self.trip(s), v, start, int(s.step.value))  # type: ignore[union-attr]
            self.loop_body(s, pragma)
            self.parallel_close()
        else:
            self.emit(f"for (int64_t {v} = {start}; {cond}; {inc}) {{")
            self.depth += 1
            self.loop_body(s, pragma)
            self.depth -= 1
            self.emit("}")
        if stores:
            self.depth -= 1
            self.emit("}")
        if pragma and self.subtree_checked(s):
            self.stop_if_failed()

    # ------------------------------------------------------------------ bounds safety
    def top_level(self, stmts: list[ir.Stmt], declared: set[str]) -> None:
        """The kernel body: each loop nest guarded by its bounds proof (see :mod:`.bounds`)."""
        for s in stmts:
            if not self.bounds:
                self.block([s])  # benchmarks only: what the checks cost
            elif self.debug or not any(isinstance(x, ir.For) for x in ir.walk_stmts([s])):
                self.checked(s)  # debug mode, or a statement that runs once: check its accesses
            else:
                self.versioned(s, declared)
            if isinstance(s, ir.Alloc):
                declared.add(s.name)

    def checked(self, s: ir.Stmt) -> None:
        saved, self.checking = self.checking, True
        self.block([s])
        self.checking = saved

    def versioned(self, s: ir.Stmt, declared: set[str]) -> None:
        """``if (proof) { fast } else { checked }`` for top-level statement ``s``."""
        proof = prove(self.t, s, self.ex.index, self.cname, declared)
        self.unproved = {id(n) for n in proof.unproved}
        lines = sorted({n.loc[0] for n in proof.unproved})
        checked = f"; checked one by one: line {', '.join(map(str, lines))}" if lines else ""
        if proof.condition == "true" or not proof.proved:
            self.emit(f"// bounds: {len(proof.proved)} accesses proved in bounds{checked}")
            reduction.block(self, s)
            self.unproved = set()
            return
        self.emit(f"// bounds: {len(proof.proved)} accesses proved in bounds below when bnd_ok holds{checked}")
        self.emit("{")
        self.depth += 1
        for line in proof.lines:
            for k, part in enumerate(line.split("\n")):
                self.emit(part if k == 0 else "  " + part.strip())
        self.emit("if (__builtin_expect(bnd_ok, 1)) {")
        self.depth += 1
        reduction.block(self, s)
        self.unproved = set()
        self.depth -= 1
        self.emit("} else {  // some access may be out of bounds: check each one, raise IndexError at the first")
        self.depth += 1
        if proof.unproved:  # (a lambda would let the fast version's checked accesses see its captures escape)
            self.checked(s)
        else:  # a cold lambda, lightly optimized: the checked copy costs less compile time, out of the fast path
            self.emit("const int rc = [&]() __attribute__((noinline, cold, optimize(\"O1\"))) -> int {")
            self.depth += 1
            self.checked(s)
            self.emit("return mskh::kOk;")
            self.depth -= 1
            self.emit("}();")
            self.emit("if (rc) return rc;")
        self.depth -= 1
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    # ------------------------------------------------------------------ the file
    def run(self) -> Generated:
        self._grid_loops: dict[str, ir.For] = {
            s.var: s for s in ir.walk_stmts(self.k.body) if isinstance(s, ir.For) and s.kind == "grid"}
        arrays = self.prologue()
        if self.k.decls:
            self.emit("// scalar variables")
        self.declare_scalars(self.k.decls)
        self.top_level(self.k.body, set(arrays))
        self.emit("return mskh::kOk;")
        body = self.lines
        sig = ", ".join(f"{n}: {self.t.tensors[n].dtype}[rank {self.t.tensors[n].rank}]" for n in arrays)
        attrs = ", ".join(f"{n}: {t}" for n, (_, t) in self.t.attrs.items()) or "none"
        impl = f"{self.cname(self.k.name)}_impl"
        head = [
            f"// Hybrid kernel '{self.k.name}' from {self.k.filename} (def at line {self.k.def_line}),",
            f"// generated by mskernel.hybrid{self.MODE_NOTE if self.debug else ''}.",
            f"// arrays: {sig}; attributes: {attrs}",
            "// t_nK is the extent of dimension K of tensor t, t_sK its stride in elements.",
            *vector_math.declarations(self.calls()),
            f'#include "{self.RUNTIME_HEADER}"',
            "",
            "template <bool kContig>",
            f"static int {impl}(void* const* data, const int64_t* shape, const int64_t* stride,",
            f"{' ' * (len(impl) + 12)}const mskh::Attr* attr, int64_t* err{self.EXTRA_PARAMS}) {{",
        ]
        tail = ["}", "", *self.entries(impl), ""]
        parallel = any(p.pragma == "parallel" for p in self.plans.values())
        return Generated("\n".join(head + body + tail), arrays, parallel, self.sites)

    #: what the file's first lines say, the header it includes, the implementation's parameters after err
    MODE_NOTE = " in DEBUG mode (bounds-checked)"
    RUNTIME_HEADER = "hybrid_runtime.h"
    EXTRA_PARAMS = ""

    def entries(self, impl: str) -> list[str]:
        """The extern "C" functions the caller looks up: one per memory layout."""
        entry = "(void* const* data, const int64_t* shape, const int64_t* stride, const mskh::Attr* attr, int64_t* err)"
        return [
            f'extern "C" int mskh_kernel_contig{entry} {{',
            f"  return {impl}<true>(data, shape, stride, attr, err);",
            "}",
            f'extern "C" int mskh_kernel_strided{entry} {{',
            f"  return {impl}<false>(data, shape, stride, attr, err);",
            "}",
        ]


def generate(typed: Typed, debug: bool = False, bounds: bool = True) -> Generated:
    """C++ for one specialized kernel (``debug``: every tensor access is bounds-checked).

    Without ``debug``, each loop nest's accesses are proved in bounds before it runs
    (:mod:`.bounds`) and a nest whose proof fails runs checked. ``bounds=False`` drops both (no
    safety at all): it exists only so ``benchmarks/hybrid_kernels.py`` can measure their cost.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.check import specialize, Signature
        >>> k = parse(KernelSource.from_text("def cp(x):\\n    return x\\n"))
        >>> generate(specialize(k, Signature(("int32",), (2,)))).arrays
        ['x']
    """
    return _Gen(typed, debug, bounds).run()
