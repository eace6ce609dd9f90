"""Device portability: kernels that are right here but race, or read garbage, on a device.

On the CPU a ``parallel``/``vectorize`` loop runs serially whenever mskernel cannot prove its
iterations independent (:mod:`mskernel.hybrid.schedule`), and ``output_tensor``/``allocate``
memory is zero-filled like MindSpore's Python emulation. On an Ascend or GPU device the loop
runs in parallel and the memory is not zeroed, so the same kernel can be wrong there. This
module finds, statically and once per kernel, the two ways that happens:

* ``"race"``: two iterations of a ``parallel`` or ``vectorize`` loop may touch one element of a
  tensor (or one scalar declared outside the loop), at least one of them writing. An issue is
  reported only with a witness: two iterations (and values of the loops around and inside) for
  which both accesses run and hit the same element -- ``y[0]`` written by every iteration,
  ``y[i]`` written and ``y[i + 1]`` read, ``y[i]`` written and ``y[0]`` read. Indices are solved
  as integer affine forms (so ``y[2 * i]`` and ``y[2 * i + 1]`` never meet), the inner loops of
  the two iterations independently. What cannot be proved stays silent: indices read from data
  (``y[idx[i]]``), non-affine indices, accesses under a condition that cannot be evaluated for
  the witness. Temporaries allocated inside the loop and scalars declared inside it are private
  to an iteration; ``range``, ``serial``, ``grid`` and ``reduce`` loops run serially everywhere.
* ``"uninitialised-read"``: the first access of an ``output_tensor`` or ``allocate`` buffer is a
  read that provably runs before any write: it is not under an ``if`` (nor in the untaken arm
  of ``a if c else b``, nor after ``and``/``or``), and the loops around it between the buffer's
  allocation and the read keep their trip counts from one iteration to the next (so the read,
  if it runs at all, runs before anything after it writes the buffer).

:func:`check_portability` returns the issues of a parsed kernel; :func:`warn_portability`
emits one :class:`PortabilityWarning` per issue at the user's line
(``HybridKernel`` does both when it is built from source, once).

Example:
    >>> from mskernel.hybrid.parse import parse
    >>> from mskernel.hybrid.source import KernelSource
    >>> src = ("def total(x):\\n    y = output_tensor((1,), x.dtype)\\n    y[0] = 0.0\\n"
    ...        "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n")
    >>> [issue] = check_portability(parse(KernelSource.from_text(src, filename="<cell 1>")))
    >>> issue.kind, issue.tensor, issue.line, issue.loop_var, issue.loop_line
    ('race', 'y', 5, 'i', 4)
    >>> [(a.kind, a.text, a.line) for a in issue.accesses]
    [('write', 'y[0]', 5), ('read', 'y[0]', 5)]
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, fields
from typing import Callable, Iterator, Optional, Union

from . import ir

__all__ = ["Access", "PortabilityIssue", "PortabilityWarning", "check_portability", "warn_portability"]

#: the loop kinds whose iterations run at once on a device
PARALLEL_KINDS = ("parallel", "vectorize")
_WINDOW = 5          # counter values a witness search tries for each loop not pinned by an equation
_BUDGET = 20000      # assignments tried per pair of accesses before giving up (silently)


class PortabilityWarning(UserWarning):
    """A kernel that is right on the CPU here but races or reads uninitialised memory on a device.

    Emitted once when a hybrid kernel is built from its source (never per call), at the user's
    line; ``issue`` is the :class:`PortabilityIssue` it reports. Turn it into an error with
    ``warnings.simplefilter("error", PortabilityWarning)``.

    Example:
        >>> import warnings
        >>> from mskernel.hybrid import HybridKernel
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     hk = HybridKernel.from_source(
        ...         "def acc(x):\\n    y = output_tensor((1,), x.dtype)\\n    y[0] = 0.0\\n"
        ...         "    for i in parallel(x.shape[0]):\\n        y[0] = y[0] + x[i]\\n    return y\\n",
        ...         filename="<cell 7>")
        >>> w = seen[0]
        >>> w.category.__name__, w.filename, w.lineno
        ('PortabilityWarning', '<cell 7>', 5)
        >>> print(str(w.message).splitlines()[0])
        race on a device: two iterations of the parallel loop over i (line 4) touch y[0]
    """

    def __init__(self, message: str, issue: Optional["PortabilityIssue"] = None) -> None:
        super().__init__(message)
        self.issue = issue


@dataclass(frozen=True)
class Access:
    """One access of a tensor (or scalar) in the kernel's source: ``kind`` is "read" or "write".

    Example:
        >>> Access("y", "write", 5, 9, "y[0]")
        Access(tensor='y', kind='write', line=5, column=9, text='y[0]')
    """

    tensor: str
    kind: str
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class PortabilityIssue:
    """A device-portability problem of a kernel, located at the user's line.

    ``kind`` is "race" or "uninitialised-read"; ``tensor`` the tensor or scalar; ``line`` and
    ``column`` where the warning points (the write of a race, the read of an uninitialised
    buffer); ``loop_var``/``loop_line``/``loop_kind`` the parallel loop of a race (None for an
    uninitialised read); ``accesses`` the two accesses that meet (a race; one access may meet
    itself in another iteration) or the read and nothing else; ``message`` the whole text and
    ``advice`` what to write instead.

    Example:
        >>> a = Access("s", "write", 4, 9, "s")
        >>> issue = PortabilityIssue("race", "s", "<cell 1>", 4, 9, "i", 3, "parallel", (a, a), "...", "...")
        >>> issue.location
        SourceLocation(file='<cell 1>', line=4, col=9, source_line=None)
    """

    kind: str
    tensor: str
    filename: str
    line: int
    column: int
    loop_var: Optional[str]
    loop_line: Optional[int]
    loop_kind: Optional[str]
    accesses: tuple[Access, ...]
    message: str
    advice: str

    @property
    def location(self):  # -> SourceLocation (mskernel.errors), typed loosely to keep this module's imports low
        """The :class:`~mskernel.errors.SourceLocation` of the issue (file, line, column)."""
        from mskernel.errors import SourceLocation

        return SourceLocation(self.filename, self.line, self.column)


# ---------------------------------------------------------------------------------------------- texts
#: what to write instead, per pattern of race (the key names the pattern)
ADVICE: dict[str, str] = {
    "same element": ("accumulate over {var} in a reduce loop (for {var} in reduce(...)), or keep a temporary per "
                     "iteration and write each element of {tensor} from the one iteration that owns it"),
    "other element": ("index every access of {tensor} in the loop by the loop variable in one fixed dimension "
                      "({tensor}[{var}, ...]) so each iteration owns its elements; read what other iterations "
                      "write from a copy made before the loop, or make the loop serial (range)"),
    "scalar": ("assign {tensor} first inside the loop so each iteration has its own, or accumulate it in a reduce "
               "loop (for {var} in reduce(...))"),
    "uninitialised": ("write every element of {tensor} before reading it (e.g. {tensor}[...] = 0.0 in a loop before "
                      "accumulating), or accumulate in a scalar and write {tensor} once"),
}
_BUFFER = {"output": "output_tensor", "temp": "allocate"}


def _subscript_text(line: Optional[str], col: int, name: str) -> str:
    """The access as written: ``name[...]`` (brackets matched) from column ``col`` of ``line``."""
    if not line or not line[col - 1:].startswith(name):
        return name
    k, depth, end = col - 1 + len(name), 0, None
    while k < len(line):
        c = line[k]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                end = k + 1
                if not line[k + 1:k + 2] == "[":
                    break
        elif depth == 0 and not c.isspace():
            break
        k += 1
    return line[col - 1:end] if end is not None else name


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
        text = _subscript_text(self.k.lines.get(loc[0]), loc[1], name) if indices != [] else name
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
def _races(kernel: ir.Kernel) -> Iterator[PortabilityIssue]:
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
    scalar = a.indices == []
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


def _uninitialised(kernel: ir.Kernel) -> Iterator[PortabilityIssue]:
    for name, alloc in kernel.allocs.items():
        block = _block_of(kernel.body, alloc)
        if block is None:
            continue
        after = block[next(k for k, s in enumerate(block) if s is alloc) + 1:]
        found = _first_access(name, after, [])
        if found is None or found[0] != "read":
            continue
        _, loc, chain, unconditional = found
        if not unconditional or not _trips_fixed(chain):
            continue
        text = _subscript_text(kernel.lines.get(loc[0]), loc[1], name)
        advice = ADVICE["uninitialised"].format(tensor=name)
        message = (f"uninitialised read on a device: {text} (line {loc[0]}) reads the {_BUFFER[alloc.kind]} "
                   f"{name} (line {alloc.loc[0]}) before anything writes it\n  here {_BUFFER[alloc.kind]} memory "
                   f"is zero-filled (as in MindSpore's Python emulation), so the read gets 0 and the result is "
                   f"right; on a device (Ascend, GPU) the memory is not initialised and the read gets garbage."
                   f"\n  Instead: {advice}.")
        read = Access(name, "read", loc[0], loc[1], text)
        yield PortabilityIssue("uninitialised-read", name, kernel.filename, loc[0], loc[1], None, None, None,
                               (read,), message, advice)


def _block_of(stmts: list[ir.Stmt], target: ir.Stmt) -> Optional[list[ir.Stmt]]:
    for s in stmts:
        if s is target:
            return stmts
        for inner in ((s.body,) if isinstance(s, ir.For) else (s.then, s.orelse) if isinstance(s, ir.If) else ()):
            found = _block_of(inner, target)
            if found is not None:
                return found
    return None


def _first_access(name: str, stmts: list[ir.Stmt], chain: list[ir.For], conditional: bool = False):
    """(kind, loc, loops around it, unconditional) of the first access of tensor ``name`` in ``stmts``."""
    for s in stmts:
        found = _first_in_exprs(name, ir.stmt_exprs(s), conditional)
        if found is not None:
            return ("read", found[0], chain, found[1])
        if isinstance(s, ir.Store) and s.tensor == name:
            return ("write", s.loc, chain, not conditional)
        if isinstance(s, ir.For):
            found = _first_access(name, s.body, chain + [s], conditional)
        elif isinstance(s, ir.If):
            found = _first_access(name, s.then + s.orelse, chain, True)
        else:
            found = None
        if found is not None:
            return found
    return None


def _first_in_exprs(name: str, exprs: list[ir.Expr], conditional: bool) -> Optional[tuple[ir.Loc, bool]]:
    for e in exprs:
        if isinstance(e, ir.Select):
            found = _first_in_exprs(name, [e.cond], conditional) or \
                _first_in_exprs(name, [e.then, e.orelse], True)
        elif isinstance(e, ir.BoolOp):
            found = _first_in_exprs(name, e.values[:1], conditional) or \
                _first_in_exprs(name, e.values[1:], True)
        elif isinstance(e, ir.Load):
            found = _first_in_exprs(name, list(e.indices), conditional) or \
                ((e.loc, not conditional) if e.tensor == name else None)
        else:
            found = _first_in_exprs(name, ir.operands(e), conditional)
        if found is not None:
            return found
    return None


def _trips_fixed(chain: list[ir.For]) -> bool:
    """The trip count of every loop of ``chain`` but the first is the same in every iteration around it."""
    if not chain:
        return True
    changing = {n for s in ir.walk_stmts(chain[0].body) if isinstance(s, ir.Assign) for n in [s.name]}
    loops = set()
    for k, loop in enumerate(chain):
        if k > 0:
            for root in ir.stmt_exprs(loop):
                for e in ir.walk_exprs(root):
                    if isinstance(e, ir.Load) or (isinstance(e, ir.Var) and (e.name in loops or e.name in changing)) \
                            or (isinstance(e, ir.GridComponent) and e.var in loops):
                        return False
        loops |= {loop.var, *loop.grid_names}
    return True


#: the checks, each yielding the issues of one kind
CHECKS: dict[str, Callable[[ir.Kernel], Iterator[PortabilityIssue]]] = {
    "race": _races, "uninitialised-read": _uninitialised}


def check_portability(kernel: ir.Kernel) -> list[PortabilityIssue]:
    """Every device-portability issue of a parsed kernel, in source order (see the module doc).

    Example:
        >>> from mskernel.hybrid.parse import parse
        >>> from mskernel.hybrid.source import KernelSource
        >>> src = ("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...        "    for i in parallel(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
        >>> check_portability(parse(KernelSource.from_text(src)))
        []
    """
    issues = [issue for check in CHECKS.values() for issue in check(kernel)]
    return sorted(issues, key=lambda i: (i.line, i.column, i.kind))


def warn_portability(issues: list[PortabilityIssue], module_globals: Optional[dict] = None) -> None:
    """Emit one :class:`PortabilityWarning` per issue, pointing at the issue's file and line.

    Example:
        >>> import warnings
        >>> a = Access("y", "read", 3, 5, "y[0]")
        >>> issue = PortabilityIssue("uninitialised-read", "y", "<cell 2>", 3, 5, None, None, None, (a,), "m", "")
        >>> with warnings.catch_warnings(record=True) as seen:
        ...     warnings.simplefilter("always")
        ...     warn_portability([issue])
        >>> (seen[0].filename, seen[0].lineno, seen[0].message.issue is issue)
        ('<cell 2>', 3, True)
    """
    for issue in issues:
        warnings.warn_explicit(PortabilityWarning(issue.message, issue), PortabilityWarning, issue.filename,
                               issue.line, module_globals=module_globals)

