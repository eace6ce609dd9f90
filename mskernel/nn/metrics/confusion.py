"""``ConfusionMatrix``: counts of (true class, predicted class) pairs, optionally normalized.

Example:
    >>> import numpy as np
    >>> ConfusionMatrix(2)(np.array([1, 0, 1]), np.array([1, 0, 0])).tolist()
    [[1.0, 1.0], [0.0, 1.0]]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix"]


class ConfusionMatrix(Metric):
    """``ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)``: rows are true classes, columns
    predicted ones; predictions with a class axis are argmax-ed, float predictions without one are thresholded;
    ``normalize`` divides by the row sums ('target'), the column sums ('prediction') or the total ('all').

    Example:
        >>> import numpy as np
        >>> ConfusionMatrix(2, normalize="target")(np.array([0.9, 0.2, 0.7]), np.array([1, 0, 0])).tolist()
        [[0.5, 0.5], [0.0, 1.0]]
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5) -> None:
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"The type of 'num_classes' should be 'int', but got type '{type(num_classes).__name__}'.")
        if normalize not in ["target", "prediction", "all", "no_norm"]:
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        if isinstance(threshold, bool) or not isinstance(threshold, float):
            raise TypeError(f"The type of 'threshold' should be 'float', but got type '{type(threshold).__name__}'.")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and true value (input[1]) "
                             f"should have same dimensions, or the dimension of predicted value equals the dimension "
                             f"of true value add 1, but got predicted value ndim: {pred.ndim}, true value ndim: "
                             f"{y.ndim}.")
        if pred.ndim == y.ndim + 1:
            pred = np.argmax(pred, axis=1)
        if pred.dtype in (np.float16, np.float32, np.float64):
            pred = (pred >= self.threshold).astype(int)
        pairs = (y.reshape(-1) * self.num_classes + pred.reshape(-1)).astype(int)
        self.confusion_matrix += np.bincount(pairs, minlength=self.num_classes ** 2).reshape(self.num_classes, -1)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        cm = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return cm
        with np.errstate(divide="ignore", invalid="ignore"):
            out = {"target": lambda: cm / cm.sum(axis=1, keepdims=True),
                   "prediction": lambda: cm / cm.sum(axis=0, keepdims=True),
                   "all": lambda: cm / cm.sum()}[self.normalize]()
        out[np.isnan(out)] = 0
        return out
