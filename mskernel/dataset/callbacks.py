"""Dataset callbacks: ``DSCallback`` (hooks a ``map`` step calls as rows pass: pipeline begin, epoch
begin/end, step begin/end) and ``WaitedDSCallback`` (its epoch/step begin hooks run when training has ended the
previous epoch/step, with both run contexts).

Rows move through a ``map`` with plain callbacks in groups of up to 16 (MindSpore's queue between pipeline steps):
the step-begin hooks of a group run as its rows are read, the step-end hooks as they leave, so a small epoch
shows every begin before the first end, as the wheel does. With a ``WaitedDSCallback`` rows move one at a time.

Example:
    >>> import numpy as np
    >>> from mskernel import dataset as ds
    >>> class Count(DSCallback):
    ...     def ds_step_end(self, ctx):
    ...         print("step", ctx.cur_step_num_in_epoch)
    >>> d = ds.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x, callbacks=Count())
    >>> _ = [r for r in d.create_tuple_iterator(num_epochs=1)]
    step 1
    step 2
"""
from __future__ import annotations

import threading
from typing import Any, Iterator, List, Optional

from mskernel.train.callback.protocol import Callback

__all__ = ["DSCallback", "WaitedDSCallback", "DSRunContext", "run_with_callbacks"]

QUEUE_ROWS = 16  # MindSpore's connector queue size between pipeline steps


class DSRunContext:
    """What a dataset callback is told: ``cur_epoch_num``, ``cur_step_num_in_epoch``, ``cur_step_num`` (all from 1).

    Example:
        >>> DSRunContext().cur_epoch_num
        0
    """

    def __init__(self) -> None:
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    """Base of dataset callbacks (``map(callbacks=...)``); override ``ds_begin``, ``ds_epoch_begin``,
    ``ds_epoch_end``, ``ds_step_begin``, ``ds_step_end``; the step hooks run every ``step_size`` steps.

    Example:
        >>> DSCallback(2).step_size
        2
    """

    def __init__(self, step_size: int = 1) -> None:
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise TypeError(f"Argument step_size with value {step_size} is not of type [<class 'int'>], but got "
                            f"{type(step_size)}.")
        if step_size < 1:
            raise ValueError("Input step_size is not within the required interval of [1, 2147483647].")
        self.step_size = step_size

    def ds_begin(self, ds_run_context: DSRunContext) -> None:
        """Once, when the pipeline starts."""

    def ds_epoch_begin(self, ds_run_context: DSRunContext) -> None:
        """Before each epoch."""

    def ds_epoch_end(self, ds_run_context: DSRunContext) -> None:
        """After each epoch."""

    def ds_step_begin(self, ds_run_context: DSRunContext) -> None:
        """Before every ``step_size``-th step."""

    def ds_step_end(self, ds_run_context: DSRunContext) -> None:
        """After every ``step_size``-th step."""


class WaitedDSCallback(Callback, DSCallback):
    """A dataset callback that is also a training callback (pass it to both ``map`` and ``Model.train``):
    ``sync_epoch_begin``/``sync_step_begin`` (override them) run before the dataset's next epoch/step, once
    training has ended the current one, with the training and the dataset run contexts. In one process the
    pipeline reads a row only when training asks for it, so nothing has to wait.

    Example:
        >>> WaitedDSCallback(1).step_size
        1
    """

    def __init__(self, step_size: int = 1) -> None:
        DSCallback.__init__(self, step_size)
        self._train_context: Any = None
        self._lock = threading.Lock()

    def sync_epoch_begin(self, train_run_context: Any, ds_run_context: DSRunContext) -> None:
        """Before each dataset epoch after the first, once training ended its epoch."""

    def sync_step_begin(self, train_run_context: Any, ds_run_context: DSRunContext) -> None:
        """Before each dataset step after the first, once training ended its step."""

    # training side: remember the context the dataset side hands on
    def step_end(self, run_context: Any) -> None:
        self._train_context = run_context

    def epoch_end(self, run_context: Any) -> None:
        self._train_context = run_context

    # dataset side
    def ds_epoch_begin(self, ds_run_context: DSRunContext) -> None:
        if ds_run_context.cur_epoch_num > 1:
            self.sync_epoch_begin(self._train_context, ds_run_context)

    def ds_step_begin(self, ds_run_context: DSRunContext) -> None:
        if ds_run_context.cur_step_num > 1:
            self.sync_step_begin(self._train_context, ds_run_context)


def run_with_callbacks(state: Any, callbacks: List[DSCallback], rows: Iterator[Any], process: Any
                       ) -> Iterator[Any]:
    """Yield ``process(row)`` for each of ``rows``, calling the callbacks' hooks around them; ``state`` (the map
    step) keeps the epoch and step counts across epochs."""
    ctx: DSRunContext = state._ds_context
    if not state._ds_started:
        state._ds_started = True
        for cb in callbacks:
            cb.ds_begin(ctx)
    ctx.cur_epoch_num += 1
    ctx.cur_step_num_in_epoch = 0
    for cb in callbacks:
        cb.ds_epoch_begin(ctx)
    group = 1 if any(isinstance(cb, WaitedDSCallback) for cb in callbacks) else QUEUE_ROWS

    def hook(name: str, step_in_epoch: int, step: int) -> None:
        ctx.cur_step_num_in_epoch, ctx.cur_step_num = step_in_epoch, step
        for cb in callbacks:
            if (step_in_epoch - 1) % cb.step_size == 0:
                getattr(cb, name)(ctx)

    pending: List[Any] = []
    steps: List[tuple] = []
    done = False
    it = iter(rows)
    while not done:
        while len(pending) < group:
            try:
                row = next(it)
            except StopIteration:
                done = True
                break
            step = (ctx.cur_step_num_in_epoch + 1, ctx.cur_step_num + 1)
            hook("ds_step_begin", *step)
            pending.append(process(row))
            steps.append(step)
        last: Optional[tuple] = None
        for out, step in zip(pending, steps):
            hook("ds_step_end", *step)
            last = step
            yield out
        if last is not None:
            ctx.cur_step_num_in_epoch, ctx.cur_step_num = last
        pending, steps = [], []
    for cb in callbacks:
        cb.ds_epoch_end(ctx)
