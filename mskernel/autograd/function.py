"""``_Function``: MindSpore's Python custom autograd function (``mindspore._Function``).

Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` and call
``MyOp.apply(*args)``. As in MindSpore, ``ctx`` is the function object itself: ``forward``
stores what ``backward`` needs with ``ctx.save_for_backward(*tensors)`` (read back as
``ctx.saved_tensors``) or as any attribute; ``ctx.needs_input_grad`` says per input whether its
gradient is wanted; ``ctx.mark_dirty(*inputs)`` declares inputs modified in place,
``ctx.mark_non_differentiable(*outputs)`` outputs with no gradient, and
``ctx.set_materialize_grads(False)`` passes None instead of zeros for unused outputs.

One application is one node of the engine's graph (kind ``"python_function"``), the same graph
as built-in ops, ``ops.Custom`` and C++ ``Function<T>`` nodes. ``backward`` returns one gradient
(or None) per ``forward`` input; written with ops, it is differentiable again (higher order).

Example:
    >>> import mskernel as ms
    >>> class Cube(_Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x * x
    ...     @staticmethod
    ...     def backward(ctx, dout):
    ...         x, = ctx.saved_tensors
    ...         return 3 * x * x * dout
    >>> print(ms.grad(lambda x: Cube.apply(x).sum())(ms.Tensor([1.0, 2.0])))
    [ 3. 12.]
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from mskernel.autograd.node import STATE, record
from mskernel.common.tensor import Tensor

__all__ = ["_Function"]


class _Function:
    """Base class of a Python custom autograd function (see the module docstring)."""

    saved_tensors: Tuple[Any, ...] = ()
    needs_input_grad: Tuple[bool, ...] = ()
    materialize_grads: bool = True

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        """The computation (override it); ``ctx`` is the function object."""
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        """One gradient (or None) per forward input, from one gradient per output (override it)."""
        raise NotImplementedError("backward function should be customized.")

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for ``backward`` (as ``saved_tensors``)."""
        self.saved_tensors = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        """Declare inputs that ``forward`` modified in place."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Declare outputs that have no gradient."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """False: ``backward`` gets None (not zeros) for outputs that received no gradient."""
        self.materialize_grads = value

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` and record one graph node whose backward calls ``backward``."""
        ctx = cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)
        prev = STATE.enabled
        STATE.enabled = False
        try:
            result = cls.forward(ctx, *args, **kwargs)
        finally:
            STATE.enabled = prev
        multi = isinstance(result, tuple)
        results = list(result) if multi else [result]
        if not (STATE.enabled and any(ctx.needs_input_grad)):
            return result
        dirty = {id(t) for t in getattr(ctx, "dirty_tensors", ())}
        inputs = list(args)
        for k, a in enumerate(args):
            if id(a) in dirty:  # the old value, with the old history, is what the node differentiates
                old = Tensor._wrap(a._data)
                old._rg, old._node, old._idx = a._rg, a._node, a._idx
                inputs[k] = old
                a._version += 1
        arg_ids = {id(a) for a in args if isinstance(a, Tensor) and id(a) not in dirty}
        positions = [j for j, r in enumerate(results) if isinstance(r, Tensor)]
        for j in positions:
            if id(results[j]) in arg_ids:  # an input returned as is: same memory, a new tensor
                results[j] = Tensor._wrap(results[j]._data)
        outs = [results[j] for j in positions]
        record(cls.__name__, inputs, outs, _backward(cls, ctx, args), kind="python_function",
               info={"function": cls.__qualname__}, materialize_grads=ctx.materialize_grads)
        for o in getattr(ctx, "non_differentiable", ()):
            for r in outs:
                if r is o or r._data is getattr(o, "_data", None):
                    r._rg, r._node, r._idx = False, None, 0
        return tuple(results) if multi else results[0]


def _backward(cls: type, ctx: _Function, args: Sequence[Any]):
    name = cls.__name__

    def backward(douts: Sequence[Optional[Tensor]]) -> List[Optional[Tensor]]:
        grads = cls.backward(ctx, *douts)
        if not isinstance(grads, tuple):
            grads = (grads,)
        n = len(args)  # MindSpore's checks (FunctionBase): extra entries are allowed only as None
        if len(grads) < n or any(g is not None for g in grads[n:]):
            raise RuntimeError(f"For '{name}', Function backward return a wrong number of gradients, expect: {n}, "
                               f"but: {len(grads)}")
        for i, (g, a) in enumerate(zip(grads, args)):
            if g is None:
                continue
            if not isinstance(a, Tensor):
                raise RuntimeError(f"For '{name}', input is not tensor, but gradient is not none, position: {i} "
                                   f"type: {type(g).__name__}")
            if not isinstance(g, Tensor):
                raise RuntimeError(f"For '{name}', gradient should be none or tensor, position: {i} type: "
                                   f"{type(g).__name__}")
        return list(grads[:n])
    return backward
