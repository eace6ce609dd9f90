"""Metrics by name: the short names ``Model(metrics={...})`` accepts, and the metrics they build.

``get_metric_fn(name)`` builds a metric from its short name ('accuracy'/'acc', 'precision', 'recall',
'F1', 'topk', 'top_1_accuracy', 'top_5_accuracy', 'mae', 'mse', 'loss'); ``names()`` lists MindSpore's
names (some of which, such as 'dice' or 'auc', are not implemented here: asking for them is a
KeyError saying so).

Example:
    >>> import numpy as np
    >>> get_metric_fn("acc")(np.array([[0.1, 0.9]]), np.array([1]))
    1.0
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from mskernel.nn.metrics.classification import (F1, Accuracy, Precision, Recall, Top1CategoricalAccuracy,
                                                Top5CategoricalAccuracy, TopKCategoricalAccuracy)
from mskernel.nn.metrics.loss import Loss
from mskernel.nn.metrics.protocol import Metric
from mskernel.nn.metrics.regression import MAE, MSE

__all__ = ["names", "get_metric_fn", "get_metrics"]

_FACTORY: Dict[str, Any] = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1,
    "topk": TopKCategoricalAccuracy, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
}
# MindSpore's other names: listed by names(), not implemented here
_ABSENT = ("dice", "roc", "auc", "bleu_score", "cosine_similarity", "occlusion_sensitivity", "hausdorff_distance",
           "mean_surface_distance", "root_mean_square_distance", "perplexity", "confusion_matrix",
           "confusion_matrix_metric")


def names() -> List[str]:
    """The metric names ``get_metric_fn`` knows (MindSpore's list), sorted.

    Example:
        >>> names()[:3]
        ['F1', 'acc', 'accuracy']
    """
    return sorted([*_FACTORY, *_ABSENT])


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Metric:
    """A new metric object for ``name`` (extra arguments go to its constructor).

    Example:
        >>> type(get_metric_fn("top_1_accuracy")).__name__
        'Top1CategoricalAccuracy'
        >>> get_metric_fn("foo")
        Traceback (most recent call last):
        ...
        KeyError: "For 'get_metric_fn', unsupported metric foo, please refer to official website for more details about supported metrics."
    """  # noqa: E501
    if name in _ABSENT:
        raise KeyError(f"For 'get_metric_fn', the metric {name} exists in MindSpore but is not implemented in "
                       f"mskernel yet.")
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website for more "
                       f"details about supported metrics.")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics: Optional[Union[set, dict]]) -> Optional[Dict[str, Metric]]:
    """``{name: Metric}`` from a set of names or a dict of Metric objects (None stays None).

    Example:
        >>> sorted(get_metrics({"mae", "loss"}))
        ['loss', 'mae']
    """
    if metrics is None or isinstance(metrics, set):
        return None if metrics is None else {name: get_metric_fn(name) for name in metrics}
    if not isinstance(metrics, dict):
        raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")
    for key, value in metrics.items():
        if isinstance(key, str) and isinstance(value, Metric):
            continue
        raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                        f"value in 'metrics' must be Metric, but got key:{type(key)}, value:{type(value)}.")
    return metrics
