"""Gradient hooks and graph helpers as MindSpore ops: ``HookBackward``, ``InsertGradientOf``,
``depend``/``Depend`` and ``partial``/``Partial``.

``HookBackward(hook_fn)(*tensors)`` returns its inputs unchanged; in a backward pass
``hook_fn`` receives the gradients of those outputs as one tuple and may return replacements (a
tuple, a Tensor for a single input, or None to keep them). ``InsertGradientOf(f)(x)`` returns
``x``; the gradient flowing back to ``x`` is replaced by ``f(gradient)``.

Example:
    >>> import mskernel as ms
    >>> double = InsertGradientOf(lambda g: g * 2)
    >>> print(ms.grad(lambda x: double(x) * 3)(ms.Tensor(1.0)))
    6.0
    >>> seen = []
    >>> hook = HookBackward(lambda grads: seen.append(grads[0].asnumpy().item()))
    >>> print(ms.grad(lambda x: hook(x * x) * 5)(ms.Tensor(2.0)), seen)
    20.0 [5.0]
"""
from __future__ import annotations

import functools
import logging
from typing import Any, Callable, List, Optional, Sequence

from mskernel.autograd.node import record
from mskernel.common.tensor import Tensor
from mskernel.ops.primitive import Primitive

__all__ = ["HookBackward", "InsertGradientOf", "Depend", "depend", "Partial", "partial"]

_log = logging.getLogger(__name__)


def _type_text(x: Any) -> str:
    if isinstance(x, bool):
        return "Bool"
    if isinstance(x, int):
        return "Int64"
    if isinstance(x, float):
        return "Float32"
    return type(x).__name__


def _fn_name(fn: Any) -> str:
    return getattr(fn, "__name__", type(fn).__name__)


class HookBackward(Primitive):
    """Calls ``hook_fn(gradients)`` when the backward pass reaches its outputs (MindSpore's
    ``ops.HookBackward``); the forward result is the input itself.

    ``hook_fn`` gets a tuple with one gradient per input and returns None (keep them), a tuple of
    new gradients, or (for one input) a Tensor. ``cell_id`` is accepted for compatibility; as in
    MindSpore, setting it logs a warning.

    Example:
        >>> import mskernel as ms
        >>> hook = HookBackward(lambda grads: (grads[0] * 10,))
        >>> print(ms.grad(lambda x: hook(x * 2) * 3)(ms.Tensor(1.0)))
        60.0
    """

    def __init__(self, hook_fn: Callable, cell_id: str = "") -> None:
        super().__init__("HookBackward")
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        if cell_id != "":
            _log.warning("The args 'cell_id' of HookBackward will be removed in a future version. If the value of "
                         "'cell_id' is set, the hook function will not work.")
        self.add_prim_attr("cell_id", cell_id)
        self.cell_id = cell_id
        self.hook_fn = hook_fn

    def __call__(self, *inputs: Any) -> Any:
        for x in inputs:
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'HookBackward', the element of 'input' must be Tensor, but got {_type_text(x)}."
                                "The supported data types depend on the hardware that executes the operator, for "
                                "more details, please refer to the MindSpore official website to get more "
                                "information about the data type.")  # MindSpore's text, its missing space included
        outs = [Tensor._wrap(x._data) for x in inputs]
        hook_fn, n = self.hook_fn, len(inputs)

        def backward(douts: Sequence[Tensor]) -> List[Optional[Tensor]]:
            new = hook_fn(tuple(douts))
            if new is None:
                return list(douts)
            if isinstance(new, Tensor) and n == 1:
                return [new]
            if isinstance(new, tuple) and len(new) == n and all(isinstance(g, Tensor) for g in new):
                return list(new)
            raise TypeError(f"The output type of function: {_fn_name(hook_fn)} should be a tensor but got "
                            f"{type(new).__name__}.")
        record("HookBackward", inputs, outs, backward, kind="hook", info={"hook": _fn_name(hook_fn)})
        return outs[0] if n == 1 else tuple(outs)


class InsertGradientOf(Primitive):
    """Returns its input; the gradient flowing back to it becomes ``f(gradient)`` (MindSpore's
    ``ops.InsertGradientOf``, e.g. for gradient clipping). Non-Tensor inputs pass through.

    Example:
        >>> import mskernel as ms
        >>> clip = InsertGradientOf(lambda g: ms.ops.minimum(g, 1.0))
        >>> print(ms.grad(lambda x: clip(x) * 5)(ms.Tensor([1.0])))
        [1.]
    """

    def __init__(self, f: Callable) -> None:
        super().__init__("InsertGradientOf")
        self.add_prim_attr("f", f)
        self.add_prim_attr("side_effect_backprop", True)
        self.add_prim_attr("side_effect_backprop_mem", True)
        self.f = f

    def __call__(self, *args: Any) -> Any:
        if len(args) != 1:
            raise RuntimeError(f"For 'InsertGradientOf', the number of input should be 1, but got {len(args)}")
        x = args[0]
        if not isinstance(x, Tensor):
            return x
        out = Tensor._wrap(x._data)
        f = self.f

        def backward(douts: Sequence[Tensor]) -> List[Optional[Tensor]]:
            g = f(douts[0])
            return [douts[0] if g is None else g]
        record("InsertGradientOf", (x,), (out,), backward, kind="hook", info={"hook": _fn_name(f)})
        return out


def depend(value: Any, expr: Any) -> Any:
    """``value`` itself: in MindSpore's graph mode it orders ``expr`` before ``value``'s users; run
    eagerly, ``expr`` has already run. No gradient flows to ``expr``.

    Example:
        >>> import mskernel as ms
        >>> print(depend(ms.Tensor([1.0]), ms.Tensor([2.0])))
        [1.]
    """
    return value


class Depend(Primitive):
    """The primitive form of :func:`depend`.

    Example:
        >>> Depend()(3, "side effect")
        3
    """

    def __init__(self) -> None:
        super().__init__("Depend")
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, value: Any, expr: Any) -> Any:
        return value


def partial(func: Callable, *args: Any) -> functools.partial:
    """``func`` with its first arguments bound (MindSpore's ``ops.partial``; positional only).

    Example:
        >>> partial(lambda a, b: a - b, 10)(3)
        7
    """
    return functools.partial(func, *args)


class Partial(Primitive):
    """The primitive form of :func:`partial`: ``Partial()(func, *args)``.

    Example:
        >>> Partial()(lambda a, b: a * b, 6)(7)
        42
    """

    def __init__(self) -> None:
        super().__init__("Partial")

    def __call__(self, func: Callable, *args: Any) -> functools.partial:
        return functools.partial(func, *args)
