"""``mindspore.mint.nn``'s own layers and losses: torch's arguments over :mod:`mskernel.mint.nn.functional`.

Convolutions take torch's ``padding`` (a number, a pair or ``"same"``/``"valid"``) and ``padding_mode``
(``"zeros"``, ``"reflect"``, ``"replicate"``, ``"circular"``); batch norms keep ``running_mean``,
``running_var`` and ``num_batches_tracked`` as Parameters, as the wheel does; losses take ``reduction``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import mint
    >>> m = mint.nn.Conv2d(1, 2, 3, padding=1, bias=False)
    >>> print(m, m(ms.Tensor(np.ones((1, 1, 4, 4), np.float32))).shape)
    Conv2d(input_channels=1, output_channels=2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), dilation=(1, 1), groups=1, bias=False) (1, 2, 4, 4)
"""  # noqa: E501
from __future__ import annotations

import math
from typing import Any, Optional, Tuple, Union

from mskernel import dtype as mstype
from mskernel.common.initializer import HeUniform, Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.mint.nn import functional as F
from mskernel.nn.cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm",
           "GELU", "SiLU", "Sigmoid", "Tanh", "ELU", "Mish", "SELU", "LogSigmoid", "GLU", "Hardtanh", "Threshold",
           "AdaptiveMaxPool1d", "AdaptiveAvgPool3d", "UpsamplingNearest2d", "UpsamplingBilinear2d", "ReLU6", "Softmax",
           "Flatten", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "Unfold", "Fold"]


def _tuple(value: Any, n: int) -> Tuple[int, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _Conv(Cell):
    """A torch-style convolution over ``n`` spatial dimensions (``Parameter`` ``weight`` initialised with
    ``HeUniform(sqrt(5))``, ``bias`` with ``Uniform(1 / sqrt(fan_in))``, as torch and the wheel do)."""

    _MODES = ("zeros", "reflect", "replicate", "circular")

    def __init__(self, n: int, in_channels: int, out_channels: int, kernel_size: Any, stride: Any, padding: Any,
                 dilation: Any, groups: int, bias: bool, padding_mode: str, dtype: Optional[mstype.Type]) -> None:
        super().__init__()
        name = type(self).__name__
        if padding_mode not in self._MODES:
            raise ValueError(f"For '{name}', the 'padding_mode' must be one of {list(self._MODES)}, but got "
                             f"{padding_mode!r}.")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For '{name}', the 'in_channels' and 'out_channels' must be divisible by 'groups', "
                             f"but got {in_channels}, {out_channels} and {groups}.")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride, self.dilation = _tuple(kernel_size, n), _tuple(stride, n), _tuple(dilation, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.padding_mode, self.has_bias = padding_mode, bias
        dt = mstype.float32 if dtype is None else dtype
        fan_in = in_channels // groups * math.prod(self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), (out_channels, in_channels // groups)
                                            + self.kernel_size, dt), name="weight")
        self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), (out_channels,), dt),
                              name="bias") if bias else None

    def _padded(self, input: Tensor) -> Tuple[Tensor, Any]:
        """The input padded by ``padding_mode`` where it is not zeros, and the padding left for the convolution."""
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return input, self.padding
        pad = tuple(p for p in reversed(self.padding) for _ in (0, 1))
        return F.pad(input, pad, self.padding_mode), 0

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size="
                f"{self.kernel_size}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}, "
                f"groups={self.groups}, bias={self.has_bias}")


class Conv2d(_Conv):
    """``mint.nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    bias=True, padding_mode='zeros', dtype=None)`` on (N, C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv2d(1, 2, 3, stride=2)(ms.Tensor(np.ones((1, 1, 5, 5), np.float32))).shape
        (1, 2, 2, 2)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(2, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input: Tensor) -> Tensor:
        x, padding = self._padded(input)
        if not isinstance(padding, str) and padding != 0:
            padding = (padding[0], padding[0], padding[1], padding[1])
        return F.conv2d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv1d(_Conv):
    """``mint.nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    bias=True, padding_mode='zeros', dtype=None)`` on (N, C, L).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv1d(1, 2, 3, padding=1)(ms.Tensor(np.ones((1, 1, 5), np.float32))).shape
        (1, 2, 5)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(1, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input: Tensor) -> Tensor:
        x, padding = self._padded(input)
        x4 = x.reshape(x.shape[0], x.shape[1], 1, x.shape[2])
        w4 = self.weight.reshape(self.weight.shape[0], self.weight.shape[1], 1, self.weight.shape[2])
        if isinstance(padding, str):
            pad: Any = padding
        else:
            p = padding[0] if isinstance(padding, tuple) else padding
            pad = (0, 0, p, p)
        out = F.conv2d(x4, w4, self.bias, (1, self.stride[0]), pad, (1, self.dilation[0]), self.groups)
        return out.reshape(out.shape[0], out.shape[1], out.shape[3])


class Conv3d(_Conv):
    """``mint.nn.Conv3d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
    bias=True, padding_mode='zeros', dtype=None)`` on (N, C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv3d(1, 2, 3, padding=1)(ms.Tensor(np.ones((1, 1, 3, 4, 5), np.float32))).shape
        (1, 2, 3, 4, 5)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(3, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input: Tensor) -> Tensor:
        x, padding = self._padded(input)
        return F.conv3d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class ConvTranspose2d(_Conv):
    """``mint.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
    groups=1, bias=True, dilation=1, padding_mode='zeros', dtype=None)``: weight (in, out / groups, kh, kw).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> m = ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
        >>> m(ms.Tensor(np.ones((1, 2, 4, 4), np.float32))).shape, m.weight.shape
        ((1, 3, 8, 8), (2, 3, 3, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1,
                 padding_mode: str = "zeros", dtype: Optional[mstype.Type] = None) -> None:
        super().__init__(2, out_channels, in_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)  # the weight's shape is a convolution's from out to in channels
        self.in_channels, self.out_channels = in_channels, out_channels
        self.output_padding = _tuple(output_padding, 2)
        if bias:
            fan_in = out_channels // groups * math.prod(self.kernel_size)
            dt = mstype.float32 if dtype is None else dtype
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), (out_channels,), dt), name="bias")

    def construct(self, input: Tensor) -> Tensor:
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                  self.groups, self.dilation)


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


class _Activation(Cell):
    """A layer calling one function of ``mint.nn.functional`` with the arguments it was built with."""

    _FN = ""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self._kwargs = kwargs

    def construct(self, input: Tensor) -> Tensor:
        return getattr(F, self._FN)(input, **self._kwargs)


class GELU(_Activation):
    """``mint.nn.GELU(approximate='none')``.

    Example:
        >>> import mskernel as ms
        >>> print(GELU()(ms.Tensor([0.0, 1.0])))
        [0.        0.8413447]
    """

    _FN = "gelu"

    def __init__(self, approximate: str = "none") -> None:
        super().__init__(approximate=approximate)


class SiLU(_Activation):
    """``mint.nn.SiLU(inplace=False)``.

    Example:
        >>> import mskernel as ms
        >>> print(SiLU()(ms.Tensor([0.0, 1.0])))
        [0.        0.7310586]
    """

    _FN = "silu"

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class Sigmoid(_Activation):
    """``mint.nn.Sigmoid()``.

    Example:
        >>> import mskernel as ms
        >>> print(Sigmoid()(ms.Tensor([0.0])))
        [0.5]
    """

    _FN = "sigmoid"

    def __init__(self) -> None:
        super().__init__()


class Tanh(_Activation):
    """``mint.nn.Tanh()``.

    Example:
        >>> import mskernel as ms
        >>> print(Tanh()(ms.Tensor([0.0, 1.0])))
        [0.        0.7615942]
    """

    _FN = "tanh"

    def __init__(self) -> None:
        super().__init__()


class ELU(_Activation):
    """``mint.nn.ELU(alpha=1.0, inplace=False)``.

    Example:
        >>> import mskernel as ms
        >>> print(ELU(0.5)(ms.Tensor([-1.0, 2.0])))
        [-0.31606027  2.        ]
    """

    _FN = "elu"

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__(alpha=alpha, inplace=inplace)


class Mish(_Activation):
    """``mint.nn.Mish()``.

    Example:
        >>> import mskernel as ms
        >>> print(Mish()(ms.Tensor([0.0, 1.0])))
        [0.        0.8650984]
    """

    _FN = "mish"

    def __init__(self) -> None:
        super().__init__()


class SELU(_Activation):
    """``mint.nn.SELU()``.

    Example:
        >>> import mskernel as ms
        >>> print(SELU()(ms.Tensor([1.0])))
        [1.050701]
    """

    _FN = "selu"

    def __init__(self) -> None:
        super().__init__()


class AdaptiveMaxPool1d(Cell):
    """``mint.nn.AdaptiveMaxPool1d(output_size, return_indices=False)`` on (N, C, L) or (C, L) (torch's regions).

    Example:
        >>> import mskernel as ms
        >>> print(AdaptiveMaxPool1d(2)(ms.Tensor([[[1.0, 5.0, 2.0]]])))
        [[[5. 5.]]]
    """

    def __init__(self, output_size: int, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input: Tensor) -> Any:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(Cell):
    """``mint.nn.AdaptiveAvgPool3d(output_size)`` on (N, C, D, H, W) or (C, D, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(AdaptiveAvgPool3d(1)(ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]])))
        [[[[2.5]]]]
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class UpsamplingNearest2d(Cell):
    """``mint.nn.UpsamplingNearest2d(size=None, scale_factor=None)``: nearest-neighbour resize of (N, C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(UpsamplingNearest2d(scale_factor=2)(ms.Tensor([[[[1.0, 2.0]]]])))
        [[[[1. 1. 2. 2.]
           [1. 1. 2. 2.]]]]
    """

    _MODE, _ALIGN = "nearest", None

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self._MODE, self._ALIGN)


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """``mint.nn.UpsamplingBilinear2d(size=None, scale_factor=None)``: bilinear resize of (N, C, H, W), the corner
    pixels aligned.

    Example:
        >>> import mskernel as ms
        >>> print(UpsamplingBilinear2d((1, 3))(ms.Tensor([[[[1.0, 2.0]]]])))
        [[[[1.  1.5 2. ]]]]
    """

    _MODE, _ALIGN = "bilinear", True


class GLU(_Activation):
    """``mint.nn.GLU(dim=-1)``: the halves ``a, b`` of ``dim``, ``a * sigmoid(b)``.

    Example:
        >>> import mskernel as ms
        >>> print(GLU()(ms.Tensor([[0.1, -1.2, 0.3, 0.4]])))
        [[ 0.05744425 -0.7184255 ]]
    """

    _FN = "glu"

    def __init__(self, dim: int = -1) -> None:
        super().__init__(dim=dim)
        self.dim = dim


class Hardtanh(_Activation):
    """``mint.nn.Hardtanh(min_val=-1.0, max_val=1.0, inplace=False)``.

    Example:
        >>> import mskernel as ms
        >>> print(Hardtanh()(ms.Tensor([-1.5, 0.5, 2.0])))
        [-1.   0.5  1. ]
    """

    _FN = "hardtanh"

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__(min_val=min_val, max_val=max_val, inplace=inplace)
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace


class Threshold(_Activation):
    """``mint.nn.Threshold(threshold, value, inplace=False)``: x where x > threshold, else value.

    Example:
        >>> import mskernel as ms
        >>> print(Threshold(0.5, 9.0)(ms.Tensor([0.2, 0.5, 0.7])))
        [9.  9.  0.7]
    """

    _FN = "threshold"

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__(threshold=threshold, value=value, inplace=inplace)
        self.threshold, self.value, self.inplace = threshold, value, inplace


class LogSigmoid(_Activation):
    """``mint.nn.LogSigmoid()``.

    Example:
        >>> import mskernel as ms
        >>> print(LogSigmoid()(ms.Tensor([0.0])))
        [-0.6931472]
    """

    _FN = "logsigmoid"

    def __init__(self) -> None:
        super().__init__()


class ReLU6(_Activation):
    """``mint.nn.ReLU6(inplace=False)``.

    Example:
        >>> import mskernel as ms
        >>> print(ReLU6()(ms.Tensor([-1.0, 3.0, 9.0])))
        [0. 3. 6.]
    """

    _FN = "relu6"

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace=inplace)


class Softmax(_Activation):
    """``mint.nn.Softmax(dim=None)``; with no ``dim``, 0 for 0-, 1- and 3-D inputs, else 1.

    Example:
        >>> import mskernel as ms
        >>> print(Softmax(0)(ms.Tensor([0.0, 0.0])))
        [0.5 0.5]
    """

    _FN = "softmax"

    def __init__(self, dim: Optional[int] = None) -> None:
        super().__init__(dim=dim)


class Flatten(_Activation):
    """``mint.nn.Flatten(start_dim=1, end_dim=-1)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Flatten()(ms.Tensor(np.ones((2, 3, 4), np.float32))).shape
        (2, 12)
    """

    _FN = "flatten"

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__(start_dim=start_dim, end_dim=end_dim)


class AdaptiveAvgPool1d(_Activation):
    """``mint.nn.AdaptiveAvgPool1d(output_size)`` on (N, C, L).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AdaptiveAvgPool1d(2)(ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 4))))
        [[[0.5 2.5]]]
    """

    _FN = "adaptive_avg_pool1d"

    def __init__(self, output_size: int) -> None:
        super().__init__(output_size=output_size)


class AdaptiveAvgPool2d(_Activation):
    """``mint.nn.AdaptiveAvgPool2d(output_size)`` on (N, C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AdaptiveAvgPool2d(1)(ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))))
        [[[[1.5]]]]
    """

    _FN = "adaptive_avg_pool2d"

    def __init__(self, output_size: Union[int, Tuple[int, int]]) -> None:
        super().__init__(output_size=output_size)


class Unfold(Cell):
    """``mint.nn.Unfold(kernel_size, dilation=1, padding=0, stride=1)``: (N, C, H, W) to (N, C * kh * kw, L).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Unfold(3)(ms.Tensor(np.ones((4, 4, 8, 8), np.float32))).shape
        (4, 36, 36)
    """

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def construct(self, input: Tensor) -> Tensor:
        from mskernel.mint.nn import functional as MF  # functional is built after this module
        return MF.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class Fold(Cell):
    """``mint.nn.Fold(output_size, kernel_size, dilation=1, padding=0, stride=1)``: (N, C * kh * kw, L) to
    (N, C, H, W), the blocks added back at their places.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Fold([8, 8], [2, 2], [2, 2], [2, 2], [2, 2])(ms.Tensor(np.ones((2, 64, 25), np.float32))).shape
        (2, 16, 8, 8)
    """

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input: Tensor) -> Tensor:
        from mskernel.mint.nn import functional as MF  # functional is built after this module
        return MF.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)
