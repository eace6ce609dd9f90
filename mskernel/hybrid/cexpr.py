"""C++ text for typed DSL expressions.

Every expression is emitted in the C++ *compute type* of its DSL type (float16 computes in
float, weak ints in int64_t, weak floats in double) and converted explicitly where numpy
would convert: operands are converted to the operation's type, literals are written directly
in the type they take (``0.5f`` next to a float32), results of narrow integer types wrap like
numpy (``(int8_t)(a + b)``), and a conversion to float16 rounds through ``_Float16``.

Example:
    >>> from mskernel.hybrid import ir
    >>> literal(0.1, "float16"), literal(3, "float32"), literal(2, "int8")
    ('0.0999755859375f', '3.0f', '(int8_t)2')
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from . import ir
from .check import Typed
from .dtypes import compute_ctype, ctype, is_float, is_int, is_weak, join
from .intrinsics import INTRINSICS

__all__ = ["literal", "ExprEmitter", "NARROW", "bare"]

#: result types whose C++ arithmetic is done in int and must be wrapped back
NARROW = ("bool", "int8", "int16", "uint8", "uint16")


def literal(value: object, t: str) -> str:
    """A C++ literal of DSL type ``t`` holding the Python literal ``value`` as numpy would.

    Example:
        >>> literal(True, "bool"), literal(7, "int"), literal(1.5, "float64")
        ('true', 'INT64_C(7)', '1.5')
    """
    if t == "bool":
        return "true" if value else "false"
    if is_float(t):
        v = float(np.dtype("float16").type(value)) if t == "float16" else float(value)  # type: ignore[arg-type]
        if t == "float32":
            v = float(np.float32(v))
        suffix = "f" if compute_ctype(t) == "float" else ""
        if math.isinf(v):
            return ("-" if v < 0 else "") + ("__builtin_inff()" if suffix else "__builtin_inf()")
        if math.isnan(v):
            return "__builtin_nanf(\"\")" if suffix else "__builtin_nan(\"\")"
        text = repr(v)
        if "e" not in text and "." not in text:
            text += ".0"
        return text + suffix
    v = int(value)  # type: ignore[call-overload]
    c = compute_ctype(t)
    if c == "int32_t" and -2**31 < v < 2**31:
        return str(v)
    if c in ("int64_t",):
        return f"INT64_C({v})"
    if c == "uint64_t":
        return f"UINT64_C({v})"
    return f"({c}){v}"


class ExprEmitter:
    """Turns typed expressions into C++ strings.

    ``name`` maps DSL names (variables, attrs, grid components) to C++ identifiers and
    ``access`` renders ``tensor[indices]`` (plain or bounds-checked) given C++ index strings.
    """

    def __init__(self, typed: Typed, name: Callable[[str], str],
                 access: Callable[[ir.Load | ir.Store, list[str]], str],
                 grid_component: Callable[[str, int], str]):
        self.t = typed
        self.name = name
        self.access = access
        self.grid_component = grid_component

    # ------------------------------------------------------------------ conversions
    def as_type(self, e: ir.Expr, t: str) -> str:
        """``e`` converted to the compute type of DSL type ``t``."""
        if isinstance(e, ir.Const):
            return literal(e.value, t)
        src = self.t.type_of(e)
        code = self.emit(e)
        return convert(code, src, t)

    def index(self, e: ir.Expr) -> str:
        """``e`` as an int64_t index."""
        if isinstance(e, ir.Const):
            return str(int(e.value))
        t = self.t.type_of(e)
        code = self.emit(e)
        return code if compute_ctype(t) == "int64_t" else f"(int64_t){code}"

    def indices(self, node: ir.Load | ir.Store) -> list[str]:
        if node.grid is not None:
            return [self.grid_component(node.grid, k) for k in range(self.t.grid_ranks[node.grid])]
        return [self.index(i) for i in node.indices]

    # ------------------------------------------------------------------ expressions
    def emit(self, e: ir.Expr) -> str:
        return getattr(self, "e_" + type(e).__name__)(e)

    def e_Const(self, e: ir.Const) -> str:
        return literal(e.value, self.t.type_of(e))

    def e_Var(self, e: ir.Var) -> str:
        code = self.name(e.name)
        return f"(float){code}" if self.t.var_types.get(e.name) == "float16" else code

    def e_Param(self, e: ir.Param) -> str:
        return self.name(e.name)

    def e_Load(self, e: ir.Load) -> str:
        code = self.access(e, self.indices(e))
        return f"(float){code}" if self.t.tensors[e.tensor].dtype == "float16" else code

    def e_ShapeDim(self, e: ir.ShapeDim) -> str:
        rank = self.t.tensors[e.tensor].rank
        return f"{self.name(e.tensor)}_n{e.dim % rank}"

    def e_Rank(self, e: ir.Rank) -> str:
        return literal(self.t.tensors[e.tensor].rank, "int")

    def e_GridComponent(self, e: ir.GridComponent) -> str:
        return self.grid_component(e.var, e.index % self.t.grid_ranks[e.var])

    def e_BinOp(self, e: ir.BinOp) -> str:
        r = self.t.type_of(e)
        a, b = self.as_type(e.left, r), self.as_type(e.right, r)
        c = compute_ctype(r)
        if e.op == "//":
            code = f"mskh::floordiv<{c}>({a}, {b})"
        elif e.op == "%":
            code = f"mskh::mod<{c}>({a}, {b})"
        elif e.op == "**":
            code = f"mskh::power<{c}>({a}, {b})"
        else:
            code = f"({a} {e.op} {b})"
        return self.wrap(code, r)

    def wrap(self, code: str, r: str) -> str:
        if r in NARROW:
            return f"({compute_ctype(r)}){code}"
        return code

    def e_Compare(self, e: ir.Compare) -> str:
        t = join(self.t.type_of(e.left), self.t.type_of(e.right)) or "float"
        return f"({self.as_type(e.left, t)} {e.op} {self.as_type(e.right, t)})"

    def e_BoolOp(self, e: ir.BoolOp) -> str:
        op = " && " if e.op == "and" else " || "
        return "(" + op.join(self.emit(v) for v in e.values) + ")"

    def e_UnaryOp(self, e: ir.UnaryOp) -> str:
        if e.op == "not":
            return f"(!{self.emit(e.operand)})"
        r = self.t.type_of(e)
        return self.wrap(f"({e.op}{self.as_type(e.operand, r)})", r)

    def e_Select(self, e: ir.Select) -> str:
        r = self.t.type_of(e)
        return f"({self.emit(e.cond)} ? {self.as_type(e.then, r)} : {self.as_type(e.orelse, r)})"

    def e_Call(self, e: ir.Call) -> str:
        r = self.t.type_of(e)
        kind = INTRINSICS[e.func].kind
        if kind == "cast":
            return self.as_type(e.args[0], r) if not isinstance(e.args[0], ir.Const) else literal(e.args[0].value, r)
        if kind == "minmax":
            fn = "mskh::pymax" if e.func == "max" else "mskh::pymin"
            code = self.as_type(e.args[0], r)
            for a in e.args[1:]:
                code = f"{fn}<{compute_ctype(r)}>({code}, {self.as_type(a, r)})"
            return code
        if kind == "binary":
            op_t = r if is_float(r) else join(*(self.t.type_of(a) for a in e.args)) or r
            a, b = (self.as_type(x, op_t) for x in e.args)
            c = compute_ctype(op_t)
            fn = {"power": f"mskh::power<{c}>", "atan2": "mskh::atan2", "ceil_div": f"mskh::ceil_div<{c}>"}[e.func]
            return self.wrap(f"{fn}({a}, {b})", r)
        arg_t = self.t.type_of(e.args[0])
        op_t = arg_t if r == "bool" else r
        a = self.as_type(e.args[0], op_t)
        fn = f"mskh::{e.func}"
        if e.func not in ("sqrt", "exp", "expm1", "log", "sin", "cos", "tanh", "atan", "erf"):
            fn += f"<{compute_ctype(op_t)}>"
        return self.wrap(f"{fn}({a})", r)


def convert(code: str, src: str, dst: str) -> str:
    """C++ converting ``code`` (compute type of ``src``) to the compute type of ``dst``.

    Example:
        >>> convert("x", "float64", "float16"), convert("i", "int", "float32"), convert("a", "float32", "float32")
        ('(float)(_Float16)(x)', '(float)i', 'a')
    """
    if dst == "float16" and src != "float16":
        return f"(float)(_Float16)({code})"
    if compute_ctype(src) == compute_ctype(dst):
        return code
    if dst == "bool":
        return f"(bool)({code})"
    return f"({compute_ctype(dst)}){code}"


def storage_cast(code: str, src: str, dst: str) -> str:
    """C++ storing ``code`` (compute type of ``src``) into storage of dtype ``dst``.

    Example:
        >>> storage_cast("v", "float32", "float16"), storage_cast("v", "float32", "float32")
        ('(_Float16)(v)', 'v')
    """
    if dst == "float16":
        return f"(_Float16)({code})"
    if compute_ctype(src) == ctype(dst) or (is_weak(src) and is_int(src) and ctype(dst) == "int64_t"):
        return code
    return f"({ctype(dst)})({code})"


def bare(code: str) -> str:
    """``code`` without one pair of parentheses enclosing all of it.

    Example:
        >>> bare("(a + b)"), bare("(a) + (b)")
        ('a + b', '(a) + (b)')
    """
    if not (code.startswith("(") and code.endswith(")")):
        return code
    depth = 0
    for i, ch in enumerate(code):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(code) - 1:
            return code
    return code[1:-1]
