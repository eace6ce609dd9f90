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

from . import ir
from .cexpr import ExprEmitter, convert
from .check import Typed
from .dtypes import ctype
from .schedule import LoopPlan, plan
from .stream import VectorEmitter, streamable

__all__ = ["Generated", "generate", "PARALLEL_MIN_WORK"]

#: a parallel loop runs multi-threaded only when its estimated iteration count reaches this
PARALLEL_MIN_WORK = 32768

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
    openmp: bool
    sites: list[tuple[str, ir.Loc]] = field(default_factory=list)
    contig_symbol: str = "mskh_kernel_contig"
    strided_symbol: str = "mskh_kernel_strided"


class _Gen:
    def __init__(self, typed: Typed, debug: bool):
        self.t = typed
        self.k = typed.kernel
        self.debug = debug
        self.lines: list[str] = []
        self.depth = 1
        self.sites: list[tuple[str, ir.Loc]] = []
        self.plans: dict[int, LoopPlan] = plan(self.k, debug)
        self.used: set[str] = set()
        self.cnames: dict[str, str] = {}
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

    def check_failed(self, *exprs: ir.Expr) -> None:
        if self.debug and any(isinstance(x, ir.Load) for e in exprs for x in ir.walk_exprs(e)):
            self.emit("if (dbg.failed) return mskh::kIndexError;")

    # ------------------------------------------------------------------ tensors
    def access(self, node: ir.Load | ir.Store, idx: list[str]) -> str:
        name = self.cname(node.tensor)
        rank = self.t.tensors[node.tensor].rank
        if rank == 0:
            return f"{name}[0]"
        if self.debug:
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
        if self.debug and rank:
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
            offset += info.rank
        for name, (i, t) in self.t.attrs.items():
            value = f"attr[{i}].f" if t == "float" else f"attr[{i}].i" + (" != 0" if t == "bool" else "")
            self.emit(f"const {ctype(t) if t != 'bool' else 'bool'} {self.cname(name)} = {value};  // attribute {name}")
        if self.debug:
            self.emit("mskh::Debug dbg{err, false};")
        else:
            self.emit("(void)err;")
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
            self.comment(s.loc, "  (allocated zero-filled by the caller)")
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
        size = " * ".join(f"{c}_n{d}" for d in range(info.rank)) or "1"
        self.emit(f"mskh::Buffer<{ctype(info.dtype)}> {c}_buf({size});")
        self.emit(f"{ctype(info.dtype)}* __restrict__ {c} = {c}_buf.data;")
        self.check_failed(*(s.shape.dims or []))

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
        self.emit(f"{target} = {_bare(value)};")
        if self.debug:
            self.emit("if (dbg.failed) return mskh::kIndexError;")

    def s_Assign(self, s: ir.Assign) -> None:
        self.comment(s.loc)
        self.emit(f"{self.cname(s.name)} = {_bare(self.store_value(s.value, self.t.var_types[s.name]))};")
        self.check_failed(s.value)

    def s_If(self, s: ir.If, chained: bool = False) -> None:
        if not chained:
            self.comment(s.loc)
        cond = self.ex.emit(s.cond)
        if self.debug and any(isinstance(x, ir.Load) for x in ir.walk_exprs(s.cond)):
            var = self.fresh("cond")
            self.emit(f"const bool {var} = {cond};")
            self.check_failed(s.cond)
            cond = var
        self.emit(f"{'} else ' if chained else ''}if ({_bare(cond)}) {{")
        self.depth += 1
        self.block(s.then)
        self.depth -= 1
        nested_if = len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If) and not self.debug
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

    def pragma(self, p: LoopPlan, work: str) -> None:
        if p.note:
            self.emit(f"// {p.note}")
        if p.pragma == "parallel":
            self.emit(f"#pragma omp parallel for schedule(static) if({work} >= {PARALLEL_MIN_WORK})")
        elif p.pragma == "simd":
            self.emit("#pragma omp simd")

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
        if s.kind == "grid":
            self._grid_loops[s.var] = s
            shape = s.grid_shape
            if shape is not None and shape.dims is not None:
                extents = [self.bound(d, "extent") for d in shape.dims]
            else:
                extents = self.grid_extents(s)
            work = " * ".join(extents) or "1"
            self.pragma(p, " * ".join([work] + [self.trip(n) for n in p.nested]))
            opened = 0
            for k, ext in enumerate(extents):
                v = self.grid_component(s.var, k)
                self.emit(f"for (int64_t {v} = 0; {v} < {ext}; ++{v}) {{")
                self.depth += 1
                opened += 1
            self.declare_scalars(s.decls)
            self.block(s.body)
            for _ in range(opened):
                self.depth -= 1
                self.emit("}")
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
        if self.debug and isinstance(s.start, ir.Expr) and any(isinstance(x, ir.Load) for x in ir.walk_exprs(s.start)):
            start = self.bound(s.start, f"{v}_start")  # type: ignore[arg-type]
        stores = streamable(s, self.t, self.debug)
        if stores:
            self.streaming(s, p, stores, start, stop)
            self.emit("} else {")
            self.depth += 1
        self.pragma(p, " * ".join([self.trip(s)] + [self.trip(n) for n in p.nested]))
        self.emit(f"for (int64_t {v} = {start}; {cond}; {inc}) {{")
        self.depth += 1
        self.declare_scalars(s.decls)
        self.block(s.body)
        self.depth -= 1
        self.emit("}")
        if stores:
            self.depth -= 1
            self.emit("}")

    def streaming(self, s: ir.For, p: LoopPlan, stores: list[ir.Store], start: str, stop: str) -> None:
        """Open ``if (large contiguous) {`` and emit the non-temporal version of loop ``s``."""
        v = self.cname(s.var)
        dtype = self.t.tensors[stores[0].tensor].dtype
        width = 8 if dtype == "float32" else 4
        size = 4 if dtype == "float32" else 8
        names = ", ".join(st.tensor for st in stores)
        span = stop if start == "0" else f"({stop} - {start})"
        self.emit(f"if (kContig && {span} * {size} >= mskh::kStreamMinBytes) {{")
        self.depth += 1
        self.emit(f"// streaming stores: {names} written once and not read here, bypassing the cache")
        self.emit(f"int64_t {v} = {start};")
        first = self.access(stores[0], self.ex.indices(stores[0]))
        self.quiet = True
        self.emit(f"for (; {v} < {stop} && !mskh::aligned(&{first}); ++{v}) {{")
        self.depth += 1
        self.block(s.body)
        self.depth -= 1
        self.emit("}")
        others = [f"mskh::aligned(&{self.access(st, self.ex.indices(st))})" for st in stores[1:]]
        if others:
            self.emit(f"if ({' && '.join(others)}) {{")
            self.depth += 1
        begin, end = self.fresh(f"{v}_vec_begin"), self.fresh(f"{v}_vec_end")
        self.emit(f"const int64_t {begin} = {v};")
        self.emit(f"const int64_t {end} = {v} + ({stop} - {v}) / {width} * {width};")
        self.pragma(LoopPlan(p.pragma if p.pragma == "parallel" else None), f"({end} - {begin})")
        self.emit(f"for (int64_t {v} = {begin}; {v} < {end}; {v} += {width}) {{")
        vec = VectorEmitter(self.t, dtype, self.ex.as_type, lambda e: "&" + self.access(e, self.ex.indices(e)))
        for st in stores:
            self.emit(f"  mskh::stream(&{self.access(st, self.ex.indices(st))}, {_bare(vec.emit(st.value))});")
        self.emit("}")
        self.emit(f"{v} = {end};")
        if others:
            self.depth -= 1
            self.emit("}")
        self.emit(f"for (; {v} < {stop}; ++{v}) {{")
        self.depth += 1
        self.block(s.body)
        self.depth -= 1
        self.emit("}")
        self.quiet = False
        self.emit("mskh::fence();")
        self.depth -= 1

    # ------------------------------------------------------------------ the file
    def run(self) -> Generated:
        self._grid_loops: dict[str, ir.For] = {
            s.var: s for s in ir.walk_stmts(self.k.body) if isinstance(s, ir.For) and s.kind == "grid"}
        arrays = self.prologue()
        if self.k.decls:
            self.emit("// scalar variables")
        self.declare_scalars(self.k.decls)
        self.block(self.k.body)
        self.emit("return mskh::kOk;")
        body = self.lines
        sig = ", ".join(f"{n}: {self.t.tensors[n].dtype}[rank {self.t.tensors[n].rank}]" for n in arrays)
        attrs = ", ".join(f"{n}: {t}" for n, (_, t) in self.t.attrs.items()) or "none"
        impl = f"{self.cname(self.k.name)}_impl"
        head = [
            f"// Hybrid kernel '{self.k.name}' from {self.k.filename} (def at line {self.k.def_line}),",
            f"// generated by mskernel.hybrid{' in DEBUG mode (bounds-checked)' if self.debug else ''}.",
            f"// arrays: {sig}; attributes: {attrs}",
            "// t_nK is the extent of dimension K of tensor t, t_sK its stride in elements.",
            '#include "hybrid_runtime.h"',
            "",
            "template <bool kContig>",
            f"static int {impl}(void* const* data, const int64_t* shape, const int64_t* stride,",
            f"{' ' * (len(impl) + 12)}const mskh::Attr* attr, int64_t* err) {{",
        ]
        entry = "(void* const* data, const int64_t* shape, const int64_t* stride, const mskh::Attr* attr, int64_t* err)"
        tail = [
            "}",
            "",
            f'extern "C" int mskh_kernel_contig{entry} {{',
            f"  return {impl}<true>(data, shape, stride, attr, err);",
            "}",
            f'extern "C" int mskh_kernel_strided{entry} {{',
            f"  return {impl}<false>(data, shape, stride, attr, err);",
            "}",
            "",
        ]
        openmp = any(p.pragma == "parallel" for p in self.plans.values())
        return Generated("\n".join(head + body + tail), arrays, openmp, self.sites)


def _bare(code: str) -> str:
    """``code`` without one pair of parentheses enclosing all of it."""
    if not (code.startswith("(") and code.endswith(")")):
        return code
    depth = 0
    for i, ch in enumerate(code):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(code) - 1:
            return code
    return code[1:-1]


def generate(typed: Typed, debug: bool = False) -> Generated:
    """C++ for one specialized kernel (``debug``: every tensor access is bounds-checked).

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.check import specialize, Signature
        >>> k = parse(KernelSource.from_text("def cp(x):\\n    return x\\n"))
        >>> generate(specialize(k, Signature(("int32",), (2,)))).arrays
        ['x']
    """
    return _Gen(typed, debug).run()
