"""Higher-order forward derivatives: ``ops.jet`` (Taylor-mode propagation of a series) and ``ops.derivative``.

Both are built on nested ``jvp``: for primals ``x`` and a series ``s_1 .. s_n`` (the input path's derivatives),
``g(t) = fn(x + s_1 t + s_2 t^2/2! + ... + s_n t^n/n!)`` has, at ``t = 0``, the output path's derivatives
``g^(k)(0)`` for k = 1..n, which is what MindSpore's ``jet`` gives. ``derivative(fn, x, n)`` is the n-th of
them along the direction of ones.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> out, d3 = derivative(ops.sin, ms.Tensor([0.0]), 3)
    >>> print(out, d3)
    [0.] [-1.]
"""
from __future__ import annotations

import math
from typing import Any, Callable, Tuple

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["jet", "derivative"]


def _check(fn: Any, primals: Any, who: str) -> Tuple[Tensor, ...]:
    if not callable(fn):
        raise TypeError(f"For '{who}', the 'fn' must be callable, but got {type(fn).__name__}.")
    xs = primals if isinstance(primals, tuple) else (primals,)
    if not xs or not all(isinstance(x, Tensor) for x in xs):
        raise TypeError(f"For '{who}', the 'primals' must be a Tensor or a tuple of Tensors, but got {primals!r}.")
    return xs


def _derivatives(fn: Callable[..., Any], xs: Tuple[Tensor, ...], series: Tuple[Any, ...], order: int) -> list:
    from mskernel.ops.composite import jvp

    def path(t: Tensor) -> Any:
        powers, p = [], t
        for k in range(order):  # t, t^2, ... as products (pow's derivative at t = 0 goes through log)
            powers.append(p / math.factorial(k + 1))
            p = p * t
        moved = []
        for x, s in zip(xs, series):
            out = x
            for k in range(order):
                out = out + s[k] * powers[k]
            moved.append(out)
        return fn(*moved)

    one = Tensor(np.array(1.0, np.float32))
    levels = [path]
    for _ in range(order):
        prev = levels[-1]
        levels.append(lambda t, prev=prev: jvp(prev, (t,), (one,))[1])
    t0 = Tensor(np.array(0.0, np.float32))
    return [levels[k](t0) for k in range(1, order + 1)]


def _stack(ds: list) -> Tensor:
    return Tensor(np.stack([d.asnumpy() for d in ds]))


def jet(fn: Callable[..., Any], primals: Any, series: Any) -> Tuple[Any, Any]:
    """``fn(primals)`` and the derivatives of ``fn`` along the input path whose derivatives are ``series``
    (a Tensor whose first axis is the order, or a tuple of them, one per primal).

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> out, s = jet(ops.exp, ms.Tensor([0.0]), ms.Tensor([[1.0], [0.0]]))
        >>> print(out, s)
        [1.] [[1.]
         [1.]]
    """
    xs = _check(fn, primals, "jet")
    ss = series if isinstance(series, tuple) else (series,)
    if len(ss) != len(xs) or not all(isinstance(s, Tensor) and s.ndim == x.ndim + 1 for s, x in zip(ss, xs)):
        raise ValueError("For 'jet', the 'series' must hold one Tensor per primal, each with the primal's shape "
                         "after a leading axis of the order.")
    order = ss[0].shape[0]
    return fn(*xs), _stack(_derivatives(fn, xs, ss, order))


def derivative(fn: Callable[..., Any], primals: Any, order: int) -> Tuple[Any, Any]:
    """``fn(primals)`` and its ``order``-th derivative along the direction of ones.

    Example:
        >>> import mskernel as ms
        >>> out, d2 = derivative(lambda x: x ** 3, ms.Tensor([2.0]), 2)
        >>> print(out, d2)
        [8.] [12.]
    """
    xs = _check(fn, primals, "derivative")
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ValueError(f"For 'derivative', the 'order' must be a positive int, but got {order!r}.")
    series = tuple(Tensor(np.concatenate([np.ones((1,) + x.shape, x.dtype.np),
                                          np.zeros((order - 1,) + x.shape, x.dtype.np)])) for x in xs)
    return fn(*xs), _derivatives(fn, xs, series, order)[-1]
