"""Python ``ast`` -> kernel IR, enforcing the structural rules of the hybrid DSL.

One visitor method per construct (TVM hybrid parser style); everything without a method is
rejected at its line and column, saying what is not allowed and what is allowed there (the
DSL's statements or expressions, the intrinsics, the nearest known name to a typo). Checked
here, before types are known: syntax (while/break/continue, ...), unknown names and
intrinsics, arity, scalar scoping (a scalar is declared by its first assignment and lives in
the innermost enclosing ``for``), loop-variable overwrites, multiple assignment, tensor
redefinition, ``.shape``/``.dtype`` reads, returns, writes to inputs not returned. Types,
ranks and dtype mixes are checked per signature by :mod:`mskernel.hybrid.check`.

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
from .errors import did_you_mean
from .intrinsics import INTRINSICS, LOOP_KINDS, describe_calls, usage
from .messages import EXPRESSIONS, KEYWORDS, LABELS, STATEMENTS
from .source import KernelSource

__all__ = ["parse"]

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}


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

    def fail(self, node: Union[ast.AST, ir.Loc, None], message: str, allowed: str = "") -> NoReturn:
        loc = node if isinstance(node, tuple) or node is None else self.loc(node)
        k = ir.Kernel(self.name, [], [], [], (0, 0), self.src.filename, self.src.lines, 0)
        raise k.error(loc, message, allowed)

    def generic_visit(self, node: ast.AST) -> NoReturn:
        label = LABELS.get(type(node), f"'{type(node).__name__}'")
        if isinstance(node, ast.stmt):
            self.fail(node, f"{label} is not a statement of the DSL", STATEMENTS)
        self.fail(node, f"{label} is not an expression of the DSL", EXPRESSIONS)

    def body(self, stmts: list[ast.stmt]) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for s in stmts:
            if self.returns is not None:
                self.fail(s, "nothing may follow the return statement: return must be the kernel's last statement")
            out.extend(self.visit(s))
        return out

    def is_tensor(self, name: str) -> bool:
        return name in self.allocs or name in self.params

    def visible(self) -> list[str]:
        """The names an expression may read here: parameters, tensors, loop variables, scalars in scope."""
        scoped = [n for n, scope in self.status.items() if any(scope is s for s in self.scopes)]
        return [*self.params, *scoped, *self.loops, *self.grid_alias]

    def undeclared(self, node: ast.AST, name: str, hint: str = "") -> NoReturn:
        self.fail(node, f"{name} is not defined in the kernel{did_you_mean(name, self.visible())}{hint}",
                  f"a kernel reads its parameters ({', '.join(self.params) or 'none'}), its loop variables, and "
                  f"the scalars and tensors assigned before this point")

    def check_visible(self, node: ast.AST, name: str) -> None:
        scope = self.status[name]
        if not any(scope is s for s in self.scopes):
            self.fail(node, f"{name} is used outside the for loop that declares it: a scalar lives in the innermost "
                            f"loop around its first assignment; assign it once before that loop to use it here")

    # ------------------------------------------------------------------ function
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ir.Kernel:
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            self.fail(node, "defaults, *args, **kwargs and keyword-only parameters are not allowed: a kernel's "
                            "parameters are plain names, tensors first, then scalar attributes (def f(x, y, scale))")
        self.params = [p.arg for p in a.args]
        for p in a.args:
            if p.arg in INTRINSICS:
                self.fail(p, f"the parameter name {p.arg} is an intrinsic of the DSL; give the parameter "
                             f"another name")
        body = self.body(node.body)
        if self.returns is None:
            self.fail(node, "the kernel has no return statement: end it with return t (or return t1, t2) naming "
                            "its output tensors")
        for out in self.allocs.values():
            if out.kind == "output" and out.name not in self.returns:
                self.fail(self.return_loc, f"the output tensor {out.name} is not returned: return every tensor "
                                           f"made by output_tensor (return {', '.join([*self.returns, out.name])})")
        for p, loc in self.param_writes.items():
            if p not in self.returns:
                self.fail(loc, f"the input {p} is written but not returned: an input may be written only when the "
                               f"kernel returns it (in place); write into an output_tensor, or return {p}")
        root = self.scopes[0]
        return ir.Kernel(self.name, self.params, body, self.returns, self.return_loc,
                         self.src.filename, self.src.lines, self.loc(node)[0], root.decls,
                         self.allocs)

    # ------------------------------------------------------------------ statements
    def visit_Expr(self, node: ast.Expr) -> list[ir.Stmt]:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # docstring
        self.fail(node, "an expression on its own line has no effect: assign its value (v = ..., t[i] = ...)")

    def visit_Pass(self, node: ast.Pass) -> list[ir.Stmt]:
        return []

    def _keyword(self, node: ast.stmt) -> NoReturn:
        self.fail(node, KEYWORDS[type(node)])

    visit_While = visit_Break = visit_Continue = _keyword

    def visit_Return(self, node: ast.Return) -> list[ir.Stmt]:
        if len(self.scopes) > 1 or self.conditional_depth:
            self.fail(node, "return inside a for or an if is not allowed: return once, as the kernel's last "
                            "statement")
        value = node.value
        example = "return y, or return y, z: compute values into an output_tensor first"
        if isinstance(value, ast.Name):
            elts = [value]
        elif isinstance(value, ast.Tuple):
            elts = value.elts
            for e in elts:
                if not isinstance(e, ast.Name):
                    self.fail(e, f"{ast.unparse(e)} is not a tensor name: return names tensors only ({example})")
        else:
            shown = "a bare return" if value is None else f"return {ast.unparse(value)}"
            self.fail(value or node, f"{shown} is not allowed: return names the output tensors ({example})")
        names = [e.id for e in elts]  # type: ignore[attr-defined]
        outputs = [n for n, a in self.allocs.items() if a.kind == "output"]
        for e, n in zip(elts, names):
            if n not in self.params and n not in outputs:
                what = "a temporary from allocate" if n in self.allocs else "not a tensor"
                self.fail(e, f"{n} cannot be returned ({what}): return the tensors made by output_tensor "
                             f"({', '.join(outputs) or 'none yet'}) or inputs written in place")
            if names.count(n) > 1:
                self.fail(e, f"{n} is returned twice: name each tensor once")
        self.returns = names
        self.return_loc = self.loc(node)
        return []

    def visit_Assign(self, node: ast.Assign) -> list[ir.Stmt]:
        if len(node.targets) > 1:
            self.fail(node, "a = b = ... assigns several targets at once: assign one target per statement")
        target = node.targets[0]
        if isinstance(target, ast.Subscript):
            tensor, indices, grid = self.subscript(target, store=True)
            return [ir.Store(self.loc(node), tensor, indices, self.visit(node.value), grid)]
        if not isinstance(target, ast.Name):
            self.fail(target, f"cannot assign to {ast.unparse(target)}: assign a scalar (v = ...) or a tensor "
                              f"element (t[i, j] = ...), one per statement")
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
                and value.func.id in ("output_tensor", "allocate"):
            return [self.alloc(node, target.id, value)]
        return [self.assign_scalar(node, target, self.visit(value))]

    def visit_AugAssign(self, node: ast.AugAssign) -> list[ir.Stmt]:
        op = _BINOPS.get(type(node.op))
        if op is None:
            self.bad_operator(node, node.op)
        loc = self.loc(node)
        target = node.target
        if isinstance(target, ast.Subscript):
            tensor, indices, grid = self.subscript(target, store=True)
            old = ir.Load(self.loc(target), tensor, indices, grid)
            return [ir.Store(loc, tensor, indices, ir.BinOp(loc, op, old, self.visit(node.value)), grid)]
        if not isinstance(target, ast.Name):
            self.fail(target, f"cannot assign to {ast.unparse(target)}: assign a scalar (v += ...) or a tensor "
                              f"element (t[i, j] += ...)")
        current = self.visit_Name(ast.Name(id=target.id, ctx=ast.Load(), lineno=target.lineno,
                                           col_offset=target.col_offset))
        value = ir.BinOp(loc, op, current, self.visit(node.value))
        return [self.assign_scalar(node, target, value)]

    def assign_scalar(self, node: ast.AST, target: ast.Name, value: ir.Expr) -> ir.Assign:
        name = target.id
        if name in self.loops or name in self.grid_alias:
            self.loop_var_assigned(target, name)
        if name in self.allocs:
            self.fail(target, f"{name} is a tensor and cannot be assigned as a whole: write its elements "
                              f"({name}[i] = ...), or use another name for the scalar")
        if name in self.params:
            self.fail(target, f"the parameter {name} cannot be assigned: assign a new scalar instead, or write "
                              f"an element of an input tensor ({name}[i] = ...)")
        if name in INTRINSICS:
            self.fail(target, f"{name} is an intrinsic of the DSL and cannot be assigned: use another name")
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
        fid = call.func.id  # type: ignore[attr-defined]
        if len(call.args) != 2 or call.keywords:
            self.arity(call, fid, "2 arguments", len(call.args) + len(call.keywords))
        if self.is_tensor(name) or name in self.status:
            self.fail(node.targets[0], f"{name} is already defined: a tensor gets its name once; use another name")
        if name in self.loops or name in self.grid_alias:
            self.loop_var_assigned(node.targets[0], name)
        if kind == "output" and (len(self.scopes) > 1 or self.conditional_depth):
            self.fail(call, "output_tensor must be called at the top level of the kernel, not inside a loop or a "
                            "branch: allocate the output before the loops")
        if kind == "temp" and self.conditional_depth:
            self.fail(call, "allocate inside an if is not allowed: allocate the temporary before the if (at the "
                            "top level or inside a loop)")
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
            self.fail(scope, f"the scope of allocate must be a string such as 'local' or 'global', not "
                             f"{ast.unparse(scope)}")
        return ast.Call(call.func, call.args[:2], [k for k in call.keywords if k.arg != "scope"])

    def visit_For(self, node: ast.For) -> list[ir.Stmt]:
        if node.orelse:
            self.fail(node.orelse[0], "for-else is not part of the DSL: a loop always runs to its end, so put "
                                      "these statements after the loop")
        call = node.iter
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id in LOOP_KINDS):
            shown = ast.unparse(call)
            hint = did_you_mean(call.func.id, LOOP_KINDS) if isinstance(call, ast.Call) and \
                isinstance(call.func, ast.Name) else ""
            self.fail(call, f"a loop cannot iterate over {shown}{hint}: iterate over "
                            f"{', '.join(k + '(...)' for k in LOOP_KINDS)}")
        kind = call.func.id
        if call.keywords:
            self.fail(call, f"{kind} takes no keyword arguments: write {usage(kind)}")
        names = self.loop_targets(node.target, kind)
        loop = ir.For(self.loc(node), names[0], kind, None, None, None, [])
        if kind == "grid":
            if len(call.args) != 1:
                self.arity(call, kind, "1 argument", len(call.args))
            loop.grid_shape = self.shape(call.args[0])
        else:
            if not 1 <= len(call.args) <= 3:
                self.arity(call, kind, "1 to 3 arguments", len(call.args))
            args = [self.visit(a) for a in call.args]
            if len(args) == 1:
                args = [ir.Const(args[0].loc, 0)] + args
            loop.start, loop.stop = args[0], args[1]
            loop.step = args[2] if len(args) == 3 else ir.Const(loop.loc, 1)
            if isinstance(loop.step, ir.Const) and loop.step.value == 0:
                self.fail(call.args[2], f"the step of {kind}() is 0: a loop's step must be a nonzero integer")
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
            unpack = " (only grid unpacks: for i, j in grid(shape))" if isinstance(target, ast.Tuple) else ""
            self.fail(target, f"the loop variable must be a plain name, not {ast.unparse(target)}{unpack}")
        for t in nodes:
            n = t.id  # type: ignore[attr-defined]
            if n in self.loops or n in self.grid_alias:
                self.loop_var_assigned(t, n)
            if self.is_tensor(n) or n in INTRINSICS:
                self.fail(t, f"the loop variable {n} hides a tensor, parameter or intrinsic of that name: use "
                             f"another name")
            if n in self.status and any(self.status[n] is s for s in self.scopes):
                self.fail(t, f"the loop variable {n} hides the scalar {n} assigned before: use another name")
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
            shown = ", ".join(ast.unparse(item) for item in node.items)
            self.fail(ctx, f"with {shown} is not supported: a with statement may only use attr(name, value) or "
                           f"block_realize(tensor), once, without 'as'")
        args = ctx.args  # type: ignore[union-attr]
        if fid == "attr":
            if len(args) != 2:
                self.arity(ctx, "attr", "2 arguments", len(args))  # type: ignore[arg-type]
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                self.fail(args[0], f"the name given to attr must be a string literal, not {ast.unparse(args[0])}")
            if not (isinstance(args[1], ast.Constant) and args[1].value is not None):
                self.fail(args[1], f"the value given to attr must be a string, number or bool literal, not "
                                   f"{ast.unparse(args[1])}")
        else:
            if len(args) != 1:
                self.arity(ctx, "block_realize", "1 argument", len(args))  # type: ignore[arg-type]
            if not isinstance(args[0], ast.Name):
                self.fail(args[0], f"block_realize takes a tensor name, not {ast.unparse(args[0])}")
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
                self.fail(node, f"the dtype must be a string, a dtype name or tensor.dtype, not .{node.attr}")
            return ir.DType(loc, of=self.tensor_attr(node))
        name = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, ast.Name) and INTRINSICS.get(node.id, None) is not None \
                and INTRINSICS[node.id].kind == "cast":
            name = node.id
        if name is None or normalize_dtype(name) != name:
            self.fail(node, f"unknown dtype {ast.unparse(node)}: use a string such as 'float32', a dtype name "
                            f"such as float32, or tensor.dtype")
        return ir.DType(loc, name=name)

    def tensor_attr(self, node: ast.Attribute) -> str:
        """Check ``t.shape`` / ``t.dtype``: the only attributes, of tensor names only; return ``t``."""
        if not isinstance(node.value, ast.Name):
            self.fail(node, f"{ast.unparse(node)} is not allowed: only a tensor's name has .shape and .dtype "
                            f"(t.shape, t.dtype)")
        if not self.is_tensor(node.value.id):
            what = "a scalar" if node.value.id in self.status or node.value.id in self.loops else "not defined"
            self.fail(node, f"{node.value.id} is {what}: .{node.attr} exists only on tensors (the tensor "
                            f"parameters and the tensors made by output_tensor or allocate before this point)")
        if node.attr not in ("shape", "dtype"):
            self.fail(node, f"a tensor has no attribute {node.attr}{did_you_mean(node.attr, ['shape', 'dtype'])}: "
                            f"it has only .shape and .dtype")
        if node.value.id in self.allocs:
            self.check_visible(node, node.value.id)
        return node.value.id

    # ------------------------------------------------------------------ expressions
    def visit_Constant(self, node: ast.Constant) -> ir.Const:
        if isinstance(node.value, (bool, int, float)):
            return ir.Const(self.loc(node), node.value)
        self.fail(node, f"the constant {node.value!r} is not a number: a kernel computes with bool, int and "
                        f"float literals only")

    def visit_Name(self, node: ast.Name) -> ir.Expr:
        name, loc = node.id, self.loc(node)
        if name in self.grid_alias:
            var, k = self.grid_alias[name]
            return ir.GridComponent(loc, var, k)
        if name in self.loops:
            if self.loops[name].kind == "grid":
                self.fail(node, f"the grid variable {name} is an index tuple: use it as a whole index (t[{name}]) "
                                f"or take a component ({name}[0])")
            return ir.Var(loc, name)
        if name in self.params:
            return ir.Param(loc, name)
        if name in self.allocs:
            self.fail(node, f"the tensor {name} cannot be used as a scalar: index it ({name}[...])")
        if name in self.status:
            self.check_visible(node, name)
            return ir.Var(loc, name)
        if name in INTRINSICS:
            self.fail(node, f"{name} is an intrinsic and must be called: {usage(name)}")
        hint = ""
        if name in self.src.outer_names:  # Python would find it; the compiled kernel cannot
            value = self.src.outer_names[name]
            shown = repr(value) if isinstance(value, (bool, int, float)) else type(value).__name__
            hint = (f" ({name} = {shown} outside the kernel: the Python emulation reads it, but a compiled kernel "
                    f"sees only its arguments. Pass it as a scalar attribute (an extra argument) or write the "
                    f"value here)")
        self.undeclared(node, name, hint)

    def visit_BinOp(self, node: ast.BinOp) -> ir.BinOp:
        op = _BINOPS.get(type(node.op))
        if op is None:
            self.bad_operator(node, node.op)
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
                shown = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}.get(type(op), "?")
                self.fail(node, f"the comparison '{shown}' is not supported: compare numbers with "
                                f"{' '.join(_CMPOPS.values())}")
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
        self.fail(node, f"{t}.{node.attr} is not a scalar: use {t}.shape[k] or len({t}.shape)"
                  if node.attr == "shape" else
                  f"{t}.dtype can only be the dtype argument of output_tensor or allocate")

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
            self.fail(node, "the index of a shape or of a grid variable must be an integer literal "
                            "(t.shape[0], arg[1])")
        return value.value  # type: ignore[return-value]

    def subscript(self, node: ast.Subscript, store: bool) -> tuple[str, list[ir.Expr], Optional[str]]:
        chain: list[ast.expr] = []
        base: ast.expr = node
        while isinstance(base, ast.Subscript):
            chain.insert(0, base.slice)
            base = base.value
        if not isinstance(base, ast.Name):
            self.fail(base, f"only a tensor's name can be indexed (t[i, j]), not {ast.unparse(base)}")
        name = base.id
        if not self.is_tensor(name):
            if name in self.status or name in self.loops:
                self.fail(base, f"{name} is a scalar and cannot be indexed: only tensors are indexed")
            self.undeclared(base, name)
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
                self.fail(it, f"slicing is not supported: index every dimension of {name} with a scalar "
                              f"({name}[i, j]) and loop over the elements")
            indices.append(self.visit(it))
        return name, indices, None

    def visit_Call(self, node: ast.Call) -> ir.Expr:
        if not isinstance(node.func, ast.Name):
            fid = ast.unparse(node.func)
            last = fid.rsplit(".", 1)[-1]
            hint = f" (did you mean {last}?)" if last in INTRINSICS else did_you_mean(last, INTRINSICS)
            self.fail(node, f"{fid}(...) cannot be called in a kernel{hint}",
                      f"a kernel calls only the DSL's intrinsics, by their bare names: {describe_calls()}")
        fid = node.func.id
        intr = INTRINSICS.get(fid)
        if fid in self.status or fid in self.params or fid in self.loops:
            self.fail(node, f"{fid} is a {'parameter' if fid in self.params else 'variable'} of the kernel and "
                            f"cannot be called", f"a kernel can call: {describe_calls()}")
        if fid in ("kernel", "ms_kernel"):
            self.fail(node, f"{fid} cannot be called inside a kernel: one kernel cannot call another")
        if intr is None:
            self.fail(node, f"{fid} is not an intrinsic of the DSL{did_you_mean(fid, INTRINSICS)}",
                      f"a kernel can call: {describe_calls()}")
        if node.keywords:
            self.fail(node, f"{fid} takes no keyword arguments: write {usage(fid)}")
        n = len(node.args)
        if intr.kind in ("buffer", "loop", "scope"):
            self.fail(node, f"{fid} can only be used as "
                            + {"buffer": f"'name = {usage(fid)}', a statement of its own",
                               "loop": f"the iterable of a for loop (for i in {usage(fid)}:)",
                               "scope": f"a with statement (with {usage(fid)}:)"}[intr.kind])
        if intr.arity is not None and n != intr.arity:
            self.arity(node, fid, f"{intr.arity} argument{'s' if intr.arity > 1 else ''}", n)
        if intr.kind == "minmax" and n < 2:
            self.arity(node, fid, "at least 2 arguments", n)
        if intr.kind == "len":
            arg = node.args[0]
            if isinstance(arg, ast.Attribute) and arg.attr == "shape":
                return ir.Rank(self.loc(node), self.tensor_attr(arg))
            self.fail(node, f"len() takes only a tensor's shape: write {usage(fid)}")
        return ir.Call(self.loc(node), fid, [self.visit(a) for a in node.args])

    # ------------------------------------------------------------------ shared rejections
    def arity(self, node: ast.AST, fid: str, expected: str, got: int) -> NoReturn:
        self.fail(node, f"{fid} takes {expected}, but got {got}: write {usage(fid)}")

    def bad_operator(self, node: ast.AST, op: ast.AST) -> NoReturn:
        shown = {ast.MatMult: "@"}.get(type(op), type(op).__name__)
        self.fail(node, f"the operator {shown} is not supported: use {' '.join(_BINOPS.values())}")

    def loop_var_assigned(self, node: ast.AST, name: str) -> NoReturn:
        self.fail(node, f"{name} is a loop variable of an enclosing loop and cannot be assigned or reused as a "
                        f"loop variable: use another name")


def parse(src: KernelSource, akg: bool = False) -> ir.Kernel:
    """Parse and structurally check one kernel; raise HybridError at the first violation.

    ``akg=True`` accepts what akg accepts in an undecorated ``func_type="akg"`` function beyond
    ``@kernel``'s rules: the memory scope argument of ``allocate(shape, dtype, "local")``.

    Example:
        >>> from mskernel.hybrid.source import KernelSource
        >>> try:
        ...     parse(KernelSource.from_text("def f(x):\\n    while 1:\\n        pass\\n"))
        ... except TypeError as e:
        ...     print(e.reason.split(":")[0])
        'while' loops are not part of the DSL
        >>> text = "def f(x):\\n    t = allocate(x.shape, x.dtype, 'local')\\n    return x\\n"
        >>> parse(KernelSource.from_text(text), akg=True).allocs["t"].kind
        'temp'
    """
    return _Parser(src, akg).visit_FunctionDef(src.tree)

