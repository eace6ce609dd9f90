"""``mindspore.mint.optim``: torch-style optimizers (``SGD``, ``Adam``, ``AdamW``, ``FusedAdamW``).

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
from mskernel.mint.optim.adam import Adam, AdamW, FusedAdamW

__all__ = ["SGD", "Adam", "AdamW", "FusedAdamW"]
