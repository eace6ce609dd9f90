"""In-place updates of Tensors (MindSpore's ``x.add_(1)``, ``t[i] = v``): write a result into its target, which
takes over the result's place in the graph.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([1.0]); print(inplace_update(x, ms.Tensor([3.0]), "fill_"), x)
    [3.] [3.]
"""
from __future__ import annotations

from mskernel.autograd.node import STATE
from mskernel.ops.alias import LEAF_ERROR, assign, copy_on_write
from mskernel.common.tensor import Tensor

__all__ = ["inplace_update"]


def inplace_update(target: Tensor, result: Tensor, op: str) -> Tensor:
    """Write ``result`` into ``target`` (MindSpore's in-place Tensor methods); ``target`` takes over its graph position.

    A leaf that requires grad cannot be changed in place while gradients are recorded (MindSpore's rule). While
    gradients are recorded the target gets a fresh buffer, so what the graph already read of it stays as it was,
    and the views sharing its memory follow (:mod:`mskernel.ops.alias`); otherwise the values are written into
    its memory, as numpy does.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> print(x.add_(1), x)
        [2. 3.] [2. 3.]
    """
    if STATE.enabled and target._rg and target._node is None and result._rg:
        raise RuntimeError(LEAF_ERROR)
    arr = result._data
    if arr.shape != target._data.shape:
        raise ValueError(f"For '{op}', the in-place result has shape {list(arr.shape)}, which differs from the "
                         f"tensor's shape {list(target._data.shape)}.")
    if copy_on_write(target):
        if arr.dtype != target._data.dtype:
            from mskernel.ops.shape import cast  # the ops sit beside this module
            result = cast(result, target.dtype)
        assign(target, result)
        return target
    target._data[...] = arr
    if result._rg:
        target._rg, target._node, target._idx = True, result._node, result._idx
    target._version += 1
    return target
