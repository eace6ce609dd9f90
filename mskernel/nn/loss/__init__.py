"""``mindspore.nn`` losses.

Example:
    >>> from mskernel.nn import loss
    >>> "CrossEntropyLoss" in loss.__all__
    True
"""
from mskernel.nn.loss import ctc as _ctc, loss as _loss, margin as _margin
from mskernel.nn.loss.ctc import *  # noqa: F401,F403
from mskernel.nn.loss.loss import *  # noqa: F401,F403
from mskernel.nn.loss.margin import *  # noqa: F401,F403
from mskernel.nn.loss import sampled as _sampled
from mskernel.nn.loss.sampled import *  # noqa: F401,F403

# LossBase is exported from nn.wrap
__all__ = [n for n in _loss.__all__ if n != "LossBase"] + _margin.__all__ + _ctc.__all__ + _sampled.__all__
