"""Views and in-place writes while gradients are recorded: the values numpy gives, gradients that follow them.

When a tensor is written in place while gradients are recorded (``t[i] = v``, ``t[i] *= u``, ``t.add_(u)``,
a write through a view ``s = t[i]; s[j] = v``), two things must hold:

* What the graph already read stays as it was. The write gives its target a fresh buffer holding the new
  values (copy on write) and the target takes over the new value's place in the graph; backward rules keep
  the arrays they read (:func:`mskernel.autograd.node.saved`), and an op that kept its output keeps its
  array, so they still see the old values.
* Every tensor that shows the written memory shows the new values and is differentiated through the write.
  A view made while gradients are recorded (basic indexing, reshape, transpose, identity) remembers its base
  and how it was made (:func:`link_view`). A write into a view is written back into its base, as a recorded
  op (``ViewWrite``); then every live view of a written tensor is made again from its new value.

Outside that (no grad call running and nothing tracked written), a write goes into the tensor's own memory as
numpy's does, views included (an optimizer's update of its Parameters).

Example:
    >>> import mskernel as ms
    >>> def f(x, y):
    ...     t = x * 1.0
    ...     s = t[0]        # a view of t
    ...     s[1] = y        # written through the view: t changes, and y gets t[0, 1]'s gradient
    ...     return (t * t).sum()
    >>> gx, gy = ms.grad(f, (0, 1))(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor(5.0))
    >>> print(gx, gy)
    [[2. 0.]
     [6. 8.]] 10.0
"""
from __future__ import annotations

import threading
import weakref
from typing import Callable, List, Optional

import numpy as np

from mskernel.autograd.node import STATE, record
from mskernel.common.tensor import Tensor

__all__ = ["Alias", "link_view", "copy_on_write", "assign"]

LEAF_ERROR = "A leaf tensor that need grad is being used in an inplace operator."  # MindSpore's text


class Alias:
    """What a tensor knows of the tensors sharing its memory: the ``base`` it is a view of and ``fn``, which
    makes it again from the base through ops (None for a tensor that is no view), and weak references to the
    live ``views`` made of it.

    Example:
        >>> Alias(None, None, []).views
        []
    """

    __slots__ = ("base", "fn", "views")

    def __init__(self, base: Optional[Tensor], fn: Optional[Callable[[Tensor], Tensor]],
                 views: Optional[List["weakref.ref[Tensor]"]]) -> None:
        self.base, self.fn, self.views = base, fn, views


class _Remaking(threading.local):
    active = False  # views are being made again: they are not new views


_REMAKING = _Remaking()


def _recorded(t: Tensor) -> bool:
    return bool(STATE.depth) or (STATE.enabled and t._rg and t._node is not None)


def link_view(base: Tensor, view: Tensor, fn: Callable[[Tensor], Tensor]) -> None:
    """Remember that ``view`` (a fresh Tensor whose array is a view of ``base``'s) is ``fn(base)``, when
    gradients are recorded (a grad call is running, or ``base`` is a computed tensor being recorded). View ops
    call it.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.ops.shape import getitem
        >>> t = ms.Tensor([[1.0, 2.0]]); t.requires_grad = True
        >>> t = t * 1.0  # a computed tensor being recorded
        >>> s = getitem(t, 0)  # links itself
        >>> s._alias.base is t, t._alias.views[0]() is s
        (True, True)
    """
    if _REMAKING.active or not _recorded(base):
        return
    view._alias = Alias(base, fn, None)
    a = base._alias
    if a is None:
        base._alias = Alias(None, None, [weakref.ref(view)])
        return
    if a.views is None:
        a.views = []
    elif len(a.views) >= 64:  # drop the views that died
        a.views = [r for r in a.views if r() is not None]
    a.views.append(weakref.ref(view))


def copy_on_write(target: Tensor) -> bool:
    """Whether a write into ``target`` must leave its old buffer as it is, because a recorded graph may read it:
    a grad call is running, or the target is a computed tensor being recorded. (A Parameter written outside a
    grad call, by an optimizer or by hand, is written in place.)

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> copy_on_write(w), copy_on_write(w * 2)
        (False, True)
    """
    if STATE.depth:
        return True
    return STATE.enabled and target._rg and target._node is not None


def _written_back(base: Tensor, fn: Callable[[Tensor], Tensor], value: Tensor) -> Tensor:
    """``base``'s values with the part ``fn`` shows replaced by ``value``, in a fresh buffer; recorded."""
    arr = base._data.copy()
    _REMAKING.active = True
    try:
        region = fn(Tensor._wrap(arr))._data
    finally:
        _REMAKING.active = False
    if not np.shares_memory(region, arr):
        raise RuntimeError(f"A write through a view of shape {list(region.shape)} cannot reach its base of shape "
                           f"{list(arr.shape)}: the view is a copy (write into the base instead).")
    region[...] = value._data
    out = Tensor._wrap(arr)
    br, vr = base._rg, value._rg
    if STATE.enabled and (br or vr):
        keep = np.ones(arr.shape, arr.dtype)
        _REMAKING.active = True
        try:
            fn(Tensor._wrap(keep))._data[...] = 0  # where the view is, the base's old values are gone
        finally:
            _REMAKING.active = False

        def backward(d: List[Tensor]) -> tuple:
            g = d[0]
            _REMAKING.active = True
            try:
                return (g * Tensor._wrap(keep) if br else None, fn(g) if vr else None)
            finally:
                _REMAKING.active = False
        record("ViewWrite", (base, value), (out,), backward)
    return out


def _remake_views(t: Tensor) -> None:
    """Every live view of ``t`` made again from ``t``'s new value (a view of its new buffer, recorded from it)."""
    a = t._alias
    if a is None or not a.views:
        return
    live = []
    for ref in a.views:
        v = ref()
        if v is None or v._alias is None or v._alias.base is not t:
            continue
        live.append(ref)
        _REMAKING.active = True
        try:
            nv = v._alias.fn(t)
        finally:
            _REMAKING.active = False
        v._data, v._rg, v._node, v._idx = nv._data, nv._rg, nv._node, nv._idx
        v._version += 1
        _remake_views(v)
    a.views = live


def assign(target: Tensor, result: Tensor) -> None:
    """``target`` now holds ``result``'s values (a fresh buffer of the target's shape and dtype) and graph
    position: an in-place write for which :func:`copy_on_write` holds. Written back into the base when
    ``target`` is a view; every live view of a written tensor is made again.

    Example:
        >>> import mskernel as ms
        >>> t = ms.Tensor([1.0, 2.0]) * 1.0
        >>> assign(t, ms.Tensor([5.0, 6.0])); print(t)
        [5. 6.]
    """
    link = target._alias
    base = link.base if link is not None else None
    if base is not None:
        assign(base, _written_back(base, link.fn, result))  # the base's views, the target among them, are remade
        return
    if STATE.enabled and target._rg and target._node is None and (result._rg or STATE.depth):
        raise RuntimeError(LEAF_ERROR)
    target._data = result._data
    target._rg, target._node, target._idx = result._rg, result._node, result._idx
    target._version += 1
    _remake_views(target)
