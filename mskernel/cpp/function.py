"""C++ ``Function<T>::Apply`` into mskernel's one autograd graph (a node of kind ``"cpp_function"``).

Example:
    >>> issubclass(SecondOrderError, RuntimeError)
    True
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from mskernel.autograd.node import STATE, _record as record
from mskernel.cpp.buffers import wrap
from mskernel.common.tensor import Tensor

__all__ = ["record_function", "SecondOrderError"]


class SecondOrderError(RuntimeError):
    """A higher-order gradient was requested through a C++ Backward that computed with raw kernels.

    Example:
        >>> issubclass(SecondOrderError, RuntimeError)
        True
    """


def _no_double_backward(op: str) -> Callable:
    def backward(douts: Any, outs: Any = None) -> Any:
        raise SecondOrderError(
            f"Second-order gradients through the C++ Backward of '{op}' are not available: its Backward "
            f"computed its gradients with raw kernels (e.g. custom::CustomLaunchAclnn), which autograd cannot "
            f"differentiate. Differentiate only once, or build the gradients in Backward from differentiable ops "
            f"(another Function<...>::Apply whose Backward does the math).")
    return backward


def record_function(op: str, qualname: str, inputs: List[Optional[Tensor]], outputs: List[Tensor],
                    dirty: List[int], nondiff: List[int], cpp_backward: Callable,
                    needs_outputs: bool, materialize_grads: bool = True) -> List[Tensor]:
    """Record one ``Function<T>::Apply`` as a graph node; returns the outputs to hand back.

    ``inputs`` has one entry per Forward argument (None for non-tensors); ``dirty`` lists the
    argument positions Forward marked dirty (modified in place), ``nondiff`` the output positions
    marked non-differentiable. ``cpp_backward(douts, outs)`` runs the C++ Backward and returns one
    gradient per argument; with ``materialize_grads`` False (``SetMaterializeGrads(false)``) the
    gradient of an unused output arrives as None (nullptr in C++) instead of zeros. An output that
    is a (clean) input comes back as a new Tensor sharing its memory; a dirty input comes back as
    itself and its history moves to the new node.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([2.0]); x.requires_grad = True
        >>> y = wrap(x.asnumpy() * 3)
        >>> outs = record_function("Triple", "Triple", [x], [y], [], [], lambda d, o: [d[0] * 3], False)
        >>> outs[0].grad_fn.op, outs[0].grad_fn.kind
        ('Triple', 'cpp_function')
    """
    name = f"Function[{qualname}]"
    ins = list(inputs)
    for i in dirty:
        t = inputs[i]
        if t._rg and t._node is None:
            raise RuntimeError(f"{name}: A leaf tensor that need grad is being used in an inplace operator.")
        old = wrap(t._data)  # stands for the value before the in-place write, with the old history
        old._rg, old._node, old._idx = t._rg, t._node, t._idx
        ins[i] = old
        t._version += 1
    input_ids = {id(t) for t in inputs if t is not None}
    dirty_ids = {id(inputs[i]) for i in dirty}
    outs = list(outputs)
    seen: set = set()
    for j, o in enumerate(outs):
        if (id(o) in input_ids and id(o) not in dirty_ids) or id(o) in seen:
            outs[j] = wrap(o._data)  # a returned input (or a repeated output): same memory, new identity
        seen.add(id(outs[j]))
    real_ins = [t for t in ins if t is not None]

    def backward(douts: List[Tensor], fwd_outs: Optional[List[Tensor]] = None) -> List[Optional[Tensor]]:
        grads = cpp_backward(douts, fwd_outs if fwd_outs is not None else [])
        if STATE.enabled:  # create_graph: a gradient computed by raw kernels must not pass as a constant
            deps = [t for t in (*douts, *(fwd_outs or ()), *real_ins) if t is not None and t._rg]
            if deps:
                for g in grads:
                    if isinstance(g, Tensor) and not g._rg and g._data.dtype.kind in "fc":
                        record(f"{op}Backward", deps, (g,), _no_double_backward(op), kind="cpp_function",
                               info={"cpp_class": qualname, "backward_of": op})
        return grads

    record(op, ins, outs, backward, kind="cpp_function", info={"cpp_class": qualname}, needs_outputs=needs_outputs,
           materialize_grads=materialize_grads)
    for j in nondiff:
        o = outs[j]
        o._rg, o._node, o._idx = False, None, 0
    return outs
