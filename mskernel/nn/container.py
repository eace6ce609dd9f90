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

import itertools
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, Iterator, List, Optional, Tuple

from mskernel.nn.cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


# -- argument checks (MindSpore's messages) -------------------------------------------------------------------
def _position(op: str, index: Any, count: int, inserting: bool = False) -> int:
    """``index`` into ``count`` cells as a position from 0 (``count`` itself allowed when inserting)."""
    if not isinstance(index, int):
        raise TypeError(f"For '{op}', the type of 'index' must be int, but got {type(index).__name__}.")
    end = count + 1 if inserting else count
    if index < -count or index >= end:
        bracket = "]" if inserting else ")"
        raise IndexError(f"For '{op}', the value of 'index' must be a number in range [{-count}, {count}{bracket}, "
                         f"but got {index}.")
    return index + count if index < 0 else index


def _require_cell(op: str, cell: Any) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{op}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


# -- where a container sits in its parameters' names -----------------------------------------------------------
class _Path:
    """A container's place in the dotted names of the parameters it holds.

    ``prefix`` is what comes before a child's key (``"body."``) and ``depth`` the key's position among
    the dots (1). It is read back from the names: the first child with a parameter shows the key at some
    position; a second such child, when there is one, settles which position when the key occurs twice.
    """

    __slots__ = ("prefix", "depth")

    def __init__(self, cells: "OrderedDict[str, Any]") -> None:
        self.prefix, self.depth = "", 0
        witnesses = list(itertools.islice(self._witnesses(cells), 2))
        if not witnesses:
            return
        key, parts = witnesses[0]
        spots = [i for i, part in enumerate(parts) if part == key]
        if not spots:
            return
        chosen = spots[-1]
        if len(witnesses) == 2:
            other_key, other_parts = witnesses[1]
            agreeing = [i for i in spots if i < len(other_parts) and other_parts[i] == other_key]
            chosen = agreeing[0] if agreeing else chosen
        head = ".".join(parts[:chosen])
        self.prefix, self.depth = (head + "." if head else ""), chosen

    @staticmethod
    def _witnesses(cells: "OrderedDict[str, Any]") -> Iterator[Tuple[str, List[str]]]:
        """``(key, name split at dots)`` of the first parameter of each child that has one."""
        for key, cell in cells.items():
            if cell is None:
                continue
            first = next(iter(cell.parameters_and_names()), None)
            if first is not None:
                yield key, first[1].name.split(".")

    def name(self, key: str) -> str:
        """The parameter-name prefix of a child at ``key``."""
        return f"{self.prefix}{key}."

    def move(self, cell: Cell, key: str) -> None:
        """Rename ``cell``'s parameters as if it had been placed at ``key`` (their path below it unchanged)."""
        for _, param in cell.parameters_and_names():
            below = param.name.split(".")[self.depth + 1:]
            param.name = self.name(key) + ".".join(below)


class _CellSequence(Cell):
    """What SequentialCell and CellList share: cells by position (``len``, truth, iteration), ``set_grad``
    reaching every cell, and the renumbering that keeps keys and parameter names in step with positions."""

    def __len__(self) -> int:
        return len(self._own_cells())

    def __bool__(self) -> bool:
        return bool(self._own_cells())

    def __iter__(self) -> Iterator[Cell]:
        return iter(list(self._own_cells().values()))

    def set_grad(self, flag: bool = True) -> Cell:
        """Set ``requires_grad`` on this cell and the cells it holds.

        Example:
            >>> SequentialCell([Cell()]).set_grad()[0].requires_grad, CellList([Cell()]).set_grad()[0].requires_grad
            (True, True)
        """
        super().set_grad(flag)
        for child in self._own_cells().values():
            child.set_grad(flag)
        return self

    def _renumber(self, numbered: List[bool], rename: bool) -> None:
        """Give the cells marked in ``numbered`` their position as key (renaming their parameters when
        ``rename``); the others keep their keys."""
        table = self._own_cells()
        path = _Path(table)
        fresh: "OrderedDict[str, Cell]" = OrderedDict()
        for position, (key, child) in enumerate(table.items()):
            if numbered[position]:
                key = str(position)
                if rename:
                    path.move(child, key)
            fresh[key] = child
        table.clear()
        table.update(fresh)

    def _drop(self, op: str, index: Any, message: str) -> List[int]:
        """Delete the cells at ``index`` (int or slice); the positions removed."""
        cells = self._own_cells()
        keys = list(cells)
        if isinstance(index, int):
            gone = [_position(op, index, len(keys))]
        elif isinstance(index, slice):
            gone = list(range(len(keys)))[index]
        else:
            raise TypeError(message)
        for position in gone:
            del cells[keys[position]]
        return gone


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
        # per position: True when the key is the position (list or positional arguments), False for an
        # OrderedDict's own key; deleting renumbers only the former
        object.__setattr__(self, "_numbered", [])
        given = args[0] if len(args) == 1 and not isinstance(args[0], Cell) else list(args)
        if isinstance(given, OrderedDict):
            pairs, numbered = list(given.items()), False
        elif isinstance(given, list):
            pairs, numbered = [(str(i), c) for i, c in enumerate(given)], True
        else:
            raise TypeError(f"For '{type(self).__name__}', the 'args[0]' must be Cell, list or orderedDict, "
                            f"but got {type(given).__name__}")
        for key, child in pairs:
            self.insert_child_to_cell(key, child)
            child.update_parameters_name(key + ".")
            self._numbered.append(numbered)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._own_cells().items())[index]))
        return list(self._own_cells().values())[_position(type(self).__name__, index, len(self))]

    def __setitem__(self, index: int, cell: Cell) -> None:
        op = type(self).__name__
        _require_cell(op, cell)
        cells = self._own_cells()
        path = _Path(cells)
        key = list(cells)[_position(op, index, len(self))]
        cells[key] = cell
        cell.update_parameters_name(path.name(key))

    def __delitem__(self, index: Any) -> None:
        op = type(self).__name__
        gone = self._drop(op, index, f"For '{op}', the type of index must be int type or slice type, "
                                     f"but got {type(index).__name__}")
        kept = [flag for position, flag in enumerate(self._numbered) if position not in gone]
        object.__setattr__(self, "_numbered", kept)
        self._renumber(kept, rename=True)

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end (its parameters renamed ``<prefix><len>.``).

        Example:
            >>> seq = SequentialCell([]); seq.append(Cell()); len(seq)
            1
        """
        _require_cell(type(self).__name__, cell)
        key = str(len(self._numbered))
        cells = self._own_cells()
        cell.update_parameters_name(_Path(cells).name(key))
        self._numbered.append(True)
        cells[key] = cell

    def construct(self, input_data: Any) -> Any:
        out = input_data
        for child in list(self._own_cells().values()):
            out = child(out)
        return out


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

    def _index_type_error(self, index: Any) -> str:
        return (f"For '{type(self).__name__}', the type of 'index' must be int or slice, "
                f"but got {type(index).__name__}.")

    def _put(self, position: int, cell: Cell, path: Optional[_Path] = None) -> None:
        """Store ``cell`` at ``position``, named after it when this list prefixes names."""
        cells = self._own_cells()
        if self._renames_children():
            cell.update_parameters_name((path or _Path(cells)).name(str(position)))
        cells[str(position)] = cell

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return CellList(list(self._own_cells().values())[index])
        if not isinstance(index, int):
            raise TypeError(self._index_type_error(index))
        return self._own_cells()[str(_position(type(self).__name__, index, len(self)))]

    def __setitem__(self, index: int, cell: Cell) -> None:
        op = type(self).__name__
        _require_cell(op, cell)
        if not isinstance(index, int):
            raise TypeError(f"For '{op}', the type of 'index' must be int, but got {type(index).__name__}.")
        self._put(_position(op, index, len(self)), cell)

    def __delitem__(self, index: Any) -> None:
        self._drop(type(self).__name__, index, self._index_type_error(index))
        self._renumber([True] * len(self._own_cells()), rename=self._renames_children())

    def __iadd__(self, cells: List[Cell]) -> "CellList":
        return self.extend(cells)

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before ``index``; the following cells move up one (and are renamed).

        Example:
            >>> cl = CellList([Cell()]); cl.insert(0, SequentialCell([])); type(cl[0]).__name__
            'SequentialCell'
        """
        op = type(self).__name__
        at = _position(op, index, len(self), inserting=True)
        _require_cell(op, cell)
        cells = self._own_cells()
        path = _Path(cells)
        for position in reversed(range(at + 1, len(self) + 1)):  # from the new end down, each moves up one
            moved = cells[str(position - 1)]
            if self._renames_children():
                path.move(moved, str(position))
            cells[str(position)] = moved
        self._put(at, cell, path)

    def extend(self, cells: List[Cell]) -> "CellList":
        """Append each cell of the list ``cells``.

        Example:
            >>> len(CellList().extend([Cell(), Cell()]))
            2
        """
        op = type(self).__name__
        if not isinstance(cells, list):
            raise TypeError(f"For '{op}', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError(f"For '{op}', the type of cell can not be CellDict, but got {type(cell).__name__}.")
            _require_cell(op, cell)
            self._put(len(self), cell)
        return self

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end.

        Example:
            >>> cl = CellList(); cl.append(Cell()); len(cl)
            1
        """
        _require_cell(type(self).__name__, cell)
        self._put(len(self), cell)

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
        return self._own_cells()[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        op = type(self).__name__
        problem = self._key_problem(op, key) or self._value_problem(op, cell)
        if problem is not None:
            raise problem
        cells = self._own_cells()
        if self._renames_children():
            cell.update_parameters_name(_Path(cells).name(key))
        cells[key] = cell

    def _key_problem(self, op: str, key: Any) -> Optional[Exception]:
        if not isinstance(key, str):
            return TypeError(f"For '{op}', the type of key should be string but got {type(key).__name__}.")
        if key not in self._own_cells() and hasattr(self, key):
            return KeyError(f"For '{op}', the key can not be same with the attributes of Cell, but got key {key}.")
        if "." in key:
            return KeyError(f"For '{op}', key can not contain \".\", but got key {key}")
        if not key:
            return KeyError(f"For '{op}', key can not be empty string \"\", but got key {key}")
        return None

    @staticmethod
    def _value_problem(op: str, cell: Any) -> Optional[Exception]:
        if cell is None:
            return TypeError(f"For '{op}', cell can not be None.")
        if not isinstance(cell, Cell):
            return TypeError(f"For '{op}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            return TypeError(f"For '{op}', the type of cell can not be CellDict, CellList or SequentialCell, "
                             f"but got {type(cell).__name__}.")
        return None

    def __delitem__(self, key: str) -> None:
        del self._own_cells()[key]

    def __len__(self) -> int:
        return len(self._own_cells())

    def __iter__(self) -> Iterator[str]:
        return iter(self._own_cells())

    def __contains__(self, key: Any) -> bool:
        return key in self._own_cells()

    def clear(self) -> None:
        """Remove every cell.

        Example:
            >>> cd = CellDict({"a": Cell()}); cd.clear(); len(cd)
            0
        """
        self._own_cells().clear()

    def pop(self, key: str) -> Cell:
        """Remove the cell at ``key`` and return it.

        Example:
            >>> cd = CellDict({"a": Cell()}); type(cd.pop("a")).__name__, len(cd)
            ('Cell', 0)
        """
        return self._own_cells().pop(key)

    def keys(self) -> Any:
        """The keys, in insertion order.

        Example:
            >>> list(CellDict({"a": Cell()}).keys())
            ['a']
        """
        return self._own_cells().keys()

    def values(self) -> Any:
        """The cells, in insertion order.

        Example:
            >>> len(CellDict({"a": Cell()}).values())
            1
        """
        return self._own_cells().values()

    def items(self) -> Any:
        """``(key, cell)`` pairs, in insertion order.

        Example:
            >>> [k for k, _ in CellDict({"a": Cell()}).items()]
            ['a']
        """
        return self._own_cells().items()

    def update(self, cells: Any) -> None:
        """Add cells from a mapping (or CellDict) or from an iterable of ``(key, cell)`` pairs.

        Example:
            >>> cd = CellDict(); cd.update([("a", Cell()), ("b", Cell())]); list(cd)
            ['a', 'b']
        """
        if not isinstance(cells, Iterable):
            raise TypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                            + type(cells).__name__)
        pairs = cells.items() if isinstance(cells, (Mapping, CellDict)) else self._pairs(cells)
        for key, cell in pairs:
            self[key] = cell

    @staticmethod
    def _pairs(entries: Iterable) -> Iterator[Tuple[Any, Any]]:
        for number, entry in enumerate(entries):
            if not isinstance(entry, Iterable):
                raise TypeError(f"CellDict update sequence element #{number} should be Iterable; but got "
                                f"{type(entry).__name__}")
            if len(entry) != 2:
                raise ValueError(f"CellDict update sequence element #{number}, length should be 2; but has length "
                                 f"{len(entry)}")
            yield entry[0], entry[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError
