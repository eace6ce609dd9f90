"""Curves of a score against binary or per-class targets: ``ROC`` (false and true positive rates over the
decreasing thresholds) and ``auc`` (the area under such a curve, by the trapezoidal rule).

Example:
    >>> import numpy as np
    >>> fpr, tpr, _ = ROC(pos_label=1)(np.array([0.9, 0.2, 0.6, 0.4]), np.array([1, 0, 1, 0]))
    >>> float(auc(fpr, tpr))
    1.0
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["ROC", "auc"]


def _int_or_none(value: Any, name: str) -> Optional[int]:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"The type of '{name}' should be 'int', but got type '{type(value).__name__}'.")
    return value


def _flatten_inputs(y_pred: np.ndarray, y: np.ndarray, class_num: Optional[int],
                    pos_label: Optional[int]) -> Tuple[np.ndarray, np.ndarray, int, Optional[int]]:
    """Scores and targets as (samples,) and (samples,) for one class, or (samples, classes) and (samples,)."""
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                             f"shape, the 'class_num' must be 1, but got {class_num}.")
        return y_pred.ravel(), y.ravel(), 1, 1 if pos_label is None else pos_label
    if y_pred.ndim == y.ndim + 1:
        if pos_label is not None:
            raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the dimension of "
                             f"true value (input[1]) add 1, the 'pos_label' must be None, but got {pos_label}.")
        if class_num != y_pred.shape[1]:
            raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                             f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted "
                             f"value {y_pred.shape[1]}.")
        # MindSpore reshapes the (samples, classes) scores to (classes, -1) (the same array when they are square)
        return y_pred.reshape(class_num, -1), y.ravel(), class_num, pos_label
    raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must have same dimensions, or "
                     f"the dimension of predicted value equal the dimension of true value add 1, but got predicted "
                     f"value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")


def _counts_at_thresholds(score: np.ndarray, target: np.ndarray, pos_label: int) -> Tuple[np.ndarray, ...]:
    """False and true positives counted at each distinct score, from the highest down; and those scores."""
    order = np.argsort(-score)
    score, hit = score[order], (target[order] == pos_label).astype(np.int64)
    last = np.append(np.nonzero(np.diff(score))[0], hit.shape[0] - 1)
    tps = np.cumsum(hit)[last]
    return 1 + last - tps, tps, score[last]


def _roc_one(score: np.ndarray, target: np.ndarray, pos_label: int) -> Tuple[np.ndarray, ...]:
    fps, tps, thresholds = _counts_at_thresholds(score, target, pos_label)
    fps, tps = np.concatenate([[0], fps]), np.concatenate([[0], tps])
    thresholds = np.concatenate([[thresholds[0] + 1], thresholds])
    if fps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value is "
                         "meaningless.")
    if tps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                         "meaningless.")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """``ROC(class_num=None, pos_label=None)``: ``eval()`` gives (fpr, tpr, thresholds), lists of them (one per
    class) when the predictions have a class axis.

    Example:
        >>> import numpy as np
        >>> fpr, tpr, thr = ROC(pos_label=1)(np.array([0.9, 0.2, 0.6, 0.4]), np.array([1, 0, 1, 0]))
        >>> fpr.tolist(), tpr.tolist(), thr.round(2).tolist()
        ([0.0, 0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0], [1.9, 0.9, 0.6, 0.4, 0.2])
    """

    def __init__(self, class_num: Optional[int] = None, pos_label: Optional[int] = None) -> None:
        super().__init__()
        self.class_num = _int_or_none(class_num, "class_num")
        self.pos_label = _int_or_none(pos_label, "pos_label")
        self.clear()

    def clear(self) -> None:
        self.y_pred: Any = 0
        self.y: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _flatten_inputs(y_pred, y, self.class_num,
                                                                              self.pos_label)
        self._is_update = True

    def eval(self) -> Tuple[Any, Any, Any]:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        y_pred, y = np.squeeze(self.y_pred), np.squeeze(self.y)
        if self.class_num == 1:
            return _roc_one(y_pred, y, self.pos_label)
        curves = [_roc_one(y_pred[:, c], y, c) for c in range(self.class_num)]
        return [c[0] for c in curves], [c[1] for c in curves], [c[2] for c in curves]


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> Any:
    """``auc(x, y, reorder=False)``: the area under the curve through (x, y) by the trapezoidal rule; ``x`` must
    be monotonic unless ``reorder`` sorts the points.

    Example:
        >>> import numpy as np
        >>> float(auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])))
        0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    lengths = [a.shape[0] if a.ndim else 0 for a in (x, y)]
    if lengths[0] != lengths[1]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}.")
    for a in (x, y):
        if not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
            raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the "
                             f"second dimension of 1, but got shape {a.shape}.")
    x, y = x.ravel(), y.ravel()
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got "
                         f"{x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array must be increasing or "
                                 f"decreasing, but got 'x': {x}")
            direction = -1
    area = np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0)
    return direction * area
