"""Putting a backward kernel together: parameters, adjoint buffers, the replay, the reverse
sweep, and a comment on every ``parallel`` loop saying whether it stayed parallel. :func:`build`
runs the builder (:mod:`~mskernel.hybrid.autodiff.builder`) and assembles its result.

The replay keeps only the forward statements something needs: the tape stores, the
temporaries the reverse sweep reads back, and (to a fixed point) what those read.

Example (:func:`mskernel.hybrid.autodiff.backward_kernel` builds, parses and annotates):
    >>> from mskernel.hybrid import HybridKernel
    >>> from mskernel.hybrid.autodiff import backward_kernel
    >>> hk = HybridKernel.from_source(
    ...     "def scale(x, s):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        y[i] = x[i] * s\\n    return y\\n")
    >>> print(backward_kernel(hk, hk.signature(["float64"], [1], [float]))[1].source)
    def scale_grad(x, y, dy, s):
        dx = output_tensor(x.shape, x.dtype)
        # gradients start at zero (a device does not zero new memory)
        for _z0 in parallel(dx.shape[0]):
            dx[_z0] = 0.0
        # reverse sweep
        # parallel: kept (its iterations write disjoint elements)
        for i in parallel(x.shape[0]):
            _g1 = dy[i]
            dx[i] = dx[i] + (_g1 * s)
        return dx
    <BLANKLINE>
"""
from __future__ import annotations

from .. import ir
from ..check import Typed
from ..dtypes import is_float
from ..schedule import independence
from .blocks import PARALLEL_NOTE, Block
from .builder import BackwardSource, _Builder
from .printer import Printer, shape_text

__all__ = ["build", "assemble", "annotate"]


def build(typed: Typed, comments: bool = False) -> BackwardSource:
    """The backward kernel of ``typed`` (see :mod:`~mskernel.hybrid.autodiff.builder`); raises
    HybridError when the forward cannot be differentiated correctly. ``comments``: the adjoint of
    each forward statement is preceded by ``# line N: <the forward line>``."""
    return assemble(_Builder(typed, comments))


def assemble(b: _Builder) -> BackwardSource:
    """Generate the backward kernel's source for builder ``b``."""
    k = b.k
    float_inputs = [x for x in b.inputs if is_float(b.tensor_dtype(x))]
    grads = {x: b.fresh(f"d{x}") for x in float_inputs}
    outs = [r for r in k.returns if r not in b.inputs]
    douts = {r: b.fresh(f"d{r}_out" if r in b.inputs else f"d{r}") for r in k.returns}
    name = b.fresh(f"{k.name}_grad")
    params = [*b.inputs, *outs, *douts.values(), *b.attrs]
    grad_index = [float_inputs.index(x) if x in grads else None for x in b.inputs]
    if not float_inputs:
        return BackwardSource(name, "", params, grad_index, outs)

    head, copies = Block(), Block()
    for x in float_inputs:
        head.line(f"{grads[x]} = output_tensor({x}.shape, {x}.dtype)")
        b.adj[x] = grads[x]
    zeros = Block()
    for x in float_inputs:
        b.zero_nest(zeros, grads[x], x)
    for r in k.returns:
        if not is_float(b.tensor_dtype(r)):
            continue
        if r in b.inputs:
            b.zero[r] = "0"
            b.copy_nest(copies, grads[r], douts[r], r)
        elif b.a.write_once(r):
            b.adj[r] = douts[r]
        else:
            b.adj[r] = b.fresh(f"d{r}_acc")
            b.zero[r] = "0"
            copies.line(f"{b.adj[r]} = allocate({r}.shape, {r}.dtype)")
            b.copy_nest(copies, b.adj[r], douts[r], r)
    for t, alloc in k.allocs.items():
        if alloc.kind == "temp" and is_float(b.tensor_dtype(t)):
            b.adj[t] = b.fresh(f"d{t}")
            if not b.a.write_once(t):
                b.zero[t] = "0"
            if t not in b.a.scoped_temps:
                copies.line(f"{b.adj[t]} = allocate({b.shape_of(alloc, alloc)}, {b.dtype_of(alloc)})")
                b.zero_nest(copies, b.adj[t], t)

    rev = Block()
    b.reverse(k.body, rev, k.decls)
    replay = _replay(b)

    body = head
    for counter, count, levels in b.stacks.values():  # the sizes of the stack tapes: count the executions
        body.line(f"{count} = 0")
        loop = body
        for lv in levels:
            step = b.step_of(lv)
            bounds = f"{b.value(lv.start, lv.loop)}, {b.value(lv.stop, lv.loop)}" + ("" if step == 1 else f", {step}")
            loop = loop.nest(f"for {lv.name} in range({bounds}):")
        loop.line(f"{count} = {count} + 1")
        body.line(f"{counter} = 0")
    for line in b.tape_allocs:
        body.line(line)
    if replay.items:
        body.line("# replay: recompute and record the values the derivatives need")
        body.extend(replay)
    if zeros.items:
        body.line("# gradients start at zero (a device does not zero new memory)")
        body.extend(zeros)
    body.extend(copies)
    body.line("# reverse sweep")
    body.extend(rev)
    rets = [grads[x] for x in float_inputs]
    text = "\n".join([f"def {name}({', '.join(params)}):", *body.render(1),
                      f"    return {', '.join(rets)}"]) + "\n"
    return BackwardSource(name, text, params, grad_index, outs, b.serial_headers)


def _replay(b: _Builder) -> Block:
    """The forward statements the tapes and the reverse sweep need, with the tape stores."""
    out = Block()
    if not b.tapes and not b.replay_tensors:
        return out
    live_t, live_v = set(b.replay_tensors), set()
    state = {"changed": True}

    def reads(exprs: list[ir.Expr]) -> None:
        for root in exprs:
            for e in ir.walk_exprs(root):
                if isinstance(e, ir.Load) and e.tensor not in live_t:
                    live_t.add(e.tensor)
                    state["changed"] = True
                elif isinstance(e, ir.Var) and e.name not in live_v:
                    live_v.add(e.name)
                    state["changed"] = True

    def live(s: ir.Stmt) -> bool:
        if id(s) in b.tapes:
            return True
        if isinstance(s, ir.Store):
            return s.tensor in live_t
        if isinstance(s, ir.Assign):
            return s.name in live_v
        if isinstance(s, ir.Alloc):
            return s.name in live_t
        if isinstance(s, ir.For):
            return any(live(c) for c in s.body)
        return any(live(c) for c in s.then + s.orelse)  # type: ignore[union-attr]

    def mark(block: list[ir.Stmt]) -> None:
        for s in block:
            if not live(s):
                continue
            reads([t.expr for t in b.tapes.get(id(s), [])])
            if isinstance(s, (ir.Store, ir.Assign)) and not _own_live(s, live_t, live_v):
                continue
            reads(ir.stmt_exprs(s))
            if isinstance(s, ir.For):
                mark(s.body)
            elif isinstance(s, ir.If):
                mark(s.then)
                mark(s.orelse)

    while state["changed"]:
        state["changed"] = False
        mark(b.k.body)
    for x in b.inplace:
        if x in live_t:
            load = next(e for s in ir.walk_stmts(b.k.body) for r in ir.stmt_exprs(s)
                        for e in ir.walk_exprs(r) if isinstance(e, ir.Load) and e.tensor == x)
            b.refuse(load.loc, f"the input {x} is overwritten in place and the backward needs its values from "
                               f"before the kernel wrote it; write the result to an output_tensor")
    rename = {r: b.fresh(f"{r}_fw") for r in b.k.returns if r not in b.inputs and r in live_t}
    p = Printer(b.grids, rename=rename)
    _emit(b, b.k.body, out, p, live_t, live_v, live)
    return out


def _own_live(s: ir.Stmt, live_t: set[str], live_v: set[str]) -> bool:
    return (s.tensor in live_t) if isinstance(s, ir.Store) else (s.name in live_v)  # type: ignore[union-attr]


def _emit(b: _Builder, block: list[ir.Stmt], out: Block, p: Printer, live_t: set[str], live_v: set[str],
          live) -> None:
    for s in block:
        if not live(s):
            continue
        for tape in b.tapes.get(id(s), []):
            out.line(f"{tape.name}[{tape.index}] = {p.expr(tape.expr)}")
        if id(s) in b.stacks:  # push
            k = b.stacks[id(s)][0]
            out.line(f"{k} = {k} + 1")
        if isinstance(s, ir.Store) and s.tensor in live_t:
            out.line(f"{p.tensor(s.tensor)}[{p.indices(s)}] = {p.expr(s.value)}")
            if id(s) in b.tapes_after:  # the value just stored, read back by the reverse sweep
                name, index = b.tapes_after[id(s)]
                out.line(f"{name}[{index}] = {p.tensor(s.tensor)}[{p.indices(s)}]")
        elif isinstance(s, ir.Assign) and s.name in live_v:
            out.line(f"{s.name} = {p.expr(s.value)}")
        elif isinstance(s, ir.Alloc):
            out.line(f"{p.tensor(s.name)} = allocate({shape_text(s.shape, p.expr)}, {b.dtype_of(s)})")
        elif isinstance(s, ir.For):
            body = out
            for lv in b.a.levels(s):
                kind = "range" if s.kind == "grid" else s.kind
                bounds = [p.expr(lv.start), p.expr(lv.stop), p.expr(lv.step)]
                if bounds[2] == "1":
                    bounds = bounds[1:2] if bounds[0] == "0" else bounds[:2]
                body = body.nest(f"for {lv.name} in {kind}({', '.join(bounds)}):",
                                 PARALLEL_NOTE if kind == "parallel" else None)
            _emit(b, s.body, body, p, live_t, live_v, live)
        elif isinstance(s, ir.If):
            then, orelse = out.branch(p.expr(s.cond))
            _emit(b, s.then, then, p, live_t, live_v, live)
            _emit(b, s.orelse, orelse, p, live_t, live_v, live)


def annotate(kernel: ir.Kernel, src: BackwardSource) -> tuple[str, bool]:
    """The final text of the backward ``src`` parsed as ``kernel``: the note above every ``parallel``
    loop says whether it stays parallel (and why not); one that cannot is written as a ``range``
    loop (a device would run a ``parallel`` one in parallel, and race) and, where that is shorter,
    turned to run backwards. Returns ``(text, whether a loop was turned)``: only a turned loop
    changes what ``kernel`` says (the notes are comments on lines that already exist).

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source(
        ...     "def f(x, w):\\n    y = output_tensor(x.shape, x.dtype)\\n    for i in parallel(x.shape[0]):\\n"
        ...     "        y[i] = x[i] * w[0]\\n    return y\\n")
        >>> src = build(hk.specialize(hk.signature(["float64", "float64"], [1, 1])))
        >>> [line.strip() for line in src.source.splitlines() if "parallel" in line and "_z" not in line]
        ['# parallel', 'for i in parallel(x.shape[0]):']
        >>> text, turned = annotate(HybridKernel.from_source(src.source).ir, src)
        >>> turned
        True
        >>> print("\\n".join(line for line in text.splitlines() if "parallel" in line and "_z" not in line))
            # parallel -> serial: the write to dw at line 14 is not indexed by the loop variable in one fixed dimension
    """
    lines = src.source.split("\n")
    turned = False
    for s in ir.walk_stmts(kernel.body):
        if not (isinstance(s, ir.For) and s.kind == "parallel"):
            continue
        at = s.loc[0] - kernel.def_line  # the loop's header, 0-based in ``lines``; its note is the line above
        reason = independence(s)
        note = "parallel: kept (its iterations write disjoint elements)" if reason is None else \
            f"parallel -> serial: {reason}"
        if lines[at - 1].strip() == PARALLEL_NOTE:  # every parallel loop the builder writes has one
            lines[at - 1] = lines[at - 1].replace(PARALLEL_NOTE, f"# {note}")
        header = lines[at].strip()
        if reason is not None and header in src.serial_headers:
            lines[at] = lines[at].replace(header, src.serial_headers[header])
            turned = True
        if reason is not None:  # written as a serial loop: on a device a `parallel` one would race
            lines[at] = lines[at].replace(" in parallel(", " in range(", 1)
            turned = True
    return "\n".join(lines), turned
