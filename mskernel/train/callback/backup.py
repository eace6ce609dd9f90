"""``BackupAndRestore``: a callback that saves the training network to ``backup_dir/backup.ckpt`` every
``save_freq`` epochs, loads that file back when a training starts (so a run that was interrupted resumes from
its last backup), and deletes it when training ends normally (``delete_checkpoint``).

Example:
    >>> import os, tempfile
    >>> cb = BackupAndRestore(tempfile.mkdtemp(), save_freq=2)
    >>> os.path.basename(cb.backup_file), cb.save_freq
    ('backup.ckpt', 2)
"""
from __future__ import annotations

import logging
import os
from typing import Union

from mskernel.train.callback.checkpoint import _make_directory
from mskernel.train.callback.protocol import Callback, RunContext
from mskernel.train.serialization import load_checkpoint, save_checkpoint

__all__ = ["BackupAndRestore"]

logger = logging.getLogger(__name__)


class BackupAndRestore(Callback):
    """``BackupAndRestore(backup_dir, save_freq="epoch", delete_checkpoint=True)``: see the module docstring.

    Example:
        >>> import os, tempfile, numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.train import Model
        >>> d = tempfile.mkdtemp()
        >>> net = nn.Dense(2, 1)
        >>> model = Model(net, loss_fn=nn.MSELoss(), optimizer=nn.SGD(net.trainable_params(), 0.1))
        >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32),
        ...                                       "y": np.ones((4, 1), np.float32)}).batch(2)
        >>> model.train(2, data, callbacks=[BackupAndRestore(d, delete_checkpoint=False)], dataset_sink_mode=False)
        >>> os.listdir(d)
        ['backup.ckpt']
    """

    def __init__(self, backup_dir: str, save_freq: Union[str, int] = "epoch", delete_checkpoint: bool = True) -> None:
        super().__init__()
        self.backup_file = os.path.join(_make_directory(backup_dir), "backup.ckpt")
        if save_freq == "epoch":
            self.save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, int):
            raise TypeError(f"The input value must be int, but got '{type(save_freq).__name__}'")
        elif save_freq <= 0:
            raise ValueError(f"The input value must be int and must > 0, but got '{save_freq}' with type 'int'.")
        else:
            self.save_freq = save_freq
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"The input value must be a bool, but got {type(delete_checkpoint).__name__}.")
        self.delete_checkpoint = delete_checkpoint

    def on_train_begin(self, run_context: RunContext) -> None:
        """Load the backup, when there is one, into the training network."""
        if os.path.exists(self.backup_file):
            logger.info("Restore checkpoint file is %s, load checkpoint into train net.", self.backup_file)
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Save the training network every ``save_freq`` epochs."""
        cb = run_context.original_args()
        if cb.cur_epoch_num % self.save_freq == 0:
            logger.info("Train task end, backup checkpoint file: %s.", self.backup_file)
            save_checkpoint(cb.train_network, self.backup_file)

    def on_train_end(self, run_context: RunContext) -> None:
        """Delete the backup (``delete_checkpoint``): the training it protects has finished."""
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)
