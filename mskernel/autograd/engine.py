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

from mskernel.autograd.node import STATE, Node
from mskernel.errors import MskernelError
from mskernel.tensor import Tensor

__all__ = ["gradients", "GradientError", "grad_stats"]


class GradientError(MskernelError, RuntimeError):
    """A backward rule returned something the engine cannot use, or the graph was released."""


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


def _walk(roots: Sequence[Tensor], leaf_keys: Dict[int, int], relevant: set, runnable: set) -> List[Node]:
    """Nodes reachable from the roots, consumers before producers (iterative post-order DFS).

    Fills ``relevant`` (nodes that produce a target or feed one) and ``runnable`` (nodes whose
    backward must run: some input leads to a target) on the way: post-order finishes producers
    first, so a node's relevance is known from its inputs when it finishes.
    """
    order: List[Node] = []
    seen = set()
    for r in roots:
        root = r._node
        if root is None or root in seen:
            continue
        seen.add(root)
        stack = [(root, root.inputs, 0)]
        while stack:
            node, inputs, i = stack[-1]
            n = len(inputs)
            while i < n:  # descend into the next unvisited producer
                t = inputs[i]
                i += 1
                if t is not None:
                    p = t._node
                    if p is not None and p not in seen:
                        seen.add(p)
                        stack[-1] = (node, inputs, i)
                        stack.append((p, p.inputs, 0))
                        break
            else:  # all producers finished: finish this node
                stack.pop()
                order.append(node)
                for t in inputs:
                    if t is not None and t._rg:
                        p = t._node
                        if (p is None and id(t) in leaf_keys) or (p is not None and p in relevant):
                            relevant.add(node)
                            runnable.add(node)
                            break
    order.reverse()
    return order


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
        g = g._sum_to(shape)
    if g._data.dtype != t._data.dtype:
        if g._data.dtype.kind not in "fc":
            raise GradientError(f"For '{node.op}', the backward rule returned a {g.dtype} gradient for input {pos} "
                                f"({t.dtype}); gradients must be floating point.")
        g = g.astype(t.dtype)
    return g


def gradients(roots: Sequence[Tensor], targets: Sequence[Tensor], sens: Optional[Sequence[Optional[Tensor]]] = None,
              *, create_graph: bool = False, retain_graph: bool = False) -> List[Optional[Tensor]]:
    """Gradients of ``roots`` (weighted by ``sens``, default ones) with respect to ``targets``.

    Returns one entry per target: a Tensor, or None when the target does not influence the roots.

    Example:
        >>> import mskernel as ms
        >>> a = ms.Tensor(3.0); a.requires_grad = True
        >>> b = a * a
        >>> gradients([b], [a])[0].item()
        6.0
    """
    leaf_keys: Dict[int, int] = {}
    node_keys: Dict[tuple, int] = {}
    relevant: set = set()
    runnable: set = set()
    for i, t in enumerate(targets):
        if not isinstance(t, Tensor):
            raise TypeError(f"gradients: target {i} must be a Tensor, but got {type(t).__name__}")
        if t._node is None:
            leaf_keys[id(t)] = i
        else:
            node_keys[(t._node, t._idx)] = i
            relevant.add(t._node)
    result: List[Optional[Tensor]] = [None] * len(targets)
    order = _walk([r for r in roots if isinstance(r, Tensor)], leaf_keys, relevant, runnable)

    pending: Dict[Node, List[Optional[Tensor]]] = {}   # output grads of nodes still to run
    leaf_grads: Dict[int, Tensor] = {}
    owned = set()  # ids of buffers the engine allocated itself: safe to accumulate into in place

    def add(prev: Tensor, g: Tensor) -> Tensor:
        if create_graph:
            return prev + g
        if id(prev) in owned and prev._data.shape == g._data.shape and prev._data.dtype == g._data.dtype:
            np.add(prev._data, g._data, out=prev._data)
            return prev
        new = Tensor._wrap(np.add(prev._data, g._data))
        owned.add(id(new))
        return new

    def push(t: Tensor, g: Tensor) -> None:
        p = t._node
        if p is None:
            k = id(t)
            prev = leaf_grads.get(k)
            leaf_grads[k] = g if prev is None else add(prev, g)
        else:
            lst = pending.get(p)
            if lst is None:
                lst = pending[p] = [None] * len(p.out_meta)
            prev = lst[t._idx]
            lst[t._idx] = g if prev is None else add(prev, g)

    for r, s in zip(roots, sens if sens is not None else [None] * len(roots)):
        if not isinstance(r, Tensor) or not r._rg:
            continue
        if s is None:
            s = _ones(r._data.shape, r._data.dtype)
        if r._node is None:
            if id(r) in leaf_keys:
                push(r, s)
        elif r._node in relevant:
            push(r, s)

    prev_mode = STATE.enabled
    STATE.enabled = create_graph
    release = not (retain_graph or create_graph)  # a recorded backward may read forward results again
    capture = STATE.capture_stats
    try:
        for node in order:
            douts = pending.pop(node, None)
            if douts is None:
                continue
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
            if len(douts) == 1 and douts[0] is not None:
                full = douts
            else:
                full = [d if d is not None else Tensor._wrap(np.zeros(shape, dt)) for d, (shape, dt)
                        in zip(douts, node.out_meta)]
            if node.saved_out is not None:
                outs = []
                for j, a in enumerate(node.saved_out):
                    o = Tensor._wrap(a)
                    if create_graph and a.dtype.kind in "fc":
                        o._rg, o._node, o._idx = True, node, j
                    outs.append(o)
                grads = backward(full, outs)
            else:
                grads = backward(full)
            if release:
                node.backward = None
                node.saved_out = None
            if grads is None or len(grads) != len(node.inputs):
                got = "None" if grads is None else str(len(grads))
                raise GradientError(f"For '{node.op}', the backward rule returned {got} gradients for "
                                    f"{len(node.inputs)} inputs.")
            if capture:
                node.stats = {"douts": [grad_stats(d._data) for d in full],
                              "dins": [grad_stats(g._data) if isinstance(g, Tensor) else None for g in grads]}
            pos = 0
            for t, g in zip(node.inputs, grads):
                if g is not None and t is not None and t._rg:
                    p = t._node
                    if (p is None and id(t) in leaf_keys) or (p is not None and p in runnable or p in relevant):
                        if g.__class__ is not Tensor and not isinstance(g, Tensor):
                            raise GradientError(
                                f"For '{node.op}', the backward rule returned a {type(g).__name__} as the "
                                f"gradient of input {pos}; expected a Tensor or None.")
                        if g._data.shape != t._data.shape or g._data.dtype != t._data.dtype:
                            g = _reduce_to(g, t, node, pos)
                        push(t, g)
                pos += 1
    finally:
        STATE.enabled = prev_mode

    for key, i in leaf_keys.items():
        g = leaf_grads.get(key)
        if g is not None:
            result[i] = g
    return result
