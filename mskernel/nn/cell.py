"""``nn.Cell``: MindSpore's module class — ``construct``, parameters, sub-cells and buffers by attribute.

Parameter names follow MindSpore: an unnamed Parameter takes the attribute name it is stored under;
a Cell assigned as an attribute of a Cell whose ``auto_prefix`` is True has every parameter it holds
renamed to ``<attribute>.<path>`` (``update_parameters_name``), so a ``weight`` of the first cell of
a SequentialCell stored as ``body`` is named ``body.0.weight`` — whatever name it had before. A Cell
never renames the parameters of a cell it holds when it is itself the top-level network.

A Cell that defines ``bprop(self, *inputs, out, dout)`` gets that as the backward of the whole
cell (MindSpore's custom Cell bprop); it is recorded through the same engine node as any op.
Its result follows MindSpore's ``CheckBpropOut`` rules: None is a TypeError ("The python
function output is none."); a single Tensor is wrapped in a tuple; there must be one gradient
per input (TypeError), each None or a Tensor (TypeError) of the input's dtype (TypeError) and
shape (ValueError); integer inputs get the bprop's values. A bprop whose parameters cannot take
``(*inputs, out, dout)`` is a TypeError naming the net. Hooks: see :mod:`mskernel.nn.cell_hooks`.

Example:
    >>> import mskernel as ms
    >>> class Scale(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = ms.Parameter(ms.Tensor(3.0))
    ...     def construct(self, x):
    ...         return x * self.w
    >>> net = Scale()
    >>> print(net(ms.Tensor(2.0)), [n for n, _ in net.parameters_and_names()])
    6.0 ['w']
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Dict, List, Optional, Tuple

from mskernel import dtype as mstype
from mskernel.autograd.bprop_args import check_bprop_args, check_bprop_output
from mskernel.autograd.node import STATE, record
from mskernel.common.parameter import Parameter, ParameterTuple, is_generated_name
from mskernel.common.tensor import Tensor
from mskernel.nn import cell_hooks as _hooks
from mskernel.nn.cell_hooks import CellHooksMixin, HookTables
from mskernel.nn.cell_tree import CellTreeMixin

__all__ = ["Cell"]


def _indent_tail(text: str, width: int) -> str:
    """``text`` with every line but the first shifted right by ``width`` spaces (a nested repr)."""
    return text.replace("\n", "\n" + " " * width)


def _cast_floats(value: Any, dtype: mstype.Type) -> Any:
    """Float Tensors in ``value`` (a Tensor or a flat tuple/list) cast to ``dtype`` (differentiably)."""
    if isinstance(value, Tensor):
        return value.astype(dtype) if mstype.is_float(value.dtype) and value.dtype != dtype else value
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    return value


class Cell(CellTreeMixin, CellHooksMixin):
    """Base class of networks. Subclasses implement ``construct``; call the cell to run it.

    Example:
        >>> import mskernel as ms
        >>> class Twice(ms.nn.Cell):
        ...     def construct(self, x):
        ...         return x * 2
        >>> print(Twice()(ms.Tensor([1.0])))
        [2.]
    """

    def __init__(self, auto_prefix: bool = True, flags: Optional[dict] = None) -> None:
        setup = object.__setattr__
        setup(self, "_params", OrderedDict())
        setup(self, "_cells", OrderedDict())
        setup(self, "_buffers", OrderedDict())
        setup(self, "_unsaved_buffers", set())
        setup(self, "training", False)
        setup(self, "requires_grad", False)
        setup(self, "_auto_prefix", auto_prefix)
        setup(self, "_phase", "train")
        setup(self, "mixed_precision_type", None)
        setup(self, "_hooks", HookTables())
        setup(self, "has_bprop", hasattr(self, "bprop"))
        setup(self, "_flags", {})
        if flags:
            self.add_flags(**flags)

    # -- attribute registry ----------------------------------------------------------------------
    def _registries(self) -> Tuple[Dict[str, Optional[Parameter]], Dict[str, Optional["Cell"]]]:
        try:
            return object.__getattribute__(self, "_params"), object.__getattribute__(self, "_cells")
        except AttributeError:
            raise AttributeError(f"{type(self).__name__}.__init__ must call super().__init__() before assigning "
                                 f"parameters or sub-cells.") from None

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            param = params[name]
            mixed = d.get("_mixed_active")
            if mixed is not None and param is not None and mstype.is_float(param.dtype) and param.dtype != mixed:
                return param.astype(mixed)  # to_float: construct reads the parameter in the cell's dtype
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
        elif isinstance(value, Cell):
            self.__dict__.pop(name, None)
            if self.__dict__.get("_auto_prefix", True):
                value.update_parameters_name(name + ".")
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

    def __bool__(self) -> bool:
        return True

    def insert_param_to_cell(self, param_name: str, param: Optional[Parameter],
                             check_name_contain_dot: bool = True) -> None:
        """Register ``param`` under ``param_name`` (a generated ``Parameter#N`` name becomes ``param_name``).

        Example:
            >>> import mskernel as ms
            >>> c = Cell(); c.insert_param_to_cell("bias", ms.Parameter(1.0)); c.bias.name
            'bias'
        """
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain'.' ")
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
        self._check_name_free(param_name, self._params, "insert_param_to_cell", "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and is_generated_name(param.name):
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell: Optional["Cell"]) -> None:
        """Register ``child_cell`` under ``child_name`` (its parameters keep their names).

        Example:
            >>> c = Cell(); c.insert_child_to_cell("sub", Cell()); list(c.name_cells())
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
        self._check_name_free(child_name, self._cells, "insert_child_to_cell", "child cell")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell

    def _check_name_free(self, name: str, held: dict, api: str, kind: str) -> None:
        """``name`` may be (re)registered in ``held`` unless it names another attribute of this cell."""
        if hasattr(self, name) and name not in held:
            raise KeyError(f"For '{api}', the {name} {kind} already exists in the network."
                           f"Cannot insert another {kind} with the same name.")

    # -- modes and flags ---------------------------------------------------------------------------
    def add_flags(self, **flags: Any) -> "Cell":
        """Set attributes given as keyword flags on this cell.

        Example:
            >>> Cell().add_flags(my_flag=True).get_flags()
            {'my_flag': True}
        """
        self.__dict__["_flags"].update(flags)
        for key, value in flags.items():
            object.__setattr__(self, key, value)
        return self

    def add_flags_recursive(self, **flags: Any) -> "Cell":
        """:meth:`add_flags` on this cell and all sub-cells.

        Example:
            >>> c = Cell(); c.a = Cell(); c.add_flags_recursive(x=1).a.get_flags()
            {'x': 1}
        """
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> Dict[str, Any]:
        """The flags set by :meth:`add_flags`.

        Example:
            >>> Cell().get_flags()
            {}
        """
        return self.__dict__["_flags"]

    @property
    def phase(self) -> str:
        """``'train'`` or ``'predict'`` (set by :meth:`set_train` on this cell only).

        Example:
            >>> Cell().set_train(False).phase
            'predict'
        """
        return self.__dict__["_phase"]

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the type of 'phase' must be str, but got {type(value).__name__}.")
        self.__dict__["_phase"] = value

    @property
    def cls_name(self) -> str:
        """The class name.

        Example:
            >>> Cell().cls_name
            'Cell'
        """
        return type(self).__name__

    def set_train(self, mode: bool = True) -> "Cell":
        """Set ``training`` on this cell and its sub-cells; ``phase`` becomes 'train' or 'predict'.

        Example:
            >>> c = Cell(); c.a = Cell(); c.set_train().a.training
            True
        """
        self.__dict__["_phase"] = "train" if mode else "predict"
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Set ``requires_grad`` of this cell (gradients are always available here).

        Example:
            >>> Cell().set_grad().requires_grad
            True
        """
        object.__setattr__(self, "requires_grad", requires_grad)
        return self

    def to_float(self, dst_type: mstype.Type) -> "Cell":
        """Run this cell and its sub-cells in ``dst_type`` (float16, float32 or bfloat16): each call casts the
        cell's float Tensor inputs and outputs to it, and inside ``construct`` its float parameters read as
        ``dst_type`` (a differentiable cast; the parameters keep their dtype and get gradients in it).

        Example:
            >>> import mskernel as ms
            >>> class Id(Cell):
            ...     def construct(self, x):
            ...         return x
            >>> Id().to_float(ms.float16)(ms.Tensor([1.0])).dtype
            mindspore.float16
        """
        allowed = tuple(t for t in (mstype.float16, mstype.float32, getattr(mstype, "bfloat16", None)) if t)
        if dst_type not in allowed:
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "mixed_precision_type", dst_type)
        return self

    # -- running ---------------------------------------------------------------------------------------
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; subclasses override it.

        Example:
            >>> Cell().construct()
            Traceback (most recent call last):
            ...
            AttributeError: For 'Cell', the method 'construct' is not defined.
        """
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def set_inputs(self, *inputs: Any) -> None:
        """Declare the inputs' shapes (dims may be None/-1: ``Tensor(shape=[4, None], dtype=...)``) and
        dtypes, as MindSpore does for dynamic shapes; each later call is checked against them.

        Example:
            >>> import mskernel as ms
            >>> class Double(Cell):
            ...     def construct(self, x):
            ...         return x * 2
            >>> net = Double()
            >>> net.set_inputs(ms.Tensor(shape=[None, 2], dtype=ms.float32))
            >>> print(net(ms.Tensor([[1.0, 2.0]], ms.float32)))
            [[2. 4.]]
        """
        self.__dict__["_dynamic_inputs"] = inputs

    def get_inputs(self) -> Any:
        """The inputs given to :meth:`set_inputs` (None if it was not called).

        Example:
            >>> Cell().get_inputs() is None
            True
        """
        return self.__dict__.get("_dynamic_inputs")

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> Dict[Any, Any]:
        """MindSpore's lazy parameter initialization: mskernel's parameters always hold their data, so
        nothing is replaced (an empty mapping).

        Example:
            >>> Cell().init_parameters_data()
            {}
        """
        return {}

    def _check_inputs(self, declared: tuple, args: tuple) -> None:
        name = type(self).__name__
        if len(declared) != len(args):
            raise ValueError(f"For '{name}', set_inputs declared {len(declared)} inputs, but the net was called with "
                             f"{len(args)}.")
        for i, (want, got) in enumerate(zip(declared, args)):
            if not isinstance(want, Tensor):
                continue
            if not isinstance(got, Tensor):
                raise TypeError(f"For '{name}', input {i} was declared by set_inputs as a Tensor, but got "
                                f"{type(got).__name__}.")
            shape = tuple(want.shape)
            if len(shape) != len(got.shape) or any(w not in (-1, g) for w, g in zip(shape, got.shape)):
                raise ValueError(f"For '{name}', input {i} has shape {list(got.shape)}, which does not match the "
                                 f"shape {list(shape)} given to set_inputs (-1: any size).")
            if want.dtype != got.dtype:
                raise TypeError(f"For '{name}', input {i} has dtype {got.dtype}, but set_inputs declared "
                                f"{want.dtype}.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        d = self.__dict__
        declared = d.get("_dynamic_inputs")
        if declared is not None:
            self._check_inputs(declared, args)
        hooks = d.get("_hooks")
        has_bprop = getattr(type(self), "bprop", None) is not None and STATE.enabled
        if not (has_bprop or d.get("mixed_precision_type") is not None or (hooks is not None and hooks.any())):
            return self.construct(*args, **kwargs)
        return self._run_construct(args, kwargs, has_bprop)

    def _run_construct(self, args: tuple, kwargs: dict, has_bprop: bool) -> Any:
        hooks: HookTables = self.__dict__.get("_hooks") or HookTables()
        mixed = self.__dict__.get("mixed_precision_type")
        if mixed is not None:
            args = _cast_floats(args, mixed)
        called: set = set()
        output = None
        try:
            if hooks.forward_pre:
                args, kwargs = _hooks.run_forward_pre_hooks(self, hooks, args, kwargs)
            call = _hooks.BackwardHookCall(self, hooks) if hooks.backward else None
            if call is not None:
                args = call.inputs(args)
            if mixed is not None:
                self.__dict__["_mixed_active"] = mixed
            try:
                output = self._call_with_bprop(args, kwargs) if has_bprop else self.construct(*args, **kwargs)
            finally:
                self.__dict__.pop("_mixed_active", None)
            if mixed is not None:
                output = _cast_floats(output, mixed)
            if hooks.forward:
                output = _hooks.run_forward_hooks(self, hooks, args, kwargs, output, called)
            if call is not None:
                output = call.outputs(output)
            if hooks.backward_pre:
                output = _hooks.wrap_backward_pre_hook(self, hooks, output)
            return output
        except Exception:
            if hooks.forward_always:
                _hooks.run_always_called_hooks(self, hooks, args, kwargs, output, called)
            raise

    def _call_with_bprop(self, args: tuple, kwargs: dict) -> Any:
        prev = STATE.enabled
        STATE.enabled = False
        try:
            out = self.construct(*args, **kwargs)
        finally:
            STATE.enabled = prev
        outs = tuple(out) if isinstance(out, tuple) else (out,)
        if not all(isinstance(o, Tensor) for o in outs):
            return out
        fresh = tuple(Tensor._wrap(o._data) for o in outs)
        multi = isinstance(out, tuple)

        def backward(douts: List[Tensor]) -> Any:
            o = fresh if multi else fresh[0]
            dout = tuple(douts) if multi else douts[0]
            who = f"For user defined method 'bprop' of net '{type(self).__name__}'"
            check_bprop_args(self.bprop, len(args) + 2, who)
            grads = self.bprop(*args, o, dout)
            if grads is None:
                raise TypeError("The python function output is none.")
            return check_bprop_output(grads, args, who, fit=True)  # MindSpore's rules and messages
        record(type(self).__name__, args, fresh, backward, kind="cell_bprop", info={"cell": type(self).__name__},
               any_dtype=True)
        return fresh if multi else fresh[0]

    # -- printing ---------------------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """Extra text shown inside the parentheses of ``repr(cell)`` (override it).

        Example:
            >>> Cell().extend_repr()
            ''
        """
        return ""

    def __repr__(self) -> str:
        name = type(self).__name__
        extra = self.extend_repr()
        children = self._registries()[1]
        body = extra.split("\n") if extra else []
        body += [f"({key}): {_indent_tail(repr(child), 2)}" for key, child in children.items()]
        if not body:
            return f"{name}()"
        if len(body) == 1 and not children:  # a one-line extend_repr stays on the class's line
            return f"{name}({body[0]})"
        return f"{name}(\n" + "".join(f"  {line}\n" for line in body) + ")"

    def __str__(self) -> str:
        return repr(self)


def _unique(items: Any) -> List[Any]:
    seen: set = set()
    out = []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out
