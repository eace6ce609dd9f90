"""MindSpore's margin, embedding, likelihood and overlap loss cells (``nn.MarginRankingLoss``,
``nn.CosineEmbeddingLoss``, ``nn.GaussianNLLLoss``, ``nn.DiceLoss``, ...), over the functional losses of the op
table where MindSpore has one.

Example:
    >>> import mskernel as ms
    >>> print(MarginRankingLoss(reduction="sum")(ms.Tensor([1.0, -1.0]), ms.Tensor([0.0, 0.5]),
    ...                                           ms.Tensor([1.0, 1.0])))
    1.5
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.wrap.loss_base import LossBase
from mskernel.ops import functional as F

__all__ = ["CosineEmbeddingLoss", "HingeEmbeddingLoss", "MarginRankingLoss", "MultiMarginLoss",
           "MultilabelMarginLoss", "MultiLabelSoftMarginLoss", "SoftMarginLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "GaussianNLLLoss", "PoissonNLLLoss", "FocalLoss", "DiceLoss",
           "MultiClassDiceLoss", "RMSELoss", "MAELoss", "L1LossExt"]


def _tensor(x: Any, name: str, cls: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{cls}', the '{name}' must be 'Tensor', but got '{type(x).__name__}'")
    return x


class MarginRankingLoss(LossBase):
    """``nn.MarginRankingLoss(margin=0.0, reduction='mean')``: ``max(0, -target * (input1 - input2) + margin)``.

    Example:
        >>> import mskernel as ms
        >>> print(MarginRankingLoss()(ms.Tensor([1.0, -1.0]), ms.Tensor([0.0, 0.5]), ms.Tensor([1.0, 1.0])))
        0.75
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """``nn.CosineEmbeddingLoss(margin=0.0, reduction='mean')``: ``1 - cos`` for target 1, ``max(0, cos - margin)``
    for target -1, the cosine taken over axis 1.

    Example:
        >>> import mskernel as ms
        >>> x1, x2 = ms.Tensor([[1.0, 0.0], [1.0, 1.0]]), ms.Tensor([[1.0, 1.0], [1.0, 1.0]])
        >>> print(CosineEmbeddingLoss(reduction="none")(x1, x2, ms.Tensor([1, -1])))
        [0.29289323 1.0000001 ]
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' should be 'float', but got type "
                            f"'{type(margin).__name__}'.")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in range of [-1.0, 1.0], but got {margin} "
                             f"with type 'float'.")
        self.margin = margin

    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:
        return F.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``nn.HingeEmbeddingLoss(margin=1.0, reduction='mean')``: ``x`` where the label is 1, ``max(0, margin - x)``
    where it is -1.

    Example:
        >>> import mskernel as ms
        >>> print(HingeEmbeddingLoss()(ms.Tensor([0.5, 0.3, 2.0]), ms.Tensor([1.0, -1.0, -1.0])))
        0.4
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise TypeError(f"For '{type(self).__name__}', the type of 'margin' should be float or int, but got "
                            f"{type(margin).__name__}.")
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    """``nn.SoftMarginLoss(reduction='mean')``: ``log(1 + exp(-labels * logits))``.

    Example:
        >>> import mskernel as ms
        >>> print(SoftMarginLoss()(ms.Tensor([0.5, -1.0]), ms.Tensor([1.0, -1.0])))
        0.3936693
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.soft_margin_loss(logits, labels, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """``nn.MultiLabelSoftMarginLoss(weight=None, reduction='mean')``: the per-class logistic loss averaged over
    the classes (the last axis).

    Example:
        >>> import mskernel as ms
        >>> print(MultiLabelSoftMarginLoss()(ms.Tensor([[0.5, -1.0]]), ms.Tensor([[1.0, 0.0]])))
        0.3936693
    """

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class MultiMarginLoss(LossBase):
    """``nn.MultiMarginLoss(p=1, margin=1.0, reduction='mean', weight=None)``: the multi-class hinge loss.

    Example:
        >>> import mskernel as ms
        >>> print(MultiMarginLoss()(ms.Tensor([[0.1, 0.8, 0.3]]), ms.Tensor([1])))
        0.26666665
    """

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight: Any = None) -> None:
        super().__init__(reduction)
        from mskernel.ops import operations as P
        self.multi_margin_loss = P.MultiMarginLoss(p=p, margin=margin, reduction=reduction)
        self.weight = weight

    def construct(self, x: Tensor, target: Tensor, weight: Any = None) -> Tensor:
        _tensor(x, "x", self.cls_name)
        _tensor(target, "target", self.cls_name)
        if self.weight is not None:
            weight = self.weight
        return self.multi_margin_loss(x, target, weight)


class MultilabelMarginLoss(LossBase):
    """``nn.MultilabelMarginLoss(reduction='mean')``: the multi-label hinge loss; each target row lists the
    classes of the sample, ended by -1.

    Example:
        >>> import mskernel as ms
        >>> print(MultilabelMarginLoss()(ms.Tensor([[0.1, 0.2, 0.4, 0.8]]), ms.Tensor([[3, 0, -1, 1]], ms.int32)))
        0.85
    """

    def construct(self, x: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(x, target, self.reduction)


class TripletMarginLoss(LossBase):
    """``nn.TripletMarginLoss(p=2, swap=False, eps=1e-06, reduction='mean', margin=1.0)``.

    Example:
        >>> import mskernel as ms
        >>> a, p, n = ms.Tensor([[0.0, 1.0]]), ms.Tensor([[0.0, 0.5]]), ms.Tensor([[1.0, 1.0]])
        >>> print(TripletMarginLoss()(a, p, n))
        0.500002
    """

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x: Tensor, positive: Tensor, negative: Tensor, margin: Any = 1.0) -> Tensor:
        if self.margin != 1.0:
            margin = self.margin
        return F.triplet_margin_loss(x, positive, negative, margin=margin, p=self.p, eps=self.eps, swap=self.swap,
                                     reduction=self.reduction)


def _l2_distance(x: Tensor, y: Tensor) -> Tensor:
    d = F.abs(x - y)
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be "
                         f"positive, but got {d.ndim}")
    return F.sqrt(F.sum(d * d, 1))


class TripletMarginWithDistanceLoss(LossBase):
    """``nn.TripletMarginWithDistanceLoss(distance_function=None, swap=False, reduction='mean', margin=1.0)``: the
    distance is the Euclidean norm over axis 1 unless a function is given.

    Example:
        >>> import mskernel as ms
        >>> a, p, n = ms.Tensor([[0.0, 1.0]]), ms.Tensor([[0.0, 0.5]]), ms.Tensor([[1.0, 1.0]])
        >>> print(TripletMarginWithDistanceLoss()(a, p, n))
        0.5
    """

    def __init__(self, distance_function: Optional[Callable] = None, swap: bool = False, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' must be float, but got "
                            f"{type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'swap' must be bool, but got {type(swap).__name__}.")
        self.distance_function = distance_function or _l2_distance
        self.swap, self.margin = swap, margin

    def construct(self, x: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        for t, n in ((x, "x"), (positive, "positive"), (negative, "negative")):
            _tensor(t, n, self.cls_name)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = F.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(F.maximum(d1 - d2 + self.margin, 0.0))


class GaussianNLLLoss(LossBase):
    """``nn.GaussianNLLLoss(*, full=False, eps=1e-06, reduction='mean')``.

    Example:
        >>> import mskernel as ms
        >>> print(GaussianNLLLoss()(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.5, 1.0]]), ms.Tensor([[0.5, 2.0]])))
        0.25
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None:
        if not eps > 0:
            raise ValueError(f"For '{type(self).__name__}', the 'eps' must be in range of (0, inf), but got {eps} "
                             f"with type '{type(eps).__name__}'.")
        if not isinstance(full, bool):
            raise TypeError(f"For '{type(self).__name__}', the type of 'full' must be bool, but got "
                            f"{type(full).__name__}.")
        super().__init__(reduction)
        self.full, self.eps = full, eps

    def construct(self, logits: Tensor, labels: Tensor, var: Tensor) -> Tensor:
        for t, n in ((logits, "logits"), (labels, "labels"), (var, "var")):
            _tensor(t, n, self.cls_name)
        return F.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """``nn.PoissonNLLLoss(log_input=True, full=False, eps=1e-08, reduction='mean')``: ``exp(input) - target *
    input`` (``input - target * log(input + eps)`` with ``log_input=False``), plus Stirling's term with ``full``.

    Example:
        >>> import mskernel as ms
        >>> print(PoissonNLLLoss()(ms.Tensor([[0.3, 0.7], [0.5, 0.5]]), ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        0.3652635
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        _tensor(input, "input", self.cls_name)
        _tensor(target, "target", self.cls_name)
        target = F.cast(target, input.dtype)
        if self.log_input:
            loss = F.exp(input) - target * input
        else:
            loss = input - target * F.log(input + self.eps)
        if self.full:
            t = F.maximum(target, self.eps)
            stirling = (t * F.log(t) - t + 0.5 * F.log(2 * math.pi * t))
            loss = loss + F.where(t > 1, stirling, F.zeros_like(stirling))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """``nn.FocalLoss(weight=None, gamma=2.0, reduction='mean')``: ``-(1 - p)**gamma * log(p)`` over a softmax along
    axis 1; labels are class indices (axis 1 of size 1) or one-hot.

    Example:
        >>> import mskernel as ms
        >>> logits = ms.Tensor([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]])
        >>> print(FocalLoss(weight=ms.Tensor([1.0, 2.0]))(logits, ms.Tensor([[1], [1], [0]], ms.int32)))
        0.12516621
    """

    def __init__(self, weight: Optional[Tensor] = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"The type of 'gamma' should be 'float', but got type '{type(gamma).__name__}'.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.weight, self.gamma = weight, gamma

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _tensor(logits, "logits", self.cls_name)
        _tensor(labels, "labels", self.cls_name)
        if logits.ndim < 2 or labels.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the dimensions of 'logits' and 'labels' must be greater than 1, "
                             f"but got {logits.ndim} and {labels.ndim}.")
        n, c = logits.shape[0], logits.shape[1]
        x = F.reshape(logits, (n, c, -1))
        lab = F.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        logp = F.log_softmax(x, 1)
        sparse = labels.shape[1] == 1
        if sparse:
            idx = F.cast(lab, mstype.int32)
            logp = F.squeeze(F.gather_elements(logp, 1, idx), 1)
        p = F.exp(logp)
        if self.weight is not None:
            w = F.tile(F.reshape(F.cast(self.weight, logp.dtype), (1, -1, 1)), (n, 1, x.shape[2]))
            if sparse:
                w = F.squeeze(F.gather_elements(w, 1, idx), 1)
            logp = logp * w
        focus = F.pow(1.0 - p, self.gamma)
        if sparse:
            loss = F.mean(-focus * logp, 1)
        else:
            loss = F.mean(-focus * F.cast(lab, logp.dtype) * logp, -1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``nn.DiceLoss(smooth=1e-05)``: ``1 - 2 * sum(logits * labels) / (sum(logits**2) + sum(labels**2) + smooth)``.

    Example:
        >>> import mskernel as ms
        >>> print(DiceLoss()(ms.Tensor([[0.2, 0.5], [0.3, 0.1]]), ms.Tensor([[0.0, 1.0], [1.0, 0.0]])))
        0.33054668
    """

    def __init__(self, smooth: float = 1e-05) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"The 'smooth' must be a positive float, but got {smooth}.")
        self.smooth = smooth

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _tensor(logits, "logits", self.cls_name)
        _tensor(label, "labels", self.cls_name)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For '{self.cls_name}', the 'logits_shape' should be = label_shape: "
                             f"{tuple(label.shape)}, but got {tuple(logits.shape)}.")
        x, y = F.reshape(logits, (-1,)), F.reshape(label, (-1,))
        union = F.sum(x * x) + F.sum(y * y)
        return 1 - 2 * F.sum(x * y) / (union + self.smooth)


class MultiClassDiceLoss(LossBase):
    """``nn.MultiClassDiceLoss(weights=None, ignore_indiex=None, activation='softmax')``: the mean of the per-class
    :class:`DiceLoss` over axis 1, after the activation.

    Example:
        >>> import mskernel as ms
        >>> logits = ms.Tensor([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5], [0.9, 0.6, 0.3]])
        >>> labels = ms.Tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
        >>> print(MultiClassDiceLoss()(logits, labels))
        0.54958105
    """

    _ACTIVATIONS = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]

    def __init__(self, weights: Optional[Tensor] = None, ignore_indiex: Optional[int] = None,
                 activation: Any = "softmax") -> None:
        super().__init__()
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weights' must be Tensor, but got "
                            f"{type(weights).__name__}.")
        if isinstance(weights, Tensor) and weights.ndim != 2:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weights' must be 2, but got {weights.ndim}.")
        if isinstance(activation, str) and activation not in self._ACTIVATIONS:
            raise ValueError(f"For '{self.cls_name}', the 'activation' must be in {self._ACTIVATIONS}, but got "
                             f"{activation}.")
        if isinstance(activation, str):
            from mskernel.nn.layer.activation import get_activation
            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell, but got "
                            f"{type(activation)}.")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation
        self.binarydiceloss = DiceLoss(smooth=1e-05)

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _tensor(logits, "logits", self.cls_name)
        _tensor(label, "labels", self.cls_name)
        if logits.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the 'logits' dimension must be greater than 1, but got "
                             f"{logits.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total: Any = 0
        for i in range(label.shape[1]):
            if i != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    if self.weights.shape[0] != label.shape[1]:
                        raise ValueError(f"For '{self.cls_name}', the weight_shape[0] must be equal to "
                                         f"label_shape[1], but got weight_shape[0]: {self.weights.shape[0]} and "
                                         f"label_shape[1]: {label.shape[1]}.")
                    loss = loss * self.weights[i]
                total = total + loss
        return total / label.shape[1]


class RMSELoss(LossBase):
    """``nn.RMSELoss()``: the square root of the mean squared error (labels broadcast against logits).

    Example:
        >>> import mskernel as ms
        >>> print(RMSELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.57735026
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        d = logits - label
        return F.sqrt(self.get_loss(d * d))


class MAELoss(LossBase):
    """``nn.MAELoss(reduction='mean')``: ``|logits - labels|``, reduced.

    Example:
        >>> import mskernel as ms
        >>> print(MAELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.33333334
    """

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _tensor(logits, "logits", self.cls_name)
        _tensor(label, "labels", self.cls_name)
        return self.get_loss(F.abs(logits - label))


class L1LossExt(LossBase):
    """``nn.L1LossExt(reduction='mean')``: ``|logits - labels|`` (broadcast), reduced.

    Example:
        >>> import mskernel as ms
        >>> print(L1LossExt(reduction="sum")(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        1.0
    """

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return F.l1_loss(logits, labels, self.reduction)
