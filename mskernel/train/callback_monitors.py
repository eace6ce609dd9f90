"""Callbacks that watch training: LossMonitor, TimeMonitor, History, LambdaCallback, EarlyStopping.

LossMonitor and TimeMonitor print to stdout the lines MindSpore prints:
``epoch: 1 step: 2, loss is 0.25`` and ``Train epoch time: 12.345 ms, per step time: 3.086 ms``.

Example:
    >>> from mskernel.train.callback_base import InternalCallbackParam, RunContext
    >>> import mskernel as ms
    >>> p = InternalCallbackParam(cur_epoch_num=1, cur_step_num=2, batch_num=4, net_outputs=ms.Tensor(0.25),
    ...                           dataset_sink_mode=False)
    >>> LossMonitor().step_end(RunContext(p))
    epoch: 1 step: 2, loss is 0.25
"""
from __future__ import annotations

import copy
import logging
import time
from typing import Any, Callable, Optional

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.train.callback_base import Callback, RunContext, handle_loss

__all__ = ["LossMonitor", "TimeMonitor", "History", "LambdaCallback", "EarlyStopping"]

logger = logging.getLogger(__name__)


def _non_negative_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if value < 0:
        raise ValueError(f"The input value must be int and must >= 0, but got '{value}' with type 'int'.")
    return value


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps (0: never); a NaN/inf loss stops training (ValueError).

    Example:
        >>> LossMonitor(-1)
        Traceback (most recent call last):
        ...
        ValueError: The input value must be int and must >= 0, but got '-1' with type 'int'.
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        self._every = _non_negative_int(per_print_times)
        self._printed_at = 0  # cur_step_num of the last printed line

    def step_end(self, run_context: RunContext) -> None:
        """Print ``epoch: E step: S, loss is L`` when due.

        Example:
            >>> import mskernel as ms
            >>> p = {"cur_epoch_num": 2, "cur_step_num": 5, "batch_num": 4, "net_outputs": ms.Tensor([1.0, 2.0]),
            ...      "dataset_sink_mode": False}
            >>> from mskernel.train.callback_base import InternalCallbackParam
            >>> LossMonitor().step_end(RunContext(InternalCallbackParam(p)))
            epoch: 2 step: 1, loss is 1.5
        """
        cb = run_context.original_args()
        epoch = cb.get("cur_epoch_num", 1)
        loss = handle_loss(cb["net_outputs"])
        step_in_epoch = (cb["cur_step_num"] - 1) % cb["batch_num"] + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, training process cannot "
                             f"continue, terminating training.")
        if self._every == 0:
            return
        step = cb["cur_step_num"]
        if step <= self._printed_at:
            # the step count went back (a new run, or a resumed one): move the mark back by whole strides
            stride = max(self._every, cb["batch_num"] if cb.get("dataset_sink_mode") else 1)
            self._printed_at -= stride * ((self._printed_at - step) // stride + 1)
        if step >= self._printed_at + self._every:
            self._printed_at = step
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """In ``Model.fit``, print the evaluation metrics of the epoch.

        Example:
            >>> from mskernel.train.callback_base import InternalCallbackParam
            >>> LossMonitor().on_train_epoch_end(RunContext(InternalCallbackParam(cur_epoch_num=1, metrics={"acc": 0.5})))
            Eval result: epoch 1, metrics: {'acc': 0.5}
        """  # noqa: E501
        cb = run_context.original_args()
        metrics = cb.get("metrics")
        if metrics:
            print(f"Eval result: epoch {int(cb['cur_epoch_num'])}, metrics: {metrics}")


class TimeMonitor(Callback):
    """Print the epoch's time and the time per step (``data_time=True`` adds the time spent fetching data).

    Example:
        >>> TimeMonitor(data_time=1)
        Traceback (most recent call last):
        ...
        TypeError: For 'TimeMonitor', the type of 'data_time' must be bool, but got 'int'.
    """

    def __init__(self, data_size: Optional[int] = None, data_time: bool = False) -> None:
        super().__init__()
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', the type of 'data_time' must be bool, but got "
                            f"'{type(data_time).__name__}'.")
        self.data_size = data_size
        self.data_time = data_time
        self._epoch_started = time.time()
        self._fetch_seconds = 0.0  # this epoch's time between a step's end and the next step's begin
        self._fetch_started = 0.0

    @staticmethod
    def _sink(run_context: RunContext) -> bool:
        return bool(run_context.original_args().get("dataset_sink_mode", False))

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Add the time since the last step ended to the data time.

        Example:
            >>> TimeMonitor().on_train_step_begin(RunContext({}))
        """
        if self.data_time and not self._sink(run_context):
            self._fetch_seconds += time.time() - self._fetch_started

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Start timing the next data fetch.

        Example:
            >>> TimeMonitor().on_train_step_end(RunContext({}))
        """
        if self.data_time and not self._sink(run_context):
            self._fetch_started = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        """Start the epoch's clock.

        Example:
            >>> TimeMonitor().epoch_begin(RunContext({}))
        """
        self._epoch_started = time.time()
        if self.data_time and not self._sink(run_context):
            self._fetch_seconds, self._fetch_started = 0.0, self._epoch_started

    def epoch_end(self, run_context: RunContext) -> None:
        """Print ``<Mode> epoch time: X ms, per step time: Y ms``.

        Example:
            >>> import re, io, contextlib
            >>> out = io.StringIO()
            >>> with contextlib.redirect_stdout(out):
            ...     TimeMonitor().epoch_end(RunContext({"mode": "train", "batch_num": 2}))
            >>> bool(re.fullmatch(r"Train epoch time: \\d+\\.\\d{3} ms, per step time: \\d+\\.\\d{3} ms\\n", out.getvalue()))
            True
        """  # noqa: E501
        epoch_ms = (time.time() - self._epoch_started) * 1000
        cb = run_context.original_args()
        mode = cb.get("mode", "")
        steps = self.data_size
        batch_num = cb.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            steps = batch_num
        if not isinstance(steps, int) or isinstance(steps, bool) or steps <= 0:
            raise ValueError(f"The input value must be int and must > 0, but got '{steps}' with type "
                             f"'{type(steps).__name__}'.")
        line = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: {epoch_ms / steps:5.3f} ms"
        if self.data_time:
            line += f" (data time: {self._fetch_seconds * 1000 / steps:5.3f} ms)"
        print(line, flush=True)


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
        output = cb.get("net_outputs")
        if isinstance(output, (tuple, list)) and output and isinstance(output[0], Tensor):
            output = output[0]
        if isinstance(output, Tensor):
            output = float(np.mean(output.asnumpy()))
        record = {"net_output": output}
        if cb.get("metrics"):
            record.update(cb["metrics"])
        for key, value in record.items():
            self.history.setdefault(key, []).append(value)


_LAMBDA_HOOKS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
                 "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
                 "on_eval_step_end", "on_eval_begin", "on_eval_end")


class LambdaCallback(Callback):
    """A callback made of functions ``f(run_context)`` given per hook; hooks not given do nothing.

    Example:
        >>> cb = LambdaCallback(on_train_step_end=lambda rc: print("step", rc.original_args()["cur_step_num"]))
        >>> cb.on_train_step_end(RunContext({"cur_step_num": 7})); cb.on_train_begin(RunContext({}))
        step 7
    """

    def __init__(self, on_train_epoch_begin: Optional[Callable] = None, on_train_epoch_end: Optional[Callable] = None,
                 on_train_step_begin: Optional[Callable] = None, on_train_step_end: Optional[Callable] = None,
                 on_train_begin: Optional[Callable] = None, on_train_end: Optional[Callable] = None,
                 on_eval_epoch_begin: Optional[Callable] = None, on_eval_epoch_end: Optional[Callable] = None,
                 on_eval_step_begin: Optional[Callable] = None, on_eval_step_end: Optional[Callable] = None,
                 on_eval_begin: Optional[Callable] = None, on_eval_end: Optional[Callable] = None) -> None:
        super().__init__()
        given = locals()
        for hook in _LAMBDA_HOOKS:
            fn = given[hook]
            setattr(self, hook, fn if fn else _nothing)


def _nothing(run_context: RunContext) -> None:
    return None


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
        self.patience = _non_negative_int(patience)
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
            value = handle_loss(cb.get("net_outputs"))
            if isinstance(value, Tensor):
                value = float(np.mean(value.asnumpy()))
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
