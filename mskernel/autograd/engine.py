"""The backward pass: walk the recorded graph in reverse topological order.

:func:`gradients` computes d(roots)/d(targets) for any tracked target tensors (leaves or
intermediate results). It accumulates gradients of shared sub-expressions, sums broadcast
gradients back to input shapes, casts them to the input dtype, skips branches that cannot reach a
target, and releases each node's saved tensors once used (unless ``retain_graph``). With
``create_graph`` the backward rules themselves are recorded, which is how higher-order gradients
work. The walk is the engine core's (``_cengine_backward.c``); this module documents it and holds
the helpers it calls for rare branches.

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
from mskernel.autograd.node import Node
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


# ---- the backward pass is the engine core's (_cengine_backward.c); these are the helpers it calls for rare branches
_SCALAR_ONES: Dict[Any, np.ndarray] = {}


def _ones(shape: tuple, dtype: Any) -> Tensor:
    """The default sens: ones. For a scalar output it is one shared 0-d array per dtype, backed by immutable
    bytes, so no one can make it writeable (a gradient returned to a user is copied from it: ``_finalize``).

    Example:
        >>> a = _ones((), np.dtype(np.float32)).asnumpy()
        >>> a.flags.writeable = True
        Traceback (most recent call last):
        ...
        ValueError: cannot set WRITEABLE flag to True of this array
    """
    if shape == ():
        a = _SCALAR_ONES.get(dtype)
        if a is None:
            a = _SCALAR_ONES[dtype] = np.frombuffer(np.ones((), dtype).tobytes(), dtype).reshape(())
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
        if g.dtype.kind not in "fc":
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
        if create_graph and o.dtype.kind in "fc":
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

    How (the engine core, ``mskernel/autograd/_cengine_backward.c``): the nodes reachable from the
    roots are collected and run in reverse creation order (a valid reverse topological order, since
    an op's inputs always exist before it), only those with an input that leads to a target. Each
    node's backward gets its outputs' gradients (zeros for an unused output, unless the node asked
    for None); the gradients it returns are summed to each input's shape (broadcasting) and cast to
    its dtype, then added into that input's slot. A slot's sum lives in a buffer the engine
    allocated itself and is added into in place while it stays in that slot; once it goes to a rule
    (which may hand the same buffer to several inputs) or to the caller it is never written again.
    Without ``retain_graph``/``create_graph`` each node's backward and saved outputs are released
    once used. With ``create_graph`` the backward rules themselves are recorded (grad mode is on
    while they run), which is how higher-order gradients work.

    Example:
        >>> import mskernel as ms
        >>> a = ms.Tensor(3.0); a.requires_grad = True
        >>> b = a * a
        >>> gradients([b], [a])[0].item()
        6.0
    """
    return _C.gradients(roots, targets, sens, create_graph, retain_graph)


_C = cengine()
_C.bind_engine({"ones": _ones, "scalar_ones": _SCALAR_ONES, "reduce_to": _reduce_to, "materialize": _materialize,
                "saved_outs": _saved_outs, "capture": _capture, "GradientError": GradientError})
