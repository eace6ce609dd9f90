"""The backward pass: walk the recorded graph in reverse topological order.

:func:`gradients` computes d(roots)/d(targets) for any tracked target tensors (leaves or
intermediate results). It accumulates gradients of shared sub-expressions, sums broadcast
gradients back to input shapes, casts them to the input dtype, skips branches that cannot reach a
target, and releases each node's saved tensors once used (unless ``retain_graph``). With
``create_graph`` the backward rules themselves are recorded, which is how higher-order gradients
work.

Example:
    >>> import mskernel as ms
    >>> from mskernel.autograd.engine import gradients
    >>> x = ms.Tensor([1.0, 2.0]); x.requires_grad = True
    >>> y = (x * x).sum()
    >>> gradients([y], [x])[0]
    Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00])
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from mskernel._accel import cengine
from mskernel.autograd.broadcast import sum_to
from mskernel.autograd.node import STATE, Node
from mskernel.errors import MskernelError
from mskernel.common.tensor import Tensor

__all__ = ["gradients", "GradientError", "grad_stats"]


class GradientError(MskernelError, RuntimeError):
    """A backward rule returned something the engine cannot use, or the graph was released.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.autograd import record
        >>> def twice(t):  # an op whose backward returns a gradient of the wrong shape
        ...     y = ms.Tensor(t.asnumpy() * 2)
        ...     record("twice", [t], [y], lambda douts: (ms.ops.ones((3,), ms.float32),))
        ...     return y
        >>> ms.grad(lambda t: twice(t).sum())(ms.Tensor([1.0, 2.0]))
        Traceback (most recent call last):
        ...
        mskernel.autograd.engine.GradientError: For 'twice', the backward rule returned a gradient of shape [3] for input 0, which has shape [2]; a gradient must have the input's shape (or a shape that broadcasts from it).
    """  # noqa: E501


def grad_stats(arr: np.ndarray) -> Dict[str, Any]:
    """Summary statistics of a gradient, as stored on nodes when capture is on.

    Example:
        >>> grad_stats(np.array([3.0, -4.0]))["norm"]
        5.0
    """
    a = np.asarray(arr)
    if a.size == 0:
        return {"shape": a.shape, "norm": 0.0, "mean": 0.0, "absmax": 0.0, "min": 0.0, "max": 0.0,
                "finite": True}
    af = a.astype(np.float64, copy=False)
    finite = bool(np.isfinite(af).all())
    return {"shape": a.shape, "norm": float(np.sqrt(np.sum(af * af))), "mean": float(af.mean()),
            "absmax": float(np.abs(af).max()), "min": float(af.min()), "max": float(af.max()),
            "finite": finite}


# ---- phase: backward ---- (the C mirror: _cengine_backward.c's gradients()) ----------------
def _collect(roots: Sequence[Tensor]) -> List[Node]:
    """Nodes reachable from the roots, sorted by creation (so every producer precedes its consumers)."""
    nodes: List[Node] = []
    seen = set()
    stack = [r._node for r in roots if r._node is not None]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        for t in n.inputs:
            if t is not None:
                p = t._node
                if p is not None and p not in seen:
                    stack.append(p)
    nodes.sort(key=_node_id)
    return nodes


def _node_id(n: Node) -> int:
    return n.id


_SCALAR_ONES: Dict[Any, np.ndarray] = {}


def _ones(shape: tuple, dtype: Any) -> Tensor:
    """The default sens: ones (a shared read-only 0-d array for scalar outputs)."""
    if shape == ():
        a = _SCALAR_ONES.get(dtype)
        if a is None:
            a = _SCALAR_ONES[dtype] = np.ones((), dtype)
            a.flags.writeable = False
        return Tensor._wrap(a)
    return Tensor._wrap(np.ones(shape, dtype))


def _reduce_to(g: Tensor, t: Tensor, node: Node, pos: int) -> Tensor:
    shape = t._data.shape
    if g._data.shape != shape:
        try:
            np.broadcast_shapes(g._data.shape, shape)
            ok = len(g._data.shape) >= len(shape)
        except ValueError:
            ok = False
        if not ok:
            raise GradientError(
                f"For '{node.op}', the backward rule returned a gradient of shape {list(g._data.shape)} for input "
                f"{pos}, which has shape {list(shape)}; a gradient must have the input's shape (or a shape that "
                f"broadcasts from it).")
        g = sum_to(g, shape)
    if g._data.dtype != t._data.dtype:
        if g._data.dtype.kind not in "fc":
            raise GradientError(f"For '{node.op}', the backward rule returned a {g.dtype} gradient for input {pos} "
                                f"({t.dtype}); gradients must be floating point.")
        g = g.astype(t.dtype)
    return g


def _materialize(node: Node, douts: List[Optional[Tensor]]) -> List[Tensor]:
    """Zeros for the outputs that received no gradient."""
    return [d if d is not None else Tensor._wrap(np.zeros(shape, dt)) for d, (shape, dt) in zip(douts, node.out_meta)]


def _saved_outs(node: Node, create_graph: bool) -> List[Tensor]:
    """The forward outputs a ``needs_outputs`` rule reads, connected to the node when recording."""
    outs = []
    for j, a in enumerate(node.saved_out):
        o = Tensor._wrap(a)
        if create_graph and a.dtype.kind in "fc":
            o._rg, o._node, o._idx = True, node, j
        outs.append(o)
    return outs


def _capture(node: Node, douts: Sequence[Optional[Tensor]], grads: Sequence[Any]) -> None:
    node.stats = {"douts": [None if d is None else grad_stats(d._data) for d in douts],
                  "dins": [grad_stats(g._data) if isinstance(g, Tensor) else None for g in grads]}


def gradients(roots: Sequence[Tensor], targets: Sequence[Tensor], sens: Optional[Sequence[Optional[Tensor]]] = None,
              *, create_graph: bool = False, retain_graph: bool = False) -> List[Optional[Tensor]]:
    """Gradients of ``roots`` (weighted by ``sens``, default ones) with respect to ``targets``.

    Returns one entry per target: a Tensor, or None when the target does not influence the roots.
    Nodes are processed in reverse creation order — a valid reverse topological order, since an
    op's inputs always exist before it.

    Example:
        >>> import mskernel as ms
        >>> a = ms.Tensor(3.0); a.requires_grad = True
        >>> b = a * a
        >>> gradients([b], [a])[0].item()
        6.0
    """
    if _C is not None:
        return _C.gradients(roots, targets, sens, create_graph, retain_graph)
    return _gradients_py(roots, targets, sens, create_graph, retain_graph)


def _gradients_py(roots: Sequence[Tensor], targets: Sequence[Tensor], sens: Optional[Sequence[Optional[Tensor]]],
                  create_graph: bool, retain_graph: bool) -> List[Optional[Tensor]]:
    """The reference implementation of :func:`gradients` (``mskernel/autograd/_cengine_backward.c`` mirrors it)."""
    # Tensors hash by identity (object.__hash__), so they serve as dict keys directly.
    # ---- phase: targets ----
    leaf_grads: Dict[Tensor, Optional[Tensor]] = {}
    node_keys: Dict[tuple, int] = {}
    relevant: set = set()
    for i, t in enumerate(targets):
        if not isinstance(t, Tensor):
            raise TypeError(f"gradients: target {i} must be a Tensor, but got {type(t).__name__}")
        if t._node is None:
            leaf_grads[t] = None
        else:
            node_keys[(t._node, t._idx)] = i
            relevant.add(t._node)
    # ---- phase: collect ----
    nodes = _collect([r for r in roots if isinstance(r, Tensor)])
    runnable = set()  # nodes whose backward must run: some input leads to a target
    for n in nodes:
        for t in n.inputs:
            if t is not None and t._rg:
                p = t._node
                if (t in leaf_grads) if p is None else (p in relevant):
                    relevant.add(n)
                    runnable.add(n)
                    break

    # ---- phase: seed ----
    pending: Dict[Node, List[Optional[Tensor]]] = {}   # output grads of nodes still to run
    owned = set()  # buffers the engine allocated itself: safe to accumulate into in place

    def add(prev: Tensor, g: Tensor) -> Tensor:
        if create_graph:
            return prev + g
        pd, gd = prev._data, g._data
        if prev in owned and pd.shape == gd.shape and pd.dtype == gd.dtype:
            np.add(pd, gd, out=pd)
            return prev
        new = Tensor._wrap(np.add(pd, gd))
        owned.add(new)
        return new

    for r, s in zip(roots, sens if sens is not None else [None] * len(roots)):
        if not isinstance(r, Tensor) or not r._rg:
            continue
        if s is None:
            s = _ones(r._data.shape, r._data.dtype)
        p = r._node
        if p is None:
            if r in leaf_grads:
                prev = leaf_grads[r]
                leaf_grads[r] = s if prev is None else add(prev, s)
        elif p in relevant:
            lst = pending.get(p)
            if lst is None:
                lst = pending[p] = [None] * len(p.out_meta)
            lst[r._idx] = s if lst[r._idx] is None else add(lst[r._idx], s)

    # ---- phase: run ----
    result: List[Optional[Tensor]] = [None] * len(targets)
    prev_mode = STATE.enabled
    STATE.enabled = create_graph
    release = not (retain_graph or create_graph)  # a recorded backward may read forward results again
    capture = STATE.capture_stats
    try:
        for node in reversed(nodes):
            douts = pending.pop(node, None)
            if douts is None:
                continue
            for d in douts:  # now going to a rule (which may hand one to several inputs) or to the caller
                owned.discard(d)
            if node_keys:
                for j, d in enumerate(douts):
                    k = node_keys.get((node, j))
                    if k is not None and d is not None:
                        result[k] = d
            if node not in runnable:
                continue
            backward = node.backward
            if backward is None:
                raise GradientError(
                    f"For '{node.op}', its graph was already released by an earlier backward pass; "
                    f"run the forward again (or pass retain_graph=True).")
            if (len(douts) != 1 or douts[0] is None) and node.materialize:
                douts = _materialize(node, douts)
            if node.saved_out is None:
                grads = backward(douts)
            else:
                grads = backward(douts, _saved_outs(node, create_graph))
            if release:
                node.backward = None
                node.saved_out = None
            inputs = node.inputs
            if grads is None or len(grads) != len(inputs):
                got = "None" if grads is None else str(len(grads))
                raise GradientError(f"For '{node.op}', the backward rule returned {got} gradients for "
                                    f"{len(inputs)} inputs.")
            if capture:
                _capture(node, douts, grads)
            # ---- phase: route ----
            for pos in range(len(inputs)):
                g = grads[pos]
                if g is None:
                    continue
                t = inputs[pos]
                if t is None or not t._rg:
                    continue
                p = t._node
                if p is None:
                    if t not in leaf_grads:
                        continue
                elif p not in relevant:
                    continue
                if g.__class__ is not Tensor and not isinstance(g, Tensor):
                    raise GradientError(f"For '{node.op}', the backward rule returned a {type(g).__name__} as the "
                                        f"gradient of input {pos}; expected a Tensor or None.")
                gd, td = g._data, t._data
                if gd.shape != td.shape or gd.dtype != td.dtype:
                    g = _reduce_to(g, t, node, pos)
                if p is None:
                    prev = leaf_grads[t]
                    leaf_grads[t] = g if prev is None else add(prev, g)
                else:
                    lst = pending.get(p)
                    if lst is None:
                        lst = pending[p] = [None] * len(p.out_meta)
                    i = t._idx
                    prev = lst[i]
                    lst[i] = g if prev is None else add(prev, g)
    finally:
        STATE.enabled = prev_mode

    # ---- phase: results ----
    for i, t in enumerate(targets):
        if t._node is None:
            result[i] = leaf_grads[t]
    return result


_C = cengine()
if _C is not None:  # the compiled core calls back into these for every rare branch
    _C.bind_engine({"ones": _ones, "scalar_ones": _SCALAR_ONES, "reduce_to": _reduce_to, "materialize": _materialize,
                    "saved_outs": _saved_outs, "capture": _capture, "GradientError": GradientError, "STATE": STATE})
