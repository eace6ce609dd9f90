"""Reverse mode on the kernel IR: build the backward kernel of a typed forward kernel, as DSL text.

The backward kernel takes ``(inputs..., outputs..., douts..., attrs...)`` and returns one
gradient per floating-point input. Its body has two parts:

1. **Replay** (only when needed): the forward statements whose values the derivatives need
   and cannot read back -- a temporary's contents, or a value later overwritten (a running
   maximum, a row buffer reused per iteration). Each such value is stored, at the statement
   that reads it, into a *tape* indexed by the enclosing loop counters -- a stack when those
   loops' trip counts vary -- or read from the record made right after the store that wrote
   it (:mod:`~mskernel.hybrid.autodiff.forwarding`). Statements nothing needs are dropped;
   outputs replayed are written to local copies (``y_fw``).
2. **Reverse sweep**: the statements in reverse order, every loop run backwards (a ``parallel``
   loop whose iterations stay independent runs forwards: its order does not matter). A store
   ``t[I] = e`` reads its adjoint ``g = dt[I]``, clears it (the old value was overwritten)
   and adds ``g * de/du`` to the adjoint of every float tensor element and scalar ``u`` that
   ``e`` reads, so gradients scattered by several iterations are summed. Branches are
   re-evaluated on recorded values; ``max``/``min`` route the adjoint to the argument chosen.

Integer values carry no gradient. What cannot be differentiated correctly is refused with a
:class:`~mskernel.hybrid.errors.HybridError` at the forward line (see ``refuse``).

Example:
    >>> from mskernel.hybrid import HybridKernel
    >>> from mskernel.hybrid.autodiff.assemble import build
    >>> hk = HybridKernel.from_source(
    ...     "def cube(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * x[i] * x[i]\\n    return y\\n")
    >>> bw = build(hk.specialize(hk.signature(["float32"], [1])))
    >>> print(bw.source)  # doctest: +NORMALIZE_WHITESPACE
    def cube_grad(x, y, dy):
        dx = output_tensor(x.shape, x.dtype)
        # gradients start at zero (a device does not zero new memory)
        for _z0 in parallel(dx.shape[0]):
            dx[_z0] = 0.0
        # reverse sweep
        for i in range(x.shape[0] - 1, -1, -1):
            _g1 = dy[i]
            _g2 = (_g1 * x[i])
            dx[i] = dx[i] + ((_g2 * x[i]) + (_g2 * x[i]) + (_g1 * (x[i] * x[i])))
        return dx
    <BLANKLINE>
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NoReturn, Optional

from .. import ir
from ..check import Typed
from ..dtypes import is_float, is_weak
from .analysis import Analysis, Level
from .blocks import PARALLEL_NOTE, Block
from .forwarding import RESULT_RULES, forwarded, stored_value
from .printer import Printer, grid_names, shape_text
from .rules import BINARY, CASTS, INTRINSIC, UNARY, ZERO

__all__ = ["BackwardSource"]

_WEAK_DTYPE = {"float": "float64", "int": "int64", "bool": "bool"}


@dataclass
class BackwardSource:
    """A generated backward kernel: its DSL ``source`` and how its parameters map.

    ``params`` = forward tensor inputs, forward outputs that are not inputs, one dout per
    forward output, then the attributes; ``grads[k]`` is the backward output index holding
    the gradient of forward tensor input ``k``, or None (integer inputs get no gradient).
    ``serial_headers`` maps each ``parallel`` loop header of ``source`` to the same loop run
    backwards, the header it takes if it cannot stay parallel (see ``assemble.annotate``).
    """

    name: str
    source: str
    params: list[str]
    grads: list[Optional[int]]
    outputs: list[str]            # forward outputs passed to the backward, in forward return order
    serial_headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Tape:
    name: str
    expr: ir.Expr
    index: str


class _Builder:
    def __init__(self, typed: Typed, comments: bool = False) -> None:
        self.t = typed
        self.comments = comments  # each statement's adjoint under a comment quoting its forward line
        self.k = typed.kernel
        k = self.k
        n = typed.signature.tensor_count
        self.inputs, self.attrs = k.params[:n], k.params[n:]
        self.grids = {s.var: grid_names(s, typed.grid_ranks[s.var])
                      for s in ir.walk_stmts(k.body) if isinstance(s, ir.For) and s.kind == "grid"}
        self.a = Analysis(k, self.grids)
        self.used = self._names()
        self.counter = 0
        self.inplace = [r for r in k.returns if r in self.inputs]
        self.adj: dict[str, str] = {}       # tensor -> its adjoint buffer's name
        self.var_adj: dict[str, str] = {}    # scalar -> its adjoint variable
        self.touched: set[str] = set()       # adjoint variables something reads or writes
        self.tapes: dict[int, list[_Tape]] = {}
        self.tape_allocs: list[str] = []
        self._tape_cache: dict[tuple[int, int], str] = {}
        self.replay_tensors: set[str] = set()  # temporaries the reverse sweep reads back
        self.zero: dict[str, str] = {}
        self.serial_headers: dict[str, str] = {}  # parallel loop header -> the loop run backwards
        self.stacks: dict[int, tuple[str, str, list[Level]]] = {}  # statement -> (stack pointer, size, its loops)
        self.tapes_after: dict[int, tuple[str, str]] = {}  # store -> (tape, index) of the value it stored

    # ------------------------------------------------------------------ naming and errors
    def _names(self) -> set[str]:
        names = set(self.k.params) | set(self.k.allocs) | set(self.k.decls) | {self.k.name}
        for s in ir.walk_stmts(self.k.body):
            if isinstance(s, ir.For):
                names |= {s.var, *s.decls, *self.grids.get(s.var, [])}
        return names

    def fresh(self, base: str) -> str:
        name = base
        while name in self.used:
            name += "_"
        self.used.add(name)
        return name

    def temp(self, base: str = "_g") -> str:
        self.counter += 1
        return self.fresh(f"{base}{self.counter}")

    def refuse(self, loc: ir.Loc, why: str) -> NoReturn:
        raise self.k.error(loc, f"cannot derive the backward of {self.k.name} automatically: {why}. Give the op a "
                                f"bprop (ops.Custom(..., bprop=fn)) instead.")

    # ------------------------------------------------------------------ types
    def dtype(self, e: ir.Expr) -> str:
        t = self.t.type_of(e)
        return _WEAK_DTYPE.get(t, t) if is_weak(t) else t

    def var_dtype(self, name: str) -> str:
        t = self.t.var_types[name]
        return _WEAK_DTYPE.get(t, t) if is_weak(t) else t

    def tensor_dtype(self, name: str) -> str:
        return self.t.tensors[name].dtype

    def differentiable(self, e: ir.Expr) -> bool:
        """Does a gradient flow from ``e`` to some float tensor element or float scalar?"""
        if not is_float(self.t.type_of(e)):
            return False
        if isinstance(e, ir.Load):
            return is_float(self.tensor_dtype(e.tensor))
        if isinstance(e, ir.Var):
            return e.name not in self.a.loop_vars and is_float(self.t.var_types.get(e.name, "int"))
        if isinstance(e, ir.BinOp):
            return e.op not in ZERO and (self.differentiable(e.left) or self.differentiable(e.right))
        if isinstance(e, ir.UnaryOp):
            return e.op in UNARY and self.differentiable(e.operand)
        if isinstance(e, ir.Select):
            return self.differentiable(e.then) or self.differentiable(e.orelse)
        if isinstance(e, ir.Call):
            return e.func not in ZERO and any(self.differentiable(x) for x in e.args)
        return False

    # ------------------------------------------------------------------ values at a statement
    def value(self, e: ir.Expr, at: ir.Stmt) -> str:
        """The text of ``e``'s forward value at statement ``at``, valid in the reverse sweep."""
        return Printer(self.grids, leaf=lambda n: self._leaf(n, at)).expr(e)

    def _leaf(self, e: ir.Expr, at: ir.Stmt) -> Optional[str]:
        if isinstance(e, ir.Var) and e.name not in self.a.loop_vars:
            d = self.a.single_def(e.name)
            if d is not None and self.a.dominates(d, at) and self._inlinable(d.value, d):
                return "(" + self.value(d.value, d) + ")"
            return self.tape(e, at)
        if isinstance(e, (ir.ShapeDim, ir.Rank)) and self.t.tensors[e.tensor].kind == "temp":
            shape = self.k.allocs[e.tensor].shape  # a temporary may not exist in the backward: use its shape
            if shape.of is not None:
                return self.value(type(e)(e.loc, shape.of, *([e.dim] if isinstance(e, ir.ShapeDim) else [])), at)
            dims = shape.dims or []
            return str(len(dims)) if isinstance(e, ir.Rank) else "(" + self.value(dims[e.dim], at) + ")"
        if isinstance(e, ir.Load):
            if not self.a.stable(e, at):
                return forwarded(self, e, at) or self.tape(e, at)
            if self.t.tensors[e.tensor].kind == "temp":
                self.replay_tensors.add(e.tensor)
            idx = ", ".join(self.grids[e.grid]) if e.grid is not None else \
                ", ".join(self.value(i, at) for i in e.indices)
            return f"{e.tensor}[{idx}]"
        return None

    def _inlinable(self, e: ir.Expr, at: ir.Stmt) -> bool:
        for x in ir.walk_exprs(e):
            if isinstance(x, ir.Var) and x.name not in self.a.loop_vars:
                d = self.a.single_def(x.name)
                if d is None or not self.a.dominates(d, at) or not self._inlinable(d.value, d):
                    return False
            if isinstance(x, ir.Load) and not self.a.stable(x, at):
                return False
        return True

    def tape(self, e: ir.Expr, at: ir.Stmt) -> str:
        """Record ``e``'s value at ``at`` in the replay; the text reading it back."""
        key = (id(at), id(e))
        if key in self._tape_cache:
            return self._tape_cache[key]
        levels = self.a.enclosing_levels(at)
        place = at
        while isinstance(e, ir.Var) and levels and not any(  # invariant in the inner loops: record it once,
                isinstance(x, ir.Assign) and x.name == e.name for x in ir.walk_stmts(levels[-1].loop.body)):
            place = levels.pop().loop  # before the outermost of them
        if any(not self.is_static(lv) for lv in levels):
            return self._stack_tape(e, at, key)
        at = place
        name = self.temp("tape")
        dims = [self.trip(lv) for lv in levels] or ["1"]
        self.tape_allocs.append(f"{name} = allocate(({', '.join(dims)}, ), \"{self.dtype(e)}\")")
        index = ", ".join(self.counter_of(lv) for lv in levels) or "0"
        self.tapes.setdefault(id(at), []).append(_Tape(name, e, index))
        text = self._tape_cache[key] = f"{name}[{index}]"
        return text

    def _stack_tape(self, e: ir.Expr, at: ir.Stmt, key: tuple) -> str:
        """A tape for a statement inside loops whose trip counts vary (triangular, ragged): a stack.

        The replay pushes the value each time ``at`` runs; the reverse sweep, which runs ``at``'s
        adjoint exactly once per forward execution and in the opposite order, pops it. Its size is
        counted first by running the loops around ``at`` (every branch counted: an upper bound).
        """
        for lv in self.a.enclosing_levels(at):
            self.static_loop(lv)  # the loops must be re-runnable (they are run backwards anyway)
        if id(at) not in self.stacks:
            self.stacks[id(at)] = (self.temp("_k"), self.temp("_n"), self.a.enclosing_levels(at))
        counter, count, _ = self.stacks[id(at)]
        name = self.temp("tape")
        self.tape_allocs.append(f"{name} = allocate(({count}, ), \"{self.dtype(e)}\")")
        self.tapes.setdefault(id(at), []).append(_Tape(name, e, counter))
        text = self._tape_cache[key] = f"{name}[{counter}]"
        return text

    # ------------------------------------------------------------------ loops
    def is_static(self, lv: Level) -> bool:
        """Are the loop's bounds the same in every iteration of the loops around it?"""
        for e in (lv.start, lv.stop, lv.step):
            for x in ir.walk_exprs(e):
                if isinstance(x, (ir.Load, ir.GridComponent)) or (isinstance(x, ir.Var) and (
                        x.name in self.a.loop_vars or self.a.single_def(x.name) is None
                        or not self._inlinable(self.a.single_def(x.name).value, lv.loop))):  # type: ignore[union-attr]
                    return False
        return True

    def trip(self, lv: Level) -> str:
        start, stop, step = (self.value(e, lv.loop) for e in (lv.start, lv.stop, lv.step))
        step_v = self.step_of(lv)
        if step_v == 1 and start == "0":
            return stop
        if step_v == 1:
            return f"max({stop} - {start}, 0)"
        if step_v > 0:
            return f"max(ceil_div({stop} - {start}, {step}), 0)"
        return f"max(ceil_div({start} - {stop}, {-step_v}), 0)"

    def counter_of(self, lv: Level) -> str:
        start = self.value(lv.start, lv.loop)
        step = self.step_of(lv)
        if step == 1:
            return lv.name if start == "0" else f"({lv.name} - {start})"
        return f"(({lv.name} - {start}) // {step})"

    def step_of(self, lv: Level) -> int:
        if not isinstance(lv.step, ir.Const):
            self.refuse(lv.loop.loc, f"the loop at line {lv.loop.loc[0]} has a step that is not a constant, so "
                                     f"it cannot be run backwards")
        return int(lv.step.value)

    def reversed_header(self, lv: Level) -> str:
        """``for v in range(last, first - 1, -step):`` -- the loop run backwards.

        A ``parallel`` loop is written forwards: if it stays parallel the order does not matter;
        if not, :func:`~mskernel.hybrid.autodiff.assemble.annotate` turns it to the backwards
        header recorded in ``serial_headers``."""
        self.static_loop(lv)
        start, stop = self.value(lv.start, lv.loop), self.value(lv.stop, lv.loop)
        step = self.step_of(lv)
        if lv.loop.kind != "parallel":
            return self._reversed_header(lv, "range", start, stop, step)
        bounds = stop if (start, step) == ("0", 1) else f"{start}, {stop}" + ("" if step == 1 else f", {step}")
        header = f"for {lv.name} in parallel({bounds}):"
        self.serial_headers[header] = self._reversed_header(lv, "parallel", start, stop, step)
        return header

    def _reversed_header(self, lv: Level, kind: str, start: str, stop: str, step: int) -> str:
        if step == 1:
            return f"for {lv.name} in {kind}({stop} - 1, {_minus_one(start)}, -1):"
        if step == -1:
            return f"for {lv.name} in {kind}({stop} + 1, {start} + 1):"
        if step > 0:
            last = f"{start} + (ceil_div({stop} - {start}, {step}) - 1) * {step}"
            return f"for {lv.name} in {kind}({last}, {_minus_one(start)}, {-step}):"
        last = f"{start} - (ceil_div({start} - {stop}, {-step}) - 1) * {-step}"
        return f"for {lv.name} in {kind}({last}, {start} + 1, {-step}):"

    def static_loop(self, lv: Level) -> None:
        for e in (lv.start, lv.stop, lv.step):
            for x in ir.walk_exprs(e):
                if (isinstance(x, ir.Load) and not self.a.stable(x, lv.loop)) or (
                        isinstance(x, ir.Var) and x.name not in self.a.loop_vars and (
                        self.a.single_def(x.name) is None
                        or not self._inlinable(self.a.single_def(x.name).value, lv.loop))):  # type: ignore[union-attr]
                    what = (f"{x.tensor}, which the kernel overwrites afterwards" if isinstance(x, ir.Load) else
                            f"the variable {x.name}, which is assigned more than once")
                    self.refuse(lv.loop.loc, f"the bounds of the loop at line {lv.loop.loc[0]} come from {what}, "
                                             f"so the backward cannot run the loop again")

    # ------------------------------------------------------------------ adjoints
    def tensor_adj(self, name: str) -> Optional[str]:
        return self.adj.get(name)

    def scalar_adj(self, name: str) -> str:
        if name not in self.var_adj:
            self.var_adj[name] = self.fresh(f"d{name}")
        self.touched.add(self.var_adj[name])
        return self.var_adj[name]

    def accumulate(self, out: Block, leaf: ir.Expr, g: str, at: ir.Stmt) -> None:
        if isinstance(leaf, ir.Var):
            out.accumulate(self.scalar_adj(leaf.name), g)
            return
        assert isinstance(leaf, ir.Load)
        dt = self.tensor_adj(leaf.tensor)
        if dt is None:
            return
        self.touched.add(dt)
        idx = ", ".join(self.grids[leaf.grid]) if leaf.grid is not None else \
            ", ".join(self.value(i, at) for i in leaf.indices)
        out.accumulate(f"{dt}[{idx}]", g)

    def bind(self, out: Block, text: str) -> str:
        if text.isidentifier():
            return text
        name = self.temp()
        out.line(f"{name} = {text}")
        return name

    def backprop(self, out: Block, e: ir.Expr, g: str, at: ir.Stmt) -> None:
        """Emit the adjoint contributions of expression ``e`` whose adjoint is ``g``."""
        if not self.differentiable(e):
            return
        if isinstance(e, (ir.Var, ir.Load)):
            self.accumulate(out, e, g, at)
            return
        getattr(self, "bp_" + type(e).__name__)(out, e, g, at)

    def _operands(self, out: Block, e: ir.Expr, operands: list[ir.Expr], rules, g: str, at: ir.Stmt) -> None:
        v: Callable[[int], str] = lambda k: self.value(operands[k], at)  # noqa: E731
        for operand, rule in zip(operands, rules):
            if self.differentiable(operand):
                part = rule(g, v)
                if not isinstance(operand, (ir.Var, ir.Load)):
                    part = self.bind(out, part)
                self.backprop(out, operand, part, at)

    def bp_BinOp(self, out: Block, e: ir.BinOp, g: str, at: ir.Stmt) -> None:
        self._operands(out, e, [e.left, e.right], BINARY[e.op], g, at)

    def bp_UnaryOp(self, out: Block, e: ir.UnaryOp, g: str, at: ir.Stmt) -> None:
        self._operands(out, e, [e.operand], [UNARY[e.op]], g, at)

    def bp_Select(self, out: Block, e: ir.Select, g: str, at: ir.Stmt) -> None:
        then, orelse = out.branch(self.value(e.cond, at))
        self.backprop(then, e.then, g, at)
        self.backprop(orelse, e.orelse, g, at)

    def bp_Call(self, out: Block, e: ir.Call, g: str, at: ir.Stmt) -> None:
        if e.func in CASTS:
            inner = self.dtype(e.args[0])
            self.backprop(out, e.args[0], g if inner == e.func else self.bind(out, f"{inner}({g})"), at)
        elif e.func in ("max", "min"):
            self._choose(out, e.args, ">=" if e.func == "max" else "<=", g, at)
        elif e.func in RESULT_RULES and isinstance(at, ir.Store) and e is at.value and self.differentiable(e.args[0]) \
                and (result := stored_value(self, at)) is not None:  # d exp(u) = exp(u): read the stored result
            self.backprop(out, e.args[0], self.bind(out, RESULT_RULES[e.func](g, result)), at)
        elif e.func in INTRINSIC:
            self._operands(out, e, e.args, INTRINSIC[e.func], g, at)
        else:
            self.refuse(e.loc, f"the intrinsic {e.func} has no derivative rule")

    def _choose(self, out: Block, args: list[ir.Expr], cmp: str, g: str, at: ir.Stmt) -> None:
        """max/min: the adjoint goes to the first argument that is the result."""
        if len(args) == 1:
            self.backprop(out, args[0], g, at)
            return
        first = self.value(args[0], at)
        cond = " and ".join(f"({first} {cmp} {self.value(a, at)})" for a in args[1:])
        then, orelse = out.branch(cond)
        self.backprop(then, args[0], g, at)
        self._choose(orelse, args[1:], cmp, g, at)

    # ------------------------------------------------------------------ statements, reversed
    def reverse(self, block: list[ir.Stmt], out: Block, scope_decls: list[str]) -> None:
        for name in scope_decls:
            if is_float(self.t.var_types.get(name, "int")):
                dv = self.scalar_adj(name)
                self.touched.discard(dv)
                out.lazy(f"{dv} = {self.var_dtype(name)}(0)", keep=lambda dv=dv: dv in self.touched)
        for s in block:
            if isinstance(s, ir.Alloc) and s.kind == "temp" and self.a.loops[id(s)] and \
                    is_float(self.tensor_dtype(s.name)):
                out.line(f"{self.adj[s.name]} = allocate({self.shape_of(s, s)}, {self.dtype_of(s)})")
                self.zero_nest(out, self.adj[s.name], s.name)
        for s in reversed(block):
            getattr(self, "rev_" + type(s).__name__)(s, out)

    def rev_Alloc(self, s: ir.Alloc, out: Block) -> None:
        pass

    def rev_For(self, s: ir.For, out: Block) -> None:
        body = out
        for lv in self.a.levels(s):
            body = body.nest(self.reversed_header(lv), PARALLEL_NOTE if lv.loop.kind == "parallel" else None)
        self.reverse(s.body, body, s.decls)

    def pop(self, s: ir.Stmt, out: Block) -> None:
        """Before the adjoint of ``s``: step the stack pointer of its stack tapes back."""
        if id(s) in self.stacks:
            k = self.stacks[id(s)][0]
            out.line(f"{k} = {k} - 1")

    def rev_If(self, s: ir.If, out: Block) -> None:
        cond = self.value(s.cond, s)
        self.pop(s, out)
        then, orelse = out.branch(cond)
        self.reverse(s.then, then, [])
        self.reverse(s.orelse, orelse, [])

    def rev_Assign(self, s: ir.Assign, out: Block) -> None:
        body = Block()
        self._rev_Assign(s, body)
        body.flush()
        self.pop(s, out)
        self.quote(s, body, out)
        out.extend(body)

    def quote(self, s: ir.Stmt, body: Block, out: Block) -> None:
        """With ``comments``: ``# line N: <forward line>`` above the adjoint of ``s`` when it does work."""
        if self.comments and body.render(0):
            out.line(f"# line {s.loc[0]}: {self.k.lines.get(s.loc[0], '').strip()}")

    def _rev_Assign(self, s: ir.Assign, out: Block) -> None:
        if not is_float(self.t.var_types.get(s.name, "int")):
            return
        dv = self.scalar_adj(s.name)
        rest = self._self_linear(s.value, lambda x: isinstance(x, ir.Var) and x.name == s.name)
        if rest is not None:
            self._backprop_rest(out, rest, dv, s)
            return
        g = self.temp()
        body = Block()
        body.line(f"{g} = {dv}")
        body.line(f"{dv} = {self.var_dtype(s.name)}(0)")
        inner = Block()
        self.backprop(inner, s.value, g, s)
        inner.flush()
        if inner.items:
            out.extend(body)
            out.extend(inner)
        else:
            out.line(f"{dv} = {self.var_dtype(s.name)}(0)")

    def rev_Store(self, s: ir.Store, out: Block) -> None:
        body = Block()
        self._rev_Store(s, body)
        body.flush()
        self.pop(s, out)
        self.quote(s, body, out)
        out.extend(body)

    def _rev_Store(self, s: ir.Store, out: Block) -> None:
        dt = self.tensor_adj(s.tensor)
        if dt is None:
            return
        self.touched.add(dt)
        idx = ", ".join(self.grids[s.grid]) if s.grid is not None else \
            ", ".join(self.value(i, s) for i in s.indices)
        target = f"{dt}[{idx}]"
        rest = self._self_linear(s.value, lambda x: isinstance(x, ir.Load) and x.tensor == s.tensor
                                 and self._same_access(x, s))
        if rest is not None:
            self._backprop_rest(out, rest, target, s)
            return
        inner = Block()
        g = self.temp()
        self.backprop(inner, s.value, g, s)
        inner.flush()
        if inner.items:
            out.line(f"{g} = {target}")
        if s.tensor in self.zero:
            out.line(f"{target} = {self.zero[s.tensor]}")
        out.extend(inner)

    def _backprop_rest(self, out: Block, rest: list[tuple[ir.Expr, bool]], adj: str, at: ir.Stmt) -> None:
        """``x = x + a - b``: the adjoint of ``x`` carries over; ``a`` gets it, ``b`` its negation."""
        live = [(e, neg) for e, neg in rest if self.differentiable(e)]
        if not live:
            return
        g = self.temp()
        out.line(f"{g} = {adj}")
        for e, neg in live:
            self.backprop(out, e, f"(-{g})" if neg else g, at)

    def _self_linear(self, e: ir.Expr, is_self: Callable[[ir.Expr], bool]) -> Optional[list[tuple[ir.Expr, bool]]]:
        """``e`` as ``self + a - b ...``: the other terms with their signs, or None."""
        terms: list[tuple[ir.Expr, bool]] = []

        def split(x: ir.Expr, neg: bool) -> None:
            if isinstance(x, ir.BinOp) and x.op in "+-" and len(x.op) == 1:
                split(x.left, neg)
                split(x.right, neg != (x.op == "-"))
            else:
                terms.append((x, neg))
        split(e, False)
        selves = [t for t in terms if is_self(t[0])]
        if len(selves) != 1 or selves[0][1]:
            return None
        return [t for t in terms if t is not selves[0]]

    def _same_access(self, load: ir.Load, store: ir.Store) -> bool:
        p = Printer(self.grids)
        return p.indices(load) == p.indices(store)

    # ------------------------------------------------------------------ buffers
    def shape_of(self, alloc: ir.Alloc, at: ir.Stmt) -> str:
        return shape_text(alloc.shape, lambda d: self.value(d, at))

    def dtype_of(self, alloc: ir.Alloc) -> str:
        return f'"{self.tensor_dtype(alloc.name)}"'

    def zero_nest(self, out: Block, dst: str, like: str) -> None:
        """``dst`` (of ``like``'s rank) set to zero element by element before the reverse sweep adds into it: a
        device does not zero new memory as MindSpore's emulation does (``mskernel.check_kernel`` finds that)."""
        rank = self.t.tensors[like].rank
        if rank == 0:
            return
        idx = [self.fresh(f"_z{d}") for d in range(rank)]
        body = out
        for d, v in enumerate(idx):
            body = body.nest(f"for {v} in {'parallel' if d == 0 else 'range'}({dst}.shape[{d}]):")
        body.line(f"{dst}[{', '.join(idx)}] = 0.0")

    def copy_nest(self, out: Block, dst: str, src: str, like: str) -> None:
        rank = self.t.tensors[like].rank
        if rank == 0:
            self.refuse(self.k.return_loc, f"the output {like} has rank 0, which the backward cannot copy")
        idx = [self.fresh(f"_c{d}") for d in range(rank)]
        body = out
        for d, v in enumerate(idx):
            body = body.nest(f"for {v} in range({like}.shape[{d}]):")
        body.line(f"{dst}[{', '.join(idx)}] = {src}[{', '.join(idx)}]")


def _minus_one(start: str) -> str:
    return str(int(start) - 1) if start.lstrip("-").isdigit() else f"{start} - 1"

