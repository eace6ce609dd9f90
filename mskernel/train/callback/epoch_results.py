"""Callbacks on what each epoch produced — the loss (``net_outputs``) and the evaluation metrics: History
records them, EarlyStopping stops training when the monitored one stops improving.

Both read the loss as a number: a Tensor (or the first Tensor of a tuple or list of outputs) as the
Python float of its mean.

Example:
    >>> import mskernel as ms
    >>> from mskernel.train.callback.protocol import RunContext
    >>> h = History(); h.begin(RunContext({}))
    >>> h.epoch_end(RunContext({"cur_epoch_num": 1, "net_outputs": (ms.Tensor([1.0, 2.0]), ms.Tensor(0))}))
    >>> h.history
    {'net_output': [1.5]}
"""
from __future__ import annotations

import copy
import logging
from typing import Any, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.train.callback.protocol import Callback, RunContext, check_non_negative_int, handle_loss

__all__ = ["History", "EarlyStopping"]

logger = logging.getLogger(__name__)


def _loss_number(outputs: Any) -> Any:
    """``net_outputs`` as a number: a Tensor (or a sequence's first Tensor) as the float of its mean, anything
    else as :func:`handle_loss` leaves it. The wheel keeps numpy's float32 mean, which prints with float32's
    shortest digits (``1.6028551``); the float of those digits prints the same under numpy 2, where a numpy
    scalar's repr names its type.

    Example:
        >>> import mskernel as ms
        >>> _loss_number(ms.Tensor([1.0, 2.2])), _loss_number(0.5)
        (1.6, 0.5)
    """
    loss = handle_loss(outputs)
    if isinstance(outputs, Tensor) or isinstance(loss, Tensor):
        data = (outputs if isinstance(outputs, Tensor) else loss).asnumpy()
        if data.dtype == np.float32:
            return float(str(np.mean(data, dtype=np.float32)))
        return float(np.mean(data))
    return loss


class History(Callback):
    """Record the network output (mean loss) and the evaluation metrics of each epoch.

    ``history.epoch`` is ``{'epoch': [1, 2, ...]}``; ``history.history`` maps 'net_output' and each
    metric name to a list with one value per epoch.

    Example:
        >>> import mskernel as ms
        >>> h = History(); h.begin(RunContext({}))
        >>> h.epoch_end(RunContext({"cur_epoch_num": 1, "net_outputs": ms.Tensor(0.5)}))
        >>> h.epoch, h.history
        ({'epoch': [1]}, {'net_output': [0.5]})
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict = {}
        self.epoch: Optional[dict] = None

    def begin(self, run_context: RunContext) -> None:
        """Start a new record of epochs.

        Example:
            >>> h = History(); h.begin(RunContext({})); h.epoch
            {'epoch': []}
        """
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        """Append this epoch's output and metrics.

        Example:
            >>> h = History(); h.begin(RunContext({}))
            >>> h.epoch_end(RunContext({"cur_epoch_num": 3, "net_outputs": 1.0, "metrics": {"acc": 1.0}}))
            >>> h.history
            {'net_output': [1.0], 'acc': [1.0]}
        """
        cb = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb.get("cur_epoch_num", 1))
        record = {"net_output": _loss_number(cb.get("net_outputs"))}
        if cb.get("metrics"):
            record.update(cb["metrics"])
        for key, value in record.items():
            self.history.setdefault(key, []).append(value)


_SMALLER_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                   "root_mean_square_distance", "eval_loss")


class EarlyStopping(Callback):
    """Stop training when ``monitor`` ('eval_loss' or a metric from ``Model.fit``, or 'loss') stops improving.

    Example:
        >>> EarlyStopping(mode="up")
        Traceback (most recent call last):
        ...
        ValueError: mode should be 'auto', 'min' or 'max', but got up.
    """

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0, verbose: bool = False,
                 mode: str = "auto", baseline: Optional[float] = None, restore_best_weights: bool = False) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"For 'EarlyStopping', the type of 'monitor' must be str, but got "
                            f"'{type(monitor).__name__}'.")
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = check_non_negative_int(patience)
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self._minimize = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._minimize else -np.inf
        self.best_weights_param_dict: Optional[dict] = None

    def _improved(self, current: Any, best: Any) -> bool:
        if self._minimize:
            return bool(np.less(current, best - self.min_delta))
        return bool(np.greater(current, best + self.min_delta))

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the patience counter and the best value.

        Example:
            >>> e = EarlyStopping(); e.on_train_begin(RunContext({})); e.best
            inf
        """
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self._minimize else -np.inf
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Compare the monitored value with the best so far; stop after ``patience`` epochs without improvement.

        Example:
            >>> e = EarlyStopping(monitor="acc", patience=1); rc = RunContext({"cur_epoch_num": 1,
            ...     "eval_results": {"acc": 0.5}})
            >>> e.on_train_epoch_end(rc); rc.get_stop_requested()
            False
        """
        cb = run_context.original_args()
        current = self._monitor_value(cb)
        if current is None:
            return
        network = cb.get("train_network")
        keep_weights = self.restore_best_weights and network is not None
        if keep_weights and self.best_weights_param_dict is None:  # what to restore if nothing ever improves
            self.best_weights_param_dict = copy.deepcopy(_snapshot(network))
        improved = self._improved(current, self.best)
        if improved:
            self.best = current
            if keep_weights:
                self.best_weights_param_dict = _snapshot(network)
        # the patience counter starts again only on an improvement that also beats the baseline
        counts = improved and (self.baseline is None or self._improved(current, self.baseline))
        self.wait = 0 if counts else self.wait + 1
        if self.wait < self.patience:
            return
        self.stopped_epoch = cb.get("cur_epoch_num")
        run_context.request_stop()
        if keep_weights and self.best_weights_param_dict is not None:
            if self.verbose:
                print("Restoring model weights from the end of the best epoch.")
            saved = self.best_weights_param_dict
            for name, param in network.parameters_and_names():
                if name in saved:
                    param.set_data(Tensor(saved[name]))

    def on_train_end(self, run_context: RunContext) -> None:
        """With ``verbose``, say at which epoch training stopped.

        Example:
            >>> e = EarlyStopping(verbose=True); e.stopped_epoch = 3; e.on_train_end(RunContext({}))
            Epoch 00003: early stopping
        """
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")

    def _monitor_value(self, cb: dict) -> Any:
        candidates: dict = {}
        if self.monitor == "loss":
            value = _loss_number(cb.get("net_outputs"))
        else:
            candidates = cb.get("eval_results", {}) or {}
            value = candidates.get(self.monitor)
        if value is None:
            logger.warning("Early stopping is conditioned on %s, which is not available. Available choices are: %s",
                           self.monitor, set(["loss", *candidates]))
            return None
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError("EarlyStopping only supports scalar monitor now.")
        return np.array(value)


def _snapshot(network: Any) -> dict:
    return {name: p.asnumpy().copy() for name, p in network.parameters_and_names()}
