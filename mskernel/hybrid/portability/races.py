"""Races in ``parallel``/``vectorize`` loops, reported only with a witness.

For each parallel loop, every pair of accesses to one tensor (one of them a write) is searched for a
witness: two different iterations, and values of the loops around and inside them, for which both
accesses run and hit the same element. Indices are integer affine forms over the loop variables
(solved exactly where an equation pins a variable, searched in a small window otherwise); conditions
are evaluated for the witness; what cannot be decided stays silent.

Example:
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.source import KernelSource
    >>> src = ("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...        "    for i in parallel(x.shape[0] - 1):\\n        y[i] = x[i]\\n"
    ...        "        y[i + 1] = x[i]\\n    return y\\n")
    >>> [(i.kind, i.tensor, i.line) for i in races(parse(KernelSource.from_text(src)))]
    [('race', 'y', 4)]
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, Iterator, Optional, Union

from .. import ir
from ..intrinsics import PARALLEL_KINDS
from .issue import ADVICE, Access, PortabilityIssue, subscript_text

__all__ = ["races"]

_WINDOW = 5          # counter values a witness search tries for each loop not pinned by an equation
_BUDGET = 20000      # assignments tried per pair of accesses before giving up (silently)


# ---------------------------------------------------------------------------------------------- affine forms
Lin = dict  # {key: int coefficient}; key 1 is the constant, ("f", text) a free size, ("s", text) a value
# the same in both iterations, ("v", loop id, component, copy) a loop variable, ("c", ...) its counter


def _plus(a: Lin, b: Lin, sign: int = 1) -> Lin:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + sign * v
        if out[k] == 0:
            del out[k]
    return out


def _times(a: Lin, c: int) -> Lin:
    return {k: v * c for k, v in a.items()} if c else {}


def _structure(e: object) -> object:
    """A hashable form of an expression ignoring locations: equal forms mean the same value."""
    if isinstance(e, list):
        return tuple(_structure(x) for x in e)
    if not hasattr(e, "__dataclass_fields__"):
        return e
    return (type(e).__name__,) + tuple(_structure(getattr(e, f.name)) for f in fields(e) if f.name != "loc")


# ---------------------------------------------------------------------------------------------- accesses
@dataclass
class _Use:
    """An access inside the parallel loop, with what decides whether and where it runs."""

    access: Access
    indices: Optional[list[ir.Expr]]      # None: a grid variable as the whole index (not solved)
    path: list[ir.For]                    # loops between the parallel loop and the access
    guards: list[tuple[object, ir.Expr, bool]]  # (the branching node, condition, the value it must have)


class _Scope:
    """How names resolve for one of the two iterations (``copy`` 1 or 2) at one access."""

    def __init__(self, race: "_Race", copy: int, path: list[ir.For]):
        self.race = race
        self.copy = copy
        self.loops: dict[str, tuple[ir.For, int]] = {}
        for loop in race.outer + [race.loop] + path:
            if loop.kind == "grid" and loop.grid_names:
                for k, n in enumerate(loop.grid_names):
                    self.loops[n] = (loop, k)
            self.loops[loop.var] = (loop, 0)

    def key(self, loop: ir.For, comp: int) -> tuple:
        shared = any(loop is o for o in self.race.outer)
        return ("v", id(loop), comp, 0 if shared else self.copy)


class _Race:
    """The race analysis of one ``parallel``/``vectorize`` loop (one visitor method per construct)."""

    def __init__(self, kernel: ir.Kernel, loop: ir.For, outer: list[ir.For]):
        self.k = kernel
        self.loop = loop
        self.outer = outer
        self.private_tensors = {s.name for s in ir.walk_stmts(loop.body) if isinstance(s, ir.Alloc)}
        self.private_scalars = set(loop.decls) | {n for s in ir.walk_stmts(loop.body) if isinstance(s, ir.For)
                                                  for n in s.decls}
        self.assigned = {s.name for s in ir.walk_stmts(loop.body) if isinstance(s, ir.Assign)}
        self.written = {s.tensor for s in ir.walk_stmts(loop.body)
                        if isinstance(s, ir.Store) and s.tensor not in self.private_tensors}
        self.shared_scalars = self.assigned - self.private_scalars
        self.uses: list[_Use] = []
        self._block(loop.body, [], [])

    # ------------------------------------------------------------------ collecting accesses
    def _block(self, stmts: list[ir.Stmt], path: list[ir.For], guards: list) -> None:
        for s in stmts:
            getattr(self, "visit_" + type(s).__name__)(s, path, guards)

    def visit_Store(self, s: ir.Store, path: list[ir.For], guards: list) -> None:
        for e in s.indices:
            self._expr(e, path, guards)
        self._expr(s.value, path, guards)
        if s.tensor in self.written:
            self._use(s.tensor, "write", s.loc, None if s.grid else s.indices, path, guards)

    def visit_Assign(self, s: ir.Assign, path: list[ir.For], guards: list) -> None:
        self._expr(s.value, path, guards)
        if s.name in self.shared_scalars:
            self._use(s.name, "write", s.loc, [], path, guards)

    def visit_If(self, s: ir.If, path: list[ir.For], guards: list) -> None:
        self._expr(s.cond, path, guards)
        self._block(s.then, path, guards + [(s, s.cond, True)])
        self._block(s.orelse, path, guards + [(s, s.cond, False)])

    def visit_For(self, s: ir.For, path: list[ir.For], guards: list) -> None:
        for e in ir.stmt_exprs(s):
            self._expr(e, path, guards)
        self._block(s.body, path + [s], guards)

    def visit_Alloc(self, s: ir.Alloc, path: list[ir.For], guards: list) -> None:
        for e in ir.stmt_exprs(s):
            self._expr(e, path, guards)

    def _expr(self, e: ir.Expr, path: list[ir.For], guards: list) -> None:
        if isinstance(e, ir.Select):
            self._expr(e.cond, path, guards)
            self._expr(e.then, path, guards + [(e, e.cond, True)])
            self._expr(e.orelse, path, guards + [(e, e.cond, False)])
            return
        if isinstance(e, ir.BoolOp):  # a value after the first runs only when the ones before let it
            for k, v in enumerate(e.values):
                self._expr(v, path, guards + [(e, w, e.op == "and") for w in e.values[:k]])
            return
        if isinstance(e, ir.Load):
            for i in e.indices:
                self._expr(i, path, guards)
            if e.tensor in self.written:
                self._use(e.tensor, "read", e.loc, None if e.grid else e.indices, path, guards)
            return
        if isinstance(e, ir.Var) and e.name in self.shared_scalars:
            self._use(e.name, "read", e.loc, [], path, guards)
            return
        for child in ir.operands(e):
            self._expr(child, path, guards)

    def _use(self, name: str, kind: str, loc: ir.Loc, indices: Optional[list[ir.Expr]], path: list[ir.For],
             guards: list) -> None:
        text = subscript_text(self.k.lines.get(loc[0]), loc[1], name) if indices != [] else name
        self.uses.append(_Use(Access(name, kind, loc[0], loc[1], text), indices, list(path), list(guards)))

    # ------------------------------------------------------------------ values as affine forms
    def uniform(self, e: ir.Expr, scope: _Scope) -> bool:
        """True if ``e`` has the same value in both iterations (at the same values of the outer loops)."""
        for x in ir.walk_exprs(e):
            if isinstance(x, ir.Var):
                if x.name in scope.loops and not any(scope.loops[x.name][0] is o for o in self.outer):
                    return False
                if x.name in self.assigned:
                    return False
            elif isinstance(x, ir.GridComponent):
                if x.var in scope.loops and not any(scope.loops[x.var][0] is o for o in self.outer):
                    return False
            elif isinstance(x, ir.Load) and (x.tensor in self.written or x.tensor in self.private_tensors
                                             or x.grid is not None):
                return False
        return True

    def affine(self, e: ir.Expr, scope: _Scope) -> Optional[Lin]:
        """``e`` as an integer affine form over loop variables and named values, or None."""
        rule = _AFFINE.get(type(e))
        value = rule(self, e, scope) if rule is not None else None
        if value is None and self.uniform(e, scope):
            return {("s", _structure(e)): 1}
        return value

    def _var(self, e: ir.Var, scope: _Scope) -> Optional[Lin]:
        if e.name in scope.loops:
            loop, comp = scope.loops[e.name]
            return {scope.key(loop, comp): 1}
        return None

    def _grid_component(self, e: ir.GridComponent, scope: _Scope) -> Optional[Lin]:
        if e.var in scope.loops:
            loop, _ = scope.loops[e.var]
            return {scope.key(loop, e.index): 1}
        return None

    def _const(self, e: ir.Const, scope: _Scope) -> Optional[Lin]:
        return {1: e.value} if type(e.value) is int and e.value else ({} if type(e.value) is int else None)

    def _param(self, e: ir.Param, scope: _Scope) -> Optional[Lin]:
        return {("f", e.name): 1}

    def _shape_dim(self, e: ir.ShapeDim, scope: _Scope) -> Optional[Lin]:
        if e.tensor in self.k.params:
            return {("f", f"{e.tensor}.shape[{e.dim}]"): 1}
        alloc = self.k.allocs.get(e.tensor)
        if alloc is not None and alloc.shape.of is not None:
            return self.affine(ir.ShapeDim(e.loc, alloc.shape.of, e.dim), scope)
        if alloc is not None and alloc.shape.dims and -len(alloc.shape.dims) <= e.dim < len(alloc.shape.dims):
            return self.affine(alloc.shape.dims[e.dim], scope)
        return None

    def _binop(self, e: ir.BinOp, scope: _Scope) -> Optional[Lin]:
        a, b = self.affine(e.left, scope), self.affine(e.right, scope)
        if a is None or b is None:
            return None
        if e.op in ("+", "-"):
            return _plus(a, b, 1 if e.op == "+" else -1)
        if e.op == "*" and (set(a) <= {1} or set(b) <= {1}):
            return _times(b, a.get(1, 0)) if set(a) <= {1} else _times(a, b.get(1, 0))
        return None

    def _unary(self, e: ir.UnaryOp, scope: _Scope) -> Optional[Lin]:
        a = self.affine(e.operand, scope)
        return None if a is None or e.op not in ("-", "+") else _times(a, -1 if e.op == "-" else 1)

    # ------------------------------------------------------------------ the witness
    def loop_form(self, loop: ir.For, comp: int, scope: _Scope) -> Optional[tuple[Lin, int, Lin]]:
        """(start, step, stop) of one loop variable as affine forms over the variables around it."""
        if loop.kind == "grid":
            shape = loop.grid_shape
            if shape is None:
                return None
            stop = ir.ShapeDim(loop.loc, shape.of, comp) if shape.of is not None else \
                (shape.dims[comp] if shape.dims and comp < len(shape.dims) else None)
            bound = self.affine(stop, scope) if stop is not None else None
            return None if bound is None else ({}, 1, bound)
        start, step, stop = (self.affine(x, scope) for x in (loop.start, loop.step, loop.stop))  # type: ignore[arg-type]
        if start is None or stop is None or step is None or set(step) != {1}:
            return None
        return start, step[1], stop


_AFFINE: dict[type, Callable[..., Optional[Lin]]] = {
    ir.Const: _Race._const, ir.Var: _Race._var, ir.Param: _Race._param, ir.ShapeDim: _Race._shape_dim,
    ir.GridComponent: _Race._grid_component, ir.BinOp: _Race._binop, ir.UnaryOp: _Race._unary,
}


class _Witness:
    """Search for two iterations in which accesses ``a`` (iteration 1) and ``b`` (iteration 2) meet.

    The unknowns are loop counters (a loop variable is ``start + step * counter``): those of the
    loops around the parallel loop (shared), of the parallel loop and of the inner loops (one per
    iteration). Index equations must cancel every named value (else the accesses cannot be
    shown to meet); trip counts and guards are checked for the values found. A free size
    (a kernel parameter, an input's extent) may be as large as needed: a bound that grows with
    free sizes only holds for large enough inputs.
    """

    def __init__(self, race: _Race, a: _Use, b: _Use):
        self.race, self.a, self.b = race, a, b
        self.sa, self.sb = _Scope(race, 1, a.path), _Scope(race, 2, b.path)
        self.forms: dict[tuple, tuple[Lin, int]] = {}   # loop variable key -> (start form, step) over counters
        self.trips: list[tuple[tuple, Lin]] = []       # (counter, form that must be > 0 for it to run)
        self.guarded: set[tuple] = set()               # counters of loops whose variables guards read
        self.ok = True

    def _register(self, loop: ir.For, scope: _Scope) -> None:
        comps = range(len(loop.grid_names) or (len(loop.grid_shape.dims or []) if loop.grid_shape else 0)) \
            if loop.kind == "grid" else range(1)
        for comp in comps:
            key = scope.key(loop, comp)
            if key in self.forms:
                continue
            form = self.race.loop_form(loop, comp, scope)
            start, stop = (self.expand(form[0]), self.expand(form[2])) if form is not None else (None, None)
            if start is None or stop is None:
                if key[3] != 0:  # a loop around the parallel one whose bounds are not affine: its variable is a value
                    self.ok = False
                continue
            step = form[1]  # type: ignore[index]
            self.forms[key] = (start, step)
            counter = ("c",) + key[1:]
            self.trips.append((counter, _times(_plus(stop, _plus(start, {counter: step}), -1), 1 if step > 0 else -1)))

    def expand(self, lin: Lin) -> Optional[Lin]:
        """``lin`` with every loop variable replaced by its start + step * counter."""
        out: Lin = {}
        for key, coef in lin.items():
            if isinstance(key, tuple) and key[0] == "v":
                if key not in self.forms:
                    if key[3] != 0:
                        return None
                    out = _plus(out, {("s", key): coef})  # a shared loop variable of unknown range: a value
                    continue
                start, step = self.forms[key]
                out = _plus(out, _times(_plus(start, {("c",) + key[1:]: step}), coef))
            else:
                out = _plus(out, {key: coef})
        return out

    def search(self) -> bool:
        """True if a witness exists: the two accesses run in two different iterations and meet."""
        race = self.race
        for scope, use in ((self.sa, self.a), (self.sb, self.b)):
            for loop in race.outer + [race.loop] + use.path:
                self._register(loop, scope)
            for _, cond, _ in use.guards:
                for x in ir.walk_exprs(cond):
                    name = x.name if isinstance(x, ir.Var) else x.var if isinstance(x, ir.GridComponent) else None
                    if name in scope.loops:
                        loop, comp = scope.loops[name]
                        self.guarded.add(("c",) + scope.key(loop, comp)[1:])
        if not self.ok or self.a.indices is None or self.b.indices is None or \
                len(self.a.indices) != len(self.b.indices):
            return False
        eqs: list[Lin] = []
        for ia, ib in zip(self.a.indices, self.b.indices):
            la, lb = race.affine(ia, self.sa), race.affine(ib, self.sb)
            eq = self.expand(_plus(la, lb, -1)) if la is not None and lb is not None else None
            if eq is None or any(isinstance(k, tuple) and k[0] != "c" for k in eq):
                return False  # a value of one side that the other does not cancel: not provable
            eqs.append(eq)
        p1, p2 = ("c", id(race.loop), 0, 1), ("c", id(race.loop), 0, 2)
        if p1 not in {c for c, _ in self.trips}:
            return False
        counters = [c for c, _ in self.trips if c not in (p1, p2)]
        relevant = {k for f in eqs for k in f} | self.guarded | \
            {k for c, f in self.trips for k in f if k != c}
        return any(self._solve(order, eqs, relevant, p1, p2) for order in ([p1, p2] + counters, [p2, p1] + counters))

    def _solve(self, order: list[tuple], eqs: list[Lin], relevant: set, p1: tuple, p2: tuple) -> bool:
        budget = [_BUDGET]

        def assigned(f: Lin, values: dict) -> bool:
            return all(not (isinstance(k, tuple) and k[0] == "c") or k in values for k in f)

        def consistent(values: dict) -> bool:
            return all(_value(f, values) == 0 for f in eqs if assigned(f, values)) and \
                all(_sign(_value(f, values, free=True)) is True for _, f in self.trips if assigned(f, values))

        def go(k: int, values: dict) -> bool:
            budget[0] -= 1
            if budget[0] < 0 or not consistent(values):
                return False
            if k == len(order):
                return values[p1] != values[p2] and self._guards(values)
            u = order[k]
            candidates = self._pinned(u, eqs, values)
            if candidates is None:
                candidates = list(range(_WINDOW)) if u in relevant or u in (p1, p2) else [0]
            return any(go(k + 1, {**values, u: c}) for c in candidates if c >= 0)

        return go(0, {})

    def _pinned(self, u: tuple, eqs: list[Lin], values: dict) -> Optional[list[int]]:
        """The value of ``u`` an equation forces once its other counters are known, if one does."""
        for f in eqs:
            if f.get(u) and all(k == 1 or k == u or k in values for k in f):
                rest = _value({k: v for k, v in f.items() if k != u}, values)
                return [-rest // f[u]] if rest % f[u] == 0 else []
        return None

    def _guards(self, values: dict) -> bool:
        """Both accesses run at these counters; a condition that cannot be evaluated but is the same in
        both iterations counts as met (both run, or neither), unless they sit in opposite arms of it."""
        seen: dict[int, bool] = {}
        for scope, use in ((self.sa, self.a), (self.sb, self.b)):
            for node, cond, want in use.guards:
                truth = _truth(self, cond, scope, values)
                if truth is None and self.race.uniform(cond, scope):
                    if seen.setdefault(id(node), want) != want:
                        return False
                    continue
                if truth is not want:
                    return False
        return True


def _value(f: Lin, values: dict, free: bool = False) -> Union[int, Lin]:
    """The constant of ``f`` at ``values``; with ``free``, the form left over free sizes (else 0 for them)."""
    total, rest = 0, {}
    for k, v in f.items():
        if k == 1:
            total += v
        elif k in values:
            total += v * values[k]
        else:
            rest[k] = v
    if not free:
        return total
    return {**rest, 1: total} if rest else total


def _sign(x: Union[int, Lin]) -> Optional[bool]:
    """True if ``x`` > 0 (for large enough free sizes), False if it is <= 0, None if unknown."""
    if isinstance(x, int):
        return x > 0
    others = {k: v for k, v in x.items() if k != 1}
    if all(isinstance(k, tuple) and k[0] == "f" for k in others):
        if all(v > 0 for v in others.values()):
            return True
        if all(v < 0 for v in others.values()):
            return False
    return None


_COMPARE: dict[str, Callable[[int], bool]] = {"<": lambda d: d < 0, "<=": lambda d: d <= 0, ">": lambda d: d > 0,
                                              ">=": lambda d: d >= 0, "==": lambda d: d == 0, "!=": lambda d: d != 0}
_AT_INFINITY: dict[str, bool] = {"<": False, "<=": False, ">": True, ">=": True, "==": False, "!=": True}


def _truth(w: _Witness, e: ir.Expr, scope: _Scope, values: dict) -> Optional[bool]:
    """The value of condition ``e`` for one iteration at ``values`` (None when it cannot be told)."""
    if isinstance(e, ir.BoolOp):
        parts = [_truth(w, v, scope, values) for v in e.values]
        stop = e.op == "or"  # the value that decides an or (True) or an and (False)
        if stop in parts:
            return stop
        return None if None in parts else not stop
    if isinstance(e, ir.UnaryOp) and e.op == "not":
        inner = _truth(w, e.operand, scope, values)
        return None if inner is None else not inner
    if isinstance(e, ir.Const):
        return bool(e.value)
    if not isinstance(e, ir.Compare):
        return None
    la, lb = w.race.affine(e.left, scope), w.race.affine(e.right, scope)
    diff = w.expand(_plus(la, lb, -1)) if la is not None and lb is not None else None
    if diff is None or any(isinstance(k, tuple) and k[0] not in ("c", "f") for k in diff):
        return None
    if any(isinstance(k, tuple) and k[0] == "c" and k not in values for k in diff):
        return None
    d = _value(diff, values, free=True)
    if isinstance(d, int):
        return _COMPARE[e.op](d)
    grows = _sign(d)  # d tends to +inf (True) or -inf (False) as the free sizes grow
    if grows is None:
        return None
    return _AT_INFINITY[e.op] if grows else _AT_INFINITY[{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==",
                                                          "!=": "!="}[e.op]]


# ---------------------------------------------------------------------------------------------- the checks
def races(kernel: ir.Kernel) -> Iterator[PortabilityIssue]:
    def visit(stmts: list[ir.Stmt], outer: list[ir.For]) -> Iterator[PortabilityIssue]:
        for s in stmts:
            if isinstance(s, ir.If):
                yield from visit(s.then, outer)
                yield from visit(s.orelse, outer)
            elif isinstance(s, ir.For):
                if s.kind in PARALLEL_KINDS:
                    yield from _loop_races(kernel, s, outer)
                yield from visit(s.body, outer + [s])

    yield from visit(kernel.body, [])


def _loop_races(kernel: ir.Kernel, loop: ir.For, outer: list[ir.For]) -> Iterator[PortabilityIssue]:
    race = _Race(kernel, loop, outer)
    reported: set[str] = set()
    for a in race.uses:
        if a.access.kind != "write" or a.access.tensor in reported:
            continue
        for b in race.uses:
            if b.access.tensor == a.access.tensor and _Witness(race, a, b).search():
                reported.add(a.access.tensor)
                yield _race_issue(kernel, loop, a, b, race)
                break


def _race_issue(kernel: ir.Kernel, loop: ir.For, a: _Use, b: _Use, race: _Race) -> PortabilityIssue:
    name, var = a.access.tensor, loop.var
    scalar = a.indices == [] and name not in kernel.allocs and name not in kernel.params  # (not a rank-0 tensor)
    scope = _Scope(race, 1, a.path)
    own = a.indices is not None and any(
        (lin := race.affine(e, scope)) is not None and scope.key(loop, 0) in lin for e in a.indices)
    pattern = "scalar" if scalar else ("other element" if own else "same element")
    advice = ADVICE[pattern].format(var=var, tensor=name)
    what = f"the scalar {name} (declared outside the loop)" if scalar else a.access.text if not own else name
    first = f"{a.access.kind}s {a.access.text} (line {a.access.line})"
    second = "does the same" if b is a else f"{b.access.kind}s {b.access.text} (line {b.access.line})"
    message = (f"race on a device: two iterations of the {loop.kind} loop over {var} (line {loop.loc[0]}) touch "
               f"{what}\n  one iteration {first} while another {second}. It runs serially here (mskernel cannot "
               f"prove the iterations independent, so the CPU result is right), but on a device (Ascend, GPU) the "
               f"iterations run at once and race, and the result is wrong there.\n  Instead: {advice}.")
    return PortabilityIssue("race", name, kernel.filename, a.access.line, a.access.column, var, loop.loc[0],
                            loop.kind, (a.access, b.access), message, advice)
