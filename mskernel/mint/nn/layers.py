"""``mindspore.mint.nn``'s own activation, pooling, upsampling and reshaping layers: torch's arguments over
:mod:`mskernel.mint.nn.functional` (the convolutions are in :mod:`mskernel.mint.nn.conv`, the normalization
layers in :mod:`mskernel.mint.nn.normalization`).

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> print(mint.nn.Hardtanh(-1.0, 1.0)(ms.Tensor([-2.0, 0.5, 3.0])))
    [-1.   0.5  1. ]
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from mskernel.common.tensor import Tensor
from mskernel.mint.nn import functional as F
from mskernel.nn.cell import Cell

__all__ = ["GELU", "SiLU", "Sigmoid", "Tanh", "ELU", "Mish", "SELU", "LogSigmoid", "GLU", "Hardtanh", "Threshold",
           "AdaptiveMaxPool1d", "AdaptiveAvgPool3d", "UpsamplingNearest2d", "UpsamplingBilinear2d", "ReLU6", "Softmax",
           "Flatten", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "Unfold", "Fold"]


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
