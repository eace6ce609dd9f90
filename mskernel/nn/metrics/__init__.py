"""``mindspore.nn`` / ``mindspore.train`` metrics: the protocol, the metrics that ship (one module per family)
and the names ``Model(metrics={...})`` accepts.

* :mod:`~mskernel.nn.metrics.protocol` — ``Metric``, ``rearrange_inputs``;
* :mod:`~mskernel.nn.metrics.classification` — ``Accuracy``, ``Precision``, ``Recall``, ``Fbeta``, ``F1``,
  top-k accuracy;
* :mod:`~mskernel.nn.metrics.regression` — ``MAE``, ``MSE``;
* :mod:`~mskernel.nn.metrics.loss` — ``Loss``;
* :mod:`~mskernel.nn.metrics.by_name` — ``names``, ``get_metric_fn``, ``get_metrics``.

Example:
    >>> import numpy as np
    >>> from mskernel.nn import metrics
    >>> metrics.get_metric_fn("acc")(np.array([[0.1, 0.9]]), np.array([1]))
    1.0
"""
from mskernel.nn.metrics import by_name, classification, loss, protocol, regression
from mskernel.nn.metrics.classification import (F1, Accuracy, Fbeta, Precision, Recall, Top1CategoricalAccuracy,
                                                Top5CategoricalAccuracy, TopKCategoricalAccuracy)
from mskernel.nn.metrics.loss import Loss
from mskernel.nn.metrics.by_name import get_metric_fn, get_metrics, names
from mskernel.nn.metrics.protocol import Metric, rearrange_inputs
from mskernel.nn.metrics.regression import MAE, MSE

__all__ = [*by_name.__all__, *protocol.__all__, *classification.__all__, *regression.__all__, *loss.__all__]
_ = (Accuracy, Precision, Recall, Fbeta, F1, TopKCategoricalAccuracy, Top1CategoricalAccuracy,
     Top5CategoricalAccuracy, MAE, MSE, Loss, Metric, rearrange_inputs, get_metric_fn, get_metrics)
