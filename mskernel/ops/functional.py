"""``mindspore.ops.functional`` (imported as ``F``): every functional op of the op table.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import functional as F
    >>> print(F.mul(ms.Tensor([2.0]), 4), F.atan2(ms.Tensor([1.0]), ms.Tensor([1.0])))
    [8.] [0.7853981]
"""
from mskernel.ops.registry import FUNCTIONS

globals().update(FUNCTIONS)

__all__ = sorted(n for n in FUNCTIONS if not n.startswith("_"))

#: the functional ops generated from the op table belong to no module's source: doctest finds their examples here
__test__ = {name: fn for name, fn in FUNCTIONS.items() if fn.__module__ == __name__ and not name.startswith("_")}
