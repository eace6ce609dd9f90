"""A Cell's own state: its parameters, sub-cells and buffers, and the attribute protocol that fills them.

This module owns the instance-dict keys that hold that state — ``_params``, ``_cells``, ``_buffers``,
``_unsaved_buffers`` (the buffers registered with ``persistent=False``), ``_tuple_ids`` (the counter that
names the unnamed members of a ParameterTuple) and ``_params_as`` (the dtype the parameters read as while
``construct`` runs under ``to_float``) — and no other module reads or writes them by key. Assigning an
attribute routes the value: a Parameter is registered as a parameter (an unnamed one takes the attribute
name), a Cell as a sub-cell, anything else is a plain attribute (a name already registered takes only a
Tensor for a parameter's data, or None). Everything built on the state goes through its methods: the tree
(:mod:`mskernel.nn.cell_tree`) walks the tables through :meth:`CellState._own_params`,
:meth:`CellState._own_cells` and :meth:`CellState._own_buffers`, and names the parameters of an assigned
sub-cell through :meth:`CellState._name_child`; the containers (:mod:`mskernel.nn.container`), whose idea is
the order of their sub-cells, keep that order in the table :meth:`CellState._own_cells` hands them.

Example:
    >>> import mskernel as ms
    >>> class Net(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = ms.Parameter(ms.Tensor([1.0]))
    ...         self.register_buffer("steps", ms.Tensor([0]))
    >>> net = Net()
    >>> net.w.name, list(net._own_params()), list(net._own_buffers())
    ('w', ['w'], ['steps'])
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, List, Optional

from mskernel import dtype as mstype
from mskernel.common.parameter import Parameter, ParameterTuple, is_generated_name
from mskernel.common.tensor import Tensor

__all__ = ["CellState"]


class CellState:
    """The tables of a Cell (parameters, sub-cells, buffers) and the attribute access that reads and fills them.

    Example:
        >>> import mskernel as ms
        >>> c = ms.nn.Cell(); c.p = ms.Parameter(1.0); c.sub = ms.nn.Cell(); c.n = 3
        >>> list(c._own_params()), list(c._own_cells()), c.n
        (['p'], ['sub'], 3)
    """

    def _init_state(self) -> None:
        """Create the empty tables (``Cell.__init__`` calls it first)."""
        setup = object.__setattr__
        setup(self, "_params", OrderedDict())
        setup(self, "_cells", OrderedDict())
        setup(self, "_buffers", OrderedDict())
        setup(self, "_unsaved_buffers", set())

    # -- the tables, for what is built on them ---------------------------------------------------------
    def _state_table(self, key: str) -> Any:
        """The table at ``key`` of the instance dict (MindSpore's hint to call ``super().__init__()`` if missing)."""
        try:
            return self.__dict__[key]
        except KeyError:
            raise AttributeError(f"{type(self).__name__}.__init__ must call super().__init__() before assigning "
                                 f"parameters or sub-cells.") from None

    def _own_params(self) -> "OrderedDict[str, Optional[Parameter]]":
        """This cell's parameters by attribute name (not its sub-cells'); read it, register with the methods.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.b = ms.Parameter(0.0); list(c._own_params())
            ['b']
        """
        return self._state_table("_params")

    def _own_cells(self) -> "OrderedDict[str, Optional[CellState]]":
        """This cell's direct sub-cells by attribute name. Containers keep their order in this table; others
        read it.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); list(c._own_cells())
            ['a']
        """
        return self._state_table("_cells")

    def _own_buffers(self) -> "OrderedDict[str, Optional[Tensor]]":
        """This cell's buffers by name (not its sub-cells').

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.register_buffer("n", ms.Tensor([0])); list(c._own_buffers())
            ['n']
        """
        return self._state_table("_buffers")

    def _name_child(self, name: str, child: "CellState") -> None:
        """Called when ``child`` is assigned as attribute ``name``, before it is registered: the tree renames
        its parameters (``auto_prefix``, :mod:`mskernel.nn.cell_tree`); the state itself names nothing."""

    def _read_params_as(self, dtype: Optional[mstype.Type]) -> None:
        """From now on, reading a float parameter as an attribute gives it cast to ``dtype`` (a differentiable
        cast; None: as stored). ``to_float``'s call sets it around ``construct``.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.w = ms.Parameter(ms.Tensor([1.0])); c._read_params_as(ms.float16)
            >>> c.w.dtype, c._own_params()["w"].dtype
            (mindspore.float16, mindspore.float32)
        """
        if dtype is None:
            self.__dict__.pop("_params_as", None)
        else:
            self.__dict__["_params_as"] = dtype

    # -- attribute access ---------------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            param = params[name]
            read_as = d.get("_params_as")
            if read_as is not None and param is not None and mstype.is_float(param.dtype) and param.dtype != read_as:
                return param.astype(read_as)  # to_float: construct reads the parameter in the cell's dtype
            return param
        for table in ("_buffers", "_cells"):
            entries = d.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Parameter):
            self.__dict__.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            for item in _unique(value):
                if is_generated_name(item.name):
                    item.name = f"Parameter${self.__dict__.get('_tuple_ids', 1)}"
                    self.__dict__["_tuple_ids"] = self.__dict__.get("_tuple_ids", 1) + 1
                self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
            object.__setattr__(self, name, value)
        elif isinstance(value, CellState):
            self.__dict__.pop(name, None)
            self._name_child(name, value)
            self.insert_child_to_cell(name, value)
        else:
            self._set_plain_attr(name, value)

    def _set_plain_attr(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor) and params[name] is not None:
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a parameter.")
            return
        for table, what in (("_cells", "Sub cell"), ("_buffers", "Buffer")):
            entries = d.get(table)
            if entries is not None and name in entries:
                if value is not None:
                    kind = "cell" if table == "_cells" else "buffer"
                    raise TypeError(f"{what} '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a {kind}.")
                entries[name] = None
                return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for table in ("_params", "_buffers", "_cells"):
            entries = d.get(table)
            if entries is not None and name in entries:
                del entries[name]
                return
        object.__delattr__(self, name)

    # -- registration ---------------------------------------------------------------------------------------
    def insert_param_to_cell(self, param_name: str, param: Optional[Parameter],
                             check_name_contain_dot: bool = True) -> None:
        """Register ``param`` under ``param_name`` (a generated ``Parameter#N`` name becomes ``param_name``).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.insert_param_to_cell("bias", ms.Parameter(1.0)); c.bias.name
            'bias'
        """
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain'.' ")
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
        params = self.__dict__["_params"]
        self._check_name_free(param_name, params, "insert_param_to_cell", "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and is_generated_name(param.name):
            param.name = param_name
        params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell: Optional["CellState"]) -> None:
        """Register ``child_cell`` under ``child_name`` (its parameters keep their names).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.insert_child_to_cell("sub", ms.nn.Cell()); list(c.name_cells())
            ['sub']
        """
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                            f"but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be None and "
                           "can not contain '.' ")
        if "_cells" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.__init__ must call super().__init__() before assigning "
                                 f"sub-cells.")
        cells = self.__dict__["_cells"]
        self._check_name_free(child_name, cells, "insert_child_to_cell", "child cell")
        if child_cell is not None and not isinstance(child_cell, CellState):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        cells[child_name] = child_cell

    def _check_name_free(self, name: str, held: dict, api: str, kind: str) -> None:
        """``name`` may be (re)registered in ``held`` unless it names another attribute of this cell."""
        if hasattr(self, name) and name not in held:
            raise KeyError(f"For '{api}', the {name} {kind} already exists in the network."
                           f"Cannot insert another {kind} with the same name.")

    def register_buffer(self, name: str, tensor: Optional[Tensor], persistent: bool = True) -> None:
        """Register a Tensor that is state but not a parameter (reachable as ``self.name``).

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.register_buffer("count", ms.Tensor([0])); [n for n, _ in c.named_buffers()]
            ['count']
        """
        problem = self._buffer_problem(name, tensor)
        if problem is not None:
            raise problem
        self.__dict__["_buffers"][name] = tensor
        unsaved = self.__dict__["_unsaved_buffers"]
        (unsaved.discard if persistent else unsaved.add)(name)

    def _buffer_problem(self, name: Any, tensor: Any) -> Optional[Exception]:
        """Why ``register_buffer(name, tensor)`` is refused (MindSpore's errors, in its order), or None."""
        if "_buffers" not in self.__dict__:
            return AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            return TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            return KeyError('buffer name can\'t contain "."')
        if not name:
            return KeyError('buffer name can\'t be empty string ""')
        if name not in self.__dict__["_buffers"] and hasattr(self, name):
            return KeyError(f"attribute '{name}' already exists")
        if not (tensor is None or isinstance(tensor, Tensor)):
            return TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                             f"(mindspore Tensor or None required)")
        return None


def _unique(items: Any) -> List[Any]:
    seen: set = set()
    out = []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out
