"""``mindspore.experimental``: the torch-style optimizers and learning-rate schedulers (:mod:`.optim`).

Example:
    >>> from mskernel import experimental
    >>> experimental.optim.SGD.__name__
    'SGD'
"""
from mskernel.experimental import optim

__all__ = ["optim"]
