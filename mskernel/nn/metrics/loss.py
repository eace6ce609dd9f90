"""The loss as a metric: ``Loss`` keeps the running mean of the loss a network reports (one input, not a
prediction and a target).

Example:
    >>> import numpy as np
    >>> m = Loss(); m.update(np.array([0.5, 1.5])); m.update(np.array(3.0)); m.eval()
    2.0
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs, scalar

__all__ = ["Loss"]


class Loss(Metric):
    """The mean over updates of each update's mean loss (a scalar or a 1-D loss per update).

    Example:
        >>> import mskernel as ms
        >>> m = Loss(); m.update(ms.Tensor(0.5)); m.update(ms.Tensor([1.0, 2.0])); m.eval()
        1.0
    """

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._means: Any = 0  # the sum of each update's mean loss
        self._updates = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        values = np.atleast_1d(self._convert_data(inputs[0]))
        if values.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got "
                             f"{values.ndim}.")
        self._means = self._means + np.float64(values.mean(-1))  # summed in float64, as MindSpore (numpy 1.x)
        self._updates += 1

    def eval(self) -> float:
        if not self._updates:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is 0, please check "
                               "whether has called update method before calling eval method.")
        return scalar(np.float64(self._means) / self._updates)
