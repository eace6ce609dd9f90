"""``mindspore.train.callback``: the callback protocol and the callbacks that ship, one module per family.

* :mod:`~mskernel.train.callback.protocol` — ``Callback``, ``RunContext`` (what a callback sees), ``LambdaCallback``
  and the manager ``Model`` runs them with;
* :mod:`~mskernel.train.callback.progress` — ``LossMonitor``, ``TimeMonitor``: printed progress;
* :mod:`~mskernel.train.callback.epoch_results` — ``History``, ``EarlyStopping``: each epoch's loss and metrics;
* :mod:`~mskernel.train.callback.checkpoint` — ``CheckpointConfig``, ``ModelCheckpoint``: saving the network;
* :mod:`~mskernel.train.callback.lr_scheduler` — ``LearningRateScheduler``: the rate set from a function each step.

Example:
    >>> from mskernel.train import callback
    >>> "LossMonitor" in callback.__all__
    True
"""
from mskernel.train.callback import checkpoint, epoch_results, lr_scheduler, progress, protocol
from mskernel.train.callback.checkpoint import CheckpointConfig, ModelCheckpoint
from mskernel.train.callback.epoch_results import EarlyStopping, History
from mskernel.train.callback.lr_scheduler import LearningRateScheduler
from mskernel.train.callback.progress import LossMonitor, TimeMonitor
from mskernel.train.callback.protocol import Callback, LambdaCallback, RunContext
from mskernel.train.callback import reduce_lr
from mskernel.train.callback.reduce_lr import ReduceLROnPlateau
from mskernel.train.callback import backup
from mskernel.train.callback.backup import BackupAndRestore
from mskernel.train.callback import request_exit
from mskernel.train.callback.request_exit import OnRequestExit
from mskernel.train.callback import summary_collector
from mskernel.train.callback.summary_collector import SummaryCollector
from mskernel.train.callback import flops_collector
from mskernel.train.callback.flops_collector import FlopsUtilizationCollector
from mskernel.train.callback import landscape
from mskernel.train.callback.landscape import SummaryLandscape

__all__ = [*protocol.__all__, *progress.__all__, *epoch_results.__all__, *checkpoint.__all__, *lr_scheduler.__all__,
           *reduce_lr.__all__, *backup.__all__,
           *request_exit.__all__, *summary_collector.__all__,
           *flops_collector.__all__, *landscape.__all__]
_ = (Callback, RunContext, LambdaCallback, LossMonitor, TimeMonitor, History, EarlyStopping, CheckpointConfig,
     ModelCheckpoint, LearningRateScheduler, ReduceLROnPlateau,
     BackupAndRestore, OnRequestExit, SummaryCollector,
     FlopsUtilizationCollector, SummaryLandscape)
