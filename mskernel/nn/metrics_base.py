"""The ``Metric`` base class, ``rearrange_inputs`` and the shape checks classification metrics share.

A metric accumulates with ``update(*inputs)``, answers with ``eval()`` and starts over with ``clear()``;
calling it (``metric(y_pred, y)``) does all three. ``set_indexes([i, j])`` picks which of the inputs
``update`` sees (for networks that return more than the metric needs).

Scalar results are Python floats (MindSpore's are numpy float64 scalars, which print the same under
numpy 1; under numpy 2 they would print as ``np.float64(...)``).

Example:
    >>> class Count(Metric):
    ...     def clear(self):
    ...         self.n = 0
    ...     @rearrange_inputs
    ...     def update(self, *inputs):
    ...         self.n += len(inputs[0])
    ...     def eval(self):
    ...         return self.n
    >>> Count().set_indexes([1])([1, 2, 3], [4])
    1
"""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from typing import Any, Callable, List, Optional

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["Metric", "rearrange_inputs"]

EVAL_TYPES = ["classification", "multilabel"]


def rearrange_inputs(func: Callable) -> Callable:
    """Decorate ``update`` so it sees only the inputs at ``self.indexes`` (all of them when unset).

    Example:
        >>> class Last(Metric):
        ...     def clear(self): pass
        ...     def eval(self): return self.seen
        ...     @rearrange_inputs
        ...     def update(self, *inputs):
        ...         self.seen = inputs
        >>> m = Last().set_indexes([2, 0]); m.update("a", "b", "c"); m.eval()
        ('c', 'a')
    """
    @functools.wraps(func)
    def wrapper(self: "Metric", *inputs: Any) -> Any:
        picks = self.indexes
        if picks:
            inputs = tuple(inputs[i] for i in picks)
        return func(self, *inputs)
    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: subclasses define ``clear``, ``update`` and ``eval``.

    Example:
        >>> from mskernel.nn.metrics import MAE
        >>> issubclass(MAE, Metric)
        True
    """

    def __init__(self) -> None:
        self._picks: Optional[List[int]] = None

    def _convert_data(self, data: Any) -> np.ndarray:
        """``data`` (Tensor, list or ndarray) as an ndarray; subclasses, MindSpore's and users', call it."""
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, (list, np.ndarray)):
            return data if isinstance(data, np.ndarray) else np.array(data)
        raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, list or "
                        f"numpy.ndarray, but got {type(data)}.")

    @property
    def indexes(self) -> Optional[List[int]]:
        """The input positions ``update`` uses (None: all).

        Example:
            >>> from mskernel.nn.metrics import MAE
            >>> MAE().set_indexes([0, 2]).indexes
            [0, 2]
        """
        return getattr(self, "_picks", None)  # a subclass may skip Metric.__init__

    def set_indexes(self, indexes: List[int]) -> "Metric":
        """Choose which inputs ``update`` sees, in order; returns the metric.

        Example:
            >>> from mskernel.nn.metrics import MAE
            >>> MAE().set_indexes([1, 2])([9.0], [1.0], [3.0])
            2.0
        """
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                             "be int, please check whether it is correct.")
        self._picks = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state (subclasses define it).

        Example:
            >>> from mskernel.nn.metrics import MAE
            >>> m = MAE(); m.update([1.0], [0.0]); m.clear(); m.update([3.0], [0.0]); m.eval()
            3.0
        """
        raise NotImplementedError("Must define clear function to use this base class")

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything seen since ``clear`` (subclasses define it).

        Example:
            >>> from mskernel.nn.metrics import MAE
            >>> m = MAE(); m.update([1.0, 3.0], [0.0, 0.0]); m.eval()
            2.0
        """
        raise NotImplementedError("Must define eval function to use this base class")

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch (subclasses define it).

        Example:
            >>> from mskernel.nn.metrics import MSE
            >>> m = MSE(); m.update([2.0], [0.0]); m.eval()
            4.0
        """
        raise NotImplementedError("Must define update function to use this base class")


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


def scalar(value: Any) -> Any:
    """A numpy scalar as a Python number (arrays are returned unchanged).

    Example:
        >>> type(scalar(np.float64(0.5))).__name__
        'float'
    """
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    return value


def printed_as_python(value: Any) -> Any:
    """A numpy float64, integer or bool scalar as the Python number numpy 1 printed it as (MindSpore 2.10 runs on
    numpy 1, where ``{'acc': np.float64(0.5)}`` prints as ``{'acc': 0.5}``; under numpy 2 it would not). Other
    values, float32 scalars among them (numpy 1 printed those in their own shortest digits), are returned as
    they are.

    Example:
        >>> printed_as_python(np.float64(0.5)), printed_as_python(np.int64(4)), printed_as_python(np.float32(0.5))
        (0.5, 4, np.float32(0.5))
    """
    if isinstance(value, (np.float64, np.integer, np.bool_)):
        return value.item()
    return value
