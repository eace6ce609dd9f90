"""MindSpore's loss cells over the functional losses of the op table (``nn.CrossEntropyLoss``, ``nn.MSELoss``, ...).

Every loss takes MindSpore's ``reduction`` ('mean', 'sum', 'none') and checks it when constructed.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> logits, labels = ms.Tensor([[2.0, 0.5, -1.0]]), ms.Tensor([0], ms.int32)
    >>> print(nn.CrossEntropyLoss()(logits, labels), nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, labels))
    0.24131124 [0.24131124]
"""
from __future__ import annotations

from typing import Any, Optional


from mskernel.common.tensor import Tensor
from mskernel.nn.wrap.loss_base import LossBase
from mskernel.ops import functional as F
from mskernel.ops.table.nn_loss import one_hot_array

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss",
           "SoftmaxCrossEntropyWithLogits", "BCEWithLogitsLoss", "BCELoss", "KLDivLoss"]


def _check(reduction: str, cls: str, allowed: tuple = ("mean", "sum", "none")) -> None:
    if reduction not in allowed:
        raise ValueError(f"For '{cls}', the 'reduction' must be in {list(allowed)}, but got {reduction}.")


class MSELoss(LossBase):
    """``nn.MSELoss(reduction='mean')``: ``(logits - labels)**2``.

    Example:
        >>> import mskernel as ms
        >>> print(MSELoss()(ms.Tensor([1.0, 3.0]), ms.Tensor([0.0, 1.0])))
        2.5
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        d = logits - labels
        return self.get_loss(d * d)


class L1Loss(LossBase):
    """``nn.L1Loss(reduction='mean')``: ``|logits - labels|``.

    Example:
        >>> import mskernel as ms
        >>> print(L1Loss()(ms.Tensor([1.0, 3.0]), ms.Tensor([0.0, 1.0])))
        1.5
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.get_loss(F.abs(logits - labels))


class SmoothL1Loss(LossBase):
    """``nn.SmoothL1Loss(beta=1.0, reduction='none')``.

    Example:
        >>> import mskernel as ms
        >>> print(SmoothL1Loss()(ms.Tensor([1.0, 3.0]), ms.Tensor([0.5, 1.0])))
        [0.125 1.5  ]
    """

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.beta = beta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class HuberLoss(LossBase):
    """``nn.HuberLoss(reduction='mean', delta=1.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(HuberLoss()(ms.Tensor([1.0, 3.0]), ms.Tensor([0.5, 1.0])))
        0.8125
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.huber_loss(logits, labels, self.reduction, self.delta)


class CrossEntropyLoss(LossBase):
    """``nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)``.

    Example:
        >>> import mskernel as ms
        >>> print(CrossEntropyLoss()(ms.Tensor([[2.0, 0.5, -1.0]]), ms.Tensor([0], ms.int32)))
        0.24131124
    """

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', the 'label_smoothing' must be in [0.0, 1.0], but got "
                             f"{label_smoothing}.")
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(CrossEntropyLoss):
    """``nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')`` over log-probabilities.

    Example:
        >>> import mskernel as ms
        >>> print(NLLLoss()(ms.Tensor([[-0.5, -1.0]]), ms.Tensor([1], ms.int32)))
        1.0
    """

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(weight, ignore_index, reduction)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """``nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``: labels are one-hot, or class
    indices with ``sparse=True``.

    Example:
        >>> import mskernel as ms
        >>> print(SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(ms.Tensor([[2.0, 0.5, -1.0]]),
        ...                                                                     ms.Tensor([0], ms.int32)))
        0.24131124
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        if self.sparse:
            labels = Tensor._wrap(one_hot_array(labels._data, logits.shape[-1], logits._data.dtype))
        loss = -F.sum(labels * F.log_softmax(logits, -1), -1)
        return self.get_loss(loss)


class BCEWithLogitsLoss(LossBase):
    """``nn.BCEWithLogitsLoss(reduction='mean', weight=None, pos_weight=None)``.

    Example:
        >>> import mskernel as ms
        >>> print(BCEWithLogitsLoss()(ms.Tensor([0.0, 2.0]), ms.Tensor([0.0, 1.0])))
        0.41003758
    """

    def __init__(self, reduction: str = "mean", weight: Any = None, pos_weight: Any = None) -> None:
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


class BCELoss(LossBase):
    """``nn.BCELoss(weight=None, reduction='mean')`` over probabilities.

    Example:
        >>> import mskernel as ms
        >>> print(BCELoss()(ms.Tensor([0.5, 0.9]), ms.Tensor([0.0, 1.0])))
        0.39925388
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class KLDivLoss(LossBase):
    """``nn.KLDivLoss(reduction='mean')``: labels * (log(labels) - logits); also 'batchmean'.

    Example:
        >>> import mskernel as ms
        >>> print(KLDivLoss(reduction="sum")(ms.Tensor([-1.0, -1.0]), ms.Tensor([0.5, 0.5])))
        0.30685282
    """

    def __init__(self, reduction: str = "mean") -> None:
        _check(reduction, "KLDivLoss", ("mean", "sum", "none", "batchmean"))
        super().__init__("none")
        self.reduction = reduction

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.kl_div(logits, labels, self.reduction)



