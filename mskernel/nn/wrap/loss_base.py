"""``nn.LossBase``: the base class of losses, with MindSpore's reduction handling (``get_loss``).

A loss subclasses it, computes the element-wise loss in ``construct`` and returns
``self.get_loss(x, weights)``: the values are computed in float32, multiplied by ``weights``, reduced
by ``reduction`` ('mean', 'sum' or 'none') over every axis and cast back to the input's dtype.

Example:
    >>> import mskernel as ms
    >>> class Abs(LossBase):
    ...     def construct(self, logits, labels):
    ...         return self.get_loss((logits - labels).abs())
    >>> print(Abs()(ms.Tensor([1.0, 4.0]), ms.Tensor([0.0, 0.0])))
    2.5
"""
from __future__ import annotations

from typing import Any, Tuple

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["LossBase"]

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base class of losses: ``reduction`` is 'mean' (default), 'sum' or 'none'.

    Example:
        >>> import mskernel as ms
        >>> class Sq(LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss((logits - labels) ** 2)
        >>> print(Sq("sum")(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0])))
        5.0
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x: Tensor) -> Tuple[int, ...]:
        """Every axis of ``x`` (what the reduction runs over).

        Example:
            >>> import mskernel as ms
            >>> LossBase().get_axis(ms.Tensor([[1.0, 2.0]]))
            (0, 1)
        """
        return tuple(range(len(x.shape)))

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        """``x`` times ``weights`` (in float32), reduced as ``reduction`` says, in ``x``'s dtype.

        Example:
            >>> import mskernel as ms
            >>> print(LossBase().get_loss(ms.Tensor([1.0, 3.0]), ms.Tensor([2.0, 1.0])))
            2.5
        """
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{self.cls_name}', 'get_loss' needs a Tensor 'x', but got {type(x).__name__}.")
        input_dtype = x.dtype
        x = x.astype(mstype.float32) if input_dtype != mstype.float32 else x
        if isinstance(weights, Tensor):
            w = weights.astype(mstype.float32) if weights.dtype != mstype.float32 else weights
            x = w * x
        elif weights != 1.0:
            x = x * float(weights)
        axis = self.get_axis(x)
        if self.reduce and axis:
            x = x.mean(axis) if self.average else x.sum(axis)
        return x.astype(input_dtype) if x.dtype != input_dtype else x

    def construct(self, logits: Any, labels: Any) -> Any:
        """Subclasses compute the loss here.

        Example:
            >>> LossBase().construct(None, None)
            Traceback (most recent call last):
            ...
            NotImplementedError: For 'LossBase', subclasses must define 'construct'.
        """
        raise NotImplementedError(f"For '{self.cls_name}', subclasses must define 'construct'.")
