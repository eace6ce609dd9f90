"""``mindspore.mint.nn``'s normalization layers: torch's batch norms (with running statistics and
``num_batches_tracked``) and group norm, over :mod:`mskernel.mint.nn.functional`.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import mint
    >>> bn = mint.nn.BatchNorm1d(2).set_train()
    >>> print(bn(ms.Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))), bn.num_batches_tracked.asnumpy())
    [[-0.999995  -0.9999988]
     [ 0.999995   0.9999988]] 1
"""
from __future__ import annotations

from typing import Optional, Tuple

from mskernel import dtype as mstype
from mskernel.common.initializer import initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.mint.nn import functional as F
from mskernel.nn.cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm"]


class _BatchNorm(Cell):
    """Torch's batch norm: Parameters ``weight``, ``bias``, and (not trained) ``running_mean``, ``running_var``,
    ``num_batches_tracked``; batch statistics in training or without running statistics; ``momentum=None``
    averages the batches seen so far."""

    _DIMS: Tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: Optional[float] = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Optional[mstype.Type] = None) -> None:
        super().__init__()
        dt = mstype.float32 if dtype is None else dtype
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = Parameter(initializer("ones", (num_features,), dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", (num_features,), dt), name="bias") if affine else None
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", (num_features,), dt), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(initializer("ones", (num_features,), dt), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input: Tensor) -> Tensor:
        if input.ndim not in self._DIMS:
            raise ValueError(f"For '{type(self).__name__}', the input must be {' or '.join(map(str, self._DIMS))}-D, "
                             f"but got {input.ndim}-D.")
        training = self.training or not self.track_running_stats
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(Tensor(int(self.num_batches_tracked.asnumpy()) + 1, mstype.int64))
            if self.momentum is None:
                momentum = 1.0 / int(self.num_batches_tracked.asnumpy())
        mean, var = (self.running_mean, self.running_var) if self.track_running_stats else (None, None)
        if mean is None:  # batch statistics only: scratch running statistics nobody keeps
            mean = Tensor([0.0] * self.num_features, input.dtype)
            var = Tensor([1.0] * self.num_features, input.dtype)
        return F.batch_norm(input, mean, var, self.weight, self.bias, training, momentum, self.eps)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm2d(_BatchNorm):
    """``mint.nn.BatchNorm2d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    dtype=None)`` on (N, C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> m = BatchNorm2d(1)
        >>> _ = m.set_train(True)
        >>> print(m(ms.Tensor(np.array([1.0, 3.0], np.float32).reshape(2, 1, 1, 1))).reshape(-1),
        ...       m.running_mean.asnumpy(), m.num_batches_tracked.asnumpy())
        [-0.999995  0.999995] [0.2] 1
    """

    _DIMS = (4,)


class BatchNorm1d(_BatchNorm):
    """``mint.nn.BatchNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    dtype=None)`` on (N, C) or (N, C, L).

    Example:
        >>> import mskernel as ms
        >>> print(BatchNorm1d(2)(ms.Tensor([[1.0, 2.0]])))
        [[0.999995 1.99999 ]]
    """

    _DIMS = (2, 3)


class BatchNorm3d(_BatchNorm):
    """``mint.nn.BatchNorm3d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
    dtype=None)`` on (N, C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> BatchNorm3d(2)(ms.Tensor(np.ones((1, 2, 1, 2, 2), np.float32))).shape
        (1, 2, 1, 2, 2)
    """

    _DIMS = (5,)


class GroupNorm(Cell):
    """``mint.nn.GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, dtype=None)``: Parameters ``weight``
    and ``bias``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(GroupNorm(1, 2)(ms.Tensor(np.array([[1.0, 3.0]], np.float32))))
        [[-0.999995  0.999995]]
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True,
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divisible by 'num_groups', but got "
                             f"{num_channels} and {num_groups}.")
        dt = mstype.float32 if dtype is None else dtype
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.weight = Parameter(initializer("ones", (num_channels,), dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", (num_channels,), dt), name="bias") if affine else None

    def construct(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}, eps={self.eps}, affine={self.affine}"
