"""Classification metrics: Accuracy, Precision, Recall, Fbeta/F1 and top-k accuracy.

``y_pred`` holds scores with the classes on axis 1; ``y`` holds class indices (or one-hot rows, which
are turned into indices). With ``eval_type='multilabel'`` both are 0/1 arrays of the same shape;
:class:`EvaluationBase` holds the shape and value checks of those two cases.

Example:
    >>> import numpy as np
    >>> acc = Accuracy()
    >>> acc.update(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 1]))
    >>> acc.eval()
    0.5
"""
from __future__ import annotations

import sys
from typing import Any, Union

import numpy as np

from mskernel.nn.metrics.protocol import Metric, rearrange_inputs, scalar

__all__ = ["Accuracy", "Precision", "Recall", "Fbeta", "F1", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy"]

_EPS = sys.float_info.min
EVAL_TYPES = ["classification", "multilabel"]


class EvaluationBase(Metric):
    """A metric over ``(y_pred, y)`` for 'classification' (y holds class indices) or 'multilabel' (0/1 arrays).

    Example:
        >>> from mskernel.nn.metrics import Accuracy
        >>> isinstance(Accuracy(), EvaluationBase)
        True
    """

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in EVAL_TYPES:
            raise TypeError(f"The argument 'eval_type' must be in {{'classification', 'multilabel'}}, but got "
                            f"{eval_type}")
        self._type = eval_type

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"In classification case, the dimension of y_pred (predicted value) should equal to "
                                 f"the dimension of y (true value) add 1, but got y_pred dimension: {y_pred.ndim} "
                                 f"and y dimension: {y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"In classification case, y_pred (predicted value) shape and y (true value) shape "
                                 f"can not match, y shape should be equal to y_pred shape that the value at index 1 "
                                 f"is deleted. Such as y_pred shape (1, 2, 3), then y shape should be (1, 3). But "
                                 f"got y_pred shape {y_pred.shape} and y shape {y.shape}")
            return
        if y_pred.ndim != y.ndim:
            raise ValueError(f"In {self._type} case, the dimension of y_pred (predicted value) should equal to the "
                             f"dimension of y (true value), but got y_pred dimension: {y_pred.ndim} and y dimension: "
                             f"{y.ndim}.")
        if y_pred.shape != y.shape:
            raise ValueError(f"In {self._type} case, the shape of y_pred (predicted value) should equal to the shape "
                             f"of y (true value), but got y_pred shape: {y_pred.shape} and y shape: {y.shape}.")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type != "classification" and not (_is_binary(y_pred) and _is_binary(y)):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                             "be 0 or 1.Please check whether your inputs y_pred and y are correct.")

    def clear(self) -> None:
        """Subclasses reset their state here.

        Example:
            >>> from mskernel.nn.metrics import Accuracy
            >>> Accuracy().clear()
        """
        raise NotImplementedError

    def update(self, *inputs: Any) -> None:
        """Subclasses accumulate here.

        Example:
            >>> from mskernel.nn.metrics import Accuracy
            >>> Accuracy().update([[0.1, 0.9]], [1])
        """
        raise NotImplementedError

    def eval(self) -> Any:
        """Subclasses answer here.

        Example:
            >>> from mskernel.nn.metrics import Accuracy
            >>> Accuracy()([[0.1, 0.9]], [1])
            1.0
        """
        raise NotImplementedError


def _is_binary(a: np.ndarray) -> bool:
    return bool(np.equal(a ** 2, a).all())


def is_onehot(data: np.ndarray) -> bool:
    """True when ``data`` (rank > 1) holds 0/1 values with exactly one 1 along axis 1.

    Example:
        >>> is_onehot(np.array([[0, 1], [1, 0]])), is_onehot(np.array([[1, 1], [1, 0]]))
        (True, False)
    """
    if data.ndim > 1 and _is_binary(data):
        return bool(np.equal(data.sum(axis=1), 1).all())
    return False


def _pair(metric: Metric, name: str, inputs: tuple, onehot_to_index: bool = True) -> tuple:
    """The (scores, labels) arrays of an ``update`` call, labels given one-hot turned into indices."""
    if len(inputs) != 2:
        raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true value), but got "
                         f"{len(inputs)}.")
    scores, labels = (metric._convert_data(v) for v in inputs)
    if onehot_to_index and scores.ndim == labels.ndim and is_onehot(labels):
        labels = labels.argmax(axis=1)
    return scores, labels


def _track_classes(metric: Any, name: str, scores: np.ndarray) -> int:
    """Remember the number of classes of the first batch; later batches must match it."""
    seen, now = metric._n_classes, scores.shape[1]
    if seen and now != seen:
        raise ValueError(f"For '{name}.update', class number not match, last input predicted data contain {seen} "
                         f"classes, but current predicted data contain {now} classes, please check your predicted "
                         f"value(inputs[0]).")
    metric._n_classes = now
    return now


def _check_average(average: Any, name: str) -> None:
    if not isinstance(average, bool):
        raise TypeError(f"For '{name}', the type of 'average' should be bool, but got {type(average).__name__}.")


class Accuracy(EvaluationBase):
    """The fraction of samples classified right ('classification') or with every label right ('multilabel').

    Example:
        >>> import mskernel as ms
        >>> import numpy as np
        >>> x = ms.Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), ms.float32)
        >>> y = ms.Tensor(np.array([1, 0, 1]), ms.float32)
        >>> m = Accuracy('classification'); m.update(x, y); print(round(m.eval(), 4))
        0.6667
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._hit_count = 0
        self._sample_count = 0
        self._n_classes = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        scores, labels = _pair(self, "Accuracy", inputs, self._type == "classification")
        self._check_shape(scores, labels)
        self._check_value(scores, labels)
        n = _track_classes(self, "Accuracy", scores)
        if self._type == "classification":
            right = scores.argmax(axis=1) == labels
        else:  # every label of a sample must match
            right = (np.moveaxis(scores, 1, -1).reshape(-1, n) == np.moveaxis(labels, 1, -1).reshape(-1, n)).all(1)
        right = np.asarray(right).reshape(-1)
        self._hit_count += int(right.sum())
        self._sample_count += right.size

    def eval(self) -> float:
        if self._sample_count == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples is 0, please "
                               "check whether your inputs(predicted value, true value) are empty, or has called "
                               "update method before calling eval method.")
        return self._hit_count / self._sample_count


class _PerClass(EvaluationBase):
    """Shared accumulation of Precision and Recall: true positives over a per-class denominator."""

    _name = ""

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._n_classes = 0
        multi = self._type == "multilabel"
        self._true_positives: Any = np.empty(0) if multi else 0
        self._denominator: Any = np.empty(0) if multi else 0
        self._ratio_sum = 0.0
        self._ratio_count = 0

    def _counts(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        name = self._name
        y_pred, y = _pair(self, name, inputs, self._type == "classification")
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        _track_classes(self, name, y_pred)
        n = self._n_classes
        if self._type == "classification":
            if y.max() + 1 > n:
                raise ValueError(f"For '{name}.update', predicted value (input[0]) should have the same classes "
                                 f"number as true value (input[1]), but got predicted value classes {n}, true value "
                                 f"classes {y.max() + 1}.")
            y = np.eye(n)[y.reshape(-1).astype(np.int64)]
            y_pred = np.eye(n)[y_pred.argmax(axis=1).reshape(-1)]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(n, -1)
            y = y.swapaxes(1, 0).reshape(n, -1)
        denominator = self._counts(y_pred, y)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._ratio_sum += float(np.sum(true_positives / (denominator + _EPS)))
            self._ratio_count += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._denominator = np.concatenate((self._denominator, denominator))
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominator = self._denominator + denominator

    def eval(self, average: bool = False) -> Union[np.ndarray, float]:
        if self._n_classes == 0:
            raise RuntimeError(f"The '{self._name}' can not be calculated, because the number of samples is 0, "
                               f"please check whether your inputs (predicted value, true value) are empty, or has "
                               f"called update method before calling eval method.")
        _check_average(average, self._name)
        result = self._true_positives / (self._denominator + _EPS)
        if not average:
            return result
        if self._type == "multilabel":
            return self._ratio_sum / (self._ratio_count + _EPS)
        return scalar(result.mean())


class Precision(_PerClass):
    """Per-class precision: true positives over predicted positives (``eval(average=True)``: their mean).

    Example:
        >>> import numpy as np
        >>> m = Precision('classification')
        >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
        >>> m.eval(), m.eval(average=True)
        (array([0.5, 1. ]), 0.75)
    """

    _name = "Precision"

    def _counts(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y_pred.sum(axis=0)


class Recall(_PerClass):
    """Per-class recall: true positives over actual positives (``eval(average=True)``: their mean).

    Example:
        >>> import numpy as np
        >>> m = Recall('classification')
        >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
        >>> m.eval(), m.eval(average=True)
        (array([1. , 0.5]), 0.75)
    """

    _name = "Recall"

    def _counts(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y.sum(axis=0)


class Fbeta(Metric):
    """Per-class F-beta score: ``(1 + beta²)·TP / (beta²·actual + predicted)``.

    Example:
        >>> import numpy as np
        >>> m = Fbeta(1)
        >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
        >>> print(m.eval(), round(m.eval(average=True), 4))
        [0.66666667 0.66666667] 0.6667
    """

    def __init__(self, beta: float) -> None:
        super().__init__()
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        self._true_positives: Any = 0
        self._actual_positives: Any = 0
        self._positives: Any = 0
        self._n_classes = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        name = type(self).__name__ if type(self) is not F1 else "Fbeta"
        y_pred, y = _pair(self, name, inputs)
        _track_classes(self, name, y_pred)
        n = self._n_classes
        if y.max() + 1 > n:
            raise ValueError(f"For '{name}.update', predicted value(inputs[0]) and true value(inputs[1]) should "
                             f"contain same classes, but got predicted value contains {n} classes and true value "
                             f"contains {y.max() + 1} classes.")
        y = np.eye(n)[y.reshape(-1).astype(np.int64)]
        y_pred = np.eye(n)[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average: bool = False) -> Union[np.ndarray, float]:
        _check_average(average, type(self).__name__)
        if self._n_classes == 0:
            raise RuntimeError("The 'Fbeta' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        b2 = self.beta ** 2
        score = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + _EPS)
        return scalar(score.mean()) if average else score


class F1(Fbeta):
    """F-beta with beta = 1 (the harmonic mean of precision and recall).

    Example:
        >>> import numpy as np
        >>> print(F1()(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 0])))
        [1. 1.]
    """

    def __init__(self) -> None:
        super().__init__(1.0)


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose true class is among the ``k`` highest scores.

    Example:
        >>> import numpy as np
        >>> m = TopKCategoricalAccuracy(2)
        >>> m.update(np.array([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6]]), np.array([2, 1]))
        >>> m.eval()
        0.5
    """

    def __init__(self, k: int) -> None:
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got 'k' "
                            f"type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' "
                             f"value: {k}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._hit_count = 0
        self._sample_count = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        y_pred, y = _pair(self, "TopKCategoricalAccuracy", inputs)
        best_k = np.argsort(-y_pred, axis=1)[:, :self.k]
        self._hit_count += int((best_k == y.reshape(-1, 1)).any(axis=1).sum())
        self._sample_count += best_k.shape[0]

    def eval(self) -> float:
        if self._sample_count == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' can not be calculated, because the number of samples "
                               "is 0, please check whether your inputs (predicted value, true value) are empty, or "
                               "has called update method before calling eval method.")
        return self._hit_count / self._sample_count


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-k accuracy with k = 1.

    Example:
        >>> import numpy as np
        >>> Top1CategoricalAccuracy()(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 1]))
        0.5
    """

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-k accuracy with k = 5.

    Example:
        >>> import numpy as np
        >>> Top5CategoricalAccuracy()(np.eye(6)[[0, 5]], np.array([5, 5]))
        0.5
    """

    def __init__(self) -> None:
        super().__init__(5)
