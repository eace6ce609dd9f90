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
``(*inputs, out, dout)`` is a TypeError naming the net.

A Cell is composed of one module per idea, each owning its instance-dict keys: its parameters, sub-cells and
buffers and the attribute protocol (:mod:`mskernel.nn.cell_state`); the paths and names over them
(:mod:`mskernel.nn.cell_tree`); its modes — training, gradients, precision, flags
(:mod:`mskernel.nn.cell_modes`); its hooks (:mod:`mskernel.nn.cell_hooks`). This module holds what a Cell
does when called — the declared inputs (``_dynamic_inputs``), the casts of ``to_float``, the hooks at their
points, the ``bprop`` (``has_bprop``) — and how it prints.

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

from typing import Any, Dict, List, Optional

from mskernel import dtype as mstype
from mskernel.autograd.bprop_args import check_bprop_args, check_bprop_output
from mskernel.autograd.node import STATE, record
from mskernel import context as _context
from mskernel.common import jit_scope
from mskernel.common.tensor import Tensor
from mskernel.nn import cell_hooks as _hooks
from mskernel.nn.cell_hooks import CellHooksMixin, HookTables, active_hooks
from mskernel.nn.cell_modes import CellModesMixin
from mskernel.nn.cell_tree import CellTree

__all__ = ["Cell"]


def _indent_tail(text: str, width: int) -> str:
    """``text`` with every line but the first shifted right by ``width`` spaces (a nested repr)."""
    return text.replace("\n", "\n" + " " * width)


_REGISTERED = jit_scope.REGISTERED  # [True] while an op wrapper or infer function is registered
_NO_HOOKS = HookTables()  # the hooks of a call that runs for its casts or bprop alone (never registered into)


def _cast_floats(value: Any, dtype: mstype.Type) -> Any:
    """Float Tensors in ``value`` (a Tensor or a flat tuple/list) cast to ``dtype`` (differentiably)."""
    if isinstance(value, Tensor):
        return value.astype(dtype) if mstype.is_float(value.dtype) and value.dtype != dtype else value
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(v, dtype) for v in value)
    return value


class Cell(CellTree, CellModesMixin, CellHooksMixin):
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
        self._init_state()
        self._init_tree(auto_prefix)
        self._init_modes()
        self._init_hooks()
        object.__setattr__(self, "has_bprop", hasattr(self, "bprop"))
        if flags:
            self.add_flags(**flags)

    def __bool__(self) -> bool:
        return True

    @property
    def cls_name(self) -> str:
        """The class name.

        Example:
            >>> Cell().cls_name
            'Cell'
        """
        return type(self).__name__

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
        if _REGISTERED[0] and jit_scope.depth() == 0 and _context.get_context("mode") == _context.GRAPH_MODE:
            return self._call_as_graph(args, kwargs)
        d = self.__dict__
        declared = d.get("_dynamic_inputs")
        if declared is not None:
            self._check_inputs(declared, args)
        hooks = active_hooks(d)
        has_bprop = getattr(type(self), "bprop", None) is not None and STATE.enabled
        if not (has_bprop or d.get("mixed_precision_type") is not None or hooks is not None):
            return self.construct(*args, **kwargs)
        return self._run_construct(args, kwargs, has_bprop, hooks or _NO_HOOKS)

    def _call_as_graph(self, args: tuple, kwargs: dict) -> Any:
        """A call in GRAPH_MODE, which MindSpore compiles: the op wrappers and infer functions of
        ``mindspore.graph`` apply inside it, as in a ``jit`` function."""
        jit_scope.enter()
        try:
            return self(*args, **kwargs)
        finally:
            jit_scope.leave()

    def _run_construct(self, args: tuple, kwargs: dict, has_bprop: bool, hooks: HookTables) -> Any:
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
                self._read_params_as(mixed)
            try:
                output = self._call_with_bprop(args, kwargs) if has_bprop else self.construct(*args, **kwargs)
            finally:
                if mixed is not None:
                    self._read_params_as(None)
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
        children = self._own_cells()
        body = extra.split("\n") if extra else []
        body += [f"({key}): {_indent_tail(repr(child), 2)}" for key, child in children.items()]
        if not body:
            return f"{name}()"
        if len(body) == 1 and not children:  # a one-line extend_repr stays on the class's line
            return f"{name}({body[0]})"
        return f"{name}(\n" + "".join(f"  {line}\n" for line in body) + ")"

    def __str__(self) -> str:
        return repr(self)

