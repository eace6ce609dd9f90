"""``mindspore.nn`` optimizers: ``Optimizer``, ``SGD``, ``Momentum``, ``Adam``.

Example:
    >>> from mskernel.nn import optim
    >>> "Momentum" in optim.__all__
    True
"""
from mskernel.nn.optim import adam, optimizer, sgd
from mskernel.nn.optim.adam import *  # noqa: F401,F403
from mskernel.nn.optim.optimizer import *  # noqa: F401,F403
from mskernel.nn.optim.sgd import *  # noqa: F401,F403

__all__ = [*optimizer.__all__, *sgd.__all__, *adam.__all__]
