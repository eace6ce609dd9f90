"""``mindspore.nn`` optimizers: ``Optimizer``, ``SGD``, ``Momentum``, ``Adam``, ``AdamWeightDecay``, ``RMSProp``,
``Adagrad``, ``LARS``.

Example:
    >>> from mskernel.nn import optim
    >>> "Momentum" in optim.__all__
    True
"""
from mskernel.nn.optim import adam, adaptive, lars, optimizer, proximal, sgd
from mskernel.nn.optim.adam import *  # noqa: F401,F403
from mskernel.nn.optim.adaptive import *  # noqa: F401,F403
from mskernel.nn.optim.lars import *  # noqa: F401,F403
from mskernel.nn.optim.optimizer import *  # noqa: F401,F403
from mskernel.nn.optim.proximal import *  # noqa: F401,F403
from mskernel.nn.optim.sgd import *  # noqa: F401,F403
from mskernel.nn.optim import adafactor, averaged, ftrl, lamb, lazy_adam, rprop  # noqa: E402
from mskernel.nn.optim.adafactor import *  # noqa: F401,F403
from mskernel.nn.optim.averaged import *  # noqa: F401,F403
from mskernel.nn.optim.ftrl import *  # noqa: F401,F403
from mskernel.nn.optim.lamb import *  # noqa: F401,F403
from mskernel.nn.optim.lazy_adam import *  # noqa: F401,F403
from mskernel.nn.optim.rprop import *  # noqa: F401,F403
from mskernel.nn.optim import thor as _thor_module  # noqa: E402
from mskernel.nn.optim.thor import thor  # noqa: F401

__all__ = [*optimizer.__all__, *sgd.__all__, *adam.__all__, *adaptive.__all__, *lars.__all__, *proximal.__all__,
           *adafactor.__all__, *averaged.__all__, *ftrl.__all__, *lamb.__all__, *lazy_adam.__all__, *rprop.__all__,
           *_thor_module.__all__]
