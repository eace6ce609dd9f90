"""``SequentialCell``, ``CellList``, ``CellDict``: cells that hold cells, with MindSpore's parameter naming.

A cell put in a container at key ``k`` has its parameters renamed ``<prefix>k.<path>``, where
``<prefix>`` is the container's own place in the network, read from the names of the parameters
it already holds (so appending to ``net.body`` names the new weight ``body.2.weight``). Deleting or
inserting renumbers the following cells and renames their parameters. ``SequentialCell`` runs its
cells in order; ``CellList`` and ``CellDict`` have no ``construct``.

Example:
    >>> import mskernel as ms
    >>> class Scale(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = ms.Parameter(ms.Tensor([2.0]))
    ...     def construct(self, x):
    ...         return x * self.w
    >>> seq = ms.nn.SequentialCell([Scale(), Scale()])
    >>> print(seq(ms.Tensor([1.0])), [p.name for p in seq.get_parameters()])
    [4.] ['0.w', '1.w']
"""
from __future__ import annotations

from collections import OrderedDict, abc
from typing import Any, Iterator, List, Optional, Tuple, TypeVar

from mskernel.nn.cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_index(count: int, index: Any, op_name: str) -> int:
    if not isinstance(index, int):
        raise TypeError(f"For '{op_name}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -count <= index < count:
        raise IndexError(f"For '{op_name}', the value of 'index' must be a number in range [{-count}, {count}), "
                         f"but got {index}.")
    return index % count


def _check_insert_index(count: int, index: Any, op_name: str) -> int:
    if not isinstance(index, int):
        raise TypeError(f"For '{op_name}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -count <= index <= count:
        raise IndexError(f"For '{op_name}', the value of 'index' must be a number in range [{-count}, {count}], "
                         f"but got {index}.")
    return index % count if count != 0 and index != count else index


def _check_cell(cell: Any, op_name: str) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{op_name}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


def _first_param(cell: Cell) -> Any:
    for _, p in cell.parameters_and_names():
        return p
    return None


def _prefix_and_depth(cells: "OrderedDict[str, Cell]") -> Tuple[str, int]:
    """Where the container sits in the names of its parameters: (``"body."``, 1) when its first cell's first
    parameter is ``body.0.weight``. The position of the key is confirmed with the next cell that has
    parameters, when there is one."""
    found: List[Tuple[str, Any]] = []
    for key, cell in cells.items():
        p = _first_param(cell) if cell is not None else None
        if p is not None:
            found.append((key, p))
            if len(found) == 2:
                break
    if not found:
        return "", 0
    key, param = found[0]
    parts = param.name.split(".")
    prefix, depth = "", 0
    for i, part in enumerate(parts):
        if part != key:
            continue
        prefix, depth = ".".join(parts[:i]), i
        prefix = prefix + "." if prefix else prefix
        if len(found) > 1:
            other = found[1][1].name.split(".")
            if i < len(other) and other[i] == found[1][0]:
                break
    return prefix, depth


def _rename_under(cell: Cell, prefix: str, key: str, depth: int) -> None:
    """Rename ``cell``'s parameters to ``prefix + key + <their path below the container>``."""
    for _, p in cell.parameters_and_names():
        p.name = prefix + key + "." + ".".join(p.name.split(".")[depth + 1:])


def _place(owner: Cell, key: str, cell: Cell, rename: bool = True, prefix: Optional[str] = None) -> None:
    """Store ``cell`` under ``key`` in ``owner``; its Parameters take the owner's path (``<prefix><key>.``, the
    prefix read from the cells already held unless given)."""
    if rename:
        if prefix is None:
            prefix, _ = _prefix_and_depth(owner._cells)
        cell.update_parameters_name(f"{prefix}{key}.")
    owner._cells[key] = cell


_Seq = TypeVar("_Seq", bound="_CellSequence")


class _CellSequence(Cell):
    """What SequentialCell and CellList share: their cells in key order (``len``, truth, iteration) and
    ``set_grad`` reaching every cell held."""

    def __len__(self) -> int:
        return len(self._cells)

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __iter__(self) -> Iterator[Cell]:
        return iter(list(self._cells.values()))

    def set_grad(self: _Seq, flag: bool = True) -> _Seq:
        """Set ``requires_grad`` on this cell and the cells it holds.

        Example:
            >>> SequentialCell([Cell()]).set_grad()[0].requires_grad, CellList([Cell()]).set_grad()[0].requires_grad
            (True, True)
        """
        object.__setattr__(self, "requires_grad", flag)
        for cell in self._cells.values():
            cell.set_grad(flag)
        return self


class SequentialCell(_CellSequence):
    """Cells run one after another: ``SequentialCell([c0, c1])``, ``SequentialCell(c0, c1)`` or
    ``SequentialCell(OrderedDict(name=cell))``. Indexing, slicing (a new SequentialCell), ``len``,
    ``append``, item assignment and deletion.

    Example:
        >>> import mskernel as ms
        >>> class AddOne(ms.nn.Cell):
        ...     def construct(self, x):
        ...         return x + 1
        >>> seq = SequentialCell(AddOne(), AddOne()); seq.append(AddOne())
        >>> print(seq(ms.Tensor([0.0])), len(seq), len(seq[1:]))
        [3.] 3 2
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        object.__setattr__(self, "_auto_named", [])
        if len(args) == 1 and not isinstance(args[0], Cell):
            cells = args[0]
            if isinstance(cells, list):
                items = [(str(i), c) for i, c in enumerate(cells)]
                dynamic = True
            elif isinstance(cells, OrderedDict):
                items = list(cells.items())
                dynamic = False
            else:
                raise TypeError(f"For '{type(self).__name__}', the 'args[0]' must be Cell, list or orderedDict, "
                                f"but got {type(cells).__name__}")
        else:
            items = [(str(i), c) for i, c in enumerate(args)]
            dynamic = True
        for name, cell in items:
            self.insert_child_to_cell(name, cell)
            cell.update_parameters_name(name + ".")
            self._auto_named.append(dynamic)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._cells.items())[index]))
        index = _check_index(len(self), index, type(self).__name__)
        return list(self._cells.values())[index]

    def __setitem__(self, index: int, cell: Cell) -> None:
        name = type(self).__name__
        _check_cell(cell, name)
        prefix, _ = _prefix_and_depth(self._cells)
        index = _check_index(len(self), index, name)
        key = list(self._cells.keys())[index]
        self._cells[key] = cell
        cell.update_parameters_name(prefix + key + ".")

    def __delitem__(self, index: Any) -> None:
        name = type(self).__name__
        keys = list(self._cells.keys())
        if isinstance(index, int):
            index = _check_index(len(self), index, name)
            del self._cells[keys[index]]
            del self._auto_named[index]
        elif isinstance(index, slice):
            for key in keys[index]:
                del self._cells[key]
            del self._auto_named[index]
        else:
            raise TypeError(f"For '{name}', the type of index must be int type or slice type, "
                            f"but got {type(index).__name__}")
        prefix, depth = _prefix_and_depth(self._cells)
        renumbered: "OrderedDict[str, Cell]" = OrderedDict()
        for i, (key, cell) in enumerate(self._cells.items()):
            if self._auto_named[i]:
                _rename_under(cell, prefix, str(i), depth)
                renumbered[str(i)] = cell
            else:
                renumbered[key] = cell
        object.__setattr__(self, "_cells", renumbered)

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end (its parameters renamed ``<prefix><len>.``).

        Example:
            >>> seq = SequentialCell([]); seq.append(Cell()); len(seq)
            1
        """
        _check_cell(cell, type(self).__name__)
        self._auto_named.append(True)
        _place(self, str(len(self._auto_named) - 1), cell)

    def construct(self, input_data: Any) -> Any:
        for cell in list(self._cells.values()):
            input_data = cell(input_data)
        return input_data


class CellList(_CellSequence):
    """A list of cells: ``CellList([c0, c1])``; indexing, slicing, ``append``, ``extend``, ``insert``, ``+=``,
    item assignment and deletion. It has no ``construct``: call its cells yourself.

    Example:
        >>> cl = CellList([Cell()]); cl.append(Cell()); cl.insert(0, Cell()); len(cl)
        3
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index: Any) -> Any:
        name = type(self).__name__
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        if isinstance(index, int):
            return self._cells[str(_check_index(len(self), index, name))]
        raise TypeError(f"For '{name}', the type of 'index' must be int or slice, but got {type(index).__name__}.")

    def __setitem__(self, index: int, cell: Cell) -> None:
        name = type(self).__name__
        _check_cell(cell, name)
        if not isinstance(index, int):
            raise TypeError(f"For '{name}', the type of 'index' must be int, but got {type(index).__name__}.")
        _place(self, str(_check_index(len(self), index, name)), cell, self._auto_prefix)

    def __delitem__(self, index: Any) -> None:
        name = type(self).__name__
        keys = list(self._cells.keys())
        if isinstance(index, int):
            del self._cells[keys[_check_index(len(self), index, name)]]
        elif isinstance(index, slice):
            for key in keys[index]:
                del self._cells[key]
        else:
            raise TypeError(f"For '{name}', the type of 'index' must be int or slice, but got {type(index).__name__}.")
        prefix, depth = _prefix_and_depth(self._cells)
        renumbered: "OrderedDict[str, Cell]" = OrderedDict()
        for i, cell in enumerate(self._cells.values()):
            if self._auto_prefix:
                _rename_under(cell, prefix, str(i), depth)
            renumbered[str(i)] = cell
        object.__setattr__(self, "_cells", renumbered)

    def __iadd__(self, cells: List[Cell]) -> "CellList":
        return self.extend(cells)

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before ``index``; the following cells move up one (and are renamed).

        Example:
            >>> cl = CellList([Cell()]); cl.insert(0, SequentialCell([])); type(cl[0]).__name__
            'SequentialCell'
        """
        name = type(self).__name__
        idx = _check_insert_index(len(self), index, name)
        _check_cell(cell, name)
        prefix, depth = _prefix_and_depth(self._cells)
        for pos in range(len(self), idx, -1):
            moved = self._cells[str(pos - 1)]
            if self._auto_prefix:
                _rename_under(moved, prefix, str(pos), depth)
            self._cells[str(pos)] = moved
        _place(self, str(idx), cell, self._auto_prefix, prefix)

    def extend(self, cells: List[Cell]) -> "CellList":
        """Append each cell of the list ``cells``.

        Example:
            >>> len(CellList().extend([Cell(), Cell()]))
            2
        """
        name = type(self).__name__
        if not isinstance(cells, list):
            raise TypeError(f"For '{name}', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError(f"For '{name}', the type of cell can not be CellDict, but got {type(cell).__name__}.")
            _check_cell(cell, name)
            _place(self, str(len(self)), cell, self._auto_prefix)
        return self

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end.

        Example:
            >>> cl = CellList(); cl.append(Cell()); len(cl)
            1
        """
        _check_cell(cell, type(self).__name__)
        _place(self, str(len(self)), cell, self._auto_prefix)

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError


class CellDict(Cell):
    """Cells by string key: ``CellDict({"a": c})`` or from ``(key, cell)`` pairs; ``[]``, ``in``, ``len``,
    iteration over keys, ``keys``/``values``/``items``, ``pop``, ``clear``, ``update``. Keys must not contain
    ``.``, be empty or name an attribute of Cell; containers cannot be values. No ``construct``.

    Example:
        >>> cd = CellDict({"a": Cell()}); cd["b"] = Cell(); list(cd.keys()), "a" in cd
        (['a', 'b'], True)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        name = type(self).__name__
        if not isinstance(key, str):
            raise TypeError(f"For '{name}', the type of key should be string but got {type(key).__name__}.")
        if hasattr(self, key) and key not in self._cells:
            raise KeyError(f"For '{name}', the key can not be same with the attributes of Cell, but got key {key}.")
        if "." in key:
            raise KeyError(f"For '{name}', key can not contain \".\", but got key {key}")
        if key == "":
            raise KeyError(f"For '{name}', key can not be empty string \"\", but got key {key}")
        if cell is None:
            raise TypeError(f"For '{name}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{name}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For '{name}', the type of cell can not be CellDict, CellList or SequentialCell, "
                            f"but got {type(cell).__name__}.")
        _place(self, key, cell, self._auto_prefix)

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: Any) -> bool:
        return key in self._cells

    def clear(self) -> None:
        """Remove every cell.

        Example:
            >>> cd = CellDict({"a": Cell()}); cd.clear(); len(cd)
            0
        """
        self._cells.clear()

    def pop(self, key: str) -> Cell:
        """Remove the cell at ``key`` and return it.

        Example:
            >>> cd = CellDict({"a": Cell()}); type(cd.pop("a")).__name__, len(cd)
            ('Cell', 0)
        """
        cell = self[key]
        del self[key]
        return cell

    def keys(self) -> Any:
        """The keys, in insertion order.

        Example:
            >>> list(CellDict({"a": Cell()}).keys())
            ['a']
        """
        return self._cells.keys()

    def values(self) -> Any:
        """The cells, in insertion order.

        Example:
            >>> len(CellDict({"a": Cell()}).values())
            1
        """
        return self._cells.values()

    def items(self) -> Any:
        """``(key, cell)`` pairs, in insertion order.

        Example:
            >>> [k for k, _ in CellDict({"a": Cell()}).items()]
            ['a']
        """
        return self._cells.items()

    def update(self, cells: Any) -> None:
        """Add cells from a mapping (or CellDict) or from an iterable of ``(key, cell)`` pairs.

        Example:
            >>> cd = CellDict(); cd.update([("a", Cell()), ("b", Cell())]); list(cd)
            ['a', 'b']
        """
        if not isinstance(cells, abc.Iterable):
            raise TypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                            + type(cells).__name__)
        if isinstance(cells, (abc.Mapping, CellDict)):
            for key, cell in cells.items():
                self[key] = cell
            return
        for i, pair in enumerate(cells):
            if not isinstance(pair, abc.Iterable):
                raise TypeError(f"CellDict update sequence element #{i} should be Iterable; but got "
                                f"{type(pair).__name__}")
            if len(pair) != 2:
                raise ValueError(f"CellDict update sequence element #{i}, length should be 2; but has length "
                                 f"{len(pair)}")
            self[pair[0]] = pair[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError

