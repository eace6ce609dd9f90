"""In-place updates of Tensors (MindSpore's ``x.add_(1)``, ``t[i] = v``): write a result into its target, which
takes over the result's place in the graph.

Example:
    >>> import mskernel as ms
    >>> x = ms.Tensor([1.0]); print(inplace_update(x, ms.Tensor([3.0]), "fill_"), x)
    [3.] [3.]
"""
from __future__ import annotations

from mskernel.autograd.node import STATE
from mskernel.common.tensor import Tensor

__all__ = ["inplace_update"]


def inplace_update(target: Tensor, result: Tensor, op: str) -> Tensor:
    """Write ``result`` into ``target`` (MindSpore's in-place Tensor methods); ``target`` takes over its graph position.

    A leaf that requires grad cannot be changed in place while gradients are recorded (MindSpore's rule).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> print(x.add_(1), x)
        [2. 3.] [2. 3.]
    """
    if STATE.enabled and target._rg and target._node is None and result._rg:
        raise RuntimeError("A leaf tensor that need grad is being used in an inplace operator.")
    arr = result._data
    if arr.shape != target._data.shape:
        raise ValueError(f"For '{op}', the in-place result has shape {list(arr.shape)}, which differs from the "
                         f"tensor's shape {list(target._data.shape)}.")
    target._data[...] = arr
    if result._rg:
        target._rg, target._node, target._idx = True, result._node, result._idx
    target._version += 1
    return target
