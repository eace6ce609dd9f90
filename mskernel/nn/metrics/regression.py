"""Regression metrics: the mean absolute and the mean squared error of predictions against targets (MAE, MSE).

Example:
    >>> import numpy as np
    >>> MSE()(np.array([1.0, 2.0]), np.array([0.0, 0.0]))
    2.5
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs, scalar

__all__ = ["MAE", "MSE"]


class _Error(Metric):
    """Sum of an element-wise error over all elements, divided by the number of samples (axis 0)."""

    _name = ""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum: Any = 0
        self._count = 0  # samples seen (the first axis of each label batch)

    def _error(self, diff: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For '{self._name}.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._error_sum = self._error_sum + self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._count += y.shape[0]

    def eval(self) -> float:
        if not self._count:
            raise RuntimeError(f"The '{self._name}' can not be calculated, because the number of samples is 0, please "
                               f"check whether your inputs(predicted value, true value) are empty, or has called "
                               f"update method before calling eval method.")
        return scalar(np.float64(self._error_sum) / self._count)


class MAE(_Error):
    """Mean absolute error: the sum of ``|y - y_pred|`` over the number of samples.

    Example:
        >>> import numpy as np
        >>> m = MAE(); m.update(np.array([[0.1, 0.2], [0.6, 0.9]]), np.array([[0.1, 0.25], [0.7, 0.9]]))
        >>> round(m.eval(), 6)
        0.075
    """

    _name = "MAE"

    def _error(self, diff: np.ndarray) -> np.ndarray:
        return np.abs(diff)


class MSE(_Error):
    """Mean squared error: the sum of ``(y - y_pred)²`` over the number of samples.

    Example:
        >>> import numpy as np
        >>> MSE()(np.array([[0.0, 1.0]]), np.array([[1.0, 1.0]]))
        1.0
    """

    _name = "MSE"

    def _error(self, diff: np.ndarray) -> np.ndarray:
        return np.power(diff, 2)
