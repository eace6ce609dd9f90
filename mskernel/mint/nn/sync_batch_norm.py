"""``mint.nn.SyncBatchNorm``: torch's batch normalization whose batch statistics a process group shares. mskernel
runs one process (rank 0 of a group of 1), where the shared statistics are the local batch's: it is
``mint.nn.BatchNorm*d`` over the local batch, as MindSpore's CPU wheel runs it without ``init()``.

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> m = mint.nn.SyncBatchNorm(2)
    >>> _ = m.set_train(True)
    >>> print(m(ms.Tensor([[1.0, 2.0], [3.0, 6.0]])), m.running_mean.asnumpy())
    [[-0.999995  -0.9999988]
     [ 0.999995   0.9999988]] [0.2 0.4]
"""
from __future__ import annotations

from typing import Optional

from mskernel import dtype as mstype
from mskernel.mint.nn.normalization import _BatchNorm

__all__ = ["SyncBatchNorm"]


class SyncBatchNorm(_BatchNorm):
    """``mint.nn.SyncBatchNorm(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    process_group=None, dtype=None)`` on ``(N, C, *)`` inputs of 2 to 5 dims; ``process_group`` names a group, which in
    one process holds rank 0 alone.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> SyncBatchNorm(3)(ms.Tensor(np.zeros((2, 3, 4), np.float32))).shape
        (2, 3, 4)
    """

    _DIMS = (2, 3, 4, 5)

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: Optional[float] = 0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group: Optional[str] = None,
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group
