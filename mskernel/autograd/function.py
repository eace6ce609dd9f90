"""``_Function``: MindSpore's Python custom autograd function (``mindspore._Function``).

Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` and call
``MyOp.apply(*args)``. As in MindSpore, ``ctx`` is the function object itself: ``forward``
stores what ``backward`` needs with ``ctx.save_for_backward(*tensors)`` (read back as
``ctx.saved_tensors``) or as any attribute; ``ctx.needs_input_grad`` says per input whether its
gradient is wanted; ``ctx.mark_dirty(*inputs)`` declares inputs modified in place,
``ctx.mark_non_differentiable(*outputs)`` outputs with no gradient, and
``ctx.set_materialize_grads(False)`` passes None instead of zeros for unused outputs. A
``forward`` without ``ctx`` plus a static ``setup_context(ctx, inputs, output)`` also works.

As in MindSpore, a tensor returned by ``forward`` that is one of its inputs comes back as a new
Tensor sharing its memory. An input marked dirty bumps its ``_version`` (the returned tensor
shares it) and its history moves to the new node, so later uses of the input differentiate
through ``backward``; marking dirty a leaf that requires grad (an input of ``grad``, or a
Parameter requiring grad inside ``grad``) raises, and every dirty tensor must be returned.

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

import inspect
from typing import Any, List, Optional, Sequence, Tuple

from mskernel.autograd.broadcast import fit_grad
from mskernel.autograd.node import STATE, _record as record
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor

__all__ = ["_Function"]

_LEAF_DIRTY = "A leaf tensor that need grad is being used in an inplace operator."


class _Function:
    """Base class of a Python custom autograd function (see the module docstring).

    Example:
        >>> import mskernel as ms
        >>> class Scale(_Function):
        ...     @staticmethod
        ...     def forward(ctx, x, k):
        ...         ctx.k = k  # any attribute of ctx reaches backward
        ...         return x * k
        ...     @staticmethod
        ...     def backward(ctx, dout):
        ...         return dout * ctx.k, None  # no gradient for the number k
        >>> x = ms.Tensor([1.0, 2.0])
        >>> print(Scale.apply(x, 3.0), ms.grad(lambda t: Scale.apply(t, 3.0).sum())(x))
        [3. 6.] [3. 3.]
    """

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

    @staticmethod
    def setup_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> Any:
        """Optional: with it, ``forward`` takes no ``ctx`` and this saves what ``backward`` needs."""
        raise NotImplementedError("setup_context is not implemented.")

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
        has_setup = cls.setup_context is not _Function.setup_context
        if has_setup:  # MindSpore binds the defaults so that setup_context sees every input
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = tuple(bound.args), dict(bound.kwargs)
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)
        prev = STATE.enabled
        STATE.enabled = False
        try:
            if has_setup:
                result = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, result)
            else:
                result = cls.forward(ctx, *args, **kwargs)
        finally:
            STATE.enabled = prev
        multi = isinstance(result, tuple)
        results = list(result) if multi else [result]
        dirty_inputs = _check_dirty(ctx, args, results)
        inputs = list(args)
        for k, a in enumerate(args):
            if any(a is d for d in dirty_inputs):  # the node differentiates the old value, with the old history
                old = Tensor._wrap(a._data)
                old._rg, old._node, old._idx = a._rg, a._node, a._idx
                inputs[k] = old
                a._version += 1
        arg_ids = {id(a) for a in args if isinstance(a, Tensor)}
        positions = [j for j, r in enumerate(results) if isinstance(r, Tensor)]
        for j in positions:
            r = results[j]
            if id(r) in arg_ids:  # an input returned as is: same memory (and version), a new tensor
                results[j] = Tensor._wrap(r._data)
                results[j]._version = r._version
        outs = [results[j] for j in positions]
        if STATE.enabled and any(ctx.needs_input_grad):
            record(cls.__name__, inputs, outs, _backward(cls, ctx, args), kind="python_function",
                   info={"function": cls.__qualname__}, materialize_grads=ctx.materialize_grads)
            for o in getattr(ctx, "non_differentiable", ()):
                for r in outs:
                    if r is o or r._data is getattr(o, "_data", None):
                        r._rg, r._node, r._idx = False, None, 0
        for a in dirty_inputs:  # the modified input now holds the output: later uses go through this node
            for j in positions:
                if _result_of(results[j], a):
                    a._rg, a._node, a._idx = results[j]._rg, results[j]._node, results[j]._idx
                    break
        return tuple(results) if multi else results[0]


def _result_of(out: Tensor, a: Tensor) -> bool:
    """Whether ``out`` is the rewrapped dirty input ``a``."""
    return out._data is a._data


def _leaf_needing_grad(t: Tensor) -> bool:
    """MindSpore's leaves that need grad: the inputs of ``grad``, and Parameters requiring grad while a
    ``grad`` runs (outside one, as in MindSpore, a Parameter may be modified)."""
    if t._node is not None:
        return False
    if isinstance(t, Parameter):
        return bool(getattr(t, "requires_grad", t._rg)) and STATE.depth > 0
    return t._rg


def _check_dirty(ctx: _Function, args: Sequence[Any], results: Sequence[Any]) -> List[Tensor]:
    """The inputs marked dirty, after MindSpore's checks."""
    dirty = list(getattr(ctx, "dirty_tensors", ()))
    if not dirty:
        return []
    ins = [a for a in args if isinstance(a, Tensor) and any(a is d for d in dirty)]
    for a in ins:
        if STATE.enabled and _leaf_needing_grad(a):
            raise RuntimeError(_LEAF_DIRTY)
    for d in dirty:
        if not any(r is d for r in results):
            raise RuntimeError("The dirty tensors must all be outputs of the forward function.")
    return ins


def _backward(cls: type, ctx: _Function, args: Sequence[Any]):
    def backward(douts: Sequence[Optional[Tensor]]) -> List[Optional[Tensor]]:
        grads = cls.backward(ctx, *douts)
        if not isinstance(grads, tuple):
            grads = (grads,)
        n = len(args)  # MindSpore's checks (FunctionBase); extra entries are ignored
        if len(grads) < n:
            raise RuntimeError(f"Function backward return a wrong number of gradients, expect: {n}but: {len(grads)}")
        for i, (g, a) in enumerate(zip(grads, args)):
            if g is None:
                continue
            if not isinstance(a, Tensor):
                raise RuntimeError(f"Input is not tensor, but gradient is not none, position: {i} type: {type(g)}")
            if not isinstance(g, Tensor):
                raise RuntimeError(f"Gradient should be none or tensor, position: {i} type: {type(g)}")
        return [None if g is None else fit_grad(g, a) for g, a in zip(grads, args)]
    return backward
