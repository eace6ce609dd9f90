"""Per-signature checking: attach dtypes and ranks to a parsed kernel.

Given the dtypes and ranks of the tensor inputs and the Python types of the attributes,
:func:`specialize` types every expression (numpy's rules via :mod:`mskernel.hybrid.dtypes`,
plus the DSL's "no implicit cast between different dtypes"), checks index counts against
ranks, infers the dtype of every scalar variable (a variable first assigned a literal takes
the dtype of the first typed value assigned to it, as in the Python emulation) and records
which output shapes are computable from input shapes and attributes alone.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> from mskernel.hybrid.parse import parse
    >>> k = parse(KernelSource.from_text(
    ...     "def f(x, s):\\n    y = output_tensor(x.shape, x.dtype)\\n"
    ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * s\\n    return y\\n"))
    >>> t = specialize(k, Signature(("float32",), (1,), ("float",)))
    >>> t.tensors["y"].dtype, t.tensors["y"].rank, t.attrs["s"]
    ('float32', 1, (0, 'float'))
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import NoReturn, Optional

import numpy as np

from . import ir
from .dtypes import binary_result, call_result, is_float, is_int, is_weak, join
from .intrinsics import INTRINSICS

__all__ = ["Signature", "TensorInfo", "Typed", "specialize"]

_UNARY_FNS = {"-": operator.neg, "+": operator.pos, "~": operator.invert}


@dataclass(frozen=True)
class Signature:
    """What a compiled kernel is specialized on: tensor dtypes and ranks, attr types, debug.

    Example:
        >>> Signature(("float32", "float32"), (2, 2), ()).tensor_count
        2
    """

    dtypes: tuple[str, ...]
    ranks: tuple[int, ...]
    attr_types: tuple[str, ...] = ()
    debug: bool = False

    @property
    def tensor_count(self) -> int:
        """Number of tensor parameters (the first parameters of the kernel)."""
        return len(self.dtypes)


@dataclass
class TensorInfo:
    """A tensor of the kernel: its kind (input/output/temp), dtype, rank and position."""

    name: str
    kind: str
    dtype: str
    rank: int
    index: int


@dataclass
class Typed:
    """A kernel specialized to one signature: everything code generation needs.

    Example:
        >>> from mskernel.hybrid import HybridKernel
        >>> hk = HybridKernel.from_source("def f(x):\\n    y = output_tensor(x.shape, x.dtype)\\n"
        ...     "    for i in range(x.shape[0]):\\n        y[i] = x[i] * 2.0\\n    return y\\n")
        >>> typed = hk.specialize(hk.signature(["float32"], [1]))
        >>> typed.signature.dtypes, typed.tensors["y"]
        (('float32',), TensorInfo(name='y', kind='output', dtype='float32', rank=1, index=0))
    """

    kernel: ir.Kernel
    signature: Signature
    tensors: dict[str, TensorInfo]
    attrs: dict[str, tuple[int, str]]
    var_types: dict[str, str]
    types: dict[int, str] = field(default_factory=dict)
    grid_ranks: dict[str, int] = field(default_factory=dict)
    static: dict[str, ir.Expr] = field(default_factory=dict)

    def type_of(self, e: ir.Expr) -> str:
        """The type of an expression of this kernel."""
        return self.types[id(e)]


class _Checker:
    def __init__(self, kernel: ir.Kernel, sig: Signature):
        self.k = kernel
        self.sig = sig
        n = sig.tensor_count
        if n + len(sig.attr_types) != len(kernel.params):
            self.fail((kernel.def_line, 1), f"the kernel takes {len(kernel.params)} "
                      f"inputs, but got {n} tensors and {len(sig.attr_types)} attributes")
        self.tensors = {p: TensorInfo(p, "input", d, r, i)
                        for i, (p, d, r) in enumerate(zip(kernel.params, sig.dtypes, sig.ranks))}
        self.attrs = {p: (i, t) for i, (p, t) in enumerate(zip(kernel.params[n:], sig.attr_types))}
        self.var_types: dict[str, str] = {}
        self.types: dict[int, str] = {}
        self.grid_ranks: dict[str, int] = {}
        self.static: dict[str, ir.Expr] = {}
        counts: dict[str, int] = {}
        for s in ir.walk_stmts(kernel.body):
            if isinstance(s, ir.Assign):
                counts[s.name] = counts.get(s.name, 0) + 1
        self.single = {name for name, c in counts.items() if c == 1}

    def fail(self, loc: ir.Loc, message: str) -> NoReturn:
        raise self.k.error(loc, message)

    def run(self) -> Typed:
        for _ in range(len(self.single) + 8):
            before = dict(self.var_types)
            self.types = {}
            self.static = {}
            self.tensors = {n: t for n, t in self.tensors.items() if t.kind == "input"}
            self.stmts(self.k.body, top=True)
            if before == self.var_types:
                break
        return Typed(self.k, self.sig, self.tensors, self.attrs, self.var_types, self.types,
                     self.grid_ranks, self.static)

    # ------------------------------------------------------------------ statements
    def stmts(self, body: list[ir.Stmt], top: bool = False) -> None:
        for s in body:
            getattr(self, "stmt_" + type(s).__name__)(s, top)

    def stmt_Alloc(self, s: ir.Alloc, top: bool) -> None:
        rank = self.shape(s.shape, s.kind == "output")
        if s.dtype.of is not None:
            dtype = self.tensor(s.dtype.of, s.dtype.loc).dtype
        else:
            dtype = s.dtype.name  # type: ignore[assignment]
        if s.kind == "output":
            index = [r for r in self.k.returns if r not in self.k.params].index(s.name)
        else:
            index = len([t for t in self.tensors.values() if t.kind == s.kind])
        self.tensors[s.name] = TensorInfo(s.name, s.kind, dtype, rank, index)

    def shape(self, shape: ir.Shape, static: bool) -> int:
        if shape.of is not None:
            info = self.tensor(shape.of, shape.loc)
            if static and info.kind == "temp":
                self.fail(shape.loc, "the shape of an output tensor must be "
                                     "computable from the input shapes and the attributes")
            return info.rank
        for d in shape.dims or []:
            t = self.expr(d)
            if not is_int(t):
                self.fail(d.loc, f"a shape must be made of integers, not {t}")
            if static and not self.is_static(d):
                self.fail(d.loc, "the shape of an output tensor must be computable "
                                 "from the input shapes and the attributes")
        return len(shape.dims or [])

    def is_static(self, e: ir.Expr) -> bool:
        for x in ir.walk_exprs(e):
            if isinstance(x, (ir.Load, ir.GridComponent)) or \
                    (isinstance(x, ir.Var) and x.name not in self.static):
                return False
            if isinstance(x, (ir.ShapeDim, ir.Rank)) and self.tensors[x.tensor].kind == "temp":
                return False
            if isinstance(x, ir.Call) and INTRINSICS[x.func].kind not in ("minmax", "binary", "cast"):
                return False
        return True

    def stmt_Store(self, s: ir.Store, top: bool) -> None:
        info = self.access(s.tensor, s.indices, s.grid, s.loc)
        vt = self.expr(s.value)
        if not is_weak(vt) and vt != info.dtype:
            self.fail(s.value.loc, f"cannot store a value of dtype {vt} into the "
                                   f"tensor {s.tensor} of dtype {info.dtype}: cast it explicitly, "
                                   f"e.g. {info.dtype}(...)")
        self.check_literal(s.value, info.dtype)

    def stmt_Assign(self, s: ir.Assign, top: bool) -> None:
        vt = self.expr(s.value)
        old = self.var_types.get(s.name)
        new = vt if old is None else join(old, vt)
        if new is None or (old is not None and not is_weak(old) and new != old):
            self.fail(s.loc, f"the variable {s.name} has dtype {old} but is assigned "
                             f"a value of dtype {vt}: there is no implicit cast between different "
                             f"dtypes, cast explicitly, e.g. {old}(...)")
        self.var_types[s.name] = new
        if top and s.name in self.single and self.is_static(s.value):
            self.static[s.name] = s.value

    def stmt_For(self, s: ir.For, top: bool) -> None:
        if s.kind == "grid":
            self.grid_ranks[s.var] = self.shape(s.grid_shape, False)  # type: ignore[arg-type]
        else:
            for e in (s.start, s.stop, s.step):
                t = self.expr(e)  # type: ignore[arg-type]
                if not is_int(t):
                    self.fail(e.loc, f"the bounds of a loop must be integers, not {t}")  # type: ignore[union-attr]
        self.stmts(s.body)

    def stmt_If(self, s: ir.If, top: bool) -> None:
        self.expr(s.cond)
        self.stmts(s.then)
        self.stmts(s.orelse)

    # ------------------------------------------------------------------ expressions
    def tensor(self, name: str, loc: ir.Loc) -> TensorInfo:
        if name in self.attrs:
            self.fail(loc, f"{name} is a scalar attribute ({self.attrs[name][1]}), "
                           f"not a tensor")
        return self.tensors[name]

    def access(self, name: str, indices: list[ir.Expr], grid: Optional[str], loc: ir.Loc) -> TensorInfo:
        info = self.tensor(name, loc)
        count = self.grid_ranks[grid] if grid is not None else len(indices)
        if count != info.rank:
            self.fail(loc, f"the tensor {name} has {info.rank} dimension(s) but is "
                           f"indexed with {count} index(es): index every dimension")
        for i in indices:
            t = self.expr(i)
            if not is_int(t):
                self.fail(i.loc, f"an index must be an integer, not {t}")
        return info

    def expr(self, e: ir.Expr) -> str:
        t = getattr(self, "expr_" + type(e).__name__)(e)
        self.types[id(e)] = t
        return t

    def expr_Const(self, e: ir.Const) -> str:
        return "bool" if isinstance(e.value, bool) else "int" if isinstance(e.value, int) else "float"

    def expr_Var(self, e: ir.Var) -> str:
        return self.var_types.get(e.name, "int")

    def expr_Param(self, e: ir.Param) -> str:
        if e.name not in self.attrs:
            self.fail(e.loc, f"the tensor {e.name} cannot be used as a scalar: "
                             f"index it ({e.name}[...])")
        return self.attrs[e.name][1]

    def expr_Load(self, e: ir.Load) -> str:
        return self.access(e.tensor, e.indices, e.grid, e.loc).dtype

    def expr_ShapeDim(self, e: ir.ShapeDim) -> str:
        rank = self.tensor(e.tensor, e.loc).rank
        if not -rank <= e.dim < rank:
            self.fail(e.loc, f"the tensor {e.tensor} has {rank} dimension(s): "
                             f"{e.tensor}.shape[{e.dim}] is out of range")
        return "int"

    def expr_Rank(self, e: ir.Rank) -> str:
        self.tensor(e.tensor, e.loc)
        return "int"

    def expr_GridComponent(self, e: ir.GridComponent) -> str:
        rank = self.grid_ranks[e.var]
        if not -rank <= e.index < rank:
            self.fail(e.loc, f"the grid variable has {rank} component(s): index "
                             f"{e.index} is out of range")
        return "int"

    def common(self, op: str, a: ir.Expr, b: ir.Expr, loc: ir.Loc) -> str:
        ta, tb = self.expr(a), self.expr(b)
        if join(ta, tb) is None:
            self.fail(loc, f"the operands of '{op}' have different dtypes {ta} and "
                           f"{tb}: there is no implicit cast, cast one explicitly, e.g. {ta}(...)")
        self.check_literal(a, tb)
        self.check_literal(b, ta)
        return join(ta, tb)  # type: ignore[return-value]

    def check_literal(self, e: ir.Expr, other: str) -> None:
        if isinstance(e, ir.Const) and type(e.value) is int and is_int(other) and not is_weak(other):
            info = np.iinfo(other)
            if not info.min <= e.value <= info.max:
                self.fail(e.loc, f"the literal {e.value} is out of range for {other}")

    def expr_BinOp(self, e: ir.BinOp) -> str:
        self.common(e.op, e.left, e.right, e.loc)
        ta, tb = self.types[id(e.left)], self.types[id(e.right)]
        r = binary_result(e.op, ta, tb)
        if r is None:
            self.fail(e.loc, f"the operator '{e.op}' is not supported for {ta} and {tb}")
        return r

    def expr_Compare(self, e: ir.Compare) -> str:
        self.common(e.op, e.left, e.right, e.loc)
        return "bool"

    def expr_BoolOp(self, e: ir.BoolOp) -> str:
        for v in e.values:
            self.expr(v)
        return "bool"

    def expr_UnaryOp(self, e: ir.UnaryOp) -> str:
        t = self.expr(e.operand)
        if e.op == "not":
            return "bool"
        r = call_result(_UNARY_FNS[e.op], (t,))
        if r is None:
            self.fail(e.loc, f"the operator '{e.op}' is not supported for {t}")
        return r

    def expr_Select(self, e: ir.Select) -> str:
        self.expr(e.cond)
        ta, tb = self.expr(e.then), self.expr(e.orelse)
        r = join(ta, tb)
        if r is None:
            self.fail(e.loc, f"the two values of the conditional expression have "
                             f"different dtypes {ta} and {tb}: cast one explicitly, e.g. {ta}(...)")
        self.check_literal(e.then, tb)
        self.check_literal(e.orelse, ta)
        return r

    def expr_Call(self, e: ir.Call) -> str:
        intr = INTRINSICS[e.func]
        if intr.kind == "cast":
            t = self.expr(e.args[0])
            if not (is_int(t) or is_float(t) or t == "bool"):
                self.fail(e.loc, f"cannot cast {t} to {e.func}")
            return e.func
        if intr.kind == "unary":
            t = self.expr(e.args[0])
            r = call_result(intr.fn, (t,))
            if r is None:
                self.fail(e.loc, f"{e.func} is not defined for {t}")
            return r
        joined = self.expr(e.args[0])
        for a in e.args[1:]:
            tb = self.expr(a)
            j = join(joined, tb)
            if j is None:
                self.fail(e.loc, f"the inputs of {e.func} have different dtypes "
                                 f"{joined} and {tb}: cast one explicitly, e.g. {joined}(...)")
            joined = j
        for a in e.args:
            self.check_literal(a, joined)
        if intr.kind == "minmax":
            return joined
        ta, tb = (self.types[id(a)] for a in e.args)
        r = call_result(intr.fn, (ta, tb))
        if r is None:
            self.fail(e.loc, f"{e.func} is not defined for {ta} and {tb}")
        return r


def specialize(kernel: ir.Kernel, signature: Signature) -> Typed:
    """Type-check ``kernel`` for one signature; raise HybridError at the offending line.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> from mskernel.hybrid.parse import parse
        >>> k = parse(KernelSource.from_text("def f(a, b):\\n    c = output_tensor(a.shape, a.dtype)\\n"
        ...     "    for i in range(a.shape[0]):\\n        c[i] = a[i] + b[i]\\n    return c\\n", "f"))
        >>> try:
        ...     specialize(k, Signature(("float32", "int32"), (1, 1)))
        ... except TypeError as e:
        ...     print(e.location.line, "different dtypes float32 and int32" in e.reason)
        4 True
    """
    return _Checker(kernel, signature).run()
