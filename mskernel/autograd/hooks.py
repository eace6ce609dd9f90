"""``Tensor.register_hook``: change (or watch) the gradient with respect to a tensor.

``hook(grad)`` is called with the gradient flowing to the tensor and returns a replacement
gradient, or None to keep it. On a tensor computed by an op, registering inserts an identity
node ``Hook`` after that op: every later use of the tensor goes through it, so the hook sees the
sum of the gradients of those uses (uses *before* the registration are not affected). On a leaf
(an input of ``grad`` or a Parameter) the hook transforms the gradient ``grad`` returns for it.
On a tensor nothing differentiates (a forward run outside ``grad``) it is never called. The
returned handle's ``remove()`` stops the hook.

Example:
    >>> import mskernel as ms
    >>> def f(x):
    ...     y = x * x
    ...     y.register_hook(lambda g: g * 10)
    ...     return (y * 3).sum()
    >>> print(ms.grad(f)(ms.Tensor([1.0, 2.0])))
    [ 60. 120.]
"""
from __future__ import annotations

import itertools
import weakref
from typing import Any, Callable, Dict, List, Optional, Tuple

from mskernel.autograd.node import record
from mskernel.common.tensor import PROVIDERS, Tensor

__all__ = ["HookHandle", "register_hook", "leaf_hooks", "apply_leaf_hooks", "copy_leaf_hooks"]

Hook = Callable[[Tensor], Optional[Tensor]]
# leaf tensor id -> (weak reference, hooks); by identity, since Tensor's == is elementwise
_LEAF: Dict[int, Tuple["weakref.ref[Tensor]", Dict[int, Hook]]] = {}
_ids = itertools.count()


class HookHandle:
    """Returned by ``register_hook``: ``remove()`` unregisters the hook."""

    def __init__(self, table: Dict[int, Hook], key: int) -> None:
        self._table, self._key = table, key

    def remove(self) -> None:
        """Stop calling the hook (idempotent)."""
        self._table.pop(self._key, None)


def _run_hooks(hooks: Dict[int, Hook], grad: Any) -> Any:
    for hook in list(hooks.values()):
        new = hook(grad)
        if new is not None:
            if not isinstance(new, Tensor):
                raise TypeError(f"A tensor hook must return a Tensor or None, but {getattr(hook, '__name__', hook)!r} "
                                f"returned {type(new).__name__}.")
            grad = new
    return grad


def register_hook(tensor: Tensor, hook: Hook) -> HookHandle:
    """Register ``hook`` on ``tensor`` (see the module docstring)."""
    if not callable(hook):
        raise TypeError(f"For 'Tensor.register_hook', 'hook_fn' must be a function, but got {type(hook).__name__}.")
    key = next(_ids)
    if tensor._node is None:  # a leaf: applied to the gradient grad returns for it (when it is an input of grad)
        table = _leaf_table(tensor, create=True)
        table[key] = hook  # type: ignore[index]
        return HookHandle(table, key)  # type: ignore[arg-type]
    if not tensor._rg:  # computed but not differentiated (e.g. a forward run outside grad): never called
        return HookHandle({}, key)
    old = Tensor._wrap(tensor._data)  # the value as the producing op recorded it
    old._rg, old._node, old._idx = True, tensor._node, tensor._idx
    hooks: Dict[int, Hook] = {key: hook}

    def backward(douts: List[Tensor]) -> List[Optional[Tensor]]:
        return [_run_hooks(hooks, douts[0])]
    record("Hook", (old,), (tensor,), backward, info={"hook": getattr(hook, "__name__", repr(hook))})
    return HookHandle(hooks, key)


def _leaf_table(tensor: Tensor, create: bool = False) -> Optional[Dict[int, Hook]]:
    if not _LEAF and not create:  # no leaf has hooks (the usual case: every grad call asks)
        return None
    entry = _LEAF.get(id(tensor))
    if entry is not None and entry[0]() is tensor:
        return entry[1]
    if not create:
        return None
    key = id(tensor)
    ref = weakref.ref(tensor, lambda _r: _LEAF.pop(key, None))
    _LEAF[key] = (ref, {})
    return _LEAF[key][1]


def leaf_hooks(tensor: Tensor) -> Optional[Dict[int, Hook]]:
    """The hooks registered on a leaf tensor, if any."""
    return _leaf_table(tensor)


def copy_leaf_hooks(src: Tensor, dst: Tensor) -> None:
    """``grad``'s tracked copy of an input keeps the hooks registered on the input."""
    hooks = _leaf_table(src)
    if hooks:
        _leaf_table(dst, create=True).update(hooks)  # type: ignore[union-attr]


def apply_leaf_hooks(tensor: Tensor, grad: Any) -> Any:
    """The gradient of a leaf after its hooks."""
    hooks = _leaf_table(tensor)
    return _run_hooks(hooks, grad) if hooks else grad


PROVIDERS["register_hook"] = register_hook  # Tensor.register_hook calls it
