"""Proving a loop nest's tensor accesses in bounds once, before the nest runs.

Compiled kernels never read or write outside a tensor, with ``debug=False`` too, at no cost
inside the loops. For every top-level statement that holds a loop, :func:`prove` computes,
by interval arithmetic over the IR, an integer range for each index of each access from the
loop ranges, the branch conditions that guard the access (``if i > 0:``, ``x[i-1] if i else 0``,
``i > 0 and x[i-1] > 0``), the shapes, the attributes and the scalars assigned in the nest. The
result is C++: a few ``const int64_t`` bounds and one condition, "every proved access is in
bounds or never runs". Code generation emits the nest twice: the fast version, where proved
accesses are plain loads and stores, runs when the condition holds; otherwise a checked
version runs, where every access is checked (as in debug mode) and the first one out of
bounds raises ``IndexError`` at its line. The condition is conservative -- it may send a
correct nest to the checked version, never a wrong one to the fast version.

What cannot be bounded this way -- an index read from a tensor (``x[idx[i]]``), a scalar that
depends on itself (``k = k + 1``), a float index cast to int -- is *unproved*: the fast version
checks that access alone, every time it runs.

The interval rules are tables, one line per operator: ``_RULES`` (expression kinds) and
``_BINARY`` (arithmetic); anything else is unproved.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.check import specialize, Signature
    >>> k = parse(KernelSource.from_text("def shift(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(1, x.shape[0]):\\n        y[i] = x[i - 1]\\n    return y\\n"))
    >>> t = specialize(k, Signature(("float32",), (1,)))
    >>> p = prove(t, t.kernel.body[1], lambda e: "<" + type(e).__name__ + ">", lambda n: n, {"x", "y"})
    >>> len(p.proved), len(p.unproved)
    (2, 0)
    >>> print(p.condition)
    bnd_ok
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from . import ir
from .check import Typed
from .dtypes import is_int

__all__ = ["Proof", "prove"]

Interval = tuple[str, str]  # C++ int64 expressions (lo, hi), both inclusive; a bound that overflows int64 sets
#                             bnd_ovf and fails the proof (so no intermediate value of a proved access can wrap)


@dataclass(eq=False)
class _Loop:
    """A range loop's variable: its range comes from the loop header, evaluated in ``env``."""

    loop: ir.For
    env: "Env"


@dataclass(eq=False)
class _Grid:
    """A grid loop's variable (each component ``k`` runs over ``0 .. extent_k - 1``)."""

    loop: ir.For
    env: "Env"


@dataclass(eq=False)
class _Narrow:
    """A loop variable inside a branch taken only when ``var <op> bound`` holds."""

    base: "Binding"
    op: str
    bound: ir.Expr
    env: "Env"


Binding = Union[_Loop, _Grid, _Narrow]
Env = dict[str, Binding]
Access = Union[ir.Load, ir.Store]

_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


@dataclass
class Proof:
    """What :func:`prove` found for one top-level statement.

    ``lines`` compute the bounds (C++ statements, in order) and ``condition`` names the bool that
    holds when every access in ``proved`` (ids of Load/Store nodes) is in bounds or never runs;
    ``unproved`` are the accesses to check one by one.
    """

    lines: list[str] = field(default_factory=list)
    condition: str = "true"
    proved: set[int] = field(default_factory=set)
    unproved: list[Access] = field(default_factory=list)


class _Prover:
    def __init__(self, typed: Typed, emit_index: Callable[[ir.Expr], str], cname: Callable[[str], str],
                 declared: set[str]):
        self.t = typed
        self.emit_index = emit_index
        self.cname = cname
        self.declared = declared
        self.accesses: list[tuple[Access, Env]] = []
        self.assigns: dict[str, list[tuple[ir.Expr, Env]]] = {}
        self.allocs: dict[str, tuple[ir.Alloc, Env]] = {}
        self.lines: list[str] = []
        self.temps: dict[str, str] = {}
        self.memo: dict[tuple[int, int], Optional[Interval]] = {}
        self.resolving: set[str] = set()
        self.counter = itertools.count()
        self.keep: list[Env] = []  # envs referenced by memo keys stay alive

    # ------------------------------------------------------------------ pass 1: accesses and their guards
    def walk(self, stmts: list[ir.Stmt], env: Env) -> None:
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, env)

    def s_Store(self, s: ir.Store, env: Env) -> None:
        for e in [*s.indices, s.value]:
            self.expr(e, env)
        self.accesses.append((s, env))

    def s_Assign(self, s: ir.Assign, env: Env) -> None:
        self.expr(s.value, env)
        self.assigns.setdefault(s.name, []).append((s.value, env))

    def s_Alloc(self, s: ir.Alloc, env: Env) -> None:
        for e in s.shape.dims or []:
            self.expr(e, env)
        self.allocs[s.name] = (s, env)

    def s_If(self, s: ir.If, env: Env) -> None:
        self.expr(s.cond, env)
        self.walk(s.then, self.narrow(env, s.cond, True))
        self.walk(s.orelse, self.narrow(env, s.cond, False))

    def s_For(self, s: ir.For, env: Env) -> None:
        header = [e for e in (s.start, s.stop, s.step) if e is not None]
        header += list(s.grid_shape.dims or []) if s.grid_shape is not None else []
        for e in header:
            self.expr(e, env)
        self.walk(s.body, {**env, s.var: _Grid(s, env) if s.kind == "grid" else _Loop(s, env)})

    def expr(self, e: ir.Expr, env: Env) -> None:
        """Record the loads in ``e``; the branches of ``?:``, ``and``, ``or`` see their guards."""
        if isinstance(e, ir.Load):
            for i in e.indices:
                self.expr(i, env)
            self.accesses.append((e, env))
        elif isinstance(e, ir.Select):
            self.expr(e.cond, env)
            self.expr(e.then, self.narrow(env, e.cond, True))
            self.expr(e.orelse, self.narrow(env, e.cond, False))
        elif isinstance(e, ir.BoolOp):
            for v in e.values:
                self.expr(v, env)
                env = self.narrow(env, v, e.op == "and")
        else:
            for child in ir.operands(e):
                self.expr(child, env)

    def narrow(self, env: Env, cond: ir.Expr, truth: bool) -> Env:
        """``env`` where ``cond`` is known to be ``truth``: loop variables compared with bounds get narrower."""
        if isinstance(cond, ir.UnaryOp) and cond.op == "not":
            return self.narrow(env, cond.operand, not truth)
        if isinstance(cond, ir.BoolOp) and (cond.op == "and") == truth:
            for v in cond.values:
                env = self.narrow(env, v, truth)
            return env
        if isinstance(cond, ir.Compare) and cond.op in _NEGATE:
            op = cond.op if truth else _NEGATE[cond.op]
            for var, other, rel in ((cond.left, cond.right, op), (cond.right, cond.left, _MIRROR[op])):
                if isinstance(var, ir.Var) and isinstance(env.get(var.name), (_Loop, _Narrow)):
                    env = {**env, var.name: _Narrow(env[var.name], rel, other, env)}
        return env

    # ------------------------------------------------------------------ pass 2: intervals, emitted as C++
    def temp(self, text: str) -> str:
        """``text`` as a named C++ bound (literals, names and int arithmetic on literals stay as they are)."""
        folded = _fold(text)
        if folded is not None:
            return folded
        if text.isidentifier():
            return text
        if text not in self.temps:
            name = f"bnd{next(self.counter)}"
            self.lines.append(f"const int64_t {name} = {text};")
            self.temps[text] = name
        return self.temps[text]

    def invariant(self, e: ir.Expr, env: Env) -> bool:
        """True if ``e`` has one value throughout the statement, computable before it runs."""
        for x in ir.walk_exprs(e):
            if isinstance(x, (ir.Load, ir.GridComponent)):
                return False
            if isinstance(x, ir.Var) and (x.name in env or x.name in self.assigns):
                return False
            if isinstance(x, ir.ShapeDim) and x.tensor not in self.declared:
                return False
        return True

    def iv(self, e: ir.Expr, env: Env) -> Optional[Interval]:
        key = (id(e), id(env))
        if key not in self.memo:
            self.keep.append(env)
            self.memo[key] = self._iv(e, env)
        return self.memo[key]

    def _iv(self, e: ir.Expr, env: Env) -> Optional[Interval]:
        t = self.t.types.get(id(e), "")
        if self.invariant(e, env):
            if not (is_int(t) or t == "bool"):
                return None
            v = self.temp(self.emit_index(e))
            return v, v
        rule = _RULES.get(type(e))
        return rule(self, e, env) if rule is not None and t in ("int", "int64") else None

    def var(self, e: ir.Var, env: Env) -> Optional[Interval]:
        b = env.get(e.name)
        return self.binding(b) if b is not None else self.scalar(e.name)

    def scalar(self, name: str) -> Optional[Interval]:
        """A scalar assigned in the statement: its value on entry (or 0) or any value assigned to it."""
        if name in self.resolving or self.t.var_types.get(name) not in ("int", "int64"):
            return None  # it depends on itself (k = k + 1), or is not an int64
        self.resolving.add(name)
        try:
            start = self.cname(name) if name in self.t.kernel.decls else "0"
            parts: list[Optional[Interval]] = [(start, start)]
            parts += [self.iv(value, env) for value, env in self.assigns[name]]
        finally:
            self.resolving.discard(name)
        return self.union(parts)

    def union(self, parts: list[Optional[Interval]]) -> Optional[Interval]:
        if any(p is None for p in parts):
            return None
        lo, hi = parts[0]  # type: ignore[misc]
        for p in parts[1:]:
            lo, hi = self.temp(f"mskh::pymin<int64_t>({lo}, {p[0]})"), self.temp(f"mskh::pymax<int64_t>({hi}, {p[1]})")  # type: ignore[index]
        return lo, hi

    def binding(self, b: Binding) -> Optional[Interval]:
        key = (id(b), 0)
        if key not in self.memo:
            self.memo[key] = getattr(self, "b" + type(b).__name__)(b)
        return self.memo[key]

    def b_Loop(self, b: _Loop) -> Optional[Interval]:
        loop = b.loop
        start, stop = self.iv(loop.start, b.env), self.iv(loop.stop, b.env)  # type: ignore[arg-type]
        if start is None or stop is None:
            return None
        if isinstance(loop.step, ir.Const):
            if int(loop.step.value) > 0:
                return start[0], self.plus(stop[1], -1)
            if int(loop.step.value) < 0:
                return self.plus(stop[0], 1), start[1]
            return None
        return self.union([start, (self.plus(stop[0], 1), self.plus(stop[1], -1))])

    def b_Narrow(self, b: _Narrow) -> Optional[Interval]:
        base, bound = self.binding(b.base), self.iv(b.bound, b.env)
        if base is None or bound is None:
            return base
        lo, hi = base
        if b.op in (">", ">=", "=="):
            lo = self.temp(f"mskh::pymax<int64_t>({lo}, {self.plus(bound[0], 1 if b.op == '>' else 0)})")
        if b.op in ("<", "<=", "=="):
            hi = self.temp(f"mskh::pymin<int64_t>({hi}, {self.plus(bound[1], -1 if b.op == '<' else 0)})")
        return lo, hi

    def b_Grid(self, b: _Grid) -> Optional[Interval]:
        return None  # a grid variable is used through its components

    def grid_component(self, e: ir.GridComponent, env: Env) -> Optional[Interval]:
        b = env.get(e.var)
        if not isinstance(b, _Grid):
            return None
        hi = self.grid_extent_hi(b, e.index % self.t.grid_ranks[e.var])
        return None if hi is None else ("0", self.plus(hi, -1))

    def grid_extent_hi(self, b: _Grid, k: int) -> Optional[str]:
        shape = b.loop.grid_shape
        if shape is None:
            return None
        if shape.of is not None:
            return self.extent(shape.of, k, high=True)
        r = self.iv(shape.dims[k], b.env) if shape.dims else None
        return None if r is None else r[1]

    def extent(self, tensor: str, d: int, high: bool = False) -> Optional[str]:
        """The smallest (or largest) extent ``d`` of ``tensor`` can have while the statement runs."""
        if tensor in self.declared:
            return f"{self.cname(tensor)}_n{d}"
        if tensor not in self.allocs:
            return None
        alloc, env = self.allocs[tensor]
        if alloc.shape.of is not None:
            return self.extent(alloc.shape.of, d, high)
        r = self.iv(alloc.shape.dims[d], env) if alloc.shape.dims else None
        return None if r is None else r[1 if high else 0]

    def shape_dim(self, e: ir.ShapeDim, env: Env) -> Optional[Interval]:
        d = e.dim % self.t.tensors[e.tensor].rank
        lo, hi = self.extent(e.tensor, d), self.extent(e.tensor, d, high=True)
        return None if lo is None or hi is None else (lo, hi)

    def binop(self, e: ir.BinOp, env: Env) -> Optional[Interval]:
        rule = _BINARY.get(e.op)
        a, b = self.iv(e.left, env), self.iv(e.right, env)
        return None if rule is None or a is None or b is None else rule(self, a, b)

    def unary(self, e: ir.UnaryOp, env: Env) -> Optional[Interval]:
        a = self.iv(e.operand, env)
        if a is None or e.op not in ("-", "+"):
            return None
        return a if e.op == "+" else (self.sub(("0", "0"), a))

    def select(self, e: ir.Select, env: Env) -> Optional[Interval]:
        return self.union([self.iv(e.then, self.narrow(env, e.cond, True)),
                           self.iv(e.orelse, self.narrow(env, e.cond, False))])

    def call(self, e: ir.Call, env: Env) -> Optional[Interval]:
        if e.func not in ("max", "min") or not e.args:
            return None
        parts = [self.iv(a, env) for a in e.args]
        if any(p is None for p in parts):
            return None
        f = f"mskh::py{e.func}<int64_t>"
        lo, hi = parts[0]  # type: ignore[misc]
        for p in parts[1:]:
            lo, hi = self.temp(f"{f}({lo}, {p[0]})"), self.temp(f"{f}({hi}, {p[1]})")  # type: ignore[index]
        return lo, hi

    # ------------------------------------------------------------------ binary rules
    def plus(self, x: str, k: int) -> str:
        """``x + k`` for a literal ``k`` (saturating)."""
        return x if k == 0 else self.temp(f"mskh::add_ovf(bnd_ovf, {x}, {k})")

    def add(self, a: Interval, b: Interval) -> Interval:
        lo, hi = f"mskh::add_ovf(bnd_ovf, {a[0]}, {b[0]})", f"mskh::add_ovf(bnd_ovf, {a[1]}, {b[1]})"
        return self.temp(lo), self.temp(hi)

    def sub(self, a: Interval, b: Interval) -> Interval:
        lo, hi = f"mskh::sub_ovf(bnd_ovf, {a[0]}, {b[1]})", f"mskh::sub_ovf(bnd_ovf, {a[1]}, {b[0]})"
        return self.temp(lo), self.temp(hi)

    def mul(self, a: Interval, b: Interval) -> Interval:
        args = f"bnd_ovf, {a[0]}, {a[1]}, {b[0]}, {b[1]}"
        return self.temp(f"mskh::mul_lo({args})"), self.temp(f"mskh::mul_hi({args})")

    def floordiv(self, a: Interval, b: Interval) -> Optional[Interval]:
        if b[0] != b[1]:
            return None  # a divisor that varies in the loop: unproved
        lo, hi = f"mskh::floordiv<int64_t>({a[0]}, {b[0]})", f"mskh::floordiv<int64_t>({a[1]}, {b[0]})"
        return self.temp(f"mskh::pymin<int64_t>({lo}, {hi})"), self.temp(f"mskh::pymax<int64_t>({lo}, {hi})")

    def mod(self, a: Interval, b: Interval) -> Optional[Interval]:
        if b[0] != b[1]:
            return None
        return self.temp(f"mskh::pymin<int64_t>(0, {b[0]} + 1)"), self.temp(f"mskh::pymax<int64_t>(0, {b[0]} - 1)")

    # ------------------------------------------------------------------ one access
    def condition(self, node: Access, env: Env) -> Optional[str]:
        """C++: ``node`` is in bounds or never runs; None if that cannot be bounded before the statement."""
        rank = self.t.tensors[node.tensor].rank
        if rank == 0:
            return "true"  # t[0] of a rank-0 tensor
        if node.grid is not None:
            b = env.get(node.grid)
            comps = [ir.GridComponent(node.loc, node.grid, k) for k in range(self.t.grid_ranks[node.grid])]
            ranges = [self.grid_component(c, env) for c in comps] if isinstance(b, _Grid) else [None]
        else:
            ranges = [self.iv(i, env) for i in node.indices]
        extents = [self.extent(node.tensor, d) for d in range(rank)]
        if any(r is None for r in ranges) or any(x is None for x in extents):
            return None
        tests = []
        for (lo, hi), x in zip(ranges, extents):  # type: ignore[misc]
            if not (lo.isdigit() and int(lo) >= 0):  # (a non-negative literal needs no test)
                tests.append(f"{lo} >= 0")
            tests.append(f"{hi} < {x}")
        inside = " && ".join(tests)
        never = [f"{r[0]} > {r[1]}" for r in (self.binding(b) for b in env.values()) if r is not None]
        return " || ".join(never + [f"({inside})"]) if never else inside

    def run(self, stmt: ir.Stmt) -> Proof:
        self.walk([stmt], {})
        proof = Proof()
        conditions: list[str] = []
        for node, env in self.accesses:
            cond = self.condition(node, env)
            if cond is None:
                proof.unproved.append(node)
            else:
                proof.proved.add(id(node))
                if cond != "true" and cond not in conditions:
                    conditions.append(cond)
        if conditions:
            uses_flag = any("bnd_ovf" in line for line in self.lines)
            first = ["!bnd_ovf"] if uses_flag else []
            self.lines.append("const bool bnd_ok = " + "\n    && ".join(first + [f"({c})" for c in conditions]) + ";")
            if uses_flag:
                self.lines.insert(0, "bool bnd_ovf = false;  // set if a bound overflows int64: then nothing is proved")
            proof.condition = "bnd_ok"
        proof.lines = self.lines
        return proof


def _fold(text: str) -> Optional[str]:
    """``text`` if it is an int literal, or the value of ``mskh::add_ovf/sub_ovf`` of two int literals (when it
    fits in int64); else None."""
    if text.lstrip("-").isdigit():
        return text
    for name, op in (("mskh::add_ovf(bnd_ovf, ", 1), ("mskh::sub_ovf(bnd_ovf, ", -1)):
        if text.startswith(name) and text.endswith(")"):
            args = text[len(name):-1].split(", ")
            if len(args) == 2 and all(a.lstrip("-").isdigit() for a in args):
                value = int(args[0]) + op * int(args[1])
                return str(value) if -(1 << 63) <= value < (1 << 63) else None
    return None


#: interval of an expression kind that is not invariant (invariant ones are their own value)
_RULES: dict[type, Callable[[_Prover, ir.Expr, Env], Optional[Interval]]] = {
    ir.Var: _Prover.var,                       # loop variable (maybe narrowed), or scalar assigned here
    ir.GridComponent: _Prover.grid_component,  # 0 .. extent - 1
    ir.ShapeDim: _Prover.shape_dim,            # extent of a buffer allocated inside the statement
    ir.BinOp: _Prover.binop,                   # _BINARY below
    ir.UnaryOp: _Prover.unary,                 # -x, +x
    ir.Select: _Prover.select,                 # a if c else b: either branch, each under its guard
    ir.Call: _Prover.call,                     # max/min
}

#: interval of ``a <op> b`` from the intervals of a and b
_BINARY: dict[str, Callable[[_Prover, Interval, Interval], Optional[Interval]]] = {
    "+": _Prover.add,
    "-": _Prover.sub,
    "*": _Prover.mul,
    "//": _Prover.floordiv,  # by a divisor invariant in the statement
    "%": _Prover.mod,        # by a divisor invariant in the statement: 0 .. d-1 (d+1 .. 0 if d < 0)
}


def prove(typed: Typed, stmt: ir.Stmt, emit_index: Callable[[ir.Expr], str], cname: Callable[[str], str],
          declared: set[str]) -> Proof:
    """Bounds for the accesses of top-level statement ``stmt``, computed before it runs.

    ``emit_index`` renders an expression as a C++ int64 (codegen's), ``cname`` maps DSL names to
    C++ names, ``declared`` names the tensors whose extents are in scope before ``stmt``.
    """
    return _Prover(typed, emit_index, cname, declared).run(stmt)
