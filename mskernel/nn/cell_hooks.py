"""Cell hooks: forward pre/post hooks and backward pre/post hooks, with MindSpore's semantics.

* ``register_forward_pre_hook(hook)``: ``hook(cell, args)`` before ``construct``; a non-None result
  replaces the positional arguments (a single value is wrapped in a tuple). With ``with_kwargs=True``:
  ``hook(cell, args, kwargs)`` returning None or ``(args, kwargs)`` (anything else is a RuntimeError).
* ``register_forward_hook(hook)``: ``hook(cell, args, output)`` (``hook(cell, args, kwargs, output)``
  with ``with_kwargs``) after ``construct``; a non-None result replaces the output. ``always_call=True``
  hooks also run when ``construct`` raised. A Cell with a user ``bprop`` ignores forward hooks.
* ``register_backward_pre_hook(hook)``: ``hook(cell, grad_output)`` when the gradient reaches the
  cell's outputs; ``grad_output`` is a tuple with one entry per Tensor output (None where the output
  was unused); a non-None result replaces it (same length, else TypeError).
* ``register_backward_hook(hook)``: ``hook(cell, grad_input, grad_output)`` once the gradients with
  respect to the cell's Tensor inputs are known; a non-None result replaces ``grad_input``.

The backward hooks are identity nodes recorded with :func:`mskernel.autograd.node.record` around the
cell's Tensor inputs (after the forward pre-hooks) and outputs (after the forward hooks), so they run
inside the one autograd engine and their results are what ``grad`` returns. Each ``register_*`` returns
a :class:`HookHandle` whose ``remove()`` unregisters the hook.

This module owns a Cell's hooks: the instance-dict key ``_hooks`` (a :class:`HookTables`) is created by
:meth:`CellHooksMixin._init_hooks` and read only here; a Cell's call (:mod:`mskernel.nn.cell`) asks
:func:`active_hooks` whether there is anything to run and calls the ``run_*`` functions and
:class:`BackwardHookCall` at their points of the call. A Cell with a ``bprop`` (its public ``has_bprop``)
takes no forward hooks.

Example:
    >>> import mskernel as ms
    >>> class Double(ms.nn.Cell):
    ...     def construct(self, x):
    ...         return x * 2
    >>> net = Double()
    >>> h = net.register_backward_hook(lambda cell, gin, gout: (gin[0] * 10,))
    >>> print(ms.grad(net)(ms.Tensor([1.0])))
    [20.]
    >>> h.remove(); print(ms.grad(net)(ms.Tensor([1.0])))
    [2.]
"""
from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from mskernel.autograd.node import record
from mskernel.common.tensor import Tensor

__all__ = ["HookHandle", "HookTables", "CellHooksMixin", "active_hooks", "check_hook_fn", "run_forward_pre_hooks",
           "run_forward_hooks", "run_always_called_hooks", "wrap_backward_pre_hook", "BackwardHookCall"]

_handle_ids = itertools.count()


class HookHandle:
    """Returned by a Cell's ``register_*_hook``: ``remove()`` unregisters the hook (idempotent).

    Example:
        >>> table = OrderedDict()
        >>> h = HookHandle(table); table[h.handle_id] = print
        >>> h.remove(); len(table)
        0
    """

    def __init__(self, hooks: Optional[Dict[int, Any]] = None, extra_dict: Any = None) -> None:
        self.handle_id = next(_handle_ids)
        self._tables: List[Dict[int, Any]] = [hooks] if hooks is not None else []
        if isinstance(extra_dict, dict):
            self._tables.append(extra_dict)
        elif extra_dict:
            self._tables.extend(extra_dict)

    def remove(self) -> None:
        """Stop calling the hook."""
        for table in self._tables:
            table.pop(self.handle_id, None)


class HookTables:
    """A Cell's hooks, by kind (each an ordered ``{handle_id: hook}``) plus the flags of forward hooks.

    Example:
        >>> t = HookTables(); bool(t.forward_pre), t.any()
        (False, False)
    """

    __slots__ = ("forward_pre", "forward_pre_kwargs", "forward", "forward_kwargs", "forward_always",
                 "backward_pre", "backward")

    def __init__(self) -> None:
        self.forward_pre: Dict[int, Callable] = OrderedDict()
        self.forward_pre_kwargs: Dict[int, bool] = {}
        self.forward: Dict[int, Callable] = OrderedDict()
        self.forward_kwargs: Dict[int, bool] = {}
        self.forward_always: Dict[int, bool] = {}
        self.backward_pre: Dict[int, Callable] = OrderedDict()
        self.backward: Dict[int, Callable] = OrderedDict()

    def any(self) -> bool:
        """Whether any hook is registered."""
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)


def active_hooks(cell_dict: Dict[str, Any]) -> Optional[HookTables]:
    """The hooks of the cell whose instance dict is ``cell_dict``, when it has any registered (None otherwise:
    its call runs ``construct`` alone). A Cell's call, which holds the dict already, asks it every time.

    Example:
        >>> import mskernel as ms
        >>> c = ms.nn.Cell(); active_hooks(c.__dict__) is None
        True
        >>> h = c.register_forward_pre_hook(lambda cell, args: None); active_hooks(c.__dict__) is not None
        True
    """
    tables = cell_dict.get("_hooks")
    if tables is None or not (tables.forward_pre or tables.forward or tables.backward_pre or tables.backward):
        return None  # HookTables.any() spelled out: every Cell call asks
    return tables


def check_hook_fn(hook_fn: Any) -> None:
    """TypeError unless ``hook_fn`` is callable (MindSpore's text).

    Example:
        >>> check_hook_fn(3)
        Traceback (most recent call last):
        ...
        TypeError: Expected a callable hook function, but got int.
    """
    if not callable(hook_fn):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def run_forward_pre_hooks(cell: Any, tables: HookTables, args: tuple, kwargs: dict) -> Tuple[tuple, dict]:
    """The arguments after the forward pre-hooks (in registration order, ``prepend`` ones first).

    Example:
        >>> t = HookTables(); h = HookHandle(t.forward_pre); t.forward_pre[h.handle_id] = lambda c, a: a[0] + 1
        >>> run_forward_pre_hooks(None, t, (1,), {})
        ((2,), {})
    """
    for key, hook in list(tables.forward_pre.items()):
        if key in tables.forward_pre_kwargs:
            ret = hook(cell, args, kwargs)
            if ret is not None:
                if isinstance(ret, tuple) and len(ret) == 2:
                    args, kwargs = ret
                else:
                    raise RuntimeError(f"forward pre hook with kwargs must return None or a tuple of (new_args, "
                                       f"new_kwargs), but got {ret}")
        else:
            ret = hook(cell, args)
            if ret is not None:
                args = ret if isinstance(ret, tuple) else (ret,)
    return args, kwargs


def run_forward_hooks(cell: Any, tables: HookTables, args: tuple, kwargs: dict, output: Any, called: set) -> Any:
    """The output after the forward hooks; ``called`` collects the ``always_call`` hooks that ran.

    Example:
        >>> t = HookTables(); h = HookHandle(t.forward); t.forward[h.handle_id] = lambda c, a, o: o * 10
        >>> run_forward_hooks(None, t, (1,), {}, 3, set())
        30
    """
    for key, hook in list(tables.forward.items()):
        if key in tables.forward_always:
            called.add(key)
        ret = hook(cell, args, kwargs, output) if key in tables.forward_kwargs else hook(cell, args, output)
        if ret is not None:
            output = ret
    return output


def run_always_called_hooks(cell: Any, tables: HookTables, args: tuple, kwargs: dict, output: Any,
                            called: set) -> None:
    """After ``construct`` raised: run the ``always_call`` forward hooks that have not run; their own errors
    become warnings (the first error is re-raised by the caller).

    Example:
        >>> t = HookTables(); seen = []
        >>> h = HookHandle(t.forward); t.forward[h.handle_id] = lambda c, a, o: seen.append(o)
        >>> t.forward_always[h.handle_id] = True
        >>> run_always_called_hooks(None, t, (), {}, None, set()); seen
        [None]
    """
    for key, hook in list(tables.forward.items()):
        if key not in tables.forward_always or key in called:
            continue
        try:
            ret = hook(cell, args, kwargs, output) if key in tables.forward_kwargs else hook(cell, args, output)
            if ret is not None:
                output = ret
        except Exception as e:  # noqa: BLE001 - MindSpore silences it with a warning
            warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was silenced "
                          f"because another error was already raised in forward: {e}")


# ---- backward hooks: identity nodes in the engine ----------------------------------------------------------
def _tensor_slots(value: Any) -> Tuple[bool, List[Any], List[int]]:
    """(was a tuple, the items, the indices of the Tensor items)."""
    is_tuple = isinstance(value, tuple)
    items = list(value) if is_tuple else [value]
    return is_tuple, items, [i for i, v in enumerate(items) if isinstance(v, Tensor)]


def _identity(op: str, value: Any, backward: Callable[[List[Any]], Sequence[Any]]) -> Tuple[Any, bool]:
    """``value`` (a Tensor or a tuple) with its Tensors passed through one identity node whose backward is
    ``backward``; returns (new value, whether a node was recorded)."""
    is_tuple, items, idx = _tensor_slots(value)
    if not idx:
        return value, False
    ins = [items[i] for i in idx]
    outs = [Tensor._wrap(t._data) for t in ins]
    node = record(op, ins, outs, backward, kind="cell_hook", materialize_grads=False)
    if node is None:
        return value, False
    for i, o in zip(idx, outs):
        items[i] = o
    return (tuple(items) if is_tuple else items[0]), True


def _checked(res: Any, n: int, what: str, expected: str) -> tuple:
    res = res if isinstance(res, tuple) else (res,)
    if len(res) != n:
        raise TypeError(f"The {what} return value size is {len(res)} not equal to {expected} {n}")
    return res


def wrap_backward_pre_hook(cell: Any, tables: HookTables, output: Any) -> Any:
    """``output`` passed through the node that runs the backward pre-hooks on its gradients.

    Example:
        >>> import mskernel as ms
        >>> t = HookTables(); h = HookHandle(t.backward_pre)
        >>> t.backward_pre[h.handle_id] = lambda c, g: (g[0] * 3,)
        >>> print(ms.grad(lambda x: wrap_backward_pre_hook(None, t, x * 2))(ms.Tensor([1.0])))
        [6.]
    """
    def backward(douts: List[Any]) -> Sequence[Any]:
        grads = tuple(douts)
        for hook in list(tables.backward_pre.values()):
            res = hook(cell, grads)
            if res is not None:
                grads = _checked(res, len(douts), "backward pre hook", "expect output size")
        return grads
    return _identity("CellBackwardPreHook", output, backward)[0]


class BackwardHookCall:
    """One call of a cell with backward hooks: ``inputs(args)`` before ``construct`` and ``outputs(out)`` after.
    The output node keeps the gradients of the outputs (``grad_output``); the input node then calls each hook
    with the gradients of the inputs. When no input is differentiated, the hooks run from the output node with
    ``grad_input`` all None.

    Example:
        >>> import mskernel as ms
        >>> t = HookTables(); h = HookHandle(t.backward); seen = []
        >>> t.backward[h.handle_id] = lambda c, gi, go: seen.append((gi[0].asnumpy().tolist(),
        ...                                                          go[0].asnumpy().tolist()))
        >>> def f(x):
        ...     call = BackwardHookCall(None, t)
        ...     (x,) = call.inputs((x,))
        ...     return call.outputs(x * 3)
        >>> _ = ms.grad(f)(ms.Tensor([1.0])); seen
        [([3.0], [1.0])]
    """

    def __init__(self, cell: Any, tables: HookTables) -> None:
        self.cell, self.tables = cell, tables
        self.grad_output: Optional[tuple] = None
        self.n_inputs = 0
        self.input_node = False

    def _run(self, grad_input: tuple) -> tuple:
        grads = grad_input
        for hook in list(self.tables.backward.values()):
            res = hook(self.cell, grads, self.grad_output)
            if res is not None:
                grads = _checked(res, len(grad_input), "backward hook", "expect grad input size")
        return grads

    def inputs(self, args: tuple) -> tuple:
        """The arguments with their Tensors passed through the input node."""
        self.n_inputs = len(_tensor_slots(args)[2])

        def backward(douts: List[Any]) -> Sequence[Any]:
            grads = self._run(tuple(douts))
            self.grad_output = None
            return grads
        new, self.input_node = _identity("CellBackwardHook", args, backward)
        return new

    def outputs(self, output: Any) -> Any:
        """The output with its Tensors passed through the output node."""
        def backward(douts: List[Any]) -> Sequence[Any]:
            self.grad_output = tuple(douts)
            if not self.input_node:  # nothing flows on to the inputs: the hooks see no input gradient
                self._run((None,) * self.n_inputs)
                self.grad_output = None
            return list(douts)
        return _identity("CellBackwardHook", output, backward)[0]


class CellHooksMixin:
    """The ``register_*_hook`` methods of :class:`mskernel.nn.Cell` (tables in the instance's ``_hooks``).

    Example:
        >>> import mskernel as ms
        >>> isinstance(ms.nn.Cell(), CellHooksMixin)
        True
    """

    def _init_hooks(self) -> None:
        """No hooks yet (``Cell.__init__`` calls it)."""
        object.__setattr__(self, "_hooks", HookTables())

    def _hook_tables(self) -> HookTables:
        tables = self.__dict__.get("_hooks")
        if tables is None:
            raise AttributeError(f"{type(self).__name__}.__init__ must call super().__init__() before registering "
                                 f"hooks.")
        return tables

    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """``hook_fn(cell, args)`` (or ``(cell, args, kwargs)``) before ``construct`` (the rules:
        :mod:`mskernel.nn.cell_hooks`).

        Example:
            >>> import mskernel as ms
            >>> class Id(ms.nn.Cell):
            ...     def construct(self, x):
            ...         return x
            >>> net = Id(); h = net.register_forward_pre_hook(lambda cell, args: args[0] * 3)
            >>> print(net(ms.Tensor([1.0])))
            [3.]
        """
        check_hook_fn(hook_fn)
        t = self._hook_tables()
        handle = HookHandle(t.forward_pre, extra_dict=t.forward_pre_kwargs)
        t.forward_pre[handle.handle_id] = hook_fn
        if prepend:
            t.forward_pre.move_to_end(handle.handle_id, last=False)  # type: ignore[attr-defined]
        if with_kwargs:
            t.forward_pre_kwargs[handle.handle_id] = True
        return handle

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """``hook_fn(cell, args, output)`` (or ``(cell, args, kwargs, output)``) after ``construct``.

        Example:
            >>> import mskernel as ms
            >>> class Id(ms.nn.Cell):
            ...     def construct(self, x):
            ...         return x
            >>> net = Id(); h = net.register_forward_hook(lambda cell, args, out: out + 1)
            >>> print(net(ms.Tensor([1.0])))
            [2.]
        """
        if getattr(self, "has_bprop", False):
            return HookHandle()
        check_hook_fn(hook_fn)
        t = self._hook_tables()
        handle = HookHandle(t.forward, extra_dict=[t.forward_kwargs, t.forward_always])
        t.forward[handle.handle_id] = hook_fn
        if prepend:
            t.forward.move_to_end(handle.handle_id, last=False)  # type: ignore[attr-defined]
        if with_kwargs:
            t.forward_kwargs[handle.handle_id] = True
        if always_call:
            t.forward_always[handle.handle_id] = True
        return handle

    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """``hook_fn(cell, grad_output)`` when the gradient reaches the cell's outputs.

        Example:
            >>> import mskernel as ms
            >>> class Id(ms.nn.Cell):
            ...     def construct(self, x):
            ...         return x * 1
            >>> net = Id(); h = net.register_backward_pre_hook(lambda cell, gout: (gout[0] * 5,))
            >>> print(ms.grad(net)(ms.Tensor([1.0])))
            [5.]
        """
        check_hook_fn(hook_fn)
        t = self._hook_tables()
        handle = HookHandle(t.backward_pre)
        t.backward_pre[handle.handle_id] = hook_fn
        return handle

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """``hook_fn(cell, grad_input, grad_output)`` once the gradients of the cell's inputs are known.

        Example:
            >>> import mskernel as ms
            >>> class Id(ms.nn.Cell):
            ...     def construct(self, x):
            ...         return x * 1
            >>> net = Id(); h = net.register_backward_hook(lambda cell, gin, gout: (gin[0] * 7,))
            >>> print(ms.grad(net)(ms.Tensor([1.0])))
            [7.]
        """
        check_hook_fn(hook_fn)
        t = self._hook_tables()
        handle = HookHandle(t.backward)
        t.backward[handle.handle_id] = hook_fn
        return handle
