"""What the backward builder needs to know about a forward kernel: where each statement sits
(its enclosing loops and its position in program order), who writes each tensor and scalar,
and whether a value read by a statement is still there when the backward runs.

A value a derivative needs is read again in the backward (it is *stable*) only when nothing
can overwrite it after the statement that read it: an input never written, or a tensor
element no later statement and no later iteration of a shared loop can store to (two
iterations of a loop over ``i`` touch different elements when both accesses index one
dimension by ``i``). Everything else is recorded on a tape by the builder.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> k = parse(KernelSource.from_text(
    ...     "def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n    for i in range(x.shape[0]):\\n"
    ...     "        y[i] = x[i]\\n        y[i] = y[i] * x[i]\\n    return y\\n"))
    >>> a = Analysis(k, {})
    >>> first, second = k.body[1].body
    >>> a.stable(second.value.left, second), a.stable(first.value, first)
    (False, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import ir

__all__ = ["Level", "Analysis"]

Atom = Optional[tuple]  # ("v", name) or ("g", grid var, component): an index that is exactly a loop index


@dataclass
class Level:
    """One loop dimension: a range loop, or one component of a grid loop."""

    loop: ir.For
    name: str          # the variable's name in printed code
    atom: tuple        # how an index that is exactly this variable looks (see ``Analysis.atoms``)
    start: ir.Expr
    stop: ir.Expr
    step: ir.Expr


class Analysis:
    """Positions, writers and stability for one parsed kernel (``grids``: grid var -> names)."""

    def __init__(self, kernel: ir.Kernel, grids: dict[str, list[str]]) -> None:
        self.k = kernel
        self.grids = grids
        self.loops: dict[int, list[ir.For]] = {}        # statement -> enclosing loops, outermost first
        self.path: dict[int, list[tuple[int, int]]] = {}  # statement -> (block id, index) from the root
        self.writers: dict[str, list[ir.Store]] = {}
        self.loaded: set[str] = set()
        self.assigns: dict[str, list[ir.Assign]] = {}
        self.loop_vars: set[str] = set()
        self.scoped_temps: set[str] = set()            # temporaries allocated inside a loop
        self._visit(kernel.body, [], [])

    def _visit(self, block: list[ir.Stmt], loops: list[ir.For], path: list[tuple[int, int]]) -> None:
        for n, s in enumerate(block):
            here = path + [(id(block), n)]
            self.loops[id(s)], self.path[id(s)] = loops, here
            for root in ir.stmt_exprs(s):
                self.loaded.update(e.tensor for e in ir.walk_exprs(root) if isinstance(e, ir.Load))
            if isinstance(s, ir.Store):
                self.writers.setdefault(s.tensor, []).append(s)
            elif isinstance(s, ir.Assign):
                self.assigns.setdefault(s.name, []).append(s)
            elif isinstance(s, ir.Alloc) and loops:
                self.scoped_temps.add(s.name)
            elif isinstance(s, ir.For):
                self.loop_vars.add(s.var)
                self._visit(s.body, loops + [s], here)
            elif isinstance(s, ir.If):
                self._visit(s.then, loops, here + [(id(s.then), -1)])
                self._visit(s.orelse, loops, here + [(id(s.orelse), -1)])

    # ------------------------------------------------------------------ loops
    def levels(self, loop: ir.For) -> list[Level]:
        """The loop dimensions of ``loop`` (a grid loop has one per component)."""
        if loop.kind != "grid":
            return [Level(loop, loop.var, ("v", loop.var), loop.start, loop.stop, loop.step)]  # type: ignore[arg-type]
        shape = loop.grid_shape
        out = []
        for k, name in enumerate(self.grids[loop.var]):
            extent = shape.dims[k] if shape.dims is not None else ir.ShapeDim(shape.loc, shape.of, k)  # type: ignore
            out.append(Level(loop, name, ("g", loop.var, k), ir.Const(loop.loc, 0), extent, ir.Const(loop.loc, 1)))
        return out

    def enclosing_levels(self, s: ir.Stmt) -> list[Level]:
        """Every loop dimension around statement ``s``, outermost first."""
        return [lv for loop in self.loops[id(s)] for lv in self.levels(loop)]

    def atoms(self, node: ir.Load | ir.Store) -> list[Atom]:
        """Per dimension: the loop index the access uses exactly there, or None."""
        if node.grid is not None:
            return [("g", node.grid, k) for k in range(len(self.grids[node.grid]))]
        out: list[Atom] = []
        for e in node.indices:
            if isinstance(e, ir.Var) and e.name in self.loop_vars:
                out.append(("v", e.name))
            elif isinstance(e, ir.GridComponent):
                out.append(("g", e.var, e.index))
            else:
                out.append(None)
        return out

    # ------------------------------------------------------------------ order and stability
    def order(self, w: ir.Stmt, s: ir.Stmt) -> str:
        """Within one iteration of their shared loops, does ``w`` run "after" or "before"
        ``s``, or are they in "exclusive" branches of one ``if``?"""
        pw, ps = self.path[id(w)], self.path[id(s)]
        for a, b in zip(pw, ps):
            if a != b:
                if a[0] != b[0]:
                    return "exclusive"
                return "after" if a[1] > b[1] else "before"
        return "after"  # w is s itself (its store follows its loads) or nested inside s

    def dominates(self, d: ir.Stmt, s: ir.Stmt) -> bool:
        """``d`` runs before ``s`` in every iteration that runs ``s`` (same or enclosing block, earlier)."""
        pd, ps = self.path[id(d)], self.path[id(s)]
        return len(pd) <= len(ps) and pd[:-1] == ps[:len(pd) - 1] and pd[-1][1] < ps[len(pd) - 1][1]

    def stable(self, load: ir.Load, at: ir.Stmt) -> bool:
        """True when the element ``load`` reads at ``at`` still holds that value at the end."""
        if load.tensor in self.scoped_temps:
            return False
        mine = self.atoms(load)
        for w in self.writers.get(load.tensor, []):
            if self.order(w, at) == "after":
                return False
            shared = [lv for loop in self._common(w, at) for lv in self.levels(loop)]
            theirs = self.atoms(w)
            for lv in shared:  # a later iteration of a shared loop must touch another element
                if not any(a == b == lv.atom for a, b in zip(mine, theirs)):
                    return False
        return True

    def stable_after(self, w: ir.Store) -> bool:
        """True when the element ``w`` stores keeps that value to the end (nothing overwrites it)."""
        if w.tensor in self.scoped_temps:
            return False
        mine = self.atoms(w)
        for other in self.writers.get(w.tensor, []):
            if other is not w and self.order(other, w) == "after":
                return False
            theirs = self.atoms(other)
            for lv in [lv for loop in self._common(other, w) for lv in self.levels(loop)]:
                if not any(a == b == lv.atom for a, b in zip(mine, theirs)):
                    return False
        return True

    def _common(self, a: ir.Stmt, b: ir.Stmt) -> list[ir.For]:
        out = []
        for x, y in zip(self.loops[id(a)], self.loops[id(b)]):
            if x is not y:
                break
            out.append(x)
        return out

    def write_once(self, tensor: str) -> bool:
        """One store writes each element at most once and nothing reads the tensor."""
        stores = self.writers.get(tensor, [])
        if len(stores) != 1 or tensor in self.loaded:
            return False
        atoms = self.atoms(stores[0])
        return all(lv.atom in atoms for lv in self.enclosing_levels(stores[0]))

    def single_def(self, name: str) -> Optional[ir.Assign]:
        """The only assignment of scalar ``name``, if it has exactly one."""
        defs = self.assigns.get(name, [])
        return defs[0] if len(defs) == 1 else None
