"""Broadcasting and its reverse as recorded ops: the pair the engine and the ops layer share.

The engine sums a gradient that broadcasts over an input back to the input's shape
(:func:`sum_to`); the backward of that is :func:`expand_to`, and the other way round. Both sit here,
below the ops layer, so the engine does not reach up into :mod:`mskernel.ops`;
``ops.broadcast_to`` checks its arguments and then calls :func:`expand_to`.

Example:
    >>> import numpy as np, mskernel as ms
    >>> print(sum_to(ms.Tensor(np.ones((2, 3))), (1, 3)), expand_to(ms.Tensor([1.0, 2.0]), (2, 2)).shape)
    [[2. 2. 2.]] (2, 2)
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.autograd.node import STATE, _record1
from mskernel.common.tensor import Tensor

__all__ = ["sum_to", "expand_to", "fit_grad", "add_reduce"]


def add_reduce(data: np.ndarray, axis: Any, keepdims: bool = False) -> np.ndarray:
    """``np.add.reduce``, with float16 accumulated in float32 and rounded once (numpy would round after every
    addition along a non-contiguous axis; MindSpore's CPU kernels accumulate half precision in float32).

    Example:
        >>> x = np.full((4096, 2), 0.1, np.float16)
        >>> float(add_reduce(x, 0)[0]), float(np.add.reduce(x, 0)[0])
        (409.5, 256.0)
    """
    if data.dtype == np.float16:
        return np.add.reduce(data, axis=axis, keepdims=keepdims, dtype=np.float32).astype(np.float16)
    return np.add.reduce(data, axis=axis, keepdims=keepdims)


def sum_to(input: Tensor, shape: Tuple[int, ...]) -> Tensor:
    """Sum a broadcast result back to ``shape`` (the reverse of ``expand_to``).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(sum_to(ms.Tensor(np.ones((2, 3))), (1, 3)))
        [[2. 2. 2.]]
    """
    x = input
    shape = tuple(shape)
    if x._data.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    out = Tensor._wrap(add_reduce(x._data, axes).reshape(shape) if axes else x._data.reshape(shape))
    if STATE.enabled and x._rg:
        xs = x.shape
        _record1("SumTo", (x,), out, lambda d: (expand_to(d[0], xs),))
    return out


def expand_to(input: Tensor, shape: Tuple[int, ...]) -> Tensor:
    """A read-only broadcast view of ``input`` with ``shape`` (no argument checks: numpy's error if it cannot).

    Example:
        >>> import mskernel as ms
        >>> print(expand_to(ms.Tensor([1.0, 2.0]), (2, 2)))
        [[1. 2.]
         [1. 2.]]
    """
    out = Tensor._wrap(np.broadcast_to(input._data, shape))
    if STATE.enabled and input._rg:
        xs = input.shape
        _record1("BroadcastTo", (input,), out, lambda d: (sum_to(d[0], xs),))
    return out


def _shape_text(shape: Tuple[int, ...]) -> str:
    return "[const vector]{" + ", ".join(str(s) for s in shape) + "}"


def fit_grad(grad: Tensor, input: Any) -> Tensor:
    """A gradient a user's backward returned for ``input``, fitted to it as MindSpore's PyNative does:
    summed to the input's shape when the input broadcasts to the gradient's shape (a gradient of shape
    (3, 2) for a (2,) input is summed over its first axis), else RuntimeError; then cast to the input's
    dtype (a float gradient of an int32 input is truncated, as a cast does).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(fit_grad(ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor(np.array([1, 2], np.int32))))
        [3 3]
        >>> try:
        ...     fit_grad(ms.Tensor([1.0]), ms.Tensor([1.0, 2.0]))
        ... except RuntimeError as e:
        ...     print(e)  # doctest: +ELLIPSIS
        For grad interface or custom function, ... but got [const vector]{1} vs [const vector]{2}
    """
    gs, xs = grad._data.shape, input._data.shape
    if gs != xs:
        try:
            ok = np.broadcast_shapes(gs, xs) == gs
        except ValueError:
            ok = False
        if not ok:
            raise RuntimeError(f"For grad interface or custom function, grad tensor should be broadcast to expected "
                               f"shape, but got {_shape_text(gs)} vs {_shape_text(xs)}")
        grad = sum_to(grad, xs)
    if grad._data.dtype != input._data.dtype:
        grad = grad.astype(input.dtype)
    return grad
