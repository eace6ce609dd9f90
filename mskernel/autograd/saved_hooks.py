"""Saved-tensor hooks: ``saved_tensors_hooks(pack_hook, unpack_hook)`` changes how the tensors an op keeps for its
backward are stored.

While the context is active, each Tensor operand a recorded op's backward rule reads (the rule's declared
arguments, :mod:`mskernel.autograd.rule`: ``Mul`` keeps both factors, ``Add`` none, ``Sin`` its input) is given
to ``pack_hook`` once, in input order, as the op records; the rule keeps what ``pack_hook`` returns, and when the
backward pass runs the rule, ``unpack_hook`` turns it back into the tensor the rule computes with. The hooks run
with gradients off and without hooks of their own. (MindSpore also packs the outputs some rules read, such as
Exp's; mskernel's rules read those from the node and they are not packed.)

Example:
    >>> import mskernel as ms
    >>> log = []
    >>> def f(x, y):
    ...     with saved_tensors_hooks(lambda t: log.append("pack") or t * 2, lambda t: log.append("unpack") or t):
    ...         return x * y
    >>> print(ms.grad(f)(ms.Tensor([1.0]), ms.Tensor([3.0])), log)  # only x's gradient: y alone is saved
    [6.] ['pack', 'unpack']
"""
from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional

from mskernel._accel import cengine
from mskernel.autograd.node import STATE

__all__ = ["saved_tensors_hooks", "register_saved_tensors_hooks"]

_C = cengine()


class _Packed:
    """What a bound rule keeps for a saved tensor while hooks are set: the pack hook's result and its unpack hook."""

    __slots__ = ("value", "unpack_hook")

    def __init__(self, value: Any, unpack_hook: Callable[[Any], Any]) -> None:
        self.value, self.unpack_hook = value, unpack_hook

    def unpack(self) -> Any:
        return _quiet(self.unpack_hook, self.value)


def _quiet(hook: Callable[[Any], Any], value: Any) -> Any:
    """``hook(value)`` with gradients off and no saved-tensor hooks (so the hook's own ops are not packed)."""
    prev = _C.set_saved_hooks(_Packed, None)
    enabled = STATE.enabled
    STATE.enabled = False
    try:
        return hook(value)
    finally:
        STATE.enabled = enabled
        _C.set_saved_hooks(_Packed, prev)


_STACK: List[Optional[Callable[[Any], _Packed]]] = []


class saved_tensors_hooks:
    """A context manager: inside it, the tensors recorded ops save for their backward go through
    ``pack_hook(tensor) -> anything`` as they are saved and ``unpack_hook(packed) -> Tensor`` when the backward
    reads them (see the module docstring). Contexts nest; the innermost one's hooks apply.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> def forward_fn(x, y):
        ...     with saved_tensors_hooks(lambda t: t + 1, lambda t: t):
        ...         return x * y
        >>> x = ops.ones(2, dtype=ms.float32)
        >>> gx, gy = ms.grad(forward_fn, grad_position=(0, 1))(x, x)  # each factor saved as 2
        >>> print(gx, gy)
        [2. 2.] [2. 2.]
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        for name, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise TypeError(f"For 'saved_tensors_hooks', the '{name}' must be callable, but got "
                                f"{type(hook).__name__}.")
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def _pack(self, t: Any) -> _Packed:
        return _Packed(_quiet(self.pack_hook, t), self.unpack_hook)

    def __enter__(self) -> "saved_tensors_hooks":
        _STACK.append(_C.set_saved_hooks(_Packed, self._pack))
        return self

    def __exit__(self, *exc: Any) -> None:
        _C.set_saved_hooks(_Packed, _STACK.pop())


def register_saved_tensors_hooks(pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]
                                 ) -> Callable[[Callable], Callable]:
    """A decorator: the function runs inside ``saved_tensors_hooks(pack_hook, unpack_hook)`` (MindSpore's form for
    graph mode; mskernel runs it eagerly, with the same effect).

    Example:
        >>> import mskernel as ms
        >>> @register_saved_tensors_hooks(lambda t: t * 3, lambda t: t)
        ... def f(x, y):
        ...     return x * y
        >>> print(ms.grad(f)(ms.Tensor([1.0]), ms.Tensor([2.0])))
        [6.]
    """
    hooks = saved_tensors_hooks(pack_hook, unpack_hook)

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            with saved_tensors_hooks(hooks.pack_hook, hooks.unpack_hook):
                return fn(*args, **kwargs)
        return run
    return decorate
