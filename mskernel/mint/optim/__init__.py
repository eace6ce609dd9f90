"""``mindspore.mint.optim``: torch-style optimizers (``SGD``); the compatibility page lists the others as missing.

Example:
    >>> import mskernel as ms
    >>> from mskernel.mint import optim
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = optim.SGD([w], lr=0.1)
    >>> _ = opt((ms.Tensor([2.0]),))
    >>> print(w.asnumpy())
    [0.8]
"""
from mskernel.mint.optim.sgd import SGD

__all__ = ["SGD"]
