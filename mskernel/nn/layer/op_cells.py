"""Cells that wrap one op, which MindSpore keeps for old code: ``nn.OneHot`` (:func:`ops.one_hot`) and ``nn.Roll``
(:func:`ops.roll`).

``Roll(shift, axis)`` rolls each axis in turn by its shift. MindSpore 2.10's CPU wheel builds ``nn.Roll`` but has
no CPU kernel for the ``Roll`` primitive it calls ("The kernel Roll unregistered"); rolling is well defined, so here
it runs, and its arguments are checked as the wheel checks them.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> print(nn.Roll(1, 0)(ms.Tensor([1.0, 2.0, 3.0])))
    [3. 1. 2.]
"""
from __future__ import annotations

from typing import Any, List, Union

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["OneHot", "Roll"]


class OneHot(Cell):
    """``OneHot(axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=float32)``: ``indices`` as one-hot vectors
    of ``depth`` along ``axis``, ``on_value`` where the index is, ``off_value`` elsewhere (an index outside
    ``[0, depth)`` gives all ``off_value``), in ``dtype``.

    Example:
        >>> import mskernel as ms
        >>> print(OneHot(depth=3)(ms.Tensor([0, 2, -1], ms.int32)))
        [[1. 0. 0.]
         [0. 0. 1.]
         [0. 0. 0.]]
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: Any = 1.0, off_value: Any = 0.0,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices: Tensor) -> Tensor:
        on = F.cast(Tensor(self.on_value), self.dtype)
        off = F.cast(Tensor(self.off_value), self.dtype)
        return F.one_hot(indices, self.depth, on, off, self.axis)


def _as_list(value: Any, name: str) -> List[Any]:
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError(f"For 'Roll', the type of '{name}' should be one of '['int', 'tuple', 'list']', but got "
                        f"type '{type(value).__name__}'.")
    return list(value) if isinstance(value, (tuple, list)) else [value]


class Roll(Cell):
    """``Roll(shift, axis)``: the elements of the input moved ``shift`` places along ``axis`` (each an int, or
    lists of the same length, applied one pair after another), wrapping around.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Roll((1, -1), (0, 1))(ms.Tensor(np.arange(6.0).reshape(2, 3))))
        [[4. 5. 3.]
         [1. 2. 0.]]
    """

    def __init__(self, shift: Union[int, tuple, list], axis: Union[int, tuple, list]) -> None:
        super().__init__()
        self.shift, self.axis = _as_list(shift, "shift"), _as_list(axis, "axis")
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be the same, but got "
                             f"the length of 'shift' {len(self.shift)} and the length of 'axis' {len(self.axis)}.")

    def construct(self, input_x: Tensor) -> Tensor:
        rank = len(input_x.shape)
        for shift, axis in zip(self.shift, self.axis):
            if not -rank <= axis < rank:
                raise ValueError(f"For 'Roll', the 'axis' must be in range [{-rank}, {rank}), but got {axis}.")
            input_x = F.roll(input_x, shift, axis % rank)
        return input_x
