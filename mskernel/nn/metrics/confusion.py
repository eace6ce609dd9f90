"""``ConfusionMatrix``: counts of (true class, predicted class) pairs, optionally normalized; and
``ConfusionMatrixMetric``: a rate (sensitivity, precision, ...) of binarized predictions' confusion counts.

Example:
    >>> import numpy as np
    >>> ConfusionMatrix(2)(np.array([1, 0, 1]), np.array([1, 0, 0])).tolist()
    [[1.0, 1.0], [0.0, 1.0]]
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


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


# -- ConfusionMatrixMetric: rates of a binarized (batch, class, ...) prediction's confusion counts -----------------

#: every name MindSpore accepts for a rate (spaces become underscores, case is ignored) → its short name
_RATE_NAMES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate"),
    "tnr": ("specificity", "selectivity", "true_negative_rate"),
    "ppv": ("precision", "positive_predictive_value"), "npv": ("negative_predictive_value",),
    "fnr": ("miss_rate", "false_negative_rate"), "fpr": ("fall_out", "false_positive_rate"),
    "fdr": ("false_discovery_rate",), "for": ("false_omission_rate",), "pt": ("prevalence_threshold",),
    "ts": ("threat_score", "critical_success_index", "csi"), "acc": ("accuracy",), "ba": ("balanced_accuracy",),
    "f1": ("f1_score",), "mcc": ("matthews_correlation_coefficient",), "fm": ("fowlkes_mallows_index",),
    "bm": ("informedness", "bookmaker_informedness"), "mk": ("markedness", "deltap"),
}
_ALIASES = {alias: short for short, names in _RATE_NAMES.items() for alias in (short,) + names}


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


#: short name → (numerator, denominator) of the counts tp, fp, tn, fn, p = tp + fn, n = fp + tn
_RATES = {
    "tpr": lambda tp, fp, tn, fn, p, n: (tp, p),
    "tnr": lambda tp, fp, tn, fn, p, n: (tn, n),
    "ppv": lambda tp, fp, tn, fn, p, n: (tp, tp + fp),
    "npv": lambda tp, fp, tn, fn, p, n: (tn, tn + fn),
    "fnr": lambda tp, fp, tn, fn, p, n: (fn, p),
    "fpr": lambda tp, fp, tn, fn, p, n: (fp, n),
    "fdr": lambda tp, fp, tn, fn, p, n: (fp, fp + tp),
    "for": lambda tp, fp, tn, fn, p, n: (fn, fn + tn),
    "pt": lambda tp, fp, tn, fn, p, n: (np.sqrt(_ratio(tp, p) * (1.0 - _ratio(tn, n))) + _ratio(tn, n) - 1.0,
                                        _ratio(tp, p) + _ratio(tn, n) - 1.0),
    "ts": lambda tp, fp, tn, fn, p, n: (tp, tp + fn + fp),
    "acc": lambda tp, fp, tn, fn, p, n: (tp + tn, p + n),
    "ba": lambda tp, fp, tn, fn, p, n: (_ratio(tp, p) + _ratio(tn, n), 2.0),
    "f1": lambda tp, fp, tn, fn, p, n: (tp * 2.0, tp * 2.0 + fn + fp),
    "mcc": lambda tp, fp, tn, fn, p, n: (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
    "fm": lambda tp, fp, tn, fn, p, n: (np.sqrt(_ratio(tp, tp + fp) * _ratio(tp, p)), 1.0),
    "bm": lambda tp, fp, tn, fn, p, n: (_ratio(tp, p) + _ratio(tn, n) - 1.0, 1.0),
    "mk": lambda tp, fp, tn, fn, p, n: (_ratio(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0),
}


def _rate(name: str, counts: np.ndarray) -> np.ndarray:
    short = _ALIASES.get(name.replace(" ", "_").lower())
    if short is None:
        raise NotImplementedError("The metric is not implemented.")
    counts = counts[None] if counts.ndim == 1 else counts
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        num, den = _RATES[short](tp, fp, tn, fn, tp + fn, fp + tn)
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / den, np.nan)
        return num / den


def _counts(pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """(batch, class, 4): tp, fp, tn, fn of each sample and class."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        pred = pred[:, 1:] if pred.shape[1] > 1 else pred
    y, pred = y.astype(float), pred.astype(float)
    if y.shape != pred.shape:
        raise ValueError(f"The 'y_shape' must be equal to 'y_pred_shape', but got {y.shape} and {pred.shape}.")
    b, c = pred.shape[:2]
    pred, y = pred.reshape(b, c, -1), y.reshape(b, c, -1)
    tp = (pred + y == 2).sum(axis=2).astype(float)
    tn = (pred + y == 0).sum(axis=2).astype(float)
    pos = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - pos - tn, tn, pos - tp], axis=-1)


def _reduce(chart: np.ndarray, how: str) -> Tuple[np.ndarray, np.ndarray]:
    """The rates (batch, class) reduced as ``decrease`` says, NaNs left out; and how many were counted."""
    nans = np.isnan(chart)
    counted = (~nans).astype(float)
    chart = np.where(nans, 0, chart)

    def mean(axis: Any, c: np.ndarray, k: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        k = k.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(k > 0, c.sum(axis=axis) / np.where(k > 0, k, 1), 0.0), k
    if how == "mean":
        per_sample, k = mean(1, chart, counted)
        k = (k > 0).astype(float).sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(k > 0, per_sample.sum(axis=0) / np.where(k > 0, k, 1), 0.0), k
    if how == "sum":
        return chart.sum(axis=(0, 1)), counted.sum(axis=(0, 1))
    if how in ("mean_batch", "mean_channel"):
        return mean(0 if how == "mean_batch" else 1, chart, counted)
    if how in ("sum_batch", "sum_channel"):
        axis = 0 if how == "sum_batch" else 1
        return chart.sum(axis=axis), counted.sum(axis=axis)
    return chart, counted


class ConfusionMatrixMetric(Metric):
    """``ConfusionMatrixMetric(skip_channel=True, metric_name='sensitivity', calculation_method=False,
    decrease='mean')``: a rate (sensitivity, precision, f1, mcc, ... by any of MindSpore's names) of binarized
    (batch, class, ...) predictions: of the counts summed over every update, or (``calculation_method``) computed
    per sample and class, reduced by ``decrease`` and averaged over the updates.

    Example:
        >>> import numpy as np
        >>> m = ConfusionMatrixMetric(metric_name="tpr")
        >>> m.update(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]])); m.eval().tolist()
        [0.5]
    """

    _DECREASES = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        for name, value, t, text in (("skip_channel", skip_channel, (bool,), "bool"),
                                     ("calculation_method", calculation_method, (bool,), "bool"),
                                     ("metric_name", metric_name, (str,), "str"),
                                     ("decrease", decrease, (str,), "str")):
            if isinstance(value, bool) and bool not in t or not isinstance(value, t):
                raise TypeError(f"The type of '{name}' should be '{text}', but got type '{type(value).__name__}'.")
        if decrease not in self._DECREASES:
            raise ValueError(f"The 'decrease' must be str and must be in '{self._DECREASES}', but got '{decrease}'.")
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self.clear()

    def clear(self) -> None:
        self._total_num = 0.0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        if pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {pred.ndim}.")
        per_sample = self.calculation_method and not (pred.ndim == 2 or (pred.ndim == 3 and pred.shape[-1] == 1))
        counts = _counts(pred, y, self.skip_channel)
        if per_sample:
            score, counted = _reduce(_rate(self.metric_name, counts), self.decrease)
            counted_n = int(np.asarray(counted).item())
            self._total_num += np.asarray(score).item() * counted_n
            self._class_num += counted_n
        else:
            self._totals += _reduce(counts, "sum")[0]

    def eval(self) -> Any:
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                                   "has called update method before calling eval method.")
            return self._total_num / self._class_num
        return _rate(self.metric_name, self._totals)
