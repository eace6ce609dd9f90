"""SymbolTree: a Cell's ``construct`` parsed (with Python's ``ast``) into nodes that can be edited and rebuilt.

Example:
    >>> import mskernel.nn as nn
    >>> from mskernel.rewrite import SymbolTree
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.relu = nn.ReLU()
    ...     def construct(self, x):
    ...         x = self.relu(x)
    ...         return x
    >>> print([n.get_name() for n in SymbolTree.create(Net()).nodes()])
    ['input_x', 'relu', 'return']
"""
from __future__ import annotations

import ast
import copy
import inspect
import textwrap
from typing import Any, Dict, Iterator, List, Optional, Union

from mskernel.rewrite._check import check_elements, check_type
from mskernel.rewrite.node import Node, NodeType
from mskernel.rewrite.scoped_value import ScopedValue, ValueType

__all__ = ["Position", "SymbolTree"]


class Position:
    """Where ``insert`` puts a node: before or after ``node``."""

    def __init__(self, node: Node, before_node: bool) -> None:
        self.node = node
        self.before_node = before_node


class SymbolTree:
    """The nodes of a network's ``construct``; edit them, then :meth:`get_network` builds the edited network."""

    def __init__(self, network: Any, nodes: Optional[List[Node]] = None) -> None:
        self._network = network
        self._nodes: List[Node] = []
        self._counts: Dict[str, int] = {}
        self._new_cells: Dict[str, Any] = {}
        self._funcs: Dict[str, Any] = {}
        self._var_count: Dict[str, int] = {}

    @classmethod
    def create(cls, network: Any) -> "SymbolTree":
        """Parse ``network``'s construct."""
        from mskernel.nn.cell import Cell

        check_type("network", network, [Cell], "SymbolTree")
        tree = cls(network)
        src = textwrap.dedent(inspect.getsource(type(network).construct))
        fn = ast.parse(src).body[0]
        tree._globals = type(network).construct.__globals__
        for a in fn.args.args[1:]:
            tree._append(Node(NodeType.Input, f"input_{a.arg}", [ScopedValue.create_naming_value(a.arg)], []))
        for stmt in fn.body:
            tree._parse(stmt)
        return tree

    # -- parsing ---------------------------------------------------------------------------------------
    def _unique(self, name: str) -> str:
        n = self._counts.get(name)
        self._counts[name] = (n or 0) + 1 if n is not None else 0
        if n is None:
            return name
        while f"{name}_{self._counts[name]}" in self._counts:
            self._counts[name] += 1
        unique = f"{name}_{self._counts[name]}"
        self._counts[unique] = 0
        return unique

    def _append(self, node: Node) -> None:
        node._name = self._unique(node._name)
        node._tree = self
        self._nodes.append(node)

    def _arg(self, expr: ast.expr) -> ScopedValue:
        if isinstance(expr, ast.Name):
            return ScopedValue.create_naming_value(expr.id)
        if isinstance(expr, ast.Constant):
            return ScopedValue.create_variable_value(expr.value)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            return ScopedValue.create_naming_value(expr.attr, expr.value.id)
        if isinstance(expr, (ast.Tuple, ast.List)):
            kind = ValueType.TupleValue if isinstance(expr, ast.Tuple) else ValueType.ListValue
            items = [self._arg(e) for e in expr.elts]
            return ScopedValue(kind, "", tuple(items) if kind == ValueType.TupleValue else items)
        node = self._expr_node(expr, None)  # a nested expression: its own node, assigning a fresh name
        if node is None:
            return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(expr))
        base = node._name.split("_", 1)[-1] if node._type == NodeType.MathOps else node._name
        var = f"{base}_var"
        k = self._var_count.get(var, 0)
        self._var_count[var] = k + 1
        var = var if k == 0 else f"{var}_{k}"
        node._targets = [ScopedValue.create_naming_value(var)]
        self._append(node)
        return ScopedValue.create_naming_value(var)

    def _expr_node(self, expr: ast.expr, targets: Optional[List[ScopedValue]]) -> Optional[Node]:
        targets = targets or []
        if isinstance(expr, ast.Call):
            args = [self._arg(a) for a in expr.args]
            kwargs = {k.arg: self._arg(k.value) for k in expr.keywords if k.arg}
            f = expr.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                from mskernel.nn.cell import Cell
                from mskernel.ops.primitive import Primitive

                inst = getattr(self._network, f.attr, None)
                kind = (_cell_kind(inst) if isinstance(inst, Cell) else
                        NodeType.CallPrimitive if isinstance(inst, Primitive) else NodeType.CallMethod)
                return Node(kind, f.attr, targets, args, kwargs, instance=inst,
                            func=ScopedValue.create_naming_value(f.attr, "self"))
            try:
                func = eval(compile(ast.Expression(f), "<rewrite>", "eval"), dict(self._globals))  # noqa: S307
            except Exception:  # not resolvable from the module: kept as written
                return None
            name = f"{f.attr if isinstance(f, ast.Attribute) else getattr(f, 'id', 'func')}_opt"
            node = Node(NodeType.CallFunction, name, targets, args, kwargs, instance=func, func=func)
            node._func_src = ast.unparse(f)  # as written: the rebuilt construct resolves it in the same module
            return node
        if isinstance(expr, ast.Tuple):  # a tuple built from several values: one node making it
            return Node(NodeType.CallMethod, "tuple", targets, [self._arg(e) for e in expr.elts], op="tuple")
        if isinstance(expr, ast.BinOp):
            args = [self._arg(expr.left), self._arg(expr.right)]
            return Node(NodeType.MathOps, f"binop_{type(expr.op).__name__.lower()}", targets, args, op=expr.op)
        if isinstance(expr, ast.UnaryOp):
            return Node(NodeType.MathOps, f"unaryop_{type(expr.op).__name__.lower()}", targets,
                        [self._arg(expr.operand)], op=expr.op)
        return None

    def _parse(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Return):
            value = stmt.value
            if isinstance(value, ast.Tuple):
                node = self._expr_node(value, None)
                node._targets = [ScopedValue.create_naming_value("tuple_var")]
                self._append(node)
                args = [node._targets[0]]
            else:
                args = [] if value is None else [self._arg(value)]
            self._append(Node(NodeType.Output, "return", [], args))
            return
        node = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t = stmt.targets[0]
            names = [t] if isinstance(t, ast.Name) else list(getattr(t, "elts", []))
            if names and all(isinstance(n, ast.Name) for n in names):
                node = self._expr_node(stmt.value, [ScopedValue.create_naming_value(n.id) for n in names])
        elif isinstance(stmt, ast.Expr):
            node = self._expr_node(stmt.value, [])
        if node is None:
            node = Node(NodeType.Python, "python_node", [], [], stmt=stmt)
        self._append(node)

    # -- reading ---------------------------------------------------------------------------------------
    def nodes(self, all_nodes: bool = False) -> Iterator[Node]:
        """The nodes, in order."""
        check_type("all_nodes", all_nodes, [bool], "nodes")
        yield from list(self._nodes)

    def get_node(self, node_name: str) -> Optional[Node]:
        """The node named ``node_name``, or None."""
        check_type("node_name", node_name, [str], "SymbolTree")
        return next((n for n in self._nodes if n._name == node_name), None)

    def get_inputs(self) -> List[Node]:
        """The Input nodes."""
        return [n for n in self._nodes if n._type == NodeType.Input]

    def _providers(self, node: Node) -> List[Node]:
        i = self._nodes.index(node)
        out = []
        for name in node._read_names():
            for p in reversed(self._nodes[:i]):
                if any(t.type == ValueType.NamingValue and t.value == name for t in p._targets):
                    out.append(p)
                    break
        return out

    def _provider_of(self, node: Node, name: str) -> Optional[tuple]:
        i = self._nodes.index(node)
        for p in reversed(self._nodes[:i]):
            for k, t in enumerate(p._targets):
                if t.type == ValueType.NamingValue and t.value == name:
                    return p, k
        return None

    def _arg_providers(self, node: Node) -> Dict[int, tuple]:
        out = {}
        for i, a in enumerate(node._args):
            if a.type == ValueType.NamingValue and not a.scope:
                found = self._provider_of(node, a.value)
                if found is not None:
                    out[i] = found
        return out

    def _target_users(self, node: Node) -> Dict[int, List[tuple]]:
        out: Dict[int, List[tuple]] = {k: [] for k in range(len(node._targets))}
        for u in self._nodes[self._nodes.index(node) + 1:]:
            for i, (p, k) in self._arg_providers(u).items():
                if p is node:
                    out[k].append((u, i))
        return out

    def _users(self, node: Node) -> List[Node]:
        i = self._nodes.index(node)
        return [u for u in self._nodes[i + 1:] if any(p is node for p in self._providers(u))]

    def unique_name(self, name: str = "output") -> str:
        """``name``, or ``name_n``, so that no variable of the construct has it."""
        check_type("name", name, [str], "SymbolTree")
        used = {t.value for n in self._nodes for t in n._targets if t.type == ValueType.NamingValue}
        if name not in used:
            return name
        k = 1
        while f"{name}_{k}" in used:
            k += 1
        return f"{name}_{k}"

    # -- editing ---------------------------------------------------------------------------------------
    def _find(self, node: Union[Node, str]) -> Node:
        check_type("node", node, [Node, str], "SymbolTree")
        found = self.get_node(node) if isinstance(node, str) else node
        if found is None or found not in self._nodes:
            raise RuntimeError("Node is not belong to current SymbolTree: ", node)
        return found

    def before(self, node: Union[Node, str]) -> Position:
        """The position just before ``node``."""
        return Position(self._find(node), True)

    def after(self, node: Union[Node, str]) -> Position:
        """The position just after ``node``."""
        return Position(self._find(node), False)

    def insert(self, position: Position, node: Node) -> Node:
        """Put the new ``node`` at ``position``; returns it (its name made unique in the tree)."""
        check_type("position", position, [Position], "SymbolTree")
        check_type("node", node, [Node], "SymbolTree")
        i = self._nodes.index(position.node) + (0 if position.before_node else 1)
        node._name = self._unique(node._name)
        node._tree = self
        if node._type in (NodeType.CallCell, NodeType.CallPrimitive) and node._func is None:
            self._new_cells[node._name] = node._instance
            node._func = ScopedValue.create_naming_value(node._name, "self")
        self._nodes.insert(i, node)
        return node

    def erase(self, node: Union[Node, str]) -> Optional[Node]:
        """Remove ``node``; returns it."""
        found = self._find(node)
        self._nodes.remove(found)
        found._tree = None
        return found

    def replace(self, old_node: Node, new_nodes: List[Node]) -> Node:
        """Put ``new_nodes`` where ``old_node`` was; returns the last new node."""
        check_type("old_node", old_node, [Node], "SymbolTree")
        check_elements("new_nodes", new_nodes, [Node], "SymbolTree")
        if not new_nodes:
            raise IndexError("list index out of range")
        position = self.before(old_node)
        for n in new_nodes:
            self.insert(position, n)
        self.erase(old_node)
        return new_nodes[-1]

    # -- code ------------------------------------------------------------------------------------------
    def _code_line(self, n: Node) -> str:
        targets = ", ".join(str(t) for t in n._targets)
        lhs = f"{targets} = " if targets else ""
        if n._type == NodeType.Python:
            return ast.unparse(n._stmt)
        if n._type == NodeType.Output:
            return "return " + ", ".join(_src(a) for a in n._args)
        if n._op == "tuple":
            return f"{lhs}({', '.join(_src(a) for a in n._args)},)"
        if n._type == NodeType.MathOps:
            probe = (ast.BinOp(ast.Name("a"), n._op, ast.Name("b")) if len(n._args) == 2
                     else ast.UnaryOp(n._op, ast.Name("a")))
            text = ast.unparse(probe)
            text = text.replace("a", "\0", 1) if len(n._args) == 1 else text
            if len(n._args) == 2:
                left, _, right = text.partition(" ")
                op = right.rsplit(" ", 1)[0]
                return f"{lhs}{_src(n._args[0])} {op} {_src(n._args[1])}"
            return f"{lhs}{text.replace(chr(0), _src(n._args[0]))}"
        if isinstance(n._func, ScopedValue):
            callee = str(n._func)
        elif getattr(n, "_func_src", None):
            callee = n._func_src
        else:
            callee = f"_rewrite_fn_{id(n._func)}"
            self._funcs[callee] = n._func
        parts = [_src(a) for a in n._args] + [f"{k}={_src(v)}" for k, v in n._kwargs.items()]
        return f"{lhs}{callee}({', '.join(parts)})"

    def get_code(self) -> str:
        """The source of the rewritten construct."""
        params = ", ".join(["self"] + [str(n._targets[0]) for n in self._nodes if n._type == NodeType.Input])
        body = [self._code_line(n) for n in self._nodes if n._type != NodeType.Input]
        name = type(self._network).__name__
        lines = [f"class {name}Opt({name}):", "", f"    def construct({params}):"]
        lines += ["        " + line for b in body for line in b.splitlines()]
        return "\n".join(lines) + "\n"

    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print each node's type, name and code."""
        check_type("all_nodes", all_nodes, [bool], "print_node_tabulate")
        head = ("node type", "name", "codes", "arg providers", "target users")
        rows = [(str(n._type), n._name, self._code_line(n) if n._type != NodeType.Input else str(n._targets[0]),
                 str([[i, (p.get_name(), k)] for i, (p, k) in self._arg_providers(n).items()]),
                 str([[k, [(u.get_name(), i) for u, i in v]] for k, v in self._target_users(n).items()]))
                for n in self._nodes]
        w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        lines = [head, tuple("-" * x for x in w)] + rows
        text = "\n".join("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in lines)
        print(f"\n[{type(self._network).__name__}Opt]\n{text}\n")  # noqa: T201  (this API prints)

    def get_network(self) -> Any:
        """A new network (of a subclass of the original's class) running the rewritten construct."""
        code = self.get_code()
        env = dict(type(self._network).construct.__globals__)
        env.update(self._funcs)
        base = type(self._network)
        env[base.__name__] = base
        exec(compile(code, f"<rewrite {base.__name__}>", "exec"), env)  # noqa: S102
        cls = env[f"{base.__name__}Opt"]
        new = copy.copy(self._network)
        for k, v in list(new.__dict__.items()):
            if isinstance(v, (dict, list, set)):
                new.__dict__[k] = copy.copy(v)
        object.__setattr__(new, "__class__", cls)
        for k, v in self._new_cells.items():
            setattr(new, k, v)
        return new

    def get_origin_network(self) -> Any:
        """The network the tree was made from."""
        return self._network


def _cell_kind(cell: Any) -> NodeType:
    """A SequentialCell is a CellContainer, a network defined outside the library a Tree, others CallCell."""
    from mskernel.nn import SequentialCell

    if isinstance(cell, SequentialCell):
        return NodeType.CellContainer
    module = type(cell).__module__ or ""
    return NodeType.CallCell if module.split(".")[0] in ("mskernel", "mindspore") else NodeType.Tree


def _src(v: ScopedValue) -> str:
    if v.type == ValueType.ConstantValue:
        return repr(v.value)
    if v.type == ValueType.TupleValue:
        inner = ", ".join(_src(e) for e in v.value)
        return f"({inner},)" if len(v.value) == 1 else f"({inner})"
    if v.type == ValueType.ListValue:
        return "[" + ", ".join(_src(e) for e in v.value) + "]"
    if v.type == ValueType.UnsupportedValue:
        return str(v.value)
    return str(v)


Node.make_tree = SymbolTree.create  # a Tree node's sub-tree
