"""The tree of a Cell: its parameters, sub-cells and buffers by path, and the names that follow the paths.

Built on :mod:`mskernel.nn.cell_state`, whose tables it reads through ``_own_params``, ``_own_cells`` and
``_own_buffers``; the one key it owns is ``_auto_prefix``: whether a sub-cell assigned to this cell has its
parameters renamed to their path (MindSpore's ``auto_prefix``). Paths join attribute names with dots
(``body.0.weight``); a parameter, cell or buffer reachable twice is listed once, under its first path.
``update_parameters_name(prefix)`` sets every parameter's ``name`` to ``prefix + path`` — what a Cell does to
a sub-cell assigned to it when ``auto_prefix`` is on.

Example:
    >>> import mskernel as ms
    >>> net = ms.nn.Cell(); net.sub = ms.nn.Cell(); net.sub.w = ms.Parameter(1.0)
    >>> [(path, p.name) for path, p in net.parameters_and_names()]
    [('sub.w', 'w')]
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Iterator, List, Optional, Tuple

from mskernel.common.parameter import Parameter, check_name_regular
from mskernel.common.tensor import Tensor
from mskernel.nn.cell_state import CellState

__all__ = ["CellTree"]


class CellTree(CellState):
    """Traversal and naming of a Cell's parameters, sub-cells and buffers, over the tables of
    :class:`~mskernel.nn.cell_state.CellState`.

    Example:
        >>> import mskernel as ms
        >>> isinstance(ms.nn.Cell(), CellTree)
        True
    """

    def _init_tree(self, auto_prefix: bool) -> None:
        """Set ``auto_prefix`` (``Cell.__init__`` calls it after ``_init_state``)."""
        object.__setattr__(self, "_auto_prefix", auto_prefix)

    def _renames_children(self) -> bool:
        """Whether a sub-cell put into this cell has its parameters renamed to their path (``auto_prefix``).

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell()._renames_children(), ms.nn.Cell(auto_prefix=False)._renames_children()
            (True, False)
        """
        return self.__dict__.get("_auto_prefix", True)

    def _name_child(self, name: str, child: CellState) -> None:
        if self._renames_children() and isinstance(child, CellTree):
            child.update_parameters_name(name + ".")

    # -- members by path ------------------------------------------------------------------------------
    def _named_members(self, members: Callable[["CellTree"], Any], prefix: str, recurse: bool,
                       remove_duplicate: bool = True) -> Iterator[Tuple[str, Any]]:
        seen: set = set()
        for cell_prefix, cell in (self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]):
            for key, value in members(cell):
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (f"{cell_prefix}.{key}" if cell_prefix else key), value

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[Tuple[str, Tensor]]:
        """``(qualified_name, buffer)`` for this cell's and (if ``recurse``) sub-cells' buffers.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.sub = ms.nn.Cell(); c.sub.register_buffer("b", ms.Tensor([1]))
            >>> [n for n, _ in c.named_buffers()]
            ['sub.b']
        """
        return self._named_members(lambda c: c._own_buffers().items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of :meth:`named_buffers`.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.register_buffer("b", ms.Tensor([1])); print(list(c.buffers())[0])
            [1]
        """
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_sub_cell(self, target: str) -> "CellTree":
        """The sub-cell at the dotted path ``target`` (``""`` is the cell itself).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); c.a.b = ms.nn.Cell(); c.get_sub_cell("a.b") is c.a.b
            True
        """
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellTree):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); c.a.register_buffer("b", ms.Tensor([2]))
            >>> print(c.get_buffer("a.b"))
            [2]
        """
        path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(path)
        if not hasattr(cell, name):
            raise AttributeError(f"{type(cell).__name__} has no attribute `{name}`")
        if name not in cell._own_buffers():
            raise AttributeError(f"`{name}` is not a buffer")
        return getattr(cell, name)

    # -- parameters and cells ------------------------------------------------------------------
    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[Tuple[str, Parameter]]:
        """``(path, parameter)`` for this cell's and (if ``expand``) sub-cells' parameters, each once.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.p = ms.Parameter(1.0)
            >>> [n for n, _ in c.parameters_and_names()]
            ['p']
        """
        return self._named_members(lambda c: c._own_params().items(), name_prefix, expand)

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """All parameters (each once), in :meth:`parameters_and_names` order.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.p = ms.Parameter(1.0); [p.name for p in c.get_parameters()]
            ['p']
        """
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> List[Parameter]:
        """Parameters with ``requires_grad`` (the usual ``weights`` for ``grad``).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.Parameter(1.0); c.b = ms.Parameter(2.0, requires_grad=False)
            >>> [p.name for p in c.trainable_params()]
            ['a']
        """
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> List[Parameter]:
        """Parameters without ``requires_grad``.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.Parameter(1.0); c.b = ms.Parameter(2.0, requires_grad=False)
            >>> [p.name for p in c.untrainable_params()]
            ['b']
        """
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """The parameters keyed by their ``name``.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.Parameter(1.0); list(c.parameters_dict())
            ['a']
        """
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse: bool = True) -> Optional["OrderedDict[str, Parameter]"]:
        """:meth:`parameters_dict` without layer-wise parallel parameters (None if empty).

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell().parameters_broadcast_dict() is None
            True
        """
        out = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel)
        return out or None

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Rename every parameter to ``prefix + path`` (its path in this cell).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.Parameter(1.0); c.update_parameters_name("net."); c.a.name
            'net.a'
        """
        check_name_regular(prefix, r"^\w*[0-9a-zA-Z\_\.\-]*$")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    def check_names(self) -> None:
        """ValueError if two parameters share a name.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.Parameter(1.0, name="x"); c.check_names()
        """
        names: set = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {path} is {param}, its name '{param.name}' already exists. "
                                 f"Please set a unique name for the parameter.")
            names.add(param.name)

    def cells_and_names(self, cells: Optional[set] = None,
                        name_prefix: str = "") -> Iterator[Tuple[str, "CellTree"]]:
        """``(path, cell)`` for this cell and all sub-cells, depth first, each once.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); c.a.b = ms.nn.Cell(); [n for n, _ in c.cells_and_names()]
            ['', 'a', 'a.b']
        """
        seen = cells if cells else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._own_cells().items():
            if cell:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def name_cells(self) -> "OrderedDict[str, Any]":
        """Direct sub-cells by attribute name (a cell stored twice is listed once).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); list(c.name_cells())
            ['a']
        """
        seen: set = set()
        out: "OrderedDict[str, Any]" = OrderedDict()
        for name, cell in self._own_cells().items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self) -> Any:
        """Direct sub-cells (the values of :meth:`name_cells`).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); len(c.cells())
            1
        """
        return self.name_cells().values()

    def apply(self, fn: Callable[["CellTree"], Any]) -> "CellTree":
        """Call ``fn`` on every sub-cell (depth first, children before parents) and on this cell.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); seen = []
            >>> c.apply(lambda cell: seen.append(cell)) is c, len(seen)
            (True, 2)
        """
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self
