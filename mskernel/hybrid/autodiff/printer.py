"""Printing kernel IR back as hybrid-DSL source text (the backward kernel is DSL text).

Every expression is printed fully parenthesised, so precedence never changes its meaning.
A ``leaf`` hook may replace any node by other text: the backward builder uses it to read a
recorded (taped) value or a final output instead of the forward's expression. Grid loops are
printed as nested ``range`` loops over their components (``arg__0``, ``arg__1``, ...), so a
whole-index access ``t[arg]`` prints as ``t[arg__0, arg__1]``.

Example:
    >>> from mskernel.hybrid import ir
    >>> e = ir.BinOp((1, 1), "*", ir.Load((1, 1), "x", [ir.Var((1, 1), "i")]), ir.Const((1, 1), 2.0))
    >>> Printer({}).expr(e)
    '(x[i] * 2.0)'
    >>> Printer({}, leaf=lambda n: "t[i]" if isinstance(n, ir.Load) else None).expr(e)
    '(t[i] * 2.0)'
"""
from __future__ import annotations

from typing import Callable, Optional

from .. import ir

__all__ = ["Printer", "grid_names", "shape_text"]

Leaf = Callable[[ir.Expr], Optional[str]]


def grid_names(loop: ir.For, rank: int) -> list[str]:
    """The names of a grid loop's components: the unpacked names, else ``<var>__<k>``.

    Example:
        >>> from mskernel.hybrid import ir
        >>> grid_names(ir.For((1, 1), "arg", "grid", None, None, None, []), 2)
        ['arg__0', 'arg__1']
    """
    return list(loop.grid_names) if loop.grid_names else [f"{loop.var}__{k}" for k in range(rank)]


def shape_text(shape: ir.Shape, expr: Callable[[ir.Expr], str]) -> str:
    """``t.shape`` or ``(d0, d1, )`` for a buffer's shape argument.

    Example:
        >>> from mskernel.hybrid import ir
        >>> shape_text(ir.Shape((1, 1), of="x"), str)
        'x.shape'
    """
    if shape.of is not None:
        return f"{shape.of}.shape"
    return "(" + "".join(f"{expr(d)}, " for d in shape.dims or []) + ")"


class Printer:
    """Expression printer: ``grids`` maps a grid loop variable to its component names."""

    def __init__(self, grids: dict[str, list[str]], leaf: Optional[Leaf] = None,
                 rename: Optional[dict[str, str]] = None) -> None:
        self.grids = grids
        self.leaf = leaf
        self.rename = rename or {}

    def expr(self, e: ir.Expr) -> str:
        """The text of ``e`` (the leaf hook first, then one method per node type)."""
        if self.leaf is not None:
            text = self.leaf(e)
            if text is not None:
                return text
        return getattr(self, "p_" + type(e).__name__)(e)

    def tensor(self, name: str) -> str:
        """The name a tensor access prints (outputs may be renamed in the replay)."""
        return self.rename.get(name, name)

    def indices(self, node: ir.Load | ir.Store) -> str:
        """``i, j`` for an access (a grid variable expands to its components)."""
        if node.grid is not None:
            return ", ".join(self.grids[node.grid])
        return ", ".join(self.expr(i) for i in node.indices)

    def p_Const(self, e: ir.Const) -> str:
        return repr(e.value)

    def p_Var(self, e: ir.Var) -> str:
        return e.name

    def p_Param(self, e: ir.Param) -> str:
        return e.name

    def p_Load(self, e: ir.Load) -> str:
        return f"{self.tensor(e.tensor)}[{self.indices(e)}]"

    def p_ShapeDim(self, e: ir.ShapeDim) -> str:
        return f"{e.tensor}.shape[{e.dim}]"

    def p_Rank(self, e: ir.Rank) -> str:
        return f"len({e.tensor}.shape)"

    def p_GridComponent(self, e: ir.GridComponent) -> str:
        return self.grids[e.var][e.index]

    def p_BinOp(self, e: ir.BinOp) -> str:
        return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"

    def p_UnaryOp(self, e: ir.UnaryOp) -> str:
        return f"({e.op} {self.expr(e.operand)})" if e.op == "not" else f"({e.op}{self.expr(e.operand)})"

    def p_Compare(self, e: ir.Compare) -> str:
        return f"({self.expr(e.left)} {e.op} {self.expr(e.right)})"

    def p_BoolOp(self, e: ir.BoolOp) -> str:
        return "(" + f" {e.op} ".join(self.expr(v) for v in e.values) + ")"

    def p_Select(self, e: ir.Select) -> str:
        return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.orelse)})"

    def p_Call(self, e: ir.Call) -> str:
        return f"{e.func}({', '.join(self.expr(a) for a in e.args)})"
