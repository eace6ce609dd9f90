"""MindSpore's ``mindspore.train``: ``Model``, callbacks, metrics and checkpoints.

Example:
    >>> from mskernel import train
    >>> isinstance(train.__all__, list)
    True
"""
from mskernel.train import callback, dataset_helper, model, serialization
from mskernel.train.dataset_helper import *  # noqa: F401,F403
from mskernel.train.callback import *  # noqa: F401,F403
from mskernel.train.model import *  # noqa: F401,F403
from mskernel.train.serialization import *  # noqa: F401,F403
from mskernel.nn.metrics import *  # noqa: F401,F403
from mskernel.nn import metrics
from mskernel.train.data_sink import data_sink  # noqa: F401
from mskernel.train import checkpoint_convert
from mskernel.train.checkpoint_convert import *  # noqa: F401,F403
from mskernel.train import segmented
from mskernel.train.segmented import *  # noqa: F401,F403
from mskernel.train import train_thor  # noqa: E402
from mskernel.train.train_thor import *  # noqa: F401,F403

__all__ = [*callback.__all__, *dataset_helper.__all__, *model.__all__, *serialization.__all__, *metrics.__all__,
           "data_sink", *checkpoint_convert.__all__, *segmented.__all__, *train_thor.__all__]
