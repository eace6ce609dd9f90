"""Callbacks that print training's progress: LossMonitor (the loss, every few steps) and TimeMonitor (the time
of an epoch and of a step).

They print to stdout the lines MindSpore prints: ``epoch: 1 step: 2, loss is 0.25`` and
``Train epoch time: 12.345 ms, per step time: 3.086 ms``.

Example:
    >>> from mskernel.train.callback.protocol import InternalCallbackParam, RunContext
    >>> import mskernel as ms
    >>> p = InternalCallbackParam(cur_epoch_num=1, cur_step_num=2, batch_num=4, net_outputs=ms.Tensor(0.25),
    ...                           dataset_sink_mode=False)
    >>> LossMonitor().step_end(RunContext(p))
    epoch: 1 step: 2, loss is 0.25
"""
from __future__ import annotations

import time
from typing import Optional

import numpy as np

from mskernel.train.callback.protocol import Callback, RunContext, check_non_negative_int, handle_loss

__all__ = ["LossMonitor", "TimeMonitor"]


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
        self._every = check_non_negative_int(per_print_times)
        self._printed_at = 0  # cur_step_num of the last printed line

    def step_end(self, run_context: RunContext) -> None:
        """Print ``epoch: E step: S, loss is L`` when due.

        Example:
            >>> import mskernel as ms
            >>> p = {"cur_epoch_num": 2, "cur_step_num": 5, "batch_num": 4, "net_outputs": ms.Tensor([1.0, 2.0]),
            ...      "dataset_sink_mode": False}
            >>> from mskernel.train.callback.protocol import InternalCallbackParam
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
            >>> from mskernel.train.callback.protocol import InternalCallbackParam
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
