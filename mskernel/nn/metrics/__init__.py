"""``mindspore.nn`` / ``mindspore.train`` metrics: the protocol, the metrics that ship (one module per family)
and the names ``Model(metrics={...})`` accepts.

* :mod:`~mskernel.nn.metrics.protocol` — ``Metric``, ``rearrange_inputs``;
* :mod:`~mskernel.nn.metrics.classification` — ``Accuracy``, ``Precision``, ``Recall``, ``Fbeta``, ``F1``,
  top-k accuracy;
* :mod:`~mskernel.nn.metrics.regression` — ``MAE``, ``MSE``;
* :mod:`~mskernel.nn.metrics.loss` — ``Loss``;
* :mod:`~mskernel.nn.metrics.scores` — ``Perplexity``, ``Dice``, ``CosineSimilarity``, ``BleuScore``;
* :mod:`~mskernel.nn.metrics.curves` — ``ROC``, ``auc``;
* :mod:`~mskernel.nn.metrics.confusion` — ``ConfusionMatrix``, ``ConfusionMatrixMetric``;
* :mod:`~mskernel.nn.metrics.occlusion` — ``OcclusionSensitivity``;
* :mod:`~mskernel.nn.metrics.surface` — ``HausdorffDistance``, ``MeanSurfaceDistance``, ``RootMeanSquareDistance``;
* :mod:`~mskernel.nn.metrics.by_name` — ``names``, ``get_metric_fn``, ``get_metrics``.

Example:
    >>> import numpy as np
    >>> from mskernel.nn import metrics
    >>> metrics.get_metric_fn("acc")(np.array([[0.1, 0.9]]), np.array([1]))
    1.0
"""
from mskernel.nn.metrics import (by_name, classification, confusion, curves, loss, occlusion, protocol, regression,
                                  scores, surface)
from mskernel.nn.metrics.classification import (F1, Accuracy, Fbeta, Precision, Recall, Top1CategoricalAccuracy,
                                                Top5CategoricalAccuracy, TopKCategoricalAccuracy)
from mskernel.nn.metrics.loss import Loss
from mskernel.nn.metrics.by_name import get_metric_fn, get_metrics, names
from mskernel.nn.metrics.protocol import Metric, rearrange_inputs
from mskernel.nn.metrics.regression import MAE, MSE
from mskernel.nn.metrics.confusion import ConfusionMatrix, ConfusionMatrixMetric
from mskernel.nn.metrics.curves import ROC, auc
from mskernel.nn.metrics.occlusion import OcclusionSensitivity
from mskernel.nn.metrics.scores import BleuScore, CosineSimilarity, Dice, Perplexity
from mskernel.nn.metrics.surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance

__all__ = [*by_name.__all__, *protocol.__all__, *classification.__all__, *regression.__all__, *loss.__all__,
           *scores.__all__, *curves.__all__, *confusion.__all__, *occlusion.__all__,
           *surface.__all__]
_ = (Accuracy, Precision, Recall, Fbeta, F1, TopKCategoricalAccuracy, Top1CategoricalAccuracy,
     Top5CategoricalAccuracy, MAE, MSE, Loss, Metric, rearrange_inputs, get_metric_fn, get_metrics, ConfusionMatrix,
     ROC, auc, OcclusionSensitivity, BleuScore, CosineSimilarity, Dice, Perplexity, HausdorffDistance,
     MeanSurfaceDistance, RootMeanSquareDistance, ConfusionMatrixMetric)
