"""``nn.SyncBatchNorm``: batch normalization whose batch statistics a group of processes share. mskernel runs one
process (rank 0 of a group of 1), where the shared statistics are the local batch's: it is ``BatchNorm`` over the
local batch, as MindSpore's CPU wheel runs it without ``init()``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> m = nn.SyncBatchNorm(2)
    >>> _ = m.set_train(True)
    >>> print(m(ms.Tensor([[1.0, 2.0], [3.0, 6.0]])), m.moving_mean.asnumpy())
    [[-0.999995  -0.9999988]
     [ 0.999995   0.9999988]] [0.2 0.4]
"""
from __future__ import annotations

from typing import Any, Optional

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.layer.normalization import _BatchNorm

__all__ = ["SyncBatchNorm"]


class SyncBatchNorm(_BatchNorm):
    """``nn.SyncBatchNorm(num_features, eps=1e-05, momentum=0.9, affine=True, gamma_init='ones', beta_init='zeros',
    moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None, process_groups=None,
    dtype=mindspore.float32)`` on (N, C) or (N, C, H, W); ``process_groups`` names groups of ranks, which in one
    process hold rank 0 alone.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> SyncBatchNorm(3)(ms.Tensor(np.zeros((2, 3, 4, 4), np.float32))).shape
        (2, 3, 4, 4)
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: Optional[bool] = None,
                 process_groups: Any = None, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        if process_groups is not None and not isinstance(process_groups, list):
            raise TypeError(f"For 'SyncBatchNorm', the type of 'process_groups' must be list, but got "
                            f"{type(process_groups).__name__}.")
        self.process_groups = process_groups

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (2, 4):
            raise ValueError(f"For 'SyncBatchNorm', the must have 2 dims or 4 dims, but got {x.ndim}.")
        return self._normalize(x)
