"""``nn.Jvp(fn)`` and ``nn.Vjp(fn)``: cells over :func:`mskernel.jvp` and :func:`mskernel.vjp` (MindSpore's old
spelling of them).

A cell is called with the inputs of ``fn`` followed by one vector: ``Jvp`` takes the tangent of the inputs (a
Tensor for one input, a tuple for several) and returns ``(fn(*inputs), J v)``; ``Vjp`` takes the cotangent of
the output and returns ``(fn(*inputs), v J)``, the gradient a Tensor for one input and a tuple for several.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> out, vj = nn.Vjp(lambda x: x * x)(ms.Tensor([3.0]), ms.Tensor([1.0]))
    >>> print(out, vj)
    [9.] [6.]
"""
from __future__ import annotations

from typing import Any, Callable, Tuple

from mskernel.autograd.transforms import jvp, vjp
from mskernel.nn.cell import Cell

__all__ = ["Jvp", "Vjp"]


class Jvp(Cell):
    """Jacobian-vector product of ``fn``: ``Jvp(fn)(*inputs, v)`` is ``(fn(*inputs), J v)``.

    Example:
        >>> import mskernel as ms
        >>> out, jv = Jvp(lambda x, y: x * y)(ms.Tensor([2.0]), ms.Tensor([5.0]), (ms.Tensor([1.0]), ms.Tensor([0.0])))
        >>> print(out, jv)
        [10.] [5.]
    """

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> Tuple[Any, Any]:
        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return jvp(self.fn, inputs[0], v)
        return jvp(self.fn, tuple(inputs), v)


class Vjp(Cell):
    """Vector-Jacobian product of ``fn``: ``Vjp(fn)(*inputs, v)`` is ``(fn(*inputs), v J)``.

    Example:
        >>> import mskernel as ms
        >>> out, (gx, gy) = Vjp(lambda x, y: x * y)(ms.Tensor([2.0]), ms.Tensor([5.0]), ms.Tensor([1.0]))
        >>> print(out, gx, gy)
        [10.] [5.] [2.]
    """

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> Tuple[Any, Any]:
        inputs, v = args[:-1], args[-1]
        out, back = vjp(self.fn, *inputs)
        grads = back(*v) if isinstance(v, tuple) else back(v)
        return out, (grads[0] if len(inputs) == 1 else grads)
