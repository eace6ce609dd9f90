"""``ReduceLROnPlateau``: a callback that lowers the optimizer's learning rate when the monitored value (the loss,
'eval_loss' or a metric of ``Model.fit``) has not improved for ``patience`` epochs.

Example:
    >>> cb = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2)
    >>> cb.best, cb.wait
    (inf, 0)
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.ops import functional as F
from mskernel.train.callback.epoch_results import _SMALLER_BETTER, _loss_number
from mskernel.train.callback.protocol import Callback, RunContext, check_non_negative_int

__all__ = ["ReduceLROnPlateau"]

logger = logging.getLogger(__name__)


def _type_name(v: Any) -> str:
    return type(v).__name__


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` (not below ``min_lr``) after ``patience`` epochs in which
    ``monitor`` did not improve by more than ``min_delta``; then wait ``cooldown`` epochs before counting again.
    ``mode`` 'min' wants the value to fall, 'max' to rise, 'auto' decides from the name (losses and distances
    fall). With ``verbose`` each reduction is printed, as MindSpore prints it.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.train import Model
        >>> net = nn.Dense(2, 1)
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> model = Model(net, loss_fn=nn.MSELoss(), optimizer=opt)
        >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32),
        ...                                       "y": np.ones((4, 1), np.float32)})
        >>> cb = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, mode="max", min_lr=0.07)
        >>> model.train(3, data.batch(2), callbacks=[cb], dataset_sink_mode=False)
        >>> print(opt.learning_rate.asnumpy())
        0.07
    """

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10, verbose: bool = False,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"The type of 'monitor' should be 'str', but got type '{_type_name(monitor)}'.")
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0.0 < factor < 1.0:
            raise ValueError(f"The input value must be in range of (0.0, 1.0), but got {factor} with type "
                             f"'{_type_name(factor)}'.")
        self.patience = check_non_negative_int(patience)
        if not isinstance(verbose, bool):
            raise TypeError(f"The input value must be a bool, but got {_type_name(verbose)}.")
        if not isinstance(mode, str):
            raise TypeError(f"The type of 'mode' should be 'str', but got type '{_type_name(mode)}'.")
        for name, v in (("min_delta", min_delta), ("min_lr", min_lr)):
            if not isinstance(v, (float, int)):
                raise TypeError(f"The type of '{name}' should be one of '['float', 'int']', but got type "
                                f"'{_type_name(v)}'.")
        self.cooldown = check_non_negative_int(cooldown)
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.monitor, self.factor, self.verbose, self.mode = monitor, factor, verbose, mode
        self.min_delta, self.min_lr = abs(min_delta), min_lr
        self._minimize = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._minimize else -np.inf

    def is_improvement(self, current: Any, best: Any) -> bool:
        """Whether ``current`` beats ``best`` by more than ``min_delta`` in the monitored direction.

        Example:
            >>> ReduceLROnPlateau(monitor="loss").is_improvement(0.5, 1.0)
            True
        """
        if self._minimize:
            return bool(np.less(current, best - self.min_delta))
        return bool(np.greater(current, best + self.min_delta))

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the counters and the best value.

        Example:
            >>> cb = ReduceLROnPlateau(mode="max"); cb.on_train_begin(RunContext({})); cb.best
            -inf
        """
        self.cooldown_counter = 0
        self.wait = 0
        self.best = np.inf if self._minimize else -np.inf

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Compare the monitored value with the best so far; lower the rate after ``patience`` epochs without an
        improvement (see the class example)."""
        cb = run_context.original_args()
        lr = cb.optimizer.learning_rate
        if not isinstance(lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        current = self._monitor_value(cb)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
            return
        if self.cooldown_counter > 0:
            return
        self.wait += 1
        if self.wait < self.patience:
            return
        rate = lr.asnumpy()
        if rate > self.min_lr:
            new = np.maximum(rate * np.asarray(self.factor, rate.dtype), np.asarray(self.min_lr, rate.dtype))
            F.assign(lr, Tensor._wrap(np.asarray(new, rate.dtype)))
            if self.verbose:
                print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."  # noqa: T201 (as MindSpore)
                      % (cb.cur_epoch_num, Tensor._wrap(np.asarray(new, rate.dtype))))
        self.cooldown_counter = self.cooldown
        self.wait = 0

    def _monitor_value(self, cb: Any) -> Optional[np.ndarray]:
        candidates: dict = {}
        if self.monitor == "loss":
            value = _loss_number(cb.get("net_outputs"))
        else:
            candidates = cb.get("eval_results", {}) or {}
            value = candidates.get(self.monitor)
        if value is None:
            logger.warning("Learning rate reduction is conditioned on %s, which is not available. Available "
                           "choices are: %s", self.monitor, set(["loss", *candidates]))
            return None
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError("ReduceLROnPlateau only supports scalar monitor now.")
        return np.array(value)
