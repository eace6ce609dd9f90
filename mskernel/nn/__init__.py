"""Neural-network building blocks (MindSpore's ``mindspore.nn``): Cell, layers, losses, optimizers, wrappers.

Example:
    >>> from mskernel import nn
    >>> isinstance(nn.Cell(), nn.Cell)
    True
"""
from mskernel.nn.cell import Cell
from mskernel.nn import container, layer, wrap, loss, optim, learning_rate_schedule, dynamic_lr, metrics
from mskernel.nn.container import *  # noqa: F401,F403
from mskernel.nn.layer import *  # noqa: F401,F403
from mskernel.nn.loss import *  # noqa: F401,F403
from mskernel.nn.optim import *  # noqa: F401,F403
from mskernel.nn.wrap import *  # noqa: F401,F403
from mskernel.nn.learning_rate_schedule import *  # noqa: F401,F403
from mskernel.nn.dynamic_lr import *  # noqa: F401,F403
from mskernel.nn.metrics import *  # noqa: F401,F403
from mskernel.nn import grad, utils
from mskernel.nn.grad import *  # noqa: F401,F403
from mskernel.nn.utils import *  # noqa: F401,F403
from mskernel.refusals import refused_names as _refused_names

_REFUSED = _refused_names("mindspore.nn")  # GraphCell: refused with its reason (mskernel.refusals)
globals().update(_REFUSED)

__all__ = ["Cell", *container.__all__, *layer.__all__, *loss.__all__, *optim.__all__, *wrap.__all__,
           *learning_rate_schedule.__all__, *dynamic_lr.__all__, *metrics.__all__, *grad.__all__, *utils.__all__,
           *sorted(_REFUSED)]
