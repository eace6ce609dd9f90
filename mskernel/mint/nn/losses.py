"""``mindspore.mint.nn``'s losses of its own: cells calling one function of :mod:`mskernel.mint.nn.functional`
with the reduction and options they were built with (the losses ``mint.nn`` shares with ``nn`` are ``nn``'s).

Example:
    >>> import mskernel as ms
    >>> x, y = ms.Tensor([1.0, 1.0]), ms.Tensor([3.0, 0.0])
    >>> print(MSELoss()(x, y), MSELoss("sum")(x, y))
    2.5 5.0
"""
from __future__ import annotations

from typing import Any, Optional

from mskernel.common.tensor import Tensor
from mskernel.mint.nn import functional as F
from mskernel.nn.cell import Cell

__all__ = ["MSELoss", "SmoothL1Loss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss",
           "CosineEmbeddingLoss"]


class _Loss(Cell):
    """A loss calling one function of ``mint.nn.functional`` with the arguments it was built with."""

    _FN = ""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self._kwargs = kwargs

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return getattr(F, self._FN)(input, target, **self._kwargs)


class MSELoss(_Loss):
    """``mint.nn.MSELoss(reduction='mean')``.

    Example:
        >>> import mskernel as ms
        >>> print(MSELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 4.0])))
        2.0
    """

    _FN = "mse_loss"

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """``mint.nn.SmoothL1Loss(reduction='mean', beta=1.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(SmoothL1Loss()(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5, 4.0])))
        0.8125
    """

    _FN = "smooth_l1_loss"

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(reduction=reduction, beta=beta)


class CrossEntropyLoss(_Loss):
    """``mint.nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(CrossEntropyLoss()(ms.Tensor([[0.0, 0.0]]), ms.Tensor([1])))
        0.6931472
    """

    _FN = "cross_entropy"

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction,
                         label_smoothing=label_smoothing)


class NLLLoss(_Loss):
    """``mint.nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')``.

    Example:
        >>> import mskernel as ms
        >>> print(NLLLoss()(ms.Tensor([[-1.0, -2.0]]), ms.Tensor([1])))
        2.0
    """

    _FN = "nll_loss"

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class BCELoss(_Loss):
    """``mint.nn.BCELoss(weight=None, reduction='mean')``.

    Example:
        >>> import mskernel as ms
        >>> print(BCELoss()(ms.Tensor([0.5, 0.5]), ms.Tensor([0.0, 1.0])))
        0.6931472
    """

    _FN = "binary_cross_entropy"

    def __init__(self, weight: Optional[Tensor] = None, reduction: str = "mean") -> None:
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """``mint.nn.BCEWithLogitsLoss(weight=None, reduction='mean', pos_weight=None)``.

    Example:
        >>> import mskernel as ms
        >>> print(BCEWithLogitsLoss()(ms.Tensor([0.0, 0.0]), ms.Tensor([0.0, 1.0])))
        0.6931472
    """

    _FN = "binary_cross_entropy_with_logits"

    def __init__(self, weight: Optional[Tensor] = None, reduction: str = "mean",
                 pos_weight: Optional[Tensor] = None) -> None:
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class KLDivLoss(_Loss):
    """``mint.nn.KLDivLoss(reduction='mean', log_target=False)``: the input holds log-probabilities.

    Example:
        >>> import mskernel as ms
        >>> print(KLDivLoss(reduction="sum")(ms.Tensor([-0.6931472, -0.6931472]), ms.Tensor([0.5, 0.5])))
        0.0
    """

    _FN = "kl_div"

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(reduction=reduction, log_target=log_target)


class CosineEmbeddingLoss(Cell):
    """``mint.nn.CosineEmbeddingLoss(margin=0.0, reduction='mean')``: called with ``(input1, input2, target)``.

    Example:
        >>> import mskernel as ms
        >>> print(CosineEmbeddingLoss()(ms.Tensor([[1.0, 0.0]]), ms.Tensor([[1.0, 1.0]]), ms.Tensor([1])))
        0.29289323
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)
