"""Normalization layers: ``nn.BatchNorm1d``, ``nn.BatchNorm2d``, ``nn.LayerNorm``, ``nn.GroupNorm``.

BatchNorm normalizes by the batch's statistics while the cell trains (``set_train``) and by its moving
ones otherwise (``use_batch_statistics`` forces either), updating ``moving = momentum * moving +
(1 - momentum) * batch`` (MindSpore's momentum, 0.9 by default; the unbiased batch variance) in training.
Parameters are named as MindSpore names them: ``gamma``, ``beta``, ``moving_mean``, ``moving_variance``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> bn = nn.BatchNorm2d(2)
    >>> _ = bn.set_train(True)
    >>> _ = bn(ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)))
    >>> print(bn.moving_mean.asnumpy(), [n for n, _ in bn.parameters_and_names()])
    [0.55 0.95] ['moving_mean', 'moving_variance', 'gamma', 'beta']
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from mskernel import dtype as mstype
from mskernel.common.initializer import initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "LRN", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d"]


class _BatchNorm(Cell):
    _rank = 4

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: Optional[bool] = None,
                 data_format: str = "NCHW", dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, int) or num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be a positive int, but got {num_features!r}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be in range [0, 1], but got {momentum}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', only data_format 'NCHW' runs on the CPU, but got {data_format!r}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics = use_batch_statistics
        self.moving_mean = Parameter(initializer(moving_mean_init, (num_features,), dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, (num_features,), dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, (num_features,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,), dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (self._rank, self._rank - 1) if self._rank == 3 else x.ndim != self._rank:
            raise ValueError(f"For '{type(self).__name__}', the input must be {self._rank}-D, but got {x.ndim}-D.")
        return self._normalize(x)

    def _normalize(self, x: Tensor) -> Tensor:
        """BatchNorm as MindSpore's kernel runs it: a half-precision input is normalized in float32 with the
        float32 parameters (a cell run in float16 by ``to_float`` reads them uncast, and the moving statistics
        update the parameters themselves), the result cast back to the input's dtype."""
        training = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        p = self.__dict__["_params"]
        low = x.dtype in (mstype.float16, getattr(mstype, "bfloat16", mstype.float16))
        y = F.batch_norm(x.astype(mstype.float32) if low else x, p["moving_mean"], p["moving_variance"], p["gamma"],
                         p["beta"], training, 1 - self.momentum, self.eps)
        return y.astype(x.dtype) if low else y

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma!r}, "
                f"beta={self.beta!r}, moving_mean={self.moving_mean!r}, moving_variance={self.moving_variance!r}")


class BatchNorm2d(_BatchNorm):
    """``nn.BatchNorm2d(num_features, eps=1e-05, momentum=0.9, affine=True, gamma_init='ones', beta_init='zeros',
    moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None, data_format='NCHW')`` on
    (N, C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> BatchNorm2d(3)(ms.Tensor(np.zeros((2, 3, 4, 4), np.float32))).shape
        (2, 3, 4, 4)
    """


class BatchNorm1d(_BatchNorm):
    """``nn.BatchNorm1d(num_features, ...)`` on (N, C) or (N, C, L).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> BatchNorm1d(3)(ms.Tensor(np.zeros((2, 3), np.float32))).shape
        (2, 3)
    """
    _rank = 3

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim not in (2, 3):
            raise ValueError(f"For 'BatchNorm1d', the input must be 2-D or 3-D, but got {x.ndim}-D.")
        return self._normalize(x)


class LayerNorm(Cell):
    """``nn.LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones',
    beta_init='zeros', epsilon=1e-07)``: normalize over the axes from ``begin_norm_axis`` on.

    Example:
        >>> import mskernel as ms
        >>> print(LayerNorm((2,))(ms.Tensor([[1.0, 3.0]])))
        [[-1.  1.]]
    """

    def __init__(self, normalized_shape: Union[Sequence[int], int], begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 epsilon: float = 1e-7, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or list[int], but "
                            f"got {normalized_shape} and the type is {type(normalized_shape)}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")

    def construct(self, x: Tensor) -> Tensor:
        axis = self.begin_norm_axis % x.ndim
        shape = tuple(x.shape[axis:])
        out = F.layer_norm(x, shape, None, None, self.epsilon)
        params_axis = self.begin_params_axis % x.ndim
        pshape = (1,) * (params_axis - 0) + tuple(x.shape[params_axis:])
        return out * F.reshape(self.gamma, pshape[-x.ndim:]) + F.reshape(self.beta, pshape[-x.ndim:])

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma!r}, beta={self.beta!r}")


class GroupNorm(Cell):
    """``nn.GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, gamma_init='ones', beta_init='zeros')``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> GroupNorm(2, 4)(ms.Tensor(np.zeros((1, 4, 3, 3), np.float32))).shape
        (1, 4, 3, 3)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.gamma = Parameter(initializer(gamma_init, (num_channels,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_channels,), dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        return F.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class BatchNorm3d(Cell):
    """``nn.BatchNorm3d(num_features, eps=1e-05, momentum=0.9, affine=True, gamma_init='ones', beta_init='zeros',
    moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None, dtype=mindspore.float32)`` on
    (N, C, D, H, W): a :class:`BatchNorm2d` (the child ``bn2d``, as MindSpore's) over (N, C, D * H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> net = BatchNorm3d(3)
        >>> net(ms.Tensor(np.ones((2, 3, 2, 4, 4), np.float32))).shape, [p.name for p in net.get_parameters()][0]
        ((2, 3, 2, 4, 4), 'bn2d.moving_mean')
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: Optional[bool] = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, dtype=dtype)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got {x.ndim}.")
        n, c, d, h, w = x.shape
        return F.reshape(self.bn2d(F.reshape(x, (n, c, d * h, w))), x.shape)


class LRN(Cell):
    """``nn.LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')``: local response
    normalization across the channels of (N, C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(LRN(1)(ms.Tensor([[[[0.1]], [[0.3]]]])).reshape(-1))
        [0.09534626 0.2860388 ]
    """

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region

    def construct(self, input_x: Tensor) -> Tensor:
        return F.lrn(input_x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class _InstanceNorm(Cell):
    """Normalizes each (sample, channel) over its own spatial axes, then ``gamma * x + beta``; the Parameters
    ``mean`` and ``variance`` (not trained) are kept as MindSpore's layer has them. The statistics are always the
    instance's own, in training and evaluation."""

    _rank = 4

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(num_features, bool) or not isinstance(num_features, int) or num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be a positive int, but got {num_features!r}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be in range [0, 1], but got {momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", (num_features,), dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", (num_features,), dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, (num_features,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,), dtype), name="beta", requires_grad=affine)

    def construct(self, x: Tensor) -> Tensor:
        if x.ndim != self._rank:
            raise ValueError(f"For '{type(self).__name__}', the in_shape must have {self._rank} dims, but got "
                             f"{x.ndim}.")
        axes = tuple(range(2, x.ndim))
        mean = F.mean(x, axes, True)
        centered = x - mean
        var = F.mean(centered * centered, axes, True)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        p = self.__dict__["_params"]
        return centered * F.rsqrt(var + self.eps) * F.reshape(p["gamma"], shape) + F.reshape(p["beta"], shape)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma!r}, "
                f"beta={self.beta!r}, moving_mean={self.moving_mean!r}, moving_variance={self.moving_variance!r}")


class InstanceNorm1d(_InstanceNorm):
    """``nn.InstanceNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, gamma_init='ones',
    beta_init='zeros', dtype=mindspore.float32)`` on (N, C, L).

    Example:
        >>> import mskernel as ms
        >>> print(InstanceNorm1d(1)(ms.Tensor([[[1.0, 3.0]]])))
        [[[-0.999995  0.999995]]]
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """``nn.InstanceNorm2d(num_features, ...)`` on (N, C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(InstanceNorm2d(1)(ms.Tensor([[[[1.0, 3.0]]]])))
        [[[[-0.999995  0.999995]]]]
    """


class InstanceNorm3d(_InstanceNorm):
    """``nn.InstanceNorm3d(num_features, ...)`` on (N, C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> InstanceNorm3d(2)(ms.Tensor(np.random.randn(1, 2, 2, 2, 2).astype(np.float32))).shape
        (1, 2, 2, 2, 2)
    """

    _rank = 5
