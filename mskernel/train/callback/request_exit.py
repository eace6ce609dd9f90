"""``OnRequestExit``: a callback that lets a training or evaluation be stopped from outside — by a signal (SIGTERM
by default) or by a JSON config file whose ``"GracefulExit"`` becomes 1 — and then saves the network's
checkpoint to ``directory/rank_<device_id>/<file_name>_train.ckpt`` (``_eval`` for an evaluation). The next run
with the same callback loads that checkpoint when it begins.

MindSpore can also export the network as MINDIR (``save_mindir``); mskernel has no graph compiler, so that file is
not written (a warning says so).

Example:
    >>> import os, signal, tempfile
    >>> cb = OnRequestExit(directory=tempfile.mkdtemp(), save_mindir=False)
    >>> os.path.basename(cb.train_name), cb.sig == signal.SIGTERM
    ('Net_train', True)
"""
from __future__ import annotations

import json
import logging
import os
import signal
import threading
from typing import Any, Optional

from mskernel.context import get_context
from mskernel.train.callback.checkpoint import _make_directory
from mskernel.train.callback.protocol import Callback, RunContext
from mskernel.train.serialization import load_checkpoint, save_checkpoint

__all__ = ["OnRequestExit"]

logger = logging.getLogger(__name__)


def _check_type(name: str, value: Any, kind: type) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"The '{name}' must be '{kind.__name__}', but got '{type(value).__name__}'.")
    return value


class OnRequestExit(Callback):
    """``OnRequestExit(save_ckpt=True, save_mindir=True, file_name='Net', directory='./', config_file=None,
    sig=signal.SIGTERM)``: see the module docstring. After the signal (or the config file's request) the current
    epoch (or evaluation step) is the last, and the checkpoint is saved when the run ends.

    Example:
        >>> import os, signal, tempfile, numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.train import Model, LambdaCallback
        >>> d = tempfile.mkdtemp()
        >>> net = nn.Dense(2, 1)
        >>> model = Model(net, loss_fn=nn.MSELoss(), optimizer=nn.SGD(net.trainable_params(), 0.1))
        >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32),
        ...                                       "y": np.ones((4, 1), np.float32)}).batch(2)
        >>> kill = LambdaCallback(on_train_step_end=lambda rc: os.kill(os.getpid(), signal.SIGTERM))
        >>> epochs = []
        >>> seen = LambdaCallback(on_train_epoch_end=lambda rc: epochs.append(rc.original_args().cur_epoch_num))
        >>> model.train(5, data, callbacks=[kill, OnRequestExit(directory=d, save_mindir=False), seen],
        ...             dataset_sink_mode=False)
        >>> epochs, os.listdir(os.path.join(d, "rank_0"))
        ([1], ['Net_train.ckpt'])
    """

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: Optional[str] = "./", config_file: Optional[str] = None,
                 sig: int = signal.SIGTERM) -> None:
        super().__init__()
        self.save_ckpt = _check_type("save_ckpt", save_ckpt, bool)
        self.save_mindir = _check_type("save_mindir", save_mindir, bool)
        self.sig = _check_type("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self._previous_handler: Any = None
        if self.save_ckpt or self.save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    def _get_save_path(self, file_name: str) -> tuple:
        root = self.save_path if self.save_path is not None else os.getcwd()
        folder = _make_directory(os.path.join(root, f"rank_{get_context('device_id')}"))
        return os.path.join(folder, f"{file_name}_train"), os.path.join(folder, f"{file_name}_eval")

    def _handle_signal(self, signum: int, frame: Any) -> None:
        self.exit = True

    def _listen(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self._previous_handler = signal.signal(self.sig, self._handle_signal)

    def _unlisten(self) -> None:
        if self._previous_handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(self.sig, self._previous_handler)
            self._previous_handler = None

    def _requested(self) -> bool:
        with self.lock:
            if not self.exit and self.remote_config_file is not None and os.path.exists(self.remote_config_file):
                try:
                    with open(self.remote_config_file, encoding="utf-8") as f:
                        self.exit = json.load(f).get(self.key) == 1
                except (json.JSONDecodeError, AttributeError) as e:
                    logger.warning("Parse json file failed: %s, please check json file: %s", e,
                                   self.remote_config_file)
            return self.exit

    def _save(self, net: Any, name: str) -> None:
        if self.save_ckpt:
            save_checkpoint(net, name)
        if self.save_mindir:
            logger.warning("OnRequestExit: the MINDIR file %s.mindir is not written: mskernel has no graph compiler "
                           "(the checkpoint holds the weights).", name)

    def on_train_begin(self, run_context: RunContext) -> None:
        """Listen for the exit signal; load the checkpoint a previous interrupted run saved."""
        self._listen()
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """After an exit request, stop the training at the end of this epoch."""
        if self._requested():
            run_context.request_stop()

    def on_train_end(self, run_context: RunContext) -> None:
        """After an exit request, save the training network; stop listening for the signal."""
        self._unlisten()
        if self.exit:
            self._save(run_context.original_args().train_network, self.train_name)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Listen for the exit signal; load the evaluation's (else the training's) saved checkpoint."""
        self._listen()
        if not self.save_ckpt:
            return
        net = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=net)
                return

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """After an exit request, stop the evaluation after this step."""
        if self._requested():
            run_context.request_stop()

    def on_eval_end(self, run_context: RunContext) -> None:
        """After an exit request, save the evaluation network; stop listening for the signal."""
        self._unlisten()
        if self.exit:
            self._save(run_context.original_args().eval_network, self.eval_name)
