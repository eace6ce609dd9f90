"""``mindspore.rewrite``: read a Cell's ``construct`` as a list of nodes, edit it, and build the edited network.

Example:
    >>> from mskernel.rewrite import NodeType
    >>> NodeType.CallCell.value
    1
"""
from mskernel.rewrite.scoped_value import ScopedValue, ValueType
from mskernel.rewrite.node import Node, NodeType
from mskernel.rewrite.symbol_tree import Position, SymbolTree

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType", "Position"]
