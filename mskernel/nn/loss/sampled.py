"""``nn.SampledSoftmaxLoss``: softmax cross-entropy over the true classes and a sample of the others.

For each example the logits are ``inputs @ weights[c] + biases[c]`` for its ``num_true`` true classes and for the
``num_sampled`` sampled classes (shared by the batch), each minus the log of its expected count under the sampler;
the target puts ``1 / num_true`` on each true class. The sample is ``sampled_values``
``(sampled_candidates, true_expected_count, sampled_expected_count)`` when given, else a draw of
``ops.UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed, remove_accidental_hits)``. The loss
has one value per example: as in MindSpore 2.10, ``reduction`` is checked but not applied.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> loss = nn.SampledSoftmaxLoss(num_sampled=2, num_classes=4, sampled_values=(ms.Tensor(np.array([1, 3],
    ...     np.int32)), ms.Tensor(np.ones((2, 1), np.float32)), ms.Tensor(np.ones(2, np.float32))))
    >>> out = loss(ms.Tensor(np.zeros((4, 3), np.float32)), ms.Tensor(np.zeros(4, np.float32)),
    ...     ms.Tensor(np.array([[0], [2]], np.int32)), ms.Tensor(np.ones((2, 3), np.float32)))
    >>> print(out)   # three equal logits: log(3)
    [1.0986123 1.0986123]
"""
from __future__ import annotations

from typing import Optional, Sequence

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.wrap.loss_base import LossBase
from mskernel.ops import UniformCandidateSampler
from mskernel.ops import functional as F

__all__ = ["SampledSoftmaxLoss"]


class SampledSoftmaxLoss(LossBase):
    """``SampledSoftmaxLoss(num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
    seed=0, reduction='none')``, called with ``(weights, biases, labels, logits)``: ``weights`` (num_classes, dim),
    ``biases`` (num_classes,), ``labels`` (batch, num_true) int32/int64, ``logits`` (batch, dim) the inputs.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> loss = SampledSoftmaxLoss(num_sampled=3, num_classes=8, seed=1)
        >>> loss(ms.Tensor(np.ones((8, 4), np.float32)), ms.Tensor(np.zeros(8, np.float32)),
        ...      ms.Tensor(np.array([[1], [5]], np.int32)), ms.Tensor(np.ones((2, 4), np.float32))).shape
        (2,)
    """

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1,
                 sampled_values: Optional[Sequence[Tensor]] = None, remove_accidental_hits: bool = True,
                 seed: int = 0, reduction: str = "none") -> None:
        super().__init__(reduction)
        name = self.cls_name
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{name}', the 'num_sampled' must be smaller than or equal to 'num_classes', but "
                             f"got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{name}', the 'num_true' must be smaller than or equal to 'num_classes', but got "
                             f"'num_true': {num_true} amd 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{name}', the type of 'sampled_values' must be a list or tuple, but got "
                                f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{name}', the length of 'sampled_values' must be equal to 3,but got "
                                 f"{len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values, self.remove_accidental_hits, self.seed = sampled_values, remove_accidental_hits, seed
        self.sampler = UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed, remove_accidental_hits)

    def construct(self, weights: Tensor, biases: Tensor, labels: Tensor, logits: Tensor) -> Tensor:
        name = self.cls_name
        for arg, value in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(value).__name__}.")
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{name}', the 'labels' should be one of [{mstype.int32!r}, {mstype.int64!r}], but "
                            f"got '{labels.dtype!r}'.")
        labels = F.reshape(F.cast(labels, mstype.int32), (-1, self.num_true))
        sampled, true_count, sampled_count = (self.sampled_values if self.sampled_values is not None
                                              else self.sampler(labels))
        sampled = F.cast(sampled, mstype.int32)
        true_w = F.gather(weights, F.reshape(labels, (-1,)), 0)                 # (batch * num_true, dim)
        true_w = F.reshape(true_w, (-1, self.num_true, weights.shape[1]))
        true_logits = F.sum(F.expand_dims(logits, 1) * true_w, -1)             # (batch, num_true)
        true_logits = true_logits + F.reshape(F.gather(biases, F.reshape(labels, (-1,)), 0), (-1, self.num_true))
        sampled_logits = F.matmul(logits, F.transpose(F.gather(weights, sampled, 0), (1, 0)))
        sampled_logits = sampled_logits + F.gather(biases, sampled, 0)
        true_logits = true_logits - F.log(true_count)
        sampled_logits = sampled_logits - F.log(sampled_count)
        all_logits = F.concat((true_logits, sampled_logits), 1)
        target = F.concat((F.ones_like(true_logits) / self.num_true, F.zeros_like(sampled_logits)), 1)
        shifted = F.exp(all_logits - F.amax(all_logits, 1, True))
        prob = shifted / F.sum(shifted, 1, True)
        return -F.sum(target * F.log(prob + 1.0e-20), 1)

