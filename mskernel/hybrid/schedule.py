"""Deciding how each loop is scheduled in C++: parallel (the thread pool), SIMD, or plain serial.

The scheduling keywords are hints, as in MindSpore on CPU ("treated as the usual for"); a
hint is honoured only when it cannot change the result:

* ``parallel``: the outermost such loop runs on the thread pool (``mskh::parallel_for``, see
  :mod:`.threads`) when its iterations are independent -- every scalar it assigns is declared
  inside it, and every tensor it writes (other than temporaries allocated inside it) is indexed
  by the loop variable in one fixed dimension, in every write *and* every read of that tensor in
  the loop. Loops with little work run on the calling thread (:mod:`.work`).
* ``vectorize``: the same independence test, on an innermost loop -> ``#pragma omp simd``.
* ``reduce``: an innermost reduce loop that accumulates into scalars or fixed tensor elements is
  reassociated (``#pragma omp simd reduction``, float sums blocked and added pairwise; see
  :mod:`mskernel.hybrid.reduction`); any other reduce loop accumulates in order.
* debug builds never use pragmas (bounds checks return from the kernel).

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> k = parse(KernelSource.from_text("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n    s = 0.0\\n"
    ...     "    for i in parallel(x.shape[0]):\\n        s = x[i]\\n        y[i] = s\\n    return y\\n"))
    >>> [(p.pragma, p.note) for p in plan(k, debug=False).values()]
    [(None, 'parallel: serial because it assigns the variable s, declared outside the loop')]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import ir
from .independence import independence
from .reduction import Reduction, analyze

__all__ = ["LoopPlan", "plan", "independence"]


@dataclass
class LoopPlan:
    """What codegen does with one loop: ``pragma`` ("parallel"/"simd"/None) and why."""

    pragma: Optional[str] = None
    note: str = ""
    nested: list[ir.For] = field(default_factory=list)
    reduction: Optional[Reduction] = None  # a reduce loop that may be reassociated (see .reduction)


def _nested_chain(loop: ir.For) -> list[ir.For]:
    """Directly nested loops whose bounds do not depend on anything inside ``loop``."""
    local = {loop.var, *loop.decls}
    chain: list[ir.For] = []
    body = loop.body
    while True:
        inner = next((s for s in body if isinstance(s, ir.For)), None)
        if inner is None:
            return chain
        exprs = ir.stmt_exprs(inner)
        names = {getattr(e, "name", None) or getattr(e, "var", None)
                 for root in exprs for e in ir.walk_exprs(root)
                 if isinstance(e, (ir.Var, ir.GridComponent, ir.Load))}
        if names & local or any(isinstance(e, ir.Load) for r in exprs for e in ir.walk_exprs(r)):
            return chain
        chain.append(inner)
        local |= {inner.var, *inner.decls}
        body = inner.body


def plan(kernel: ir.Kernel, debug: bool) -> dict[int, LoopPlan]:
    """A :class:`LoopPlan` for every loop of ``kernel``, keyed by ``id(loop)``.

    Example:
        >>> from mskernel.hybrid import ir
        >>> k = ir.Kernel("k", [], [], [], (0, 0), "f", {}, 1)
        >>> plan(k, debug=False)
        {}
    """
    plans: dict[int, LoopPlan] = {}

    def visit(stmts: list[ir.Stmt], in_parallel: bool) -> None:
        for s in stmts:
            if isinstance(s, ir.If):
                visit(s.then, in_parallel)
                visit(s.orelse, in_parallel)
            if not isinstance(s, ir.For):
                continue
            p = LoopPlan()
            plans[id(s)] = p
            if s.kind == "reduce" and debug:
                p.note = "reduce: serial accumulation in debug mode"
            elif s.kind == "reduce":
                found = analyze(s)
                if isinstance(found, Reduction):
                    p.reduction = found  # (codegen writes the note: it depends on the accumulators' types)
                else:
                    p.note = f"reduce: serial accumulation, because {found}"
            elif s.kind in ("parallel", "vectorize") and debug:
                p.note = f"{s.kind}: serial in debug mode"
            elif s.kind == "parallel" and in_parallel:
                p.note = "parallel: inside a parallel loop already, serial"
            elif s.kind == "parallel" and not (isinstance(s.step, ir.Const) or s.grid_shape):
                p.note = "parallel: the step is not a constant, serial"
            elif s.kind in ("parallel", "vectorize"):
                reason = independence(s)
                innermost = not any(isinstance(x, ir.For) for x in ir.walk_stmts(s.body))
                if reason is not None:
                    p.note = f"{s.kind}: serial because {reason}"
                elif s.kind == "vectorize" and not innermost:
                    p.note = "vectorize: not an innermost loop, left to the compiler"
                else:
                    p.pragma = "parallel" if s.kind == "parallel" else "simd"
                    p.nested = _nested_chain(s)
            visit(s.body, in_parallel or p.pragma == "parallel")

    visit(kernel.body, False)
    return plans
