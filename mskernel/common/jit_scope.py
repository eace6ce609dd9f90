"""What a primitive consults while a ``jit`` function runs: the op wrappers and infer functions that
:mod:`mskernel.graph` registers, and the custom backends ``jit(backend=...)`` may name.

MindSpore compiles a ``jit`` function to a graph; while compiling, a node of a primitive that has a wrapper
registered (``mindspore.graph.register_op_wrapper``) becomes the function the wrapper returns, and each infer
function registered for it (``register_op_infer``) computes an attribute of the node's output that later
wrappers and infer functions read. mskernel runs ``jit`` eagerly, so the same happens as each primitive is
called inside a ``jit`` function (or a Cell called in GRAPH_MODE): :func:`enter`/:func:`leave` bracket such a
call, and while something is registered a primitive's ``__call__`` goes through :func:`call` when ``ARMED[0]``
(a ``jit`` function is running). With nothing registered, primitives are called as written.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> register_wrapper("Sub", lambda x, y: (lambda a, b: a * b))
    >>> x, y = ms.Tensor([2.0]), ms.Tensor([5.0])
    >>> print(ops.Sub()(x, y), ms.jit(lambda a, b: ops.Sub()(a, b))(x, y))
    [-3.] [10.]
    >>> clear_wrappers()
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Dict, List

from mskernel.common.tensor import Tensor

__all__ = ["ARMED", "REGISTERED", "ON_REGISTERED", "depth", "enter", "leave", "call", "register_wrapper",
           "register_infer", "clear_wrappers", "clear_infers", "CUSTOM_BACKENDS", "annotated"]

logger = logging.getLogger(__name__)

#: ``ARMED[0]``: a jit function is running on some thread and a wrapper or infer function is registered
ARMED: List[bool] = [False]
#: ``REGISTERED[0]``: some op wrapper or infer function is registered
REGISTERED: List[bool] = [False]
#: called with the new value of ``REGISTERED[0]`` when it changes (the primitive base class routes its subclasses'
#: calls through :func:`call` only while something is registered)
ON_REGISTERED: List[Callable[[bool], None]] = []
#: op name -> the wrapper registered for it
_WRAPPERS: Dict[str, Callable[..., Callable]] = {}
#: op name -> infer name -> infer function, in registration order
_INFERS: Dict[str, Dict[str, Callable[..., Any]]] = {}
#: custom backend name -> its plugin's path (``mindspore.graph.register_custom_backend``)
CUSTOM_BACKENDS: Dict[str, str] = {}


class _Scope(threading.local):
    """Per thread: how deep in jit functions, the infer results of this outermost jit call (by the id of the
    tensor they annotate), the primitives being called and the wrappers whose function is running (inside it,
    its own op is not wrapped again)."""

    def __init__(self) -> None:
        self.depth = 0
        self.notes: Dict[int, Any] = {}
        self.busy: List[Any] = []
        self.wrapping: List[Callable] = []


_SCOPE = _Scope()
_active_threads = [0]
_lock = threading.Lock()


def _rearm() -> None:
    registered = bool(_WRAPPERS or _INFERS)
    if registered != REGISTERED[0]:
        REGISTERED[0] = registered
        for listener in ON_REGISTERED:
            listener(registered)
    ARMED[0] = bool(_active_threads[0] and registered)


def depth() -> int:
    """How many jit functions are running on this thread (nested)."""
    return _SCOPE.depth


def enter() -> None:
    """A jit function (or a Cell in GRAPH_MODE) starts on this thread."""
    scope = _SCOPE
    scope.depth += 1
    if scope.depth == 1:
        with _lock:
            _active_threads[0] += 1
            _rearm()


def leave() -> None:
    """The jit function that :func:`enter` announced returns (or raises)."""
    scope = _SCOPE
    scope.depth -= 1
    if scope.depth == 0:
        scope.notes = {}
        with _lock:
            _active_threads[0] -= 1
            _rearm()


def register_wrapper(op_name: str, func: Callable[..., Callable]) -> None:
    """Make ``func`` the wrapper of the primitive ``op_name`` (one per op, as in MindSpore)."""
    if op_name in _WRAPPERS:
        raise RuntimeError(f"Registering op wrapper for op: {op_name} multiple times.")
    _WRAPPERS[op_name] = func
    with _lock:
        _rearm()


def register_infer(op_name: str, infer_name: str, func: Callable[..., Any]) -> None:
    """Add ``func`` as the infer function computing attribute ``infer_name`` of ``op_name``'s output."""
    infers = _INFERS.setdefault(op_name, {})
    if infer_name in infers:
        raise RuntimeError(f"Registering function: {infer_name} for op: {op_name} multiple times.")
    infers[infer_name] = func
    with _lock:
        _rearm()


def clear_wrappers() -> None:
    """Forget every op wrapper."""
    _WRAPPERS.clear()
    with _lock:
        _rearm()


def clear_infers() -> None:
    """Forget every infer function."""
    _INFERS.clear()
    with _lock:
        _rearm()


class _Annotated(Tensor):
    """A view of a tensor that carries the attributes infer functions computed for it (``x.layout``)."""


_Annotated.__name__ = _Annotated.__qualname__ = "Tensor"
_SLOTS = [s for s in Tensor.__slots__ if s != "__weakref__"]


def annotated(value: Any) -> Any:
    """``value`` as an infer function or wrapper sees it: a tensor an earlier infer function annotated in this
    jit call carries those attributes; anything else is itself."""
    if not isinstance(value, Tensor):
        return value
    entry = _SCOPE.notes.get(id(value))
    if entry is None or entry[0] is not value:
        return value
    view = object.__new__(_Annotated)
    for slot in _SLOTS:
        if hasattr(value, slot):
            object.__setattr__(view, slot, getattr(value, slot))
    view.__dict__.update(entry[1])
    return view


def _annotate(outputs: Any, attrs: Dict[str, Any]) -> None:
    for out in (outputs if isinstance(outputs, (tuple, list)) else (outputs,)):
        if isinstance(out, Tensor):
            old = _SCOPE.notes.get(id(out))
            merged = dict(old[1]) if old is not None and old[0] is out else {}
            merged.update(attrs)
            _SCOPE.notes[id(out)] = (out, merged)  # the tensor is kept alive until the jit call returns


def _infer(name: str, infers: Dict[str, Callable[..., Any]], args: tuple, kwargs: dict) -> Dict[str, Any]:
    """The attributes ``infers`` compute from a call's arguments; one that raises is skipped with a warning
    (the wheel compiles on without it)."""
    seen = [annotated(a) for a in args]
    attrs: Dict[str, Any] = {}
    for key, fn in infers.items():
        try:
            attrs[key] = fn(*seen, **kwargs)
        except Exception as e:  # noqa: BLE001 (a user's infer function: any error is skipped, as in MindSpore)
            logger.warning("The infer function '%s' of op '%s' raised %s: %s; it is skipped.", key, name,
                           type(e).__name__, e)
    return attrs


def call(prim: Any, run: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Run primitive ``prim`` (``run`` is its own ``__call__``) inside a jit function: the function its wrapper
    returns in its place, if it has a wrapper that returns a callable (its infer functions then do not run, as
    the wheel replaces the node before inferring it); else the primitive, its output annotated by its infer
    functions."""
    scope = _SCOPE
    name = getattr(prim, "name", None)
    if scope.depth == 0 or not isinstance(name, str) or any(p is prim for p in scope.busy):
        return run(prim, *args, **kwargs)  # a subclass's __call__ calling its base's is one call
    scope.busy.append(prim)
    try:
        wrapper = _WRAPPERS.get(name)
        if wrapper is not None and wrapper not in scope.wrapping:  # inside its own function an op runs as itself
            func = wrapper(*[annotated(a) for a in args], **kwargs)
            if callable(func):  # the wheel keeps the op when its wrapper returns anything else
                scope.wrapping.append(wrapper)
                try:
                    return func(*args, **kwargs)
                finally:
                    scope.wrapping.pop()
        infers = _INFERS.get(name)
        attrs = _infer(name, infers, args, kwargs) if infers else None
        out = run(prim, *args, **kwargs)
    finally:
        scope.busy.pop()
    if attrs:
        _annotate(out, attrs)
    return out
