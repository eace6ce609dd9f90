"""Node and NodeType: one statement of a rewritten ``construct`` (a cell call, an operator, an input, the return).

Example:
    >>> import mskernel.nn as nn
    >>> node = Node.create_call_cell(nn.ReLU(), targets=["x"], args=[ScopedValue.create_naming_value("x")],
    ...                              name="relu")
    >>> print(node.get_name(), node.get_node_type(), node.get_args(), node.get_targets())
    relu NodeType.CallCell [x] [x]
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Dict, List, Optional, Union

from mskernel.rewrite._check import check_elements, check_type
from mskernel.rewrite.scoped_value import ScopedValue, ValueType

__all__ = ["NodeType", "Node"]


class NodeType(Enum):
    """The kind of a :class:`Node` (the numbering is MindSpore's).

    Example:
        >>> NodeType.Output
        <NodeType.Output: 8>
    """
    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


def _value(v: Union[ScopedValue, str]) -> ScopedValue:
    return v if isinstance(v, ScopedValue) else ScopedValue.create_naming_value(v)


class Node:
    """A node of a :class:`~mskernel.rewrite.SymbolTree`: targets = callee(args, kwargs).

    Example:
        >>> import mskernel.nn as nn
        >>> Node.create_call_cell(nn.ReLU(), ["y"]).get_instance_type().__name__
        'ReLU'
    """

    #: how a ``NodeType.Tree`` node builds the tree of the network it calls: ``SymbolTree.create``, set by
    #: :mod:`mskernel.rewrite.symbol_tree` (which imports this module, so this one does not import it back)
    make_tree: Any = None

    def __init__(self, node_type: NodeType, name: str, targets: List[ScopedValue], args: List[ScopedValue],
                 kwargs: Optional[Dict[str, ScopedValue]] = None, instance: Any = None, func: Any = None,
                 op: Any = None, stmt: Any = None) -> None:
        self._type = node_type
        self._name = name
        self._targets = list(targets)
        self._args = list(args)
        self._kwargs = dict(kwargs or {})
        self._instance = instance
        self._func = func  # a ScopedValue (self.attr) or a callable
        self._op = op  # the ast operator of a MathOps node
        self._stmt = stmt  # the ast statement of a Python node
        self._tree: Any = None

    @staticmethod
    def create_call_cell(cell: Any, targets: List[Union[ScopedValue, str]], args: Optional[List[ScopedValue]] = None,
                         kwargs: Optional[Dict[str, ScopedValue]] = None, name: str = "",
                         is_sub_net: bool = False) -> "Node":
        """A node calling ``cell`` (a Cell or a Primitive), to be put into a tree with ``insert``/``replace``.

        Example:
            >>> import mskernel.nn as nn
            >>> Node.create_call_cell(nn.ReLU(), ["x"], [ScopedValue.create_naming_value("x")]).get_name()
            'relu'
        """
        from mskernel.nn.cell import Cell
        from mskernel.ops.primitive import Primitive

        check_type("cell", cell, [Cell, Primitive], "Node")
        check_elements("targets", targets, [ScopedValue, str], "Node")
        check_type("name", name, [str], "Node")
        check_type("is_sub_net", is_sub_net, [bool], "Node")
        if args is not None:
            check_elements("args", args, [ScopedValue], "Node")
        if kwargs is not None:
            for k, v in kwargs.items():
                check_type("kwargs key", k, [str], "Node")
                check_type("kwargs value", v, [ScopedValue], "Node")
        kind = NodeType.CallCell if isinstance(cell, Cell) else NodeType.CallPrimitive
        return Node(kind, name or type(cell).__name__.lower(), [_value(t) for t in targets], list(args or []),
                    kwargs, instance=cell)

    @staticmethod
    def create_call_function(function: Any, targets: List[Union[ScopedValue, str]],
                             args: Optional[List[ScopedValue]] = None,
                             kwargs: Optional[Dict[str, ScopedValue]] = None) -> "Node":
        """A node calling the function ``function`` (named after it).

        Example:
            >>> import mskernel.ops as ops
            >>> node = Node.create_call_function(ops.abs, ["x"], [ScopedValue.create_naming_value("x")])
            >>> print(node.get_name(), node.get_node_type())
            abs NodeType.CallFunction
        """
        if not callable(function):
            raise TypeError("For 'create_call_function', the type of 'function' should be one of '['function', "
                            f"'type', 'builtin_function_or_method']', but got type '{type(function).__name__}'.")
        check_elements("targets", targets, [ScopedValue, str], "create_call_function")
        if args is not None:
            check_elements("args", args, [ScopedValue], "create_call_function")
        name = getattr(function, "__name__", type(function).__name__)
        return Node(NodeType.CallFunction, name, [_value(t) for t in targets], list(args or []), kwargs,
                    instance=function, func=function)

    def get_sub_tree(self) -> Any:
        """The SymbolTree of the sub-network a ``NodeType.Tree`` node calls."""
        if self._type != NodeType.Tree:
            raise TypeError(f"For get_sub_tree, the type of node should be 'NodeType.Tree', but got {self._type}")
        if getattr(self, "_sub_tree", None) is None:
            self._sub_tree = Node.make_tree(self._instance)
        return self._sub_tree

    def get_name(self) -> str:
        """The node's name, unique in its tree."""
        return self._name

    def get_node_type(self) -> NodeType:
        """The node's :class:`NodeType`."""
        return self._type

    def get_instance(self) -> Any:
        """The cell, primitive or function the node calls (None for other nodes)."""
        return self._instance

    def get_instance_type(self) -> type:
        """The type of :meth:`get_instance`."""
        return type(self._instance)

    def get_targets(self) -> List[ScopedValue]:
        """The names the node assigns."""
        return list(self._targets)

    def get_args(self) -> List[ScopedValue]:
        """The node's positional arguments."""
        return list(self._args)

    def get_kwargs(self) -> Dict[str, ScopedValue]:
        """The node's keyword arguments."""
        return dict(self._kwargs)

    def set_arg(self, index: int, arg: Union[ScopedValue, str]) -> None:
        """Replace positional argument ``index`` (a name as a str, or a ScopedValue)."""
        check_type("index", index, [int], "Node")
        check_type("arg", arg, [ScopedValue, str], "Node")
        if not 0 <= index < len(self._args):
            raise ValueError(f"The 'index' must be in range of [0, {len(self._args)}), but got {index} with type "
                             f"'{type(index).__name__}'.")
        self._args[index] = _value(arg)

    def set_arg_by_node(self, arg_idx: int, src_node: "Node", out_idx: Optional[int] = None) -> None:
        """Make argument ``arg_idx`` the output ``out_idx`` (default 0) of ``src_node``."""
        check_type("src_node", src_node, [Node], "Node")
        self.set_arg(arg_idx, src_node._targets[out_idx or 0])

    def get_symbol_tree(self) -> Any:
        """The tree the node belongs to (None before it is inserted)."""
        return self._tree

    def get_inputs(self) -> List["Node"]:
        """The nodes whose outputs this node reads."""
        return self._tree._providers(self) if self._tree is not None else []

    def get_users(self) -> List["Node"]:
        """The nodes that read this node's outputs."""
        return self._tree._users(self) if self._tree is not None else []

    def get_arg_providers(self) -> Dict[int, Any]:
        """``{arg index: (node, output index)}``: which output of which node each positional argument reads."""
        return self._tree._arg_providers(self) if self._tree is not None else {}

    def get_target_users(self, index: int = -1) -> Union[Dict[int, List[Any]], List[Any]]:
        """``{output index: [(node, arg index), ...]}`` (or the list of one output when ``index`` >= 0)."""
        users = self._tree._target_users(self) if self._tree is not None else {}
        return users.get(index, []) if index >= 0 else users

    def _read_names(self) -> List[str]:
        out = []
        for v in list(self._args) + list(self._kwargs.values()):
            out.extend(_names(v))
        return out


def _names(v: ScopedValue) -> List[str]:
    if v.type == ValueType.NamingValue and not v.scope:
        return [v.value]
    if v.type in (ValueType.TupleValue, ValueType.ListValue):
        return [n for e in v.value for n in _names(e)]
    return []
