"""Whether the iterations of a loop are independent: the test behind ``parallel``, ``vectorize`` and reductions.

Every scalar the loop assigns must be declared inside it, and every tensor it writes (other than
temporaries allocated inside it) must be indexed by the loop variable in one fixed dimension, in every
write *and* every read of that tensor in the loop. :mod:`mskernel.hybrid.schedule` plans loops with it;
:mod:`mskernel.hybrid.reduction` asks it about a reduce loop's body without its accumulation.

Example:
    >>> from mskernel.hybrid import ir
    >>> loop = ir.For((1, 1), "i", "parallel", ir.Const((1, 1), 0), ir.Var((1, 1), "n"), ir.Const((1, 1), 1), [
    ...     ir.Assign((2, 1), "s", ir.Const((2, 5), 0)),
    ... ])
    >>> independence(loop)
    'it assigns the variable s, declared outside the loop'
"""
from __future__ import annotations

from typing import Optional

from . import ir

__all__ = ["independence"]


def _is_loop_index(e: ir.Expr, loop: ir.For) -> bool:
    if loop.kind == "grid":
        return isinstance(e, ir.GridComponent) and e.var == loop.var and e.index == 0
    return isinstance(e, ir.Var) and e.name == loop.var


def _position(node: ir.Load | ir.Store, loop: ir.For) -> Optional[int]:
    if node.grid is not None:
        return 0 if node.grid == loop.var else None
    for p, idx in enumerate(node.indices):
        if _is_loop_index(idx, loop):
            return p
    return None


def independence(loop: ir.For) -> Optional[str]:
    """None if the iterations of ``loop`` are independent, else the reason they may not be."""
    private: set[str] = set(loop.decls)
    temps: set[str] = set()
    for s in ir.walk_stmts(loop.body):
        if isinstance(s, ir.For):
            private.update(s.decls)
            if not (isinstance(s.step, ir.Const) or s.kind == "grid"):
                return "it contains a loop whose step is not a constant"
        elif isinstance(s, ir.Alloc):
            temps.add(s.name)
    positions: dict[str, int] = {}
    for s in ir.walk_stmts(loop.body):
        if isinstance(s, ir.Assign) and s.name not in private:
            return f"it assigns the variable {s.name}, declared outside the loop"
        if isinstance(s, ir.Store) and s.tensor not in temps:
            p = _position(s, loop)
            if p is None or positions.setdefault(s.tensor, p) != p:
                return (f"the write to {s.tensor} at line {s.loc[0]} is not indexed by the loop "
                        f"variable in one fixed dimension")
    for s in ir.walk_stmts(loop.body):
        for root in ir.stmt_exprs(s):
            for e in ir.walk_exprs(root):
                if isinstance(e, ir.Load) and e.tensor in positions and \
                        _position(e, loop) != positions[e.tensor]:
                    return (f"it reads {e.tensor} (line {e.loc[0]}) at a position other "
                            f"iterations write")
    return None
