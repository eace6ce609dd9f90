"""``nn.Cell``: MindSpore's module class — ``construct``, parameters and sub-cells by attribute.

A Cell that defines ``bprop(self, *inputs, out, dout)`` gets that as the backward of the whole
cell (MindSpore's custom Cell bprop); it is recorded through the same engine node as any op.
Its result follows MindSpore's ``CheckBpropOut`` rules: None is a TypeError ("The python
function output is none."); a single Tensor is wrapped in a tuple; there must be one gradient
per input (TypeError), each None or a Tensor (TypeError) of the input's dtype (TypeError) and
shape (ValueError); integer inputs get the bprop's values. A bprop whose parameters cannot take
``(*inputs, out, dout)`` is a TypeError naming the net.

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
from typing import Any, Dict, Iterator, List, Tuple

from mskernel.autograd.bprop_args import check_bprop_args, check_bprop_output
from mskernel.autograd.node import STATE, record
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor

__all__ = ["Cell"]


class Cell:
    """Base class of networks. Subclasses implement ``construct``; call the cell to run it.

    Example:
        >>> import mskernel as ms
        >>> class Twice(ms.nn.Cell):
        ...     def construct(self, x):
        ...         return x * 2
        >>> print(Twice()(ms.Tensor([1.0])))
        [2.]
    """

    def __init__(self, auto_prefix: bool = True, flags: Any = None) -> None:
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "_auto_prefix", auto_prefix)

    def _registries(self) -> Tuple[Dict[str, Parameter], Dict[str, "Cell"]]:
        try:
            return object.__getattribute__(self, "_params"), object.__getattribute__(self, "_cells")
        except AttributeError:
            raise RuntimeError(f"{type(self).__name__}.__init__ must call super().__init__() before assigning "
                               f"parameters or sub-cells.") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, (Parameter, Cell)) or name in self.__dict__.get("_params", ()) \
                or name in self.__dict__.get("_cells", ()):
            params, cells = self._registries()
            params.pop(name, None)
            cells.pop(name, None)
            if isinstance(value, Parameter):
                if value._auto_name:
                    value.name = name
                    value._auto_name = False
                params[name] = value
            elif isinstance(value, Cell):
                cells[name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self.__dict__.get("_params", {}).pop(name, None)
        self.__dict__.get("_cells", {}).pop(name, None)
        object.__delattr__(self, name)

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; subclasses override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement 'construct'.")

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
        """The inputs given to :meth:`set_inputs` (None if it was not called)."""
        return self.__dict__.get("_dynamic_inputs")

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> Dict[Any, Any]:
        """MindSpore's lazy parameter initialization: mskernel's parameters always hold their data, so
        nothing is replaced (an empty mapping)."""
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
        declared = self.__dict__.get("_dynamic_inputs")
        if declared is not None:
            self._check_inputs(declared, args)
        bprop = getattr(type(self), "bprop", None)
        if bprop is None or not STATE.enabled:
            return self.construct(*args, **kwargs)
        return self._call_with_bprop(args, kwargs)

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
            d = tuple(douts) if multi else douts[0]
            who = f"For user defined method 'bprop' of net '{type(self).__name__}'"
            check_bprop_args(self.bprop, len(args) + 2, who)
            grads = self.bprop(*args, o, d)
            if grads is None:
                raise TypeError("The python function output is none.")
            return check_bprop_output(grads, args, who)  # MindSpore's rules and messages
        record(type(self).__name__, args, fresh, backward, kind="cell_bprop", info={"cell": type(self).__name__},
               any_dtype=True)
        return fresh if multi else fresh[0]

    # -- parameters and cells ------------------------------------------------------------------
    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[Tuple[str, Parameter]]:
        """``(qualified_name, parameter)`` for this cell's and (if ``expand``) sub-cells' parameters.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.p = ms.Parameter(1.0)
            >>> [n for n, _ in c.parameters_and_names()]
            ['p']
        """
        seen = set()
        for prefix, cell in (self.cells_and_names(name_prefix) if expand else [(name_prefix, self)]):
            params, _ = cell._registries()
            for n, p in params.items():
                if id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{prefix}.{n}" if prefix else n), p

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """All parameters (each once)."""
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
        """Parameters without ``requires_grad``."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def cells_and_names(self, cell_name: str = "") -> Iterator[Tuple[str, "Cell"]]:
        """``(qualified_name, cell)`` for this cell and all sub-cells, depth first."""
        seen = set()
        stack = [(cell_name, self)]
        while stack:
            name, cell = stack.pop(0)
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            yield name, cell
            _, cells = cell._registries()
            stack[0:0] = [((f"{name}.{n}" if name else n), c) for n, c in cells.items()]

    def cells(self) -> List["Cell"]:
        """Direct sub-cells."""
        return list(self._registries()[1].values())

    def name_cells(self) -> "OrderedDict[str, Cell]":
        """Direct sub-cells by attribute name."""
        return OrderedDict(self._registries()[1])

    def insert_param_to_cell(self, param_name: str, param: Parameter, check_name_contain_dot: bool = True) -> None:
        """Register a parameter under ``param_name``."""
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"The name of parameter should not contain \".\", but got {param_name}.")
        setattr(self, param_name, param)

    def set_train(self, mode: bool = True) -> "Cell":
        """Set training mode on this cell and its sub-cells."""
        for _, c in self.cells_and_names():
            object.__setattr__(c, "training", mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Accepted for compatibility (gradients are always available here)."""
        return self

    def __repr__(self) -> str:
        subs = self._registries()[1]
        if not subs:
            return f"{type(self).__name__}<>"
        inner = "\n".join(f"  ({n}): " + repr(c).replace("\n", "\n  ") for n, c in subs.items())
        return f"{type(self).__name__}<\n{inner}\n  >"
