"""``mindspore.mint.nn``'s convolutions: torch's arguments over :mod:`mskernel.mint.nn.functional`.

They take torch's ``padding`` (a number, a pair or ``"same"``/``"valid"``) and ``padding_mode`` (``"zeros"``,
``"reflect"``, ``"replicate"``, ``"circular"``), and initialise ``weight`` and ``bias`` as torch and the wheel do.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import mint
    >>> m = mint.nn.Conv2d(1, 2, 3, padding=1, bias=False)
    >>> print(m, m(ms.Tensor(np.ones((1, 1, 4, 4), np.float32))).shape)
    Conv2d(input_channels=1, output_channels=2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), dilation=(1, 1), groups=1, bias=False) (1, 2, 4, 4)
"""  # noqa: E501
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

from mskernel import dtype as mstype
from mskernel.common.initializer import HeUniform, Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.mint.nn import functional as F
from mskernel.nn.cell import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d"]


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
