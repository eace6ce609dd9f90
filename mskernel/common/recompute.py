"""``recompute``: MindSpore's activation recomputation. It saves device memory by running ``block`` again in the
backward pass instead of keeping its activations; the values and gradients are those of running it once, which
is what mskernel does (its eager engine keeps the activations).

Example:
    >>> import mskernel as ms
    >>> print(recompute(ms.nn.ReLU(), ms.Tensor([1.0, -2.0])))
    [1. 0.]
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["recompute"]


def recompute(block: Callable[..., Any], *args: Any, use_reentrant: bool = True, output_recompute: bool = False,
              early_stop: bool = True, context_fn: Any = None, **kwargs: Any) -> Any:
    """``block(*args, **kwargs)``, its gradient flowing as through any call (MindSpore's options choose how the
    device re-runs it, which changes no value).

    Example:
        >>> import mskernel as ms
        >>> ms.grad(lambda x: recompute(lambda y: (y * y).sum(), x, use_reentrant=False))(ms.Tensor([3.0]))
        Tensor(shape=[1], dtype=Float32, value= [ 6.00000000e+00])
    """
    from mskernel.nn.cell import Cell  # nn sits above common

    if use_reentrant and not isinstance(block, Cell):
        raise TypeError("Recompute function now only support block which inherited from Cell when use_reentrant=True!")
    if not callable(block):
        raise TypeError(f"For 'recompute', 'block' must be a Cell or a function, but got {type(block).__name__}")
    return block(*args, **kwargs)
