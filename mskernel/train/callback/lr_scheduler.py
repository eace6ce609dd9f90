"""``LearningRateScheduler``: a callback that sets the optimizer's learning rate after each step from a function
of the current rate and the step number.

Example:
    >>> cb = LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 2 == 0 else lr)
    >>> cb.learning_rate_function(0.1, 2)
    0.05
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import functional as F
from mskernel.train.callback.protocol import Callback, RunContext

__all__ = ["LearningRateScheduler"]


class LearningRateScheduler(Callback):
    """``LearningRateScheduler(learning_rate_function)``: after each step, ``learning_rate_function(lr,
    cur_step_num)`` gives the new rate, written into the optimizer's ``learning_rate`` Parameter when it differs.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> from mskernel.train import Model
        >>> net = nn.Dense(2, 1)
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> model = Model(net, loss_fn=nn.MSELoss(), optimizer=opt)
        >>> data = ms.dataset.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.ones((4, 1), np.float32)})
        >>> model.train(1, data.batch(2), callbacks=[LearningRateScheduler(lambda lr, step: lr * 0.5)],
        ...             dataset_sink_mode=False)
        >>> print(opt.learning_rate.asnumpy())
        0.025
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        lr_param = cb_params.optimizer.learning_rate
        lr = float(np.array2string(lr_param.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            F.assign(lr_param, Tensor._wrap(np.asarray(new_lr, np.float32)))
