"""Parameter and ParameterTuple (MindSpore's ``mindspore.common.parameter``): trainable tensors.

Example:
    >>> import mskernel as ms
    >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    >>> p.name, len(ms.ParameterTuple([p]))
    ('w', 1)
"""
from __future__ import annotations

import itertools
from typing import Any, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor, _to_array

__all__ = ["Parameter", "ParameterTuple"]

_param_counter = itertools.count(1)


class Parameter(Tensor):
    """A trainable tensor: ``Parameter(default_input, name=None, requires_grad=True)``.

    Assigned as an attribute of an :class:`mskernel.nn.Cell`, an unnamed Parameter takes the
    attribute's name.

    Example:
        >>> import mskernel as ms
        >>> p = ms.Parameter(2.0, name="w")
        >>> p
        Parameter (name=w, shape=(), dtype=Float32, requires_grad=True)
    """

    __slots__ = ("name", "_auto_name", "layerwise_parallel", "__dict__")

    def __init__(self, default_input: Any, name: Optional[str] = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True) -> None:
        if isinstance(default_input, Tensor):
            arr = np.array(default_input._data, copy=True)
        else:
            arr = _to_array(default_input, None)
        self._data = arr
        self._node = None
        self._idx = 0
        self._version = 0
        self._auto_name = name is None
        if name is not None and not isinstance(name, str):
            raise TypeError(f"For 'Parameter', the 'name' must be a str, but got {type(name).__name__}.")
        self.name = name if name is not None else f"Parameter#{next(_param_counter)}"
        self._rg = False
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel

    @property
    def requires_grad(self) -> bool:
        """Whether the parameter wants a gradient (an integer one keeps the flag but gets none)."""
        return self._rg or self.__dict__.get("_int_rg", False)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if mstype.is_float(self.dtype):
            self._rg = bool(value)
        else:  # MindSpore accepts integer Parameters: they are simply not differentiated
            self.__dict__["_int_rg"] = bool(value)

    def __str__(self) -> str:
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __repr__ = __str__

    @property
    def data(self) -> "Parameter":
        """The parameter itself (MindSpore's ``param.data``)."""
        return self

    def value(self) -> Tensor:
        """The current value as a plain Tensor sharing memory."""
        return Tensor._wrap(self._data)

    def set_data(self, data: Any) -> "Parameter":
        """Replace the value (shape may change; dtype is kept).

        Example:
            >>> import mskernel as ms
            >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
            >>> print(p.set_data(ms.Tensor([3.0, 4.0])))
            Parameter (name=p, shape=(2,), dtype=Float32, requires_grad=True)
        """
        arr = data._data if isinstance(data, Tensor) else np.asarray(data)
        self._data = np.array(arr, dtype=self._data.dtype, copy=True)
        self._version += 1
        return self

    def clone(self, init: str = "same") -> "Parameter":
        """A copy with the same name, value and requires_grad."""
        return Parameter(self._data, name=self.name, requires_grad=self.requires_grad)

    def __reduce__(self):
        return (Parameter, (np.array(self._data), self.name, self.requires_grad))


class ParameterTuple(tuple):
    """A tuple of Parameters (MindSpore's ``ParameterTuple``), accepted as ``weights``.

    Example:
        >>> import mskernel as ms
        >>> len(ParameterTuple([ms.Parameter(1.0, name="a")]))
        1
    """

    def __new__(cls, iterable: Any = ()) -> "ParameterTuple":
        items = tuple(iterable)
        for i, p in enumerate(items):
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: item {i} must be a Parameter, but got {type(p).__name__}.")
        return super().__new__(cls, items)
