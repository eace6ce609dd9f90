"""``FlopsUtilizationCollector``: the floating-point operations of one training step, and the share of a card's
peak they reach (MFU: model FLOPs utilization; HFU: hardware FLOPs utilization).

MindSpore reads the FLOPs from the graph it compiled for the step, counting only matrix products (``MatMul``,
``BatchMatMul``) and 2-D convolutions (``Conv2D``), forward and backward; so it works in GRAPH_MODE only, and in
PyNative mode its ``step_end`` raises. mskernel runs every mode eagerly, so under ``set_context(mode=GRAPH_MODE)``
it counts the same operations as the first step executes them: a product of an (M, K) by a (K, N) matrix is
``2 * M * K * N``; a convolution is ``2 * (output elements) * (input channels) * kh * kw`` (as MindSpore counts it: all
input channels even in a grouped convolution); the backward
pass computes such a product for each operand that needs a gradient (a weight, or the output of an earlier
layer; the network's data input needs none), as the compiled graph does. A Dense(10, 5) layer on a batch of 32 is
3200 forward and 3200 for its weight's gradient: 6400.

It prints ``Full model flops is F, Full hardware flops is F, Shard model flops is F, Shard hardware flops is F.``
once (one process: the full model is the shard; hardware FLOPs equal model FLOPs, nothing is recomputed), then
``Train per step time: T ms mfu:U% hfu:U%`` at each step that is not a multiple of ``data_size``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> from mskernel.train import Model
    >>> ms.set_context(mode=ms.GRAPH_MODE)
    >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((64, 10), np.float32),
    ...                                       "y": np.zeros((64,), np.int32)}).batch(32)
    >>> net = nn.Dense(10, 5)
    >>> model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
    ...               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    >>> cb = FlopsUtilizationCollector(data.get_dataset_size())
    >>> model.train(1, data, callbacks=[cb], dataset_sink_mode=False)  # doctest: +ELLIPSIS
    Full model flops is 6400.0, Full hardware flops is 6400.0, Shard model flops is 6400.0, Shard hardware flops ...
    Train per step time: ... ms mfu:...% hfu:...%
    >>> ms.set_context(mode=ms.PYNATIVE_MODE)
"""
from __future__ import annotations

import logging
import os
import stat
import sys
import time
from math import floor
from typing import Any, Callable, Dict, Optional

from mskernel.train.callback.protocol import Callback, RunContext

__all__ = ["FlopsUtilizationCollector"]

logger = logging.getLogger(__name__)


def _check_bool(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"The '{name}' must be a bool, but got {type(value).__name__}.")


def _check_positive_int(value: Any, name: str) -> None:
    if isinstance(value, bool):
        raise TypeError(f"The '{name}' must be int and must > 0, but got '{value}' with type 'bool'.")
    if not isinstance(value, int):
        raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"The '{name}' must be int and must > 0, but got '{value}' with type 'int'.")


def _matmul_flops(frame: Any, out: Any) -> int:
    return 2 * int(out.size) * int(frame.f_locals["x"].shape[-1])


def _conv_flops(frame: Any, out: Any) -> int:
    w = frame.f_locals["weight"].shape
    return 2 * int(out.size) * int(frame.f_locals["x"].shape[1]) * w[2] * w[3]


def _conv_input_grad_flops(frame: Any, out: Any) -> int:
    w = frame.f_locals["weight"].shape
    return 2 * int(frame.f_locals["g"].size) * int(frame.f_locals["x_shape"][1]) * w[2] * w[3]


def _conv_weight_grad_flops(frame: Any, out: Any) -> int:
    w = tuple(frame.f_locals["w_shape"])
    return 2 * int(frame.f_locals["g"].size) * int(frame.f_locals["x"].shape[1]) * w[2] * w[3]


def _counted() -> Dict[Any, Callable[[Any, Any], int]]:
    """The code object of each counted computation -> its FLOPs from the finished call's frame and result: the
    matrix product (BatchMatMul is one too) and the convolution's three kernels (forward, input and weight
    gradients). Other ops, as MindSpore's count, are not counted."""
    from mskernel.ops import math as M
    from mskernel.ops.table import nn_conv

    return {M.matmul.__code__: _matmul_flops, nn_conv._conv.__code__: _conv_flops,
            nn_conv._conv_input_grad.__code__: _conv_input_grad_flops,
            nn_conv._conv_weight_grad.__code__: _conv_weight_grad_flops}


class _FlopCounter:
    """Sum the FLOPs of the counted computations that run on this thread between ``start`` and ``stop`` (a
    profile hook: only the outermost counted call counts, so a product made of products is counted once).

    Example:
        >>> import mskernel as ms
        >>> c = _FlopCounter(); c.start()
        >>> _ = ms.ops.matmul(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0], [4.0]]))
        >>> c.stop(); c.flops
        4
    """

    def __init__(self) -> None:
        self.flops = 0
        self._codes = _counted()
        self._active: Optional[Any] = None
        self._previous: Any = None

    def _hook(self, frame: Any, event: str, arg: Any) -> None:
        if self._previous is not None:
            self._previous(frame, event, arg)
        if event == "call" and self._active is None and frame.f_code in self._codes:
            self._active = frame
        elif event == "return" and frame is self._active:
            self._active = None
            if arg is not None:
                self.flops += self._codes[frame.f_code](frame, arg)

    def start(self) -> None:
        self._previous = sys.getprofile()
        sys.setprofile(self._hook)

    def stop(self) -> None:
        sys.setprofile(self._previous)
        self._active = None


class FlopsUtilizationCollector(Callback):
    """Count one training step's FLOPs of MatMul, BatchMatMul and Conv2D (forward and backward) and print them
    with the model/hardware FLOPs utilization of each step, ``computility`` being a card's peak FLOPs per second.
    GRAPH_MODE only (``set_context(mode=GRAPH_MODE)``); in PyNative mode ``step_end`` raises ValueError, unless
    ``computility == 1`` and ``enable_ma_collector`` (quiet: nothing is printed or raised). ``full_flops=False``
    prints the shard's FLOPs only. ``enable_ma_collector`` writes them and each step's time to
    ``$MA_LOG_DIR/flops_rank_0.txt`` and ``time_step_rank_0.txt``.

    Example:
        >>> FlopsUtilizationCollector(0)
        Traceback (most recent call last):
        ...
        ValueError: The 'data_size' must be int and must > 0, but got '0' with type 'int'.
    """

    def __init__(self, data_size: int, computility: Any = 1, full_flops: bool = True,
                 enable_ma_collector: bool = False) -> None:
        super().__init__()
        self.step_time = time.time()
        self.computility = computility
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.full_model_flops = self.shard_model_flops = 0.0
        self.full_hardware_flops = self.shard_hardware_flops = 0.0
        self.mfu_calculated = False
        self.data_size = data_size
        self.time_step_path = ""
        self.full_flops = full_flops
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.ma = enable_ma_collector
        self.batch_step_size: Optional[int] = None
        _check_bool(full_flops, "full_flops")
        _check_bool(enable_ma_collector, "enable_ma_collector")
        _check_positive_int(data_size, "data_size")
        self._counter: Optional[_FlopCounter] = None
        self._begin_step = 0

    def step_begin(self, run_context: RunContext) -> None:
        """Note the time; at the first step in GRAPH_MODE, start counting FLOPs.

        Example:
            >>> cb = FlopsUtilizationCollector(2)
            >>> cb.step_begin(RunContext({"batch_num": 4, "cur_step_num": 0})); cb.batch_step_size
            4
        """
        from mskernel.context import GRAPH_MODE, get_context

        params = run_context.original_args()
        if self.batch_step_size is None:
            self.batch_step_size = self.data_size
            batch_num = params.get("batch_num")
            if isinstance(batch_num, int) and not isinstance(batch_num, bool) and batch_num > 0:
                self.batch_step_size = batch_num
        if not self.mfu_calculated and self._counter is None and get_context("mode") == GRAPH_MODE:
            self._counter = _FlopCounter()
            self._begin_step = params.get("cur_step_num") or 0
            self._counter.start()
        self.step_time = time.time()

    def _stop_counting(self, params: Any) -> float:
        counter, self._counter = self._counter, None
        if counter is None:
            return 0.0
        counter.stop()
        steps = (params.get("cur_step_num") or 0) - self._begin_step
        return float(counter.flops // steps if steps > 1 else counter.flops)

    def _check_run_mode_valid(self, params: Any) -> bool:
        from mskernel.context import GRAPH_MODE, get_context

        flops = self._stop_counting(params)
        if params.get("mode") in ("train", "eval"):
            problem = None if get_context("mode") == GRAPH_MODE else "FlopsUtilizationCollector now only support " \
                                                                     "graph mode."
        else:
            problem = "FlopsUtilizationCollector only support train and eval mode!"
        if problem is not None:
            if self.verbose:
                raise ValueError(problem)
            logger.info(problem)
            return False
        self.full_model_flops = self.full_hardware_flops = flops
        self.shard_model_flops = self.shard_hardware_flops = flops
        return True

    def _write_ma(self, text: str, path: str) -> None:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT, stat.S_IWUSR | stat.S_IRUSR), "w") as f:
            f.write(text)

    def step_end(self, run_context: RunContext) -> None:
        """At the first step print the FLOPs; at each step not a multiple of ``data_size`` print the step's time
        and utilizations.

        Example:
            >>> import mskernel as ms
            >>> cb = FlopsUtilizationCollector(2)
            >>> cb.step_end(RunContext({"mode": "train", "cur_step_num": 1}))
            Traceback (most recent call last):
            ...
            ValueError: FlopsUtilizationCollector now only support graph mode.
        """
        step_ms = (time.time() - self.step_time) * 1000
        params = run_context.original_args()
        if not self.mfu_calculated:
            if not self._check_run_mode_valid(params):
                return
            self.full_mfu = self.full_model_flops / self.computility
            self.full_hfu = self.full_hardware_flops / self.computility
            self.shard_mfu = self.shard_model_flops / self.computility
            self.shard_hfu = self.shard_hardware_flops / self.computility
            self.mfu_calculated = True
            log_dir = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            if self.ma:
                self.time_step_path = os.path.join(log_dir, "time_step_rank_0.txt")
                stamp = int(round(time.time() * 1000))
                self._write_ma(f"flops{{type=\"model_flops\", rank_id=\"0\"}} {self.shard_model_flops} {stamp}\n"
                               f"flops{{type=\"hardware_flops\", rank_id=\"0\"}} {self.shard_hardware_flops} "
                               f"{stamp}\n", os.path.join(log_dir, "flops_rank_0.txt"))
            if self.verbose:
                shard = (f"Shard model flops is {self.shard_model_flops}, "
                         f"Shard hardware flops is {self.shard_hardware_flops}.")
                if self.full_flops:
                    print(f"Full model flops is {self.full_mfu * self.computility}, "
                          f"Full hardware flops is {self.full_hfu * self.computility}, " + shard, flush=True)
                else:
                    print(shard, flush=True)
        if params.get("dataset_sink_mode"):
            step_ms = step_ms / (self.batch_step_size or 1)
        if self.ma:
            stamp = int(round(time.time() * 1000))
            self._write_ma(f"time_monitor{{type=\"per_step_time\", rank_id=\"0\"}} {step_ms} {stamp}\n",
                           self.time_step_path)
        line = "{} per step time: {:5.3f} ms".format(str(params.get("mode")).title(), step_ms)
        if self.verbose and (params.get("cur_step_num") or 0) % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops else (self.shard_mfu, self.shard_hfu)
            mfu, hfu = 1000 * mfu / step_ms, 1000 * hfu / step_ms
            line += " mfu:{:.2f}%".format(floor(mfu * 10 ** 4) / 10 ** 2)
            line += " hfu:{:.2f}%".format(floor(hfu * 10 ** 4) / 10 ** 2)
            print(line, flush=True)
