"""Python ``ast`` -> kernel IR, enforcing the structural rules of the hybrid DSL.

One visitor method per construct (TVM hybrid parser style); everything without a method is
rejected with a precise message at its line and column. Checked here, before any types are
known: unsupported syntax (while/break/continue, ...), unknown names and intrinsics, arity,
scalar scoping (MindSpore's rules: a scalar is declared by its first assignment and lives in
the innermost enclosing ``for``), loop-variable overwrites, multiple assignment, tensor
redefinition, getattr rules, return rules and writes to inputs that are not returned.
Types, ranks and dtype mixes are checked per signature by :mod:`mskernel.hybrid.check`.

Example:
    >>> from mskernel.hybrid.source import KernelSource
    >>> text = "def add(a, b):\\n    c = output_tensor(a.shape, a.dtype)\\n" \\
    ...        "    for i in range(a.shape[0]):\\n        c[i] = a[i] + b[i]\\n    return c\\n"
    >>> k = parse(KernelSource.from_text(text))
    >>> k.params, k.returns, type(k.body[1]).__name__
    (['a', 'b'], ['c'], 'For')
"""
from __future__ import annotations

import ast
from typing import NoReturn, Optional, Union

from . import ir
from .dtypes import normalize_dtype
from .intrinsics import INTRINSICS, LOOP_KINDS
from .source import KernelSource

__all__ = ["parse"]

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
_KEYWORDS = {ast.While: "while", ast.Break: "break", ast.Continue: "continue"}
_URL = "For the full support list, please refer to 'Hybrid DSL' at https://www.mindspore.cn."


class _FunctionScope:
    """The function body as a scope (the root of the scope stack)."""

    def __init__(self) -> None:
        self.decls: list[str] = []


Scope = Union[_FunctionScope, ir.For]


class _Parser(ast.NodeVisitor):
    def __init__(self, src: KernelSource, akg: bool = False):
        self.src = src
        self.akg = akg
        self.name = src.name
        self.prefix = f"In the function {self.name} written in the Hybrid DSL, "
        self.params: list[str] = []
        self.allocs: dict[str, ir.Alloc] = {}
        self.scopes: list[Scope] = [_FunctionScope()]
        self.status: dict[str, Scope] = {}         # scalar (or temp tensor) -> declaring scope
        self.loops: dict[str, ir.For] = {}         # active loop variables
        self.grid_alias: dict[str, tuple[str, int]] = {}
        self.param_writes: dict[str, ir.Loc] = {}
        self.returns: Optional[list[str]] = None
        self.return_loc: ir.Loc = (0, 0)
        self.conditional_depth = 0

    # ------------------------------------------------------------------ helpers
    def loc(self, node: ast.AST) -> ir.Loc:
        return self.src.node_loc(node)

    def fail(self, node: Union[ast.AST, ir.Loc, None], message: str) -> NoReturn:
        loc = node if isinstance(node, tuple) or node is None else self.loc(node)
        k = ir.Kernel(self.name, [], [], [], (0, 0), self.src.filename, self.src.lines, 0)
        raise k.error(loc, message)

    def generic_visit(self, node: ast.AST) -> NoReturn:
        kind = "statement" if isinstance(node, ast.stmt) else "expression"
        self.fail(node, f"{self.prefix}the {kind} '{type(node).__name__}' is not supported")

    def body(self, stmts: list[ast.stmt]) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for s in stmts:
            if self.returns is not None:
                self.fail(s, f"{self.prefix}statements after the return statement are not allowed")
            out.extend(self.visit(s))
        return out

    def is_tensor(self, name: str) -> bool:
        return name in self.allocs or name in self.params

    def check_visible(self, node: ast.AST, name: str) -> None:
        scope = self.status[name]
        if not any(scope is s for s in self.scopes):
            self.fail(node, f"{self.prefix}there is a variable used out of the scope it is defined: {name}")

    # ------------------------------------------------------------------ function
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ir.Kernel:
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            self.fail(node, f"{self.prefix}parameters must be plain positional names "
                            f"(no defaults, *args, **kwargs or keyword-only parameters)")
        self.params = [p.arg for p in a.args]
        for p in a.args:
            if p.arg in INTRINSICS:
                self.fail(p, f"{self.prefix}the parameter name '{p.arg}' is an intrinsic of the DSL")
        body = self.body(node.body)
        if self.returns is None:
            self.fail(node, f"{self.prefix}the kernel must end with a return statement that "
                            f"returns its output tensors")
        for out in self.allocs.values():
            if out.kind == "output" and out.name not in self.returns:
                self.fail(self.return_loc, f"{self.prefix}the tensor is allocated as an output "
                                           f"tensor but not in the return value: {out.name}")
        for p, loc in self.param_writes.items():
            if p not in self.returns:
                self.fail(loc, f"{self.prefix}the input tensor {p} is read-only: an input may be "
                               f"written only if the kernel returns it (in-place output)")
        root = self.scopes[0]
        return ir.Kernel(self.name, self.params, body, self.returns, self.return_loc,
                         self.src.filename, self.src.lines, self.loc(node)[0], root.decls,
                         self.allocs)

    # ------------------------------------------------------------------ statements
    def visit_Expr(self, node: ast.Expr) -> list[ir.Stmt]:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # docstring
        self.fail(node, f"{self.prefix}an expression statement has no effect; assign its value")

    def visit_Pass(self, node: ast.Pass) -> list[ir.Stmt]:
        return []

    def _keyword(self, node: ast.stmt) -> NoReturn:
        raise_type = _KEYWORDS[type(node)]
        self.fail(node, f"Keyword '{raise_type}' not accepted in the function {self.name} "
                        f"written in the Hybrid DSL!")

    visit_While = visit_Break = visit_Continue = _keyword

    def visit_Return(self, node: ast.Return) -> list[ir.Stmt]:
        if len(self.scopes) > 1 or self.conditional_depth:
            self.fail(node, f"{self.prefix}return is only allowed as the last statement of the kernel")
        value = node.value
        if isinstance(value, ast.Name):
            elts = [value]
        elif isinstance(value, ast.Tuple):
            elts = value.elts
            for e in elts:
                if not isinstance(e, ast.Name):
                    self.fail(e, f"{self.prefix}the element in the return value should be the "
                                 f"name of a tensor, but get a {type(e)}.")
        else:
            self.fail(value or node, f"{self.prefix}the return value should be either a single "
                                     f"tensor or a tuple, but get a {type(value)}.")
        names = [e.id for e in elts]  # type: ignore[attr-defined]
        for e, n in zip(elts, names):
            if n not in self.params and not (n in self.allocs and self.allocs[n].kind == "output"):
                self.fail(e, f"{self.prefix}the element in the return value should be either an "
                             f"input tensor or a tensor allocated by output_tensor, but get name: {n}")
            if names.count(n) > 1:
                self.fail(e, f"{self.prefix}the tensor {n} is returned more than once")
        self.returns = names
        self.return_loc = self.loc(node)
        return []

    def visit_Assign(self, node: ast.Assign) -> list[ir.Stmt]:
        if len(node.targets) > 1:
            self.fail(node, f"One statement with multiple assignments is not allowed in the "
                            f"function {self.name} written in the Hybrid DSL.")
        target = node.targets[0]
        if isinstance(target, ast.Subscript):
            tensor, indices, grid = self.subscript(target, store=True)
            return [ir.Store(self.loc(node), tensor, indices, self.visit(node.value), grid)]
        if not isinstance(target, ast.Name):
            self.fail(target, f"{self.prefix}only a name or a tensor element can be assigned, "
                              f"not a {type(target).__name__}")
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                and value.func.id in ("output_tensor", "allocate"):
            return [self.alloc(node, target.id, value)]
        return [self.assign_scalar(node, target, self.visit(value))]

    def visit_AugAssign(self, node: ast.AugAssign) -> list[ir.Stmt]:
        op = _BINOPS.get(type(node.op))
        if op is None:
            self.fail(node, f"{self.prefix}the operator {type(node.op).__name__} is not supported")
        loc = self.loc(node)
        target = node.target
        if isinstance(target, ast.Subscript):
            tensor, indices, grid = self.subscript(target, store=True)
            old = ir.Load(self.loc(target), tensor, indices, grid)
            return [ir.Store(loc, tensor, indices, ir.BinOp(loc, op, old, self.visit(node.value)), grid)]
        if not isinstance(target, ast.Name):
            self.fail(target, f"{self.prefix}only a name or a tensor element can be assigned")
        current = self.visit_Name(ast.Name(id=target.id, ctx=ast.Load(), lineno=target.lineno,
                                           col_offset=target.col_offset))
        value = ir.BinOp(loc, op, current, self.visit(node.value))
        return [self.assign_scalar(node, target, value)]

    def assign_scalar(self, node: ast.AST, target: ast.Name, value: ir.Expr) -> ir.Assign:
        name = target.id
        if name in self.loops or name in self.grid_alias:
            self.fail(target, f"{self.prefix}iter var cannot be overwritten: {name}")
        if name in self.allocs:
            self.fail(target, f"{self.prefix}the tensor is redefined: {name}")
        if name in self.params:
            self.fail(target, f"{self.prefix}the parameter {name} cannot be assigned")
        if name in INTRINSICS:
            self.fail(target, f"{self.prefix}'{name}' is an intrinsic of the DSL and cannot be assigned")
        declare = name not in self.status
        if declare:
            self.status[name] = self.scopes[-1]
            self.scopes[-1].decls.append(name)
        else:
            self.check_visible(target, name)
        return ir.Assign(self.loc(node), name, value, declare)

    def alloc(self, node: ast.Assign, name: str, call: ast.Call) -> ir.Alloc:
        kind = "output" if call.func.id == "output_tensor" else "temp"  # type: ignore[attr-defined]
        if kind == "temp" and self.akg:  # akg itself also takes the memory scope: allocate(shape, dtype, "local")
            call = self.drop_scope(call)
        if len(call.args) != 2 or call.keywords:
            self.fail(call, f"In the function [{self.name}], function [{call.func.id}] expects two "  # type: ignore[attr-defined]
                            f"inputs, but get {len(call.args) + len(call.keywords)}.")
        if self.is_tensor(name) or name in self.status:
            self.fail(node.targets[0], f"{self.prefix}the tensor is redefined: {name}")
        if name in self.loops or name in self.grid_alias:
            self.fail(node.targets[0], f"{self.prefix}iter var cannot be overwritten: {name}")
        if kind == "output" and (len(self.scopes) > 1 or self.conditional_depth):
            self.fail(call, f"{self.prefix}output_tensor must be called at the top level of the "
                            f"kernel, not inside a loop or a branch")
        if kind == "temp" and self.conditional_depth:
            self.fail(call, f"{self.prefix}allocate cannot be called inside a branch")
        shape = self.shape(call.args[0])
        dtype = self.dtype(call.args[1])
        alloc = ir.Alloc(self.loc(node), name, kind, shape, dtype)
        self.allocs[name] = alloc
        self.status[name] = self.scopes[-1]
        return alloc

    def drop_scope(self, call: ast.Call) -> ast.Call:
        """``allocate(shape, dtype, scope)`` of an undecorated akg function: the scope must be a string."""
        scope = call.args[2] if len(call.args) == 3 else \
            next((k.value for k in call.keywords if k.arg == "scope"), None)
        if scope is None:
            return call
        if not (isinstance(scope, ast.Constant) and isinstance(scope.value, str)):
            self.fail(scope, f"{self.prefix}the scope of allocate must be a string such as 'local' or "
                             f"'global', not {ast.unparse(scope)}")
        return ast.Call(call.func, call.args[:2], [k for k in call.keywords if k.arg != "scope"])

    def visit_For(self, node: ast.For) -> list[ir.Stmt]:
        if node.orelse:
            self.fail(node.orelse[0], f"{self.prefix}for-else is not supported")
        call = node.iter
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id in LOOP_KINDS):
            self.fail(call, f"{self.prefix}a loop must iterate over range, serial, parallel, "
                            f"vectorize, reduce or grid")
        kind = call.func.id
        if call.keywords:
            self.fail(call, f"{self.prefix}{kind} takes no keyword arguments")
        names = self.loop_targets(node.target, kind)
        loop = ir.For(self.loc(node), names[0], kind, None, None, None, [])
        if kind == "grid":
            if len(call.args) != 1:
                self.fail(call, f"In the function [{self.name}], function [grid] expects one input, "
                                f"but get {len(call.args)}.")
            loop.grid_shape = self.shape(call.args[0])
        else:
            if not 1 <= len(call.args) <= 3:
                self.fail(call, f"{self.prefix}{kind} expects 1 to 3 inputs (stop / start, stop / "
                                f"start, stop, step), but get {len(call.args)}")
            args = [self.visit(a) for a in call.args]
            if len(args) == 1:
                args = [ir.Const(args[0].loc, 0)] + args
            loop.start, loop.stop = args[0], args[1]
            loop.step = args[2] if len(args) == 3 else ir.Const(loop.loc, 1)
            if isinstance(loop.step, ir.Const) and loop.step.value == 0:
                self.fail(call.args[2], f"{self.prefix}{kind}() arg 3 must not be zero")
        self.scopes.append(loop)
        if len(names) == 1:
            self.loops[names[0]] = loop
        else:
            loop.var = f"{names[0]}__grid"
            loop.grid_names = names
            self.loops[loop.var] = loop
            for k, n in enumerate(names):
                self.grid_alias[n] = (loop.var, k)
        loop.body = self.body(node.body)
        self.scopes.pop()
        self.loops.pop(loop.var)
        for n in names if len(names) > 1 else []:
            self.grid_alias.pop(n)
        return [loop]

    def loop_targets(self, target: ast.expr, kind: str) -> list[str]:
        if isinstance(target, ast.Tuple) and kind == "grid" and \
                all(isinstance(e, ast.Name) for e in target.elts):
            nodes = list(target.elts)
        elif isinstance(target, ast.Name):
            nodes = [target]
        else:
            self.fail(target, f"{self.prefix}the loop variable must be a name")
        for t in nodes:
            n = t.id  # type: ignore[attr-defined]
            if n in self.loops or n in self.grid_alias:
                self.fail(t, f"{self.prefix}iter var cannot be overwritten: {n}")
            if self.is_tensor(n) or n in INTRINSICS:
                self.fail(t, f"{self.prefix}the loop variable {n} shadows a tensor, parameter or intrinsic")
            if n in self.status and any(self.status[n] is s for s in self.scopes):
                self.fail(t, f"{self.prefix}the loop variable {n} shadows a scalar variable")
        return [t.id for t in nodes]  # type: ignore[attr-defined]

    def visit_If(self, node: ast.If) -> list[ir.Stmt]:
        cond = self.visit(node.test)
        self.conditional_depth += 1
        then = self.body(node.body)
        orelse = self.body(node.orelse)
        self.conditional_depth -= 1
        return [ir.If(self.loc(node), cond, then, orelse)]

    def visit_With(self, node: ast.With) -> list[ir.Stmt]:
        ctx = node.items[0].context_expr
        fid = ctx.func.id if isinstance(ctx, ast.Call) and isinstance(ctx.func, ast.Name) else None
        if len(node.items) != 1 or fid not in ("attr", "block_realize") or node.items[0].optional_vars:
            shown = fid or ast.unparse(ctx)
            self.fail(ctx, f"Unsupported function in With scope in the function {self.name} "
                           f"written in the Hybrid DSL: {shown} ")
        args = ctx.args  # type: ignore[union-attr]
        if fid == "attr":
            if len(args) != 2:
                self.fail(ctx, f"{self.prefix}two inputs are expected by 'attr', but get {len(args)}")
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                self.fail(args[0], f"{self.prefix}the first input of 'attr' should be a string, "
                                   f"but get {type(args[0])}")
            if not (isinstance(args[1], ast.Constant) and args[1].value is not None):
                self.fail(args[1], f"{self.prefix}the second input of 'attr' should be a string, "
                                   f"number or bool value, but get {type(args[1])}")
        else:
            if len(args) != 1:
                self.fail(ctx, f"{self.prefix}only one input is accepted by 'block_realize', but get {len(args)}")
            if not isinstance(args[0], ast.Name):
                self.fail(args[0], f"{self.prefix}the input of 'block_realize' should be a tensor "
                                   f"name, but get {type(args[0])}")
        return self.body(node.body)

    # ------------------------------------------------------------------ shapes and dtypes
    def shape(self, node: ast.expr) -> ir.Shape:
        if isinstance(node, (ast.Tuple, ast.List)):
            return ir.Shape(self.loc(node), dims=[self.visit(e) for e in node.elts])
        if isinstance(node, ast.Attribute) and node.attr == "shape":
            return ir.Shape(self.loc(node), of=self.tensor_attr(node))
        return ir.Shape(self.loc(node), dims=[self.visit(node)])

    def dtype(self, node: ast.expr) -> ir.DType:
        loc = self.loc(node)
        if isinstance(node, ast.Attribute):
            if node.attr != "dtype":
                self.fail(node, f"{self.prefix}the dtype must be a string, a dtype name or "
                                f"tensor.dtype, not .{node.attr}")
            return ir.DType(loc, of=self.tensor_attr(node))
        name = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, ast.Name) and INTRINSICS.get(node.id, None) is not None \
                and INTRINSICS[node.id].kind == "cast":
            name = node.id
        if name is None or normalize_dtype(name) != name:
            self.fail(node, f"{self.prefix}unknown dtype {ast.unparse(node)}: use a string such as "
                            f"'float32', or tensor.dtype")
        return ir.DType(loc, name=name)

    def tensor_attr(self, node: ast.Attribute) -> str:
        """Check ``t.shape`` / ``t.dtype`` with MindSpore's getattr rules; return ``t``."""
        if not isinstance(node.value, ast.Name):
            self.fail(node, f"{self.prefix}getattr is only supported for a tensor object, not for "
                            f"the object with type: {type(node.value)}")
        if not self.is_tensor(node.value.id):
            self.fail(node, f"{self.prefix}getattr is only supported for a tensor variable after "
                            f"its declaration, not for: {node.value.id}")
        if node.attr not in ("shape", "dtype"):
            self.fail(node, f"{self.prefix}a tensor object has no attribute called {node.attr}")
        if node.value.id in self.allocs:
            self.check_visible(node, node.value.id)
        return node.value.id

    # ------------------------------------------------------------------ expressions
    def visit_Constant(self, node: ast.Constant) -> ir.Const:
        if isinstance(node.value, (bool, int, float)):
            return ir.Const(self.loc(node), node.value)
        self.fail(node, f"{self.prefix}the constant {node.value!r} is not a number")

    def visit_Name(self, node: ast.Name) -> ir.Expr:
        name, loc = node.id, self.loc(node)
        if name in self.grid_alias:
            var, k = self.grid_alias[name]
            return ir.GridComponent(loc, var, k)
        if name in self.loops:
            if self.loops[name].kind == "grid":
                self.fail(node, f"{self.prefix}the grid variable {name} is an index tuple: use it "
                                f"as a whole index (t[{name}]) or take a component ({name}[0])")
            return ir.Var(loc, name)
        if name in self.params:
            return ir.Param(loc, name)
        if name in self.allocs:
            self.fail(node, f"{self.prefix}the tensor {name} cannot be used as a scalar: index it "
                            f"({name}[...])")
        if name in self.status:
            self.check_visible(node, name)
            return ir.Var(loc, name)
        if name in INTRINSICS:
            self.fail(node, f"{self.prefix}the intrinsic {name} must be called")
        hint = ""
        if name in self.src.outer_names:  # Python would find it; the compiled kernel cannot
            value = self.src.outer_names[name]
            shown = repr(value) if isinstance(value, (bool, int, float)) else type(value).__name__
            hint = (f" ({name} = {shown} outside the kernel: the Python emulation reads it, but a compiled kernel "
                    f"sees only its arguments. Pass it as a scalar attribute (an extra argument) or write the "
                    f"value here)")
        self.fail(node, f"{self.prefix}there is a undeclared variable: {name}{hint}")

    def visit_BinOp(self, node: ast.BinOp) -> ir.BinOp:
        op = _BINOPS.get(type(node.op))
        if op is None:
            self.fail(node, f"{self.prefix}the operator {type(node.op).__name__} is not supported")
        return ir.BinOp(self.loc(node), op, self.visit(node.left), self.visit(node.right))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ir.Expr:
        op = _UNARY[type(node.op)]
        operand = self.visit(node.operand)
        if op == "-" and isinstance(operand, ir.Const) and not isinstance(operand.value, bool):
            return ir.Const(self.loc(node), -operand.value)
        return ir.UnaryOp(self.loc(node), op, operand)

    def visit_Compare(self, node: ast.Compare) -> ir.Expr:
        parts: list[ir.Expr] = []
        left = self.visit(node.left)
        for op, comp in zip(node.ops, node.comparators):
            if type(op) not in _CMPOPS:
                self.fail(node, f"{self.prefix}the comparison {type(op).__name__} is not supported")
            right = self.visit(comp)
            parts.append(ir.Compare(self.loc(node), _CMPOPS[type(op)], left, right))
            left = right
        return parts[0] if len(parts) == 1 else ir.BoolOp(self.loc(node), "and", parts)

    def visit_BoolOp(self, node: ast.BoolOp) -> ir.BoolOp:
        op = "and" if isinstance(node.op, ast.And) else "or"
        return ir.BoolOp(self.loc(node), op, [self.visit(v) for v in node.values])

    def visit_IfExp(self, node: ast.IfExp) -> ir.Select:
        return ir.Select(self.loc(node), self.visit(node.test), self.visit(node.body),
                         self.visit(node.orelse))

    def visit_Attribute(self, node: ast.Attribute) -> NoReturn:
        t = self.tensor_attr(node)
        self.fail(node, f"{self.prefix}{t}.{node.attr} is not a scalar: use {t}.shape[k]"
                  if node.attr == "shape" else
                  f"{self.prefix}{t}.dtype can only be the dtype argument of output_tensor/allocate")

    def visit_Subscript(self, node: ast.Subscript) -> ir.Expr:
        base = node.value
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            tensor = self.tensor_attr(base)
            k = self.const_index(node.slice)
            return ir.ShapeDim(self.loc(node), tensor, k)
        if isinstance(base, ast.Name) and base.id in self.loops and self.loops[base.id].kind == "grid":
            return ir.GridComponent(self.loc(node), base.id, self.const_index(node.slice))
        tensor, indices, grid = self.subscript(node, store=False)
        return ir.Load(self.loc(node), tensor, indices, grid)

    def const_index(self, node: ast.expr) -> int:
        value = self.visit(node) if not isinstance(node, ast.Slice) else None
        if not (isinstance(value, ir.Const) and type(value.value) is int):
            self.fail(node, f"{self.prefix}the index of a shape or a grid variable must be an "
                            f"integer literal")
        return value.value  # type: ignore[return-value]

    def subscript(self, node: ast.Subscript, store: bool) -> tuple[str, list[ir.Expr], Optional[str]]:
        chain: list[ast.expr] = []
        base: ast.expr = node
        while isinstance(base, ast.Subscript):
            chain.insert(0, base.slice)
            base = base.value
        if not isinstance(base, ast.Name):
            self.fail(base, f"{self.prefix}only a tensor can be indexed, not {ast.unparse(base)}")
        name = base.id
        if not self.is_tensor(name):
            if name in self.status or name in self.loops:
                self.fail(base, f"{self.prefix}{name} is a scalar and cannot be indexed")
            self.fail(base, f"{self.prefix}there is a undeclared variable: {name}")
        if name in self.allocs:
            self.check_visible(base, name)
        elif store:
            self.param_writes.setdefault(name, self.loc(node))
        items: list[ast.expr] = []
        for s in chain:
            items.extend(s.elts if isinstance(s, ast.Tuple) else [s])
        if len(items) == 1 and isinstance(items[0], ast.Name) and items[0].id in self.loops \
                and self.loops[items[0].id].kind == "grid":
            return name, [], items[0].id
        indices = []
        for it in items:
            if isinstance(it, ast.Slice) or (isinstance(it, ast.Constant) and it.value is Ellipsis):
                self.fail(it, f"{self.prefix}slicing is not supported: index every dimension of "
                              f"{name} with a scalar")
            indices.append(self.visit(it))
        return name, indices, None

    def visit_Call(self, node: ast.Call) -> ir.Expr:
        if not isinstance(node.func, ast.Name):
            fid = ast.unparse(node.func)
            self.fail(node, f"In the function [{self.name}], function call id [{fid}] not in "
                            f"intrinsics list of the Hybrid DSL. {_URL}")
        fid = node.func.id
        intr = INTRINSICS.get(fid)
        if intr is None or fid in self.status or fid in self.params:
            what = "is a kernel: calling one kernel from another" if fid in ("kernel", "ms_kernel") else None
            self.fail(node, f"In the function [{self.name}], function call id [{fid}] not in "
                            f"intrinsics list of the Hybrid DSL. {_URL}" if what is None else
                            f"In the function [{self.name}], [{fid}] {what} is not supported.")
        if node.keywords:
            self.fail(node, f"In the function [{self.name}], function [{fid}] takes no keyword arguments.")
        n = len(node.args)
        if intr.kind in ("buffer", "loop", "scope"):
            self.fail(node, f"{self.prefix}{fid} can only be used as "
                            + {"buffer": f"'name = {fid}(shape, dtype)'",
                               "loop": "the iterable of a for loop",
                               "scope": "a with statement"}[intr.kind])
        if intr.arity == 1 and n != 1:
            self.fail(node, f"In the function [{self.name}], function [{fid}] expects one input, but get {n}.")
        if intr.arity == 2 and n != 2:
            self.fail(node, f"In the function [{self.name}], function [{fid}] expects two inputs, but get {n}.")
        if intr.kind == "minmax" and n < 2:
            self.fail(node, f"In the function [{self.name}], function [{fid}] expects at least two "
                            f"inputs, but get {n}.")
        if intr.kind == "len":
            arg = node.args[0]
            if isinstance(arg, ast.Attribute) and arg.attr == "shape":
                return ir.Rank(self.loc(node), self.tensor_attr(arg))
            self.fail(node, f"{self.prefix}len() is only supported on tensor.shape")
        return ir.Call(self.loc(node), fid, [self.visit(a) for a in node.args])


def parse(src: KernelSource, akg: bool = False) -> ir.Kernel:
    """Parse and structurally check one kernel; raise HybridError at the first violation.

    ``akg=True`` accepts what akg accepts in an undecorated ``func_type="akg"`` function beyond
    ``@kernel``'s rules: the memory scope argument of ``allocate(shape, dtype, "local")``.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> try:
        ...     parse(KernelSource.from_text("def f(x):\\n    while 1:\\n        pass\\n"))
        ... except TypeError as e:
        ...     print(e.reason)
        Keyword 'while' not accepted in the function f written in the Hybrid DSL!
        >>> text = "def f(x):\\n    t = allocate(x.shape, x.dtype, 'local')\\n    return x\\n"
        >>> parse(KernelSource.from_text(text), akg=True).allocs["t"].kind
        'temp'
    """
    return _Parser(src, akg).visit_FunctionDef(src.tree)

