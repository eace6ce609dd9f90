"""``swap_tensors``: exchange the contents of two Tensors in place, keeping each Python object's identity.

Example:
    >>> import mskernel as ms
    >>> a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([[1, 2, 3]], ms.int32)
    >>> swap_tensors(a, b)
    >>> print(a, a.dtype, b, b.dtype)
    [[1 2 3]] Int32 [1. 2.] Float32
"""
from __future__ import annotations

from mskernel.common.tensor import Tensor

__all__ = ["swap_tensors"]

def _slots(cls: type) -> list:
    out = []
    for klass in cls.__mro__:
        for s in getattr(klass, "__slots__", ()):
            if s not in ("__dict__", "__weakref__") and s not in out:
                out.append(s)
    return out


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Swap what ``t1`` and ``t2`` hold — values, dtype, shape, autograd state, and a Parameter's name and
    attributes — so that ``id(t1)`` and ``id(t2)`` stay the same. Both must be of one class (a Parameter's
    layout differs from a Tensor's: MindSpore documents a RuntimeError when the slots differ).

    Example:
        >>> import mskernel as ms
        >>> p, q = ms.Parameter(ms.Tensor([5.0]), name="w"), ms.Parameter(ms.Tensor([7.0]), name="v")
        >>> swap_tensors(p, q)
        >>> p.name, print(p.asnumpy())
        [7.]
        ('v', None)
        >>> swap_tensors(p, ms.Tensor([1.0]))
        Traceback (most recent call last):
        ...
        RuntimeError: For 'swap_tensors', the two tensors' slots differ: Parameter and Tensor.
    """
    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'swap_tensors', '{name}' must be a Tensor, but got {type(t).__name__}.")
    if type(t1) is not type(t2):
        raise RuntimeError(f"For 'swap_tensors', the two tensors' slots differ: {type(t1).__name__} and "
                           f"{type(t2).__name__}.")
    slots = _slots(type(t1))
    s1 = {s: getattr(t1, s) for s in slots if hasattr(t1, s)}
    s2 = {s: getattr(t2, s) for s in slots if hasattr(t2, s)}
    for t, state in ((t1, s2), (t2, s1)):
        for s in slots:
            if s in state:
                object.__setattr__(t, s, state[s])
    if hasattr(t1, "__dict__"):
        d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
        t1.__dict__.clear(); t1.__dict__.update(d2)  # noqa: E702
        t2.__dict__.clear(); t2.__dict__.update(d1)  # noqa: E702
