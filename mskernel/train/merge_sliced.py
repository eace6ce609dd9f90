"""``mindspore.merge_sliced_parameter``: one Parameter from the slices a model-parallel run saved of it.

Without a ``strategy`` the slices are joined along axis 0, as MindSpore does; merging by a strategy needs the
layouts MindSpore's auto-parallel compiler writes, which mskernel (one process, no graph compiler) does not
have.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> parts = [ms.Parameter(ms.Tensor(np.ones(2)), "w"), ms.Parameter(ms.Tensor(np.zeros(2)), "w")]
    >>> print(merge_sliced_parameter(parts))
    Parameter (name=w, shape=(4,), dtype=Float64, requires_grad=True)
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor

__all__ = ["merge_sliced_parameter"]

_WHO = "For 'merge_sliced_parameter'"


def merge_sliced_parameter(sliced_parameters: List[Parameter], strategy: Optional[Any] = None) -> Parameter:
    """The slices (same name, same shape after axis 0) joined along axis 0 into one Parameter.

    Example:
        >>> import mskernel as ms
        >>> merge_sliced_parameter([])
        Traceback (most recent call last):
        ...
        ValueError: For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.
    """
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"{_WHO}, the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"{_WHO}, the argument 'sliced_parameters' should not be empty.")
    if strategy is not None:
        raise ValueError(f"'{type(strategy).__name__}' object has no attribute 'dev_matrix'. {_WHO}, please make "
                         f"sure that 'strategy' is correct (mskernel merges by axis 0 only: a strategy's layouts "
                         f"come from MindSpore's auto-parallel compiler).")
    first = sliced_parameters[0]
    for i, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError(f"'{type(p).__name__}' object has no attribute 'name' {_WHO}, the element in "
                            f"'sliced_parameters' should be 'Parameter', but got {type(p)} at index {i}.")
        if p.name != first.name or p.ndim != first.ndim or p.shape[1:] != first.shape[1:]:
            raise ValueError(f"{_WHO}, please make sure that the elements in 'slice_parameters' have the same name, "
                             f"dimension length and shape except 0 axis. The name, dimension length, shape except 0 "
                             f"axis should be {first.name}, {first.ndim}, {first.shape[1:]}, but got name: {p.name}, "
                             f"dimension length: {p.ndim}, shape except 0 axis: {p.shape[1:]} at index {i}.")
    merged = np.concatenate([p.asnumpy() for p in sliced_parameters], axis=0)
    return Parameter(Tensor(merged), first.name, requires_grad=first.requires_grad)
