"""Distances between the surfaces (edges) of a predicted and a true segmentation of one label:
``HausdorffDistance``, ``MeanSurfaceDistance``, ``RootMeanSquareDistance``.

The edges are each mask minus its binary erosion; the distance of each edge point of one mask to the nearest
edge point of the other comes from a distance transform ('euclidean', 'chessboard' or 'taxicab'). scipy's
``scipy.ndimage`` (imported when a metric is updated) does the erosion and the transforms.

Example:
    >>> import numpy as np
    >>> x = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 0]])
    >>> y = np.array([[0, 1, 1], [0, 1, 1], [0, 0, 0]])
    >>> float(HausdorffDistance()(x, y, 1))
    1.0
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_METRICS = ["euclidean", "chessboard", "taxicab"]


def _typed(value: Any, name: str, types: tuple, text: str) -> Any:
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"The type of '{name}' should be '{text}', but got type '{type(value).__name__}'.")
    return value


def _distance_metric(value: Any) -> str:
    _typed(value, "distance_metric", (str,), "str")
    if value not in _METRICS:
        raise ValueError(f"The 'distance_metric' must be str and must be in '{_METRICS}', but got '{value}'.")
    return value


def _edges(mask: np.ndarray) -> np.ndarray:
    from scipy import ndimage  # scipy: binary erosion (numpy has none)
    return ndimage.binary_erosion(mask) ^ mask


def _surface_distances(from_edges: np.ndarray, to_edges: np.ndarray, metric: str) -> np.ndarray:
    """For each edge point of ``from_edges``, its distance to the nearest edge point of ``to_edges``."""
    from scipy import ndimage  # scipy: distance transforms
    if not np.any(from_edges):
        return np.array([])
    if not np.any(to_edges):
        dist = np.full(to_edges.shape, np.inf)
    elif metric == "euclidean":
        dist = ndimage.distance_transform_edt(~to_edges)
    else:
        dist = ndimage.distance_transform_cdt(~to_edges, metric=metric)
    return dist[from_edges]


def _masks(name: str, inputs: Tuple[Any, ...], convert: Any) -> Tuple[np.ndarray, np.ndarray]:
    if len(inputs) != 3:
        raise ValueError(f"For '{name}.update', it needs 3 inputs (predicted value, true value, label index), but got "
                         f"{len(inputs)}.")
    pred, y, label = convert(inputs[0]), convert(inputs[1]), inputs[2]
    if not isinstance(label, (int, float)):
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be int or float, but got "
                         f"{type(label)}.")
    if label not in pred and label not in y:
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be in predicted value (input[0]) or "
                         f"true value (input[1]), but {label} is not.")
    if pred.size == 0 or pred.shape != y.shape:
        raise ValueError(f"For '{name}.update', the size of predicted value (input[0]) and true value (input[1]) must "
                         f"be greater than 0, in addition to that, predicted value and true value should have the "
                         f"same shape, but got predicted value size: {pred.size}, shape: {pred.shape}, true value "
                         f"size: {y.size}, shape: {y.shape}.")
    return (pred if pred.dtype == bool else pred == label), (y if y.dtype == bool else y == label)


def _crop(pred: np.ndarray, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Both masks cut to the bounding box of their union (squeezed, as MindSpore does)."""
    both = pred | y
    lo = [int(np.min(ix)) for ix in np.nonzero(both)]
    hi = [int(np.max(ix)) + 1 for ix in np.nonzero(both)]
    box = tuple(slice(a, b) for a, b in zip(lo, hi))
    return np.squeeze(pred[box]), np.squeeze(y[box])


class _Surface(Metric):
    _name = ""

    def clear(self) -> None:
        self._pred_edges: Any = 0
        self._y_edges: Any = 0
        self._is_update = False

    def _check_updated(self) -> None:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        pred, y = _masks(self._name, inputs, self._convert_data)
        pred, y = self._prepare(pred, y)
        self._pred_edges, self._y_edges = _edges(pred), _edges(y)
        self._is_update = True

    def _prepare(self, pred: np.ndarray, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        return pred, y


class HausdorffDistance(_Surface):
    """``HausdorffDistance(distance_metric='euclidean', percentile=None, directed=False, crop=True)``: the largest
    (or the ``percentile``-th) distance from an edge point of one mask to the other's edge, the larger of the two
    directions unless ``directed``; ``update(y_pred, y, label_idx)``.

    Example:
        >>> import numpy as np
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> m = HausdorffDistance(); m.update(x, y, 0); round(float(m.eval()), 6)
        1.414214
    """

    _name = "HausdorffDistance"

    def __init__(self, distance_metric: str = "euclidean", percentile: Any = None, directed: bool = False,
                 crop: bool = True) -> None:
        super().__init__()
        self.distance_metric = _distance_metric(distance_metric)
        self.percentile = percentile if percentile is None else _typed(percentile, "percentile", (float,), "float")
        self.directed = directed if directed is None else _typed(directed, "directed", (bool,), "bool")
        self.crop = crop if crop is None else _typed(crop, "crop", (bool,), "bool")
        self.clear()

    def _prepare(self, pred: np.ndarray, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        if not self.crop:
            return pred, y
        if not np.any(pred | y):
            return np.zeros_like(pred), np.zeros_like(y)
        return _crop(pred, y)

    def _one_way(self, a: np.ndarray, b: np.ndarray) -> Any:
        d = _surface_distances(a, b, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        if not self.percentile:
            return d.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(d, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], but got "
                         f"{self.percentile}.")

    def eval(self) -> Any:
        self._check_updated()
        hd = self._one_way(self._pred_edges, self._y_edges)
        return hd if self.directed else max(hd, self._one_way(self._y_edges, self._pred_edges))


class _Averaged(_Surface):
    """A mean over the edge points' distances (``_reduce``), both ways averaged when ``symmetric``."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        self.distance_metric = _distance_metric(distance_metric)
        self.symmetric = _typed(symmetric, "symmetric", (bool,), "bool")
        self.clear()

    @staticmethod
    def _reduce(d: np.ndarray) -> Any:
        raise NotImplementedError

    def eval(self) -> Any:
        self._check_updated()
        d = _surface_distances(self._pred_edges, self._y_edges, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        there = self._reduce(d)
        if not self.symmetric:
            return there
        back = _surface_distances(self._y_edges, self._pred_edges, self.distance_metric)
        if back.shape == (0,):
            return np.inf
        return np.mean((there, self._reduce(back)))


class MeanSurfaceDistance(_Averaged):
    """``MeanSurfaceDistance(symmetric=False, distance_metric='euclidean')``: the mean distance from the predicted
    edge to the true one; ``update(y_pred, y, label_idx)``.

    Example:
        >>> import numpy as np
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> m = MeanSurfaceDistance(); m.update(x, y, 0); round(float(m.eval()), 6)
        0.804738
    """

    _name = "MeanSurfaceDistance"

    @staticmethod
    def _reduce(d: np.ndarray) -> Any:
        return d.mean()


class RootMeanSquareDistance(_Averaged):
    """``RootMeanSquareDistance(symmetric=False, distance_metric='euclidean')``: the mean squared distance from the
    predicted edge to the true one, or with ``symmetric`` the root of both ways' mean; ``update(y_pred, y,
    label_idx)``.

    Example:
        >>> import numpy as np
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> m = RootMeanSquareDistance(); m.update(x, y, 0); round(float(m.eval()), 6)
        1.0
    """

    _name = "RootMeanSquareDistance"

    @staticmethod
    def _reduce(d: np.ndarray) -> Any:
        return (d ** 2).mean()

    def eval(self) -> Any:
        """One way: the mean squared distance (MindSpore takes no root there); ``symmetric``: the root of the mean
        of both ways' mean squares."""
        out = super().eval()
        return np.sqrt(out) if self.symmetric and np.isfinite(out) else out
