"""``nn.CTCLoss``: the connectionist temporal classification loss cell over :func:`mskernel.ops.ctc_loss`.

Example:
    >>> import numpy as np, mskernel as ms
    >>> lp = ms.Tensor(np.log(np.full((2, 1, 2), 0.5, np.float32)))
    >>> print(CTCLoss(reduction="none")(lp, ms.Tensor([[1]]), ms.Tensor([2]), ms.Tensor([1])))
    [0.2876821]
"""
from __future__ import annotations

from mskernel.common.tensor import Tensor
from mskernel.nn.wrap.loss_base import LossBase
from mskernel.ops import functional as F

__all__ = ["CTCLoss"]


class CTCLoss(LossBase):
    """``nn.CTCLoss(blank=0, reduction='mean', zero_infinity=False)``: called with log-probabilities (T, N, C) or
    one unbatched sequence (T, C), targets, input lengths and target lengths.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> lp = ms.Tensor(np.log(np.full((2, 2), 0.5, np.float32)))
        >>> print(CTCLoss()(lp, ms.Tensor([1]), ms.Tensor([2]), ms.Tensor([1])))
        0.2876821
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction)
        if isinstance(blank, bool) or not isinstance(blank, int) or blank < 0:
            raise ValueError(f"For 'CTCLoss', the 'blank' must be a non-negative int, but got {blank}.")
        if not isinstance(zero_infinity, bool):
            raise TypeError(f"For 'CTCLoss', the type of 'zero_infinity' should be 'bool', but got type "
                            f"'{type(zero_infinity).__name__}'.")
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor) -> Tensor:
        unbatched = log_probs.ndim == 2
        if unbatched:
            log_probs, targets = F.expand_dims(log_probs, 1), F.expand_dims(targets, 0)
        loss, _ = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                             self.zero_infinity)
        return F.squeeze(loss) if unbatched else loss
