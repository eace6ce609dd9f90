"""Graph nodes, grad mode, and recording — the ONE way anything enters the graph.

Every differentiable thing (built-in ops, ``ops.Custom`` of any func_type, C++ ``Function``
ops) records one node with its inputs, its outputs and its backward: :func:`record` takes a
callable that maps output gradients to input gradients, :func:`record_rule` a declared rule
(:mod:`mskernel.autograd.rule`, what the op table's ops and the Tensor operators record). Both are
the engine core's (``_cengine.c``). The engine, ``grad``/``value_and_grad``, ``gradcheck`` and the
graph widget all read the nodes this creates.

Example:
    >>> import numpy as np
    >>> from mskernel.common.tensor import Tensor
    >>> from mskernel.autograd import record, grad_enabled
    >>> x = Tensor([3.0]); x.requires_grad = True
    >>> y = Tensor._wrap(x.asnumpy() * 2)
    >>> node = record("Double", (x,), (y,), lambda douts: (douts[0] * 2,))
    >>> y.grad_fn.op, y.requires_grad
    ('Double', True)
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from mskernel._accel import cengine
from mskernel.common.tensor import Tensor

__all__ = ["Node", "record", "record_rule", "edge", "saved", "no_grad", "enable_grad", "set_grad_enabled",
           "grad_enabled", "needs_grad", "GradState", "STATE"]


_C = cengine()
# Autograd switches, one set per thread: ``enabled`` (ops record), ``depth`` (grad calls running), ``capture_stats``
# (backward keeps gradient statistics). The engine core's type, so the core reads them without an attribute lookup;
# its docstring has the example.
GradState = _C.GradState
STATE = GradState()
_ids = itertools.count(1)


class Node:
    """One recorded op application. The engine core makes them, when an op records (``record``, ``record_rule``).

    Attributes:
        op: op name as shown to users (``"Mul"``, ``"Custom"``, ``"CustomMul"``).
        kind: ``"builtin"``, ``"custom"``, ``"cpp_function"``, ...
        inputs: one entry per op input: the input Tensor, or None for non-tensor inputs.
        backward: ``backward(douts) -> grads`` (or ``backward(douts, outs)`` when
            ``needs_outputs``); None once released after a backward pass.
        out_meta: ``((shape, numpy dtype), ...)`` per output.
        info: free-form facts for views (e.g. Custom's func_type and function name).
        stats: gradient statistics after a backward pass with capture on.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> x.requires_grad = True
        >>> node = (x * x).grad_fn  # the node that produced the tensor
        >>> node.op, node.kind, node.out_meta, [t is x for t in node.inputs]
        ('Mul', 'builtin', (((2,), dtype('float32')),), [True, True])
    """

    __slots__ = ("id", "op", "kind", "inputs", "backward", "out_meta", "saved_out", "info", "stats",
                 "materialize", "__weakref__")

    def __repr__(self) -> str:
        return f"<Node {self.op}#{self.id} kind={self.kind} inputs={len(self.inputs)} outputs={len(self.out_meta)}>"


# ---- recording: in the engine core (mskernel/autograd/_cengine.c); what it does is said here ----------------
_META: Dict[tuple, Any] = {}


def _meta_array(shape: tuple, dtype: Any) -> Any:
    """A read-only zero-stride array standing for an input's shape and dtype (cached; the core reads the cache)."""
    key = (shape, dtype)
    m = _META.get(key)
    if m is None:
        if len(_META) >= 4096:
            _META.clear()
        m = _META[key] = np.broadcast_to(np.zeros((), dtype), shape)
    return m


_C.bind_node(Node, _ids, _META, _meta_array, STATE)
# what the hot callers call: the core's functions themselves (the documented names below forward to them)
_record = _C.record
_record1 = _C.record1  # (op, inputs, out, backward, needs_outputs=False): one output, an input known tracked
_record_rule = _C.record_rule


def edge(t: Tensor) -> Tensor:
    """What a node keeps of an input Tensor: the input itself if it is a tracked leaf (gradients are
    keyed by its identity), else a data-less stand-in with its graph position (``_rg``, ``_node``,
    ``_idx``), shape and dtype. Backward rules keep the values they need themselves, so an
    intermediate result's buffer is freed as soon as neither the user nor a rule holds it.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0]); x.requires_grad = True
        >>> y = x * 2
        >>> e = edge(y)
        >>> e is y, e._node is y._node, e.shape, e.dtype
        (False, True, (2,), mindspore.float32)
        >>> edge(x) is x
        True
    """
    return _C.edge(t)


def saved(t: Any) -> Any:
    """What a backward rule keeps of an operand ``t``: the tracked leaf itself (its gradient is keyed by its
    identity, and it is never written in place while recorded), else a Tensor of the engine's own sharing ``t``'s
    array and graph position. An in-place write inside a grad call gives its target a fresh buffer
    (:mod:`mskernel.ops.alias`), so what a rule kept still holds the values the op read. Declared rules keep their
    operands so by themselves; a hand-written backward closes over ``saved(x)``, never over ``x``.

    Example:
        >>> import mskernel as ms
        >>> y = ms.Tensor([1.0, 2.0]) * 3
        >>> s = saved(y)
        >>> s is y, s._data is y._data
        (False, True)
    """
    return _C.saved(t)


def needs_grad(*tensors: Any) -> bool:
    """True when grad mode is on and any of the given tensors is tracked.

    Example:
        >>> from mskernel.common.tensor import Tensor
        >>> needs_grad(Tensor(1.0), 3)
        False
    """
    if not STATE.enabled:
        return False
    return any(isinstance(t, Tensor) and t._rg for t in tensors)


def record(op: str, inputs: Sequence[Any], outputs: Sequence[Tensor], backward: Callable, *,
           kind: str = "builtin", info: Optional[dict] = None, needs_outputs: bool = False,
           materialize_grads: bool = True, any_dtype: bool = False) -> Optional[Node]:
    """Record an op application as a graph node; returns the node, or None if nothing is tracked.

    Args:
        op: name shown in errors, snapshots and widgets.
        inputs: the op's inputs in call order; non-Tensor entries are allowed (they get no grad).
        outputs: the output Tensors (fresh tensors created by the op); floating outputs become
            tracked non-leaf tensors pointing at the node.
        backward: ``backward(douts)`` → a tuple or list with one gradient (Tensor or None) per input.
            ``douts`` has one Tensor per output (zeros where an output was unused). With
            ``needs_outputs=True`` it is called as ``backward(douts, outs)``: ``outs`` are the
            forward outputs, connected to this node (so higher-order gradients stay right)
            without the node keeping a reference cycle to its own outputs.
        kind: node kind (``"builtin"``, ``"custom"``, ``"cpp_function"``, ...).
        info: extra facts for views.
        materialize_grads: when False, ``douts`` holds None (not zeros) for outputs that received no
            gradient (C++ ``AutogradContext::SetMaterializeGrads(false)``).
        any_dtype: track integer outputs too (a Cell's user bprop: MindSpore returns its values for
            integer inputs).

    Gradients returned by ``backward`` may have a broadcast shape or another float dtype: the
    engine sums them to the input's shape and casts them to its dtype.

    Example:
        >>> from mskernel.common.tensor import Tensor
        >>> x = Tensor([1.0, 2.0]); x.requires_grad = True
        >>> y = Tensor._wrap(x.asnumpy() ** 2)
        >>> record("Square", (x,), (y,), lambda d: (d[0] * 2 * x,)).op
        'Square'
    """
    return _C.record(op, inputs, outputs, backward, kind=kind, info=info, needs_outputs=needs_outputs,
                     materialize_grads=materialize_grads, any_dtype=any_dtype)


def record_rule(rule: Any, inputs: Tuple[Any, ...], out: Any, attrs: Optional[Tuple[Any, ...]] = None) -> None:
    """Record an op whose backward is a declared rule (:mod:`mskernel.autograd.rule`) bound to this call.

    ``inputs`` are the op's tensor inputs (a tuple), ``out`` its output Tensor (a tuple of them for a
    rule made with ``multi=True``), ``attrs`` the values of the attributes the rule was declared with.
    The node keeps only what the rule reads; nothing is recorded when grad mode is off or no input is
    tracked.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd.rule import rule
        >>> SCALE = rule("Scale", ("input",), lambda g, k: (g * k,), attrs=("k",))
        >>> x = ms.Tensor([1.0, 2.0]); x.requires_grad = True
        >>> y = ms.Tensor._wrap(x.asnumpy() * 3)
        >>> record_rule(SCALE, (x,), y, (3.0,))
        >>> y.grad_fn.op, y.grad_fn.backward([ms.Tensor([1.0, 1.0])])
        ('Scale', (Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  3.00000000e+00]),))
    """
    _C.record_rule(rule, inputs, out, attrs)


class no_grad:
    """Context manager and decorator that stops recording (MindSpore's ``_no_grad``).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Parameter(ms.Tensor([1.0]), name="x")
        >>> with ms.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def __enter__(self) -> None:
        self._prev = STATE.enabled
        STATE.enabled = False

    def __exit__(self, *exc: Any) -> None:
        STATE.enabled = self._prev

    def __call__(self, fn: Callable) -> Callable:
        import functools

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with no_grad():
                return fn(*args, **kwargs)
        return wrapper


class enable_grad(no_grad):
    """Context manager that turns recording back on inside a :class:`no_grad` block.

    Example:
        >>> import mskernel as ms
        >>> with ms.no_grad():
        ...     with ms.enable_grad():
        ...         on = ms.autograd.grad_enabled()
        >>> on
        True
    """

    def __enter__(self) -> None:
        self._prev = STATE.enabled
        STATE.enabled = True


def set_grad_enabled(mode: bool) -> None:
    """Turn recording on or off globally.

    Example:
        >>> set_grad_enabled(True); grad_enabled()
        True
    """
    STATE.enabled = bool(mode)


def grad_enabled() -> bool:
    """Whether ops currently record graph nodes.

    Example:
        >>> grad_enabled()
        True
    """
    return STATE.enabled
