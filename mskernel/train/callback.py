"""``mindspore.train.callback``: Callback, RunContext, LossMonitor, TimeMonitor, ModelCheckpoint, History, ...

Example:
    >>> from mskernel.train import callback
    >>> "LossMonitor" in callback.__all__
    True
"""
from mskernel.train import callback_base, callback_checkpoint, callback_monitors
from mskernel.train.callback_base import Callback, RunContext
from mskernel.train.callback_checkpoint import CheckpointConfig, ModelCheckpoint
from mskernel.train.callback_monitors import EarlyStopping, History, LambdaCallback, LossMonitor, TimeMonitor

__all__ = [*callback_base.__all__, *callback_checkpoint.__all__, *callback_monitors.__all__]
_ = (Callback, RunContext, CheckpointConfig, ModelCheckpoint, EarlyStopping, History, LambdaCallback, LossMonitor,
     TimeMonitor)
