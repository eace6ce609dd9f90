"""The kernel IR: small dataclasses the parser produces and the checker/codegen read.

Every node carries ``loc`` = (line, column) in the user's file (1-based), so any later pass
can raise a :class:`~mskernel.hybrid.errors.HybridError` at the right place. The IR is
untyped and rank-generic: types and ranks are attached per signature by
:mod:`mskernel.hybrid.check`.

Example:
    >>> i = Var((3, 9), "i")
    >>> store = Store((3, 5), "y", [i], BinOp((3, 12), "*", Load((3, 12), "x", [i]), Const((3, 19), 2)))
    >>> store.tensor, store.value.op
    ('y', '*')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from mskernel.errors import SourceLocation

from .errors import HybridError

Loc = tuple[int, int]

__all__ = [
    "Loc", "Expr", "Const", "Var", "Param", "Load", "ShapeDim", "Rank", "BinOp", "UnaryOp",
    "Compare", "BoolOp", "Select", "Call", "GridComponent", "DType", "Shape", "Stmt", "Alloc",
    "Store", "Assign", "For", "If", "Kernel", "walk_exprs", "walk_stmts", "stmt_exprs", "operands",
]


@dataclass(eq=False)
class Const:
    """A Python literal (int, float or bool)."""

    loc: Loc
    value: Union[int, float, bool]


@dataclass(eq=False)
class Var:
    """A scalar variable or a loop variable."""

    loc: Loc
    name: str


@dataclass(eq=False)
class Param:
    """A kernel parameter used as a scalar (an attribute)."""

    loc: Loc
    name: str


@dataclass(eq=False)
class Load:
    """``tensor[indices]``; ``grid`` names a grid variable used as the whole index."""

    loc: Loc
    tensor: str
    indices: list["Expr"]
    grid: Optional[str] = None


@dataclass(eq=False)
class ShapeDim:
    """``tensor.shape[dim]`` (a negative ``dim`` counts from the end)."""

    loc: Loc
    tensor: str
    dim: int


@dataclass(eq=False)
class Rank:
    """``len(tensor.shape)``."""

    loc: Loc
    tensor: str


@dataclass(eq=False)
class GridComponent:
    """``arg[k]`` for a grid loop variable ``arg``."""

    loc: Loc
    var: str
    index: int


@dataclass(eq=False)
class BinOp:
    """An arithmetic or bitwise operator: + - * / // % ** & | ^ << >>."""

    loc: Loc
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(eq=False)
class UnaryOp:
    """``-x``, ``+x``, ``~x`` or ``not x``."""

    loc: Loc
    op: str
    operand: "Expr"


@dataclass(eq=False)
class Compare:
    """One comparison ``left op right`` (chains are split into ``and``)."""

    loc: Loc
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(eq=False)
class BoolOp:
    """``and`` / ``or`` over two or more values."""

    loc: Loc
    op: str
    values: list["Expr"]


@dataclass(eq=False)
class Select:
    """``then if cond else orelse``."""

    loc: Loc
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"


@dataclass(eq=False)
class Call:
    """An intrinsic call: math function, cast, max/min."""

    loc: Loc
    func: str
    args: list["Expr"]


Expr = Union[Const, Var, Param, Load, ShapeDim, Rank, GridComponent, BinOp, UnaryOp, Compare,
             BoolOp, Select, Call]


@dataclass(eq=False)
class DType:
    """The dtype argument of a buffer: a literal name, or ``of`` = a tensor's ``.dtype``."""

    loc: Loc
    name: Optional[str] = None
    of: Optional[str] = None


@dataclass(eq=False)
class Shape:
    """The shape argument of a buffer: explicit ``dims`` or ``of`` = a tensor's ``.shape``."""

    loc: Loc
    dims: Optional[list[Expr]] = None
    of: Optional[str] = None


@dataclass(eq=False)
class Alloc:
    """``name = output_tensor(shape, dtype)`` (kind "output") or ``allocate`` (kind "temp")."""

    loc: Loc
    name: str
    kind: str
    shape: Shape
    dtype: DType


@dataclass(eq=False)
class Store:
    """``tensor[indices] = value`` (augmented assignments are expanded)."""

    loc: Loc
    tensor: str
    indices: list[Expr]
    value: Expr
    grid: Optional[str] = None


@dataclass(eq=False)
class Assign:
    """``name = value`` for a scalar; ``declare`` marks the first assignment."""

    loc: Loc
    name: str
    value: Expr
    declare: bool = False


@dataclass(eq=False)
class For:
    """A loop; ``kind`` is range/serial/parallel/vectorize/reduce/grid.

    For grid loops ``grid_shape`` is the extents and start/stop/step are unused.
    """

    loc: Loc
    var: str
    kind: str
    start: Optional[Expr]
    stop: Optional[Expr]
    step: Optional[Expr]
    body: list["Stmt"]
    grid_shape: Optional[Shape] = None
    grid_names: list[str] = field(default_factory=list)
    decls: list[str] = field(default_factory=list)


@dataclass(eq=False)
class If:
    """``if cond: then else: orelse`` (elif is a nested If in orelse)."""

    loc: Loc
    cond: Expr
    then: list["Stmt"]
    orelse: list["Stmt"]


Stmt = Union[Alloc, Store, Assign, For, If]


@dataclass(eq=False)
class Kernel:
    """A parsed kernel: parameters, body, returned names, and source info for messages.

    ``decls`` are the scalar variables declared at function level; each For has its own.
    """

    name: str
    params: list[str]
    body: list[Stmt]
    returns: list[str]
    return_loc: Loc
    filename: str
    lines: dict[int, str]
    def_line: int
    decls: list[str] = field(default_factory=list)
    allocs: dict[str, Alloc] = field(default_factory=dict)

    def error(self, loc: Optional[Loc], reason: str, allowed: str = "") -> HybridError:
        """A :class:`HybridError` for this kernel at ``loc`` = (file line, 1-based column)."""
        where = None
        if loc is not None:
            where = SourceLocation(self.filename, loc[0], loc[1], self.lines.get(loc[0]))
        return HybridError(reason, where, kernel=self.name, allowed=allowed)

    @property
    def outputs(self) -> list[str]:
        """Names of the tensors declared by ``output_tensor``, in declaration order."""
        return [n for n, a in self.allocs.items() if a.kind == "output"]


def walk_stmts(stmts: list[Stmt]):
    """Yield every statement, depth first, in source order.

    Example:
        >>> s = Assign((1, 1), "a", Const((1, 5), 1))
        >>> [type(x).__name__ for x in walk_stmts([If((1, 1), Const((1, 4), True), [s], [])])]
        ['If', 'Assign']
    """
    for s in stmts:
        yield s
        if isinstance(s, For):
            yield from walk_stmts(s.body)
        elif isinstance(s, If):
            yield from walk_stmts(s.then)
            yield from walk_stmts(s.orelse)


def walk_exprs(e: Expr):
    """Yield ``e`` and all its sub-expressions.

    Example:
        >>> [type(x).__name__ for x in walk_exprs(BinOp((1, 1), "+", Var((1, 1), "a"), Const((1, 5), 1)))]
        ['BinOp', 'Var', 'Const']
    """
    yield e
    if isinstance(e, (BinOp, Compare)):
        yield from walk_exprs(e.left)
        yield from walk_exprs(e.right)
    elif isinstance(e, UnaryOp):
        yield from walk_exprs(e.operand)
    elif isinstance(e, BoolOp):
        for v in e.values:
            yield from walk_exprs(v)
    elif isinstance(e, Select):
        yield from walk_exprs(e.cond)
        yield from walk_exprs(e.then)
        yield from walk_exprs(e.orelse)
    elif isinstance(e, Call):
        for a in e.args:
            yield from walk_exprs(a)
    elif isinstance(e, Load):
        for i in e.indices:
            yield from walk_exprs(i)


def operands(e: Expr) -> list[Expr]:
    """The operands of an operator, comparison or intrinsic call (``[]`` for anything else: a Load's indices,
    a Select's or BoolOp's parts are not operands here -- what evaluates them depends on a condition).

    Example:
        >>> [type(x).__name__ for x in operands(BinOp((1, 1), "+", Var((1, 1), "a"), Const((1, 5), 1)))]
        ['Var', 'Const']
    """
    if isinstance(e, (BinOp, Compare)):
        return [e.left, e.right]
    if isinstance(e, UnaryOp):
        return [e.operand]
    if isinstance(e, Call):
        return list(e.args)
    return []


def stmt_exprs(s: Stmt) -> list[Expr]:
    """The expressions directly inside statement ``s`` (not inside nested statements).

    Example:
        >>> [type(x).__name__ for x in stmt_exprs(Assign((1, 1), "a", Const((1, 5), 1)))]
        ['Const']
    """
    if isinstance(s, Store):
        return [*s.indices, s.value]
    if isinstance(s, Assign):
        return [s.value]
    if isinstance(s, If):
        return [s.cond]
    shape = s.grid_shape if isinstance(s, For) else s.shape
    out: list[Expr] = list(shape.dims or []) if shape is not None else []
    if isinstance(s, For):
        out += [e for e in (s.start, s.stop, s.step) if e is not None]
    return out
