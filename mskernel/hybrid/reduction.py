"""Declared reductions: a ``reduce`` loop whose accumulations may be reassociated, and how it is compiled.

A ``range`` loop runs its iterations in order, so ``s = s + x[i]`` there is the serial chain the
Python emulation computes, bit for bit. Writing the loop as ``reduce`` declares the accumulation a
reduction: the compiled kernel may then combine the terms in another order. It does so for an
innermost ``reduce`` loop (constant step) whose body accumulates into one or more *accumulators* --
a scalar declared outside the loop, or one tensor element whose indices do not change in the loop:

* ``s = s + e``, ``s = e + s``, ``s = s - e`` (a sum), ``s = s * e``, ``s = e * s`` (a product),
  ``m = max(m, e)``, ``m = min(m, e)`` (the accumulator first), and the same into ``y[i, k]`` or
  with ``+=``/``-=``/``*=``; under an ``if`` too, several times per iteration with one operator;
* the accumulator appears nowhere else in the loop, and everything else in the body is independent
  between iterations (scalars declared in the loop; tensors written at the loop variable's index,
  as a ``vectorize`` loop requires -- :func:`mskernel.hybrid.independence.independence`).

What the compiled loop does (:func:`emit`; the loop's comment in the generated C++ says which):

* **integer** sums, products, max and min: ``#pragma omp simd reduction(...)``: SIMD lanes combined
  at the end. Integer arithmetic wraps and is associative, so the result is exactly the serial one.
* **float max/min**: the same lanes, starting from -inf (+inf) and folded into the accumulator with
  Python's ``max(m, ...)`` at the end; exact: NaN behaves as in the serial loop (an accumulator that
  is NaN stays NaN, a NaN term is skipped), and when the result is a zero the loop runs again in
  order for the sign of zero the serial loop gives. (Only for a body that writes no tensor.)
* **float sums**: blocks of :data:`REDUCE_BLOCK` iterations, each summed over SIMD lanes, the block
  sums added pairwise (:cpp:`mskh::PairwiseSum`) and then to the accumulator. The rounding differs
  from the serial chain's: any order of summing n terms is within ``(n - 1) * u * sum(|terms|)`` of
  the exact sum (u = 2**-24 for float32, 2**-53 for float64) and this order is much closer than the
  serial one (about ``(REDUCE_BLOCK / lanes + lanes + log2(blocks)) * u * sum(|terms|)``). An
  intermediate overflow can differ (``[big, big, -big]``), and a sum that is exactly zero may be +0.0
  where the serial order gives -0.0.
* **float products**: SIMD lanes (the relative error bound of a product does not depend on the
  order); intermediate overflow or underflow can differ.
* float16 accumulators (rounded to half precision at every step) stay serial.
* a loop of few iterations runs in order (below 32 for float sums and products, 16 otherwise:
  :func:`min_trip`, where the set-up stops paying), and a loop nest whose reduce loops are all that
  short is emitted as written, in order (:func:`block`), so short reduce loops in hot nests (a 3x3
  window) cost nothing.

The Python emulation and a MindSpore export are unchanged (the emulation runs every loop in order);
debug builds and the checked build (:mod:`mskernel.hybrid.checked_codegen`) keep the serial order.

Example:
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.source import KernelSource
    >>> k = parse(KernelSource.from_text(
    ...     "def rowsum(x):\\n    y = output_tensor((x.shape[0],), x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        for j in reduce(x.shape[1]):\\n"
    ...     "            y[i] = y[i] + x[i, j]\\n    return y\\n"))
    >>> r = analyze(k.body[1].body[0])
    >>> [(a.text, a.op) for a in r.accumulators]
    [('y[i]', '+')]
    >>> analyze(k.body[1])   # the outer loop is a range loop
    'not a reduce loop'
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Optional, Union

from . import ir
from .dtypes import compute_ctype, ctype, is_float, is_int
from .independence import independence

if TYPE_CHECKING:
    from .check import Typed

#: the code generator (``codegen._Gen``) these emitters write through; not imported, even for typing:
#: codegen imports this module
Generator = Any

__all__ = ["Accumulator", "Reduction", "analyze", "problem", "held_elements", "note", "min_trip", "block", "emit",
           "REDUCE_BLOCK", "REDUCE_MIN_TRIP", "REDUCE_MIN_TRIP_FLOAT"]

#: iterations per block of a float sum: each block is summed over SIMD lanes, the block sums pairwise. With 16
#: lanes (AVX-512, float32) a lane adds 64 terms per block; larger blocks were no faster (measured on a 4M sum).
REDUCE_BLOCK = 1024

#: the fewest iterations run reassociated (see :func:`min_trip`): float sums and products, and the rest
REDUCE_MIN_TRIP_FLOAT = 32
REDUCE_MIN_TRIP = 16

_OPS = {"+": "+", "-": "+", "*": "*"}  # statement operator -> reduction operator


@dataclass
class Accumulator:
    """One accumulator of a reduce loop: a scalar ``name`` or the element ``store`` of tensor ``name``.

    ``op`` is the reduction's operator ("+", "*", "max" or "min"), ``stmts`` the accumulation
    statements, ``operands`` the accumulator's reads in them (the ``s`` of ``s + e``).

    Example:
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.source import KernelSource
        >>> k = parse(KernelSource.from_text("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n    p = 1.0\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        p *= x[i]\\n    y[0] = p\\n    return y\\n"))
        >>> [acc] = analyze(k.body[2]).accumulators
        >>> acc.name, acc.op, acc.element, len(acc.stmts)
        ('p', '*', False, 1)
    """

    name: str
    op: str
    stmts: list[Union[ir.Assign, ir.Store]] = field(default_factory=list)
    operands: list[ir.Expr] = field(default_factory=list)
    store: Optional[ir.Store] = None
    text: str = ""

    @property
    def element(self) -> bool:
        """True for a tensor element (``y[i] = y[i] + ...``), False for a scalar."""
        return self.store is not None


@dataclass
class Reduction:
    """The accumulators of a reduce loop that may be reassociated (see the module docstring).

    Example:
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.source import KernelSource
        >>> k = parse(KernelSource.from_text("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n    s = 0.0\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n        s = s + x[i]\\n"
        ...     "    y[0] = s\\n    return y\\n"))
        >>> r = analyze(k.body[2])
        >>> [a.text for a in r.accumulators], r.pure()
        (['s'], False)
    """

    loop: ir.For
    accumulators: list[Accumulator]

    def pure(self) -> bool:
        """True if the body writes no tensor but the accumulators' elements (then it can run twice)."""
        own = {id(a.store) for a in self.accumulators if a.store is not None}
        own |= {id(s) for a in self.accumulators for s in a.stmts}
        return not any(isinstance(s, ir.Store) and id(s) not in own for s in ir.walk_stmts(self.loop.body))


def _same(a: Any, b: Any) -> bool:
    """Structural equality of two IR expressions (locations ignored)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if not hasattr(a, "__dataclass_fields__"):
        return bool(a == b)
    return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a) if f.name != "loc")


def _text(e: ir.Expr) -> str:
    """Short source-like text of an index expression, for notes."""
    if isinstance(e, ir.Const):
        return repr(e.value)
    if isinstance(e, (ir.Var, ir.Param)):
        return e.name
    if isinstance(e, ir.ShapeDim):
        return f"{e.tensor}.shape[{e.dim}]"
    if isinstance(e, ir.GridComponent):
        return f"{e.var}[{e.index}]"
    if isinstance(e, ir.BinOp):
        return f"{_text(e.left)} {e.op} {_text(e.right)}"
    return "..."


def _split(value: ir.Expr, is_acc) -> Optional[tuple[str, ir.Expr, ir.Expr]]:
    """(reduction operator, accumulator operand, other operand) if ``value`` accumulates, else None."""
    if isinstance(value, ir.BinOp) and value.op in _OPS:
        if is_acc(value.left):
            return _OPS[value.op], value.left, value.right
        if value.op != "-" and is_acc(value.right):
            return _OPS[value.op], value.right, value.left
    if isinstance(value, ir.Call) and value.func in ("max", "min") and len(value.args) == 2 and is_acc(value.args[0]):
        return value.func, value.args[0], value.args[1]
    return None


def _names(e: ir.Expr) -> set[str]:
    return {x.name for x in ir.walk_exprs(e) if isinstance(x, ir.Var)} | \
        {x.var for x in ir.walk_exprs(e) if isinstance(x, ir.GridComponent)}


def analyze(loop: ir.For) -> Union[Reduction, str]:
    """The :class:`Reduction` of ``loop``, or why it runs in order (a reason that completes "serial because ...").

    Example:
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.source import KernelSource
        >>> k = parse(KernelSource.from_text(
        ...     "def f(x):\\n    y = output_tensor((x.shape[0],), x.dtype)\\n    s = 0.0\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        s = s + x[i]\\n        y[i] = s\\n    return y\\n"))
        >>> analyze(k.body[2])
        'the loop reads its accumulator s outside the accumulation (line 6)'
    """
    if loop.kind != "reduce":
        return "not a reduce loop"
    if not isinstance(loop.step, ir.Const):
        return "its step is not a constant"
    if any(isinstance(s, (ir.For, ir.Alloc)) for s in ir.walk_stmts(loop.body)):
        inner = next(s for s in ir.walk_stmts(loop.body) if isinstance(s, (ir.For, ir.Alloc)))
        return ("it contains a loop (only an innermost reduce loop is reassociated)" if isinstance(inner, ir.For)
                else f"it allocates {inner.name} (line {inner.loc[0]})")
    private = set(loop.decls) | {loop.var}
    assigned = {s.name for s in ir.walk_stmts(loop.body) if isinstance(s, ir.Assign)}
    accs: dict[str, Accumulator] = {}
    for s in ir.walk_stmts(loop.body):
        if isinstance(s, ir.Assign) and s.name not in private:
            parts = _split(s.value, lambda e, n=s.name: isinstance(e, ir.Var) and e.name == n)
            v = s.value
            if parts is None and isinstance(v, ir.Call) and v.func in ("max", "min") and len(v.args) == 2 and \
                    isinstance(v.args[1], ir.Var) and v.args[1].name == s.name:
                return f"{v.func}(..., {s.name}) puts the accumulator second (line {s.loc[0]}): with a NaN, " \
                       f"Python's {v.func} depends on the order of its arguments; write {v.func}({s.name}, ...)"
            if parts is None:
                return f"it assigns {s.name}, declared outside the loop, other than by accumulating into it " \
                       f"(line {s.loc[0]})"
            acc = accs.setdefault(s.name, Accumulator(s.name, parts[0], text=s.name))
        elif isinstance(s, ir.Store) and s.grid is None and \
                (parts := _split(s.value, lambda e, st=s: isinstance(e, ir.Load) and e.tensor == st.tensor
                                 and e.grid is None and _same(e.indices, st.indices))) is not None:
            bad = [n for i in s.indices for n in _names(i) if n in private or n in assigned]
            if bad or any(isinstance(x, ir.Load) for i in s.indices for x in ir.walk_exprs(i)):
                continue  # not a fixed element: an ordinary store (the independence test decides)
            acc = accs.setdefault(s.tensor, Accumulator(
                s.tensor, parts[0], store=s, text=f"{s.tensor}[{', '.join(_text(i) for i in s.indices)}]"))
            if acc.store is None or not _same(acc.store.indices, s.indices):
                return f"it accumulates into {s.tensor} at two places (line {s.loc[0]})"
        else:
            continue
        if parts[0] != acc.op:
            return f"it accumulates into {acc.text} with both {acc.op} and {parts[0]} (line {s.loc[0]})"
        acc.stmts.append(s)
        acc.operands.append(parts[1])
    if not accs:
        return "it accumulates into nothing declared outside it"
    operands = {id(e) for a in accs.values() for e in a.operands}
    for s in ir.walk_stmts(loop.body):
        for root in ir.stmt_exprs(s):
            for e in ir.walk_exprs(root):
                if id(e) in operands:
                    continue
                if (isinstance(e, ir.Var) and e.name in accs and not accs[e.name].element) or \
                        (isinstance(e, ir.Load) and e.tensor in accs and accs[e.tensor].element):
                    return f"the loop reads its accumulator {accs[getattr(e, 'name', None) or e.tensor].text} " \
                           f"outside the accumulation (line {e.loc[0]})"
        if isinstance(s, ir.Store) and s.tensor in accs and s not in accs[s.tensor].stmts:
            return f"it writes {s.tensor} other than by accumulating (line {s.loc[0]})"
    own = {id(s) for a in accs.values() for s in a.stmts}
    reason = independence(replace(loop, body=_without(loop.body, own)))
    if reason is not None:
        return reason
    return Reduction(loop, list(accs.values()))


def _without(stmts: list[ir.Stmt], drop: set[int]) -> list[ir.Stmt]:
    out: list[ir.Stmt] = []
    for s in stmts:
        if id(s) in drop:
            continue
        if isinstance(s, ir.If):
            s = replace(s, then=_without(s.then, drop), orelse=_without(s.orelse, drop))
        out.append(s)
    return out


# ---------------------------------------------------------------------- code generation
def _type(typed: "Typed", a: Accumulator) -> str:
    return typed.tensors[a.name].dtype if a.element else typed.var_types[a.name]


def _dtype(gen: Generator, a: Accumulator) -> str:
    return _type(gen.t, a)


def problem(typed: "Typed", r: Reduction) -> Optional[str]:
    """Why the accumulators of ``r`` stay serial for this signature (their types), or None.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n    s = 0.0\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        s = s + x[i]\\n    y[0] = s\\n    return y\\n")
        >>> r = analyze(hk.ir.body[2])
        >>> problem(hk.specialize(hk.signature(["float16"], [1])), r)
        'the float16 accumulator s is rounded to half precision at every step'
        >>> problem(hk.specialize(hk.signature(["float32"], [1])), r) is None
        True
    """
    for a in r.accumulators:
        t = _type(typed, a)
        if t == "float16":
            return f"the float16 accumulator {a.text} is rounded to half precision at every step"
        if not (is_float(t) or is_int(t)):
            return f"the accumulator {a.text} is {t}"
        for s in a.stmts:
            if compute_ctype(typed.type_of(s.value)) != compute_ctype(t):
                return f"the accumulation at line {s.loc[0]} computes in {typed.type_of(s.value)}, " \
                       f"the accumulator {a.text} is {t}"
    if any(a.op in ("max", "min") and is_float(_type(typed, a)) for a in r.accumulators) and not r.pure():
        return "a float max/min is exact here only in a loop that writes no tensor (it may run twice)"
    return None


def held_elements(typed: "Typed", loop: ir.For) -> list[Accumulator]:
    """The tensor elements a compiled (non-debug) reduce loop keeps in locals: read once before the loop and
    written once after it, not at every iteration. (What :mod:`mskernel.bench.counts` counts.)

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        y[0] += x[i]\\n    return y\\n", warn=False)
        >>> [a.text for a in held_elements(hk.specialize(hk.signature(["float32"], [1])), hk.ir.body[1])]
        ['y[0]']
    """
    r = analyze(loop)
    if not isinstance(r, Reduction) or problem(typed, r) is not None:
        return []
    return [a for a in r.accumulators if a.element]


def note(gen: Generator, r: Reduction) -> str:
    """The comment on the compiled loop (lines): what was reassociated, and how.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> from mskernel.hybrid.codegen import generate
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n    m = x[0]\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        m = max(m, x[i])\\n    y[0] = m\\n    return y\\n")
        >>> src = generate(hk.specialize(hk.signature(["float32"], [1]))).source
        >>> print("\\n".join(ln.strip() for ln in src.splitlines() if ln.strip().startswith(("// reduce:", "//   "))))
        // reduce: #pragma omp simd reduction from 16 iterations (fewer run in order):
        //   m = max(m, ...) in SIMD lanes, exact (NaN, signed zero as in order)
    """
    parts = []
    for a in r.accumulators:
        t = _dtype(gen, a)
        ops = "/".join(dict.fromkeys(getattr(x.value, "op", a.op) for x in a.stmts))  # "-" shows as "-"
        form = f"{a.op}({a.text}, ...)" if a.op in ("max", "min") else f"{a.text} {ops} ..."
        where = f", {a.text} kept in a local" if a.element else ""
        if a.op in ("max", "min"):
            how = "in SIMD lanes, exact" + (" (NaN, signed zero as in order)" if is_float(t) else "")
        elif not is_float(t):
            how = "in SIMD lanes, exact (integers)"
        elif a.op == "+":
            how = f"reassociated: blocks of {REDUCE_BLOCK} iterations in SIMD lanes, block sums added pairwise"
        else:
            how = "reassociated in SIMD lanes"
        parts.append(f"{a.text} = {form} {how}{where}")
    head = f"reduce: #pragma omp simd reduction from {min_trip(gen.t, r)} iterations (fewer run in order):"
    return "\n".join([head] + [f"  {p}" for p in parts])


def _identity(op: str, t: str) -> str:
    c = ctype(t)
    if op == "+":
        return ("-0.0f" if c == "float" else "-0.0") if is_float(t) else f"{c}(0)"
    if op == "*":
        return f"{c}(1)"
    return f"mskh::lowest<{c}>()" if op == "max" else f"mskh::highest<{c}>()"


def _combine(op: str, t: str, cur: str, part: str) -> str:
    c = ctype(t)
    if op in ("max", "min"):
        return f"mskh::py{op}<{c}>({cur}, {part})"
    code = f"{cur} {op} {part}"
    return f"({c})({code})" if c in ("bool", "int8_t", "int16_t", "uint8_t", "uint16_t") else code


def min_trip(typed: "Typed", r: Reduction) -> int:
    """The fewest iterations for which a reduce loop runs reassociated: below, the set-up (lanes, blocks, the
    final combination) costs more than it saves and the loop runs in order. Measured on a 2-core EPYC
    (AVX-512): float32 sum loops break even at 24-32 iterations, max loops at 12-16.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n    m = x[0]\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        m = max(m, x[i])\\n    y[0] = m\\n    return y\\n")
        >>> min_trip(hk.specialize(hk.signature(["float32"], [1])), analyze(hk.ir.body[2]))
        16
    """
    blocked = any(a.op in ("+", "*") and is_float(_type(typed, a)) for a in r.accumulators)
    return REDUCE_MIN_TRIP_FLOAT if blocked else REDUCE_MIN_TRIP


def _serial(gen: Generator, s: ir.For, v: str, start: str, stop: str, cmp: str, inc: str) -> None:
    """Loop ``s`` in order, accumulating straight into its accumulators."""
    gen.emit(f"for (int64_t {v} = {start}; {v} {cmp} {stop}; {inc}) {{")
    gen.depth += 1
    gen.loop_body(s, False)
    gen.depth -= 1
    gen.emit("}")


_INVARIANT = (ir.Const, ir.Param, ir.ShapeDim, ir.Rank, ir.BinOp, ir.UnaryOp)


def block(gen: Generator, s: ir.Stmt) -> None:
    """Emit top-level statement ``s`` (a loop nest, bounds proved); when reduce loops to reassociate sit inside
    other loops with trip counts that do not change in the nest, emit it twice: as written, in order, when every
    such loop is short (below :func:`min_trip`), and with the reductions otherwise. (A reduction's set-up inside
    a hot loop slows it even when a short loop skips it: a 3x3 convolution written with reduce loops, 1.2x.)

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def mm(a, b):\\n    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)\\n"
        ...     "    for i in range(a.shape[0]):\\n        for j in range(b.shape[1]):\\n            s = 0.0\\n"
        ...     "            for k in reduce(a.shape[1]):\\n                s = s + a[i, k] * b[k, j]\\n"
        ...     "            c[i, j] = s\\n    return c\\n")
        >>> print(next(ln.strip() for ln in hk.source(["float32"] * 2, [2, 2]).splitlines() if "a_n1 < 32" in ln))
        if (a_n1 < 32) {  // every reduce loop in this nest is short: the nest as written, in order
    """
    loops = [x for x in ir.walk_stmts([s]) if isinstance(x, ir.For) and x is not s
             and gen.plans[id(x)].reduction is not None and problem(gen.t, gen.plans[id(x)].reduction) is None]
    bounds = [e for x in loops for e in (x.start, x.stop)]
    if gen.checking or not loops or not all(isinstance(y, _INVARIANT) for e in bounds for y in ir.walk_exprs(e)) \
            or all(gen.keeps_order(x) for x in loops):  # (every loop checks its accesses: all stay in order)
        gen.block([s])
        return
    short = []
    for x in loops:
        start, stop, step = gen.ex.index(x.start), gen.ex.index(x.stop), int(x.step.value)  # type: ignore[arg-type,union-attr]
        trip = stop if (start == "0" and step == 1) else f"mskh::trip({start}, {stop}, {step})"
        short.append(f"{trip} < {min_trip(gen.t, gen.plans[id(x)].reduction)}")  # type: ignore[arg-type]
    gen.emit(f"if ({' && '.join(dict.fromkeys(short))}) {{  // every reduce loop in this nest is short: "
             "the nest as written, in order")
    gen.depth += 1
    saved = [(gen.plans[id(x)], gen.plans[id(x)].reduction, gen.plans[id(x)].note) for x in loops]
    for p, _, _ in saved:
        p.reduction, p.note = None, "reduce: in order (few iterations)"
    gen.block([s])
    for p, r, text in saved:
        p.reduction, p.note = r, text
    gen.depth -= 1
    gen.emit("} else {")
    gen.depth += 1
    gen.block([s])
    gen.depth -= 1
    gen.emit("}")


def emit(gen: Generator, s: ir.For, r: Reduction) -> Optional[str]:
    """Emit reduce loop ``s`` reassociated as ``r`` allows (the caller has emitted its line comment); or emit
    nothing and return why it must run in order for this signature.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor((1,), x.dtype)\\n    s = 0\\n"
        ...     "    for i in reduce(x.shape[0]):\\n        s = s + x[i]\\n    y[0] = s\\n    return y\\n")
        >>> src = hk.source(["int32"], [1])  # codegen calls emit() for the reduce loop
        >>> print("\\n".join(ln.strip() for ln in src.splitlines() if "s_red" in ln))
        int32_t s_red = int32_t(0);
        #pragma omp simd reduction(+:s_red)
        s_red = s_red + x[i * x_s0];
        s = s + s_red;
        >>> print(hk.source(["float16"], [1]).split("because ")[1].splitlines()[0])
        the float16 accumulator s is rounded to half precision at every step
    """
    why = problem(gen.t, r)
    if why is None and gen.keeps_order(s):
        why = "this copy of the loop checks its accesses one by one"
    if why is not None:
        return why
    v = gen.cname(s.var)
    step = int(s.step.value)  # type: ignore[union-attr]
    start = gen.ex.index(s.start)  # type: ignore[arg-type]
    stop = gen.bound(s.stop, f"{v}_stop")  # type: ignore[arg-type]
    cmp = "<" if step > 0 else ">"
    inc = f"++{v}" if step == 1 else f"{v} += {step}"
    for line in note(gen, r).splitlines():
        gen.emit(f"// {line}")
    accs = r.accumulators
    types = {a.name: _dtype(gen, a) for a in accs}
    cur = {a.name: gen.access(a.store, gen.ex.indices(a.store)) if a.store is not None else gen.cname(a.name)
           for a in accs}
    base = {a.name: f"{gen.cname(a.name)}_acc" if a.element else gen.cname(a.name) for a in accs}
    summed = [a for a in accs if a.op == "+" and is_float(types[a.name])]
    red = {a.name: gen.fresh(f"{base[a.name]}_red") for a in accs}
    pw = {a.name: gen.fresh(f"{base[a.name]}_pw") for a in summed}
    trip = stop if (start == "0" and step == 1) else f"mskh::trip({start}, {stop}, {step})"
    gen.emit(f"if ({trip} < {min_trip(gen.t, r)}) {{  // few iterations: in order (as fast, no set-up)")
    gen.depth += 1
    _serial(gen, s, v, start, stop, cmp, inc)
    gen.depth -= 1
    gen.emit("} else {")  # (so an accumulator element is only touched by a loop that runs)
    gen.depth += 1
    for a in accs:
        c = ctype(types[a.name])
        if a.name in pw:
            gen.emit(f"mskh::PairwiseSum<{c}> {pw[a.name]};")
        else:
            gen.emit(f"{c} {red[a.name]} = {_identity(a.op, types[a.name])};")
    clause = " ".join(f"reduction({op}:{', '.join(red[a.name] for a in accs if a.op == op)})"
                      for op in dict.fromkeys(a.op for a in accs))
    saved = {n: gen.cnames.get(n) for n in types}
    for a in accs:
        if a.element:
            for node in [*a.stmts, *a.operands]:
                gen.aliases[id(node)] = red[a.name]
        else:
            gen.cnames[a.name] = red[a.name]
    if summed:
        blk, end = gen.fresh(f"{v}_blk"), gen.fresh(f"{v}_end")
        span = REDUCE_BLOCK * step
        gen.emit(f"for (int64_t {blk} = {start}; {blk} {cmp} {stop}; {blk} += {span}) {{")
        gen.depth += 1
        gen.emit(f"const int64_t {end} = mskh::block_end({blk}, {stop}, {span});")
        for a in summed:
            gen.emit(f"{ctype(types[a.name])} {red[a.name]} = {_identity('+', types[a.name])};")
        lo, hi = blk, end
    else:
        lo, hi = start, stop
    gen.emit(f"#pragma omp simd {clause}")
    gen.emit(f"for (int64_t {v} = {lo}; {v} {cmp} {hi}; {inc}) {{")
    gen.depth += 1
    gen.loop_body(s, True)
    gen.depth -= 1
    gen.emit("}")
    if summed:
        for a in summed:
            gen.emit(f"{pw[a.name]}.add({red[a.name]});")
        gen.depth -= 1
        gen.emit("}")
    for a in accs:
        for node in [*a.stmts, *a.operands]:
            gen.aliases.pop(id(node), None)
        if saved[a.name] is None:
            gen.cnames.pop(a.name, None)
        else:
            gen.cnames[a.name] = saved[a.name]  # type: ignore[assignment]
    exact = [a for a in accs if a.op in ("max", "min") and is_float(types[a.name])]
    if exact:  # a zero max could be +0.0 or -0.0: run the loop again in order, for the sign the serial loop gives
        cond = " || ".join(f"({red[a.name]} == 0 && {cur[a.name]} {'<' if a.op == 'max' else '>'} {red[a.name]})"
                           for a in exact)
        gen.emit(f"if ({cond}) {{  // the result is a zero: which one is the serial order's")
        gen.depth += 1
        _serial(gen, s, v, start, stop, cmp, inc)
        gen.depth -= 1
        gen.emit("} else {")
        gen.depth += 1
    for a in accs:
        part = f"{pw[a.name]}.total()" if a.name in pw else red[a.name]
        gen.emit(f"{cur[a.name]} = {_combine(a.op, types[a.name], cur[a.name], part)};")
    if exact:
        gen.depth -= 1
        gen.emit("}")
    gen.depth -= 1
    gen.emit("}")
    return None
