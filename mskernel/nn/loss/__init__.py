"""``mindspore.nn`` losses.

Example:
    >>> from mskernel.nn import loss
    >>> "CrossEntropyLoss" in loss.__all__
    True
"""
from mskernel.nn.loss import loss as _loss, margin as _margin
from mskernel.nn.loss.loss import *  # noqa: F401,F403
from mskernel.nn.loss.margin import *  # noqa: F401,F403

__all__ = [n for n in _loss.__all__ if n != "LossBase"] + _margin.__all__  # LossBase is exported from nn.wrap
