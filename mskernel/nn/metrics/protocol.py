"""The metric protocol: the ``Metric`` base class, ``rearrange_inputs``, and the form results are given in.

A metric accumulates with ``update(*inputs)``, answers with ``eval()`` and starts over with ``clear()``;
calling it (``metric(y_pred, y)``) does all three. ``set_indexes([i, j])`` picks which of the inputs
``update`` sees (for networks that return more than the metric needs).

Scalar results are Python floats (:func:`scalar`; MindSpore's are numpy float64 scalars, which print the
same under numpy 1; under numpy 2 they would print as ``np.float64(...)``), and ``Model.eval`` shows the
results of any metric, a user's too, as numpy 1 printed them (:func:`printed_as_python`). The metrics that
ship are grouped by family: :mod:`~mskernel.nn.metrics.classification`, :mod:`~mskernel.nn.metrics.regression`,
:mod:`~mskernel.nn.metrics.loss`; :mod:`~mskernel.nn.metrics.by_name` builds them from MindSpore's short names.

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
