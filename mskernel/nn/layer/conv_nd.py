"""3-D and 1-D transposed convolution layers: ``nn.Conv3d``, ``nn.Conv3dTranspose`` and ``nn.Conv1dTranspose``,
with MindSpore's arguments, defaults (``pad_mode='same'``, no bias), initializers and parameter names (see
:mod:`mskernel.nn.layer.conv`); Conv1dTranspose's weight is 4-D, (in, out / group, 1, k), as MindSpore's.

Example:
    >>> import numpy as np, mskernel as ms
    >>> conv = Conv3d(2, 4, 3, stride=2, has_bias=True)
    >>> conv(ms.Tensor(np.zeros((1, 2, 5, 5, 5), np.float32))).shape, conv.weight.shape
    ((1, 4, 3, 3, 3), (4, 2, 3, 3, 3))
"""
from __future__ import annotations

from typing import Any, Tuple

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.nn.layer.conv import _Conv
from mskernel.ops import functional as F
from mskernel.ops.table import nn_conv_nd as C

__all__ = ["Conv3d", "Conv3dTranspose", "Conv1dTranspose"]


def _triple(value: Any, name: str, op: str) -> Tuple[int, int, int]:
    return C._ints(value, 3, name, op)


class Conv3d(_Conv):
    """``nn.Conv3d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
    group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCDHW', dtype=mindspore.float32)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv3d(1, 2, 3, pad_mode="valid")(ms.Tensor(np.zeros((1, 1, 4, 4, 4), np.float32))).shape
        (1, 2, 2, 2, 2)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        k = _triple(kernel_size, "kernel_size", "Conv3d")
        g = max(group, 1) if isinstance(group, int) else 1
        super().__init__("Conv3d", in_channels, out_channels, k, (out_channels, in_channels // g) + k,
                         _triple(stride, "stride", "Conv3d"), pad_mode, 0, _triple(dilation, "dilation", "Conv3d"),
                         group, has_bias, weight_init, bias_init, dtype, in_channels // g * k[0] * k[1] * k[2])
        self.padding = padding
        self.format = "NCDHW"

    def construct(self, x: Tensor) -> Tensor:
        return C._conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                         self.group)


class Conv3dTranspose(_Conv):
    """``nn.Conv3dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, output_padding=0, has_bias=False, ...)``: 'same' gives ``input * stride``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv3dTranspose(2, 4, 3, stride=2)(ms.Tensor(np.zeros((1, 2, 3, 3, 3), np.float32))).shape
        (1, 4, 6, 6, 6)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, output_padding: Any = 0,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        k = _triple(kernel_size, "kernel_size", "Conv3dTranspose")
        g = max(group, 1) if isinstance(group, int) else 1
        super().__init__("Conv3dTranspose", in_channels, out_channels, k, (in_channels, out_channels // g) + k,
                         _triple(stride, "stride", "Conv3dTranspose"), pad_mode, 0,
                         _triple(dilation, "dilation", "Conv3dTranspose"), group, has_bias, weight_init, bias_init,
                         dtype, out_channels // g * k[0] * k[1] * k[2])
        self.padding, self.output_padding = padding, output_padding
        self.format = "NCDHW"

    def construct(self, x: Tensor) -> Tensor:
        op = _triple(self.output_padding, "output_padding", "Conv3dTranspose")
        out = C._transpose_pads(x, self.weight, self.stride, self.dilation, op, self.pad_mode, self.padding,
                                self.group, "Conv3DTranspose")
        return C._bias(out, self.bias)


class Conv1dTranspose(_Conv):
    """``nn.Conv1dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, ...)`` on (N, C, L); 'same' gives ``L * stride``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> c = Conv1dTranspose(2, 4, 3, stride=2)
        >>> c(ms.Tensor(np.zeros((1, 2, 5), np.float32))).shape, c.weight.shape
        ((1, 4, 10), (2, 4, 1, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, dtype: mstype.Type = mstype.float32) -> None:
        k = (1, int(kernel_size))
        g = max(group, 1) if isinstance(group, int) else 1
        if isinstance(weight_init, Tensor):  # given as (in, out / group, k), stored 4-D as MindSpore stores it
            if weight_init.ndim != 3:
                raise ValueError(f"For 'Conv1dTranspose', the 'weight_init_shape' must be int and must = 3, but got "
                                 f"'{weight_init.ndim}' with type 'int'.")
            weight_init = F.expand_dims(weight_init, 2)
        super().__init__("Conv1dTranspose", in_channels, out_channels, k, (in_channels, out_channels // g) + k,
                         (1, int(stride)), pad_mode, 0, (1, int(dilation)), group, has_bias, weight_init, bias_init,
                         dtype, out_channels // g * k[1])
        self.padding = (0, 0, padding, padding) if isinstance(padding, int) else (0, 0) + tuple(padding)

    def construct(self, x: Tensor) -> Tensor:
        w = F.squeeze(self.weight, 2)
        pad = self.padding[2:]
        out = C._transpose_pads(x, w, (self.stride[1],), (self.dilation[1],), (0,), self.pad_mode, pad,
                                self.group, "Conv1DTranspose")
        return C._bias(out, self.bias)
