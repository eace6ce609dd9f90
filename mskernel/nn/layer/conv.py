"""Convolution layers: ``nn.Conv2d``, ``nn.Conv1d``, ``nn.Conv2dTranspose`` with MindSpore's arguments,
defaults (``pad_mode='same'``, no bias), initializers (HeUniform(sqrt(5)) weights, Uniform(1/sqrt(fan_in))
biases) and parameter names (``weight``, ``bias``; Conv1d's weight is 4-D, (out, in / group, 1, k), as
MindSpore's).

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> conv = nn.Conv2d(3, 8, 3, stride=2, has_bias=True)
    >>> conv(ms.Tensor(np.zeros((1, 3, 9, 9), np.float32))).shape, [n for n, _ in conv.parameters_and_names()]
    ((1, 8, 5, 5), ['weight', 'bias'])
"""
from __future__ import annotations

import math
from typing import Any, Tuple, Union

from mskernel import dtype as mstype
from mskernel.common.initializer import HeUniform, Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F
from mskernel.ops.table.nn_conv import pair

__all__ = ["Conv2d", "Conv1d", "Conv2dTranspose"]


def _check_channels(op: str, in_channels: int, out_channels: int, group: int) -> None:
    for name, v in (("in_channels", in_channels), ("out_channels", out_channels), ("group", group)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"For '{op}', the '{name}' must be a positive int, but got {v!r}.")
    if in_channels % group or out_channels % group:
        raise ValueError(f"For '{op}', the 'in_channels' ({in_channels}) and 'out_channels' ({out_channels}) must "
                         f"be divisible by 'group' ({group}).")


def _pad_mode(op: str, pad_mode: str, padding: Any) -> str:
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("same", "valid", "pad"):
        owner = "Conv2D" if op == "Conv2d" else op  # MindSpore's nn.Conv2d checks it in its Conv2D primitive
        raise ValueError(f"For '{owner}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', but "
                         f"got '{pad_mode}'.")
    if mode != "pad" and padding not in (0, (0, 0), (0, 0, 0, 0)):
        raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got {padding!r}.")
    return mode


class _Conv(Cell):
    def __init__(self, op: str, in_channels: int, out_channels: int, kernel_size: Tuple[int, int],
                 weight_shape: Tuple[int, ...], stride: Any, pad_mode: str, padding: Any, dilation: Any, group: int,
                 has_bias: bool, weight_init: Any, bias_init: Any, dtype: Any, fan_in: int) -> None:
        super().__init__()
        _check_channels(op, in_channels, out_channels, group)
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel_size
        self.stride, self.dilation = stride, dilation
        self.pad_mode, self.padding, self.group, self.has_bias = _pad_mode(op, pad_mode, padding), padding, group, \
            has_bias
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.bias_init = (Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init) if has_bias else None
        self.format = "NCHW"
        self.weight = Parameter(initializer(self.weight_init, weight_shape, dtype), name="weight")
        self.bias = Parameter(initializer(self.bias_init, (out_channels,), dtype), name="bias") if has_bias else None

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, kernel_size="
                f"{self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, weight_init="
                f"{self.weight_init}, bias_init={self.bias_init}, format={self.format}")


class Conv2d(_Conv):
    """``nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
    group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCHW', dtype=mindspore.float32)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv2d(1, 2, 3, pad_mode="valid")(ms.Tensor(np.zeros((1, 1, 5, 5), np.float32))).shape
        (1, 2, 3, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Union[int, Tuple[int, int]],
                 stride: Any = 1, pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None, data_format: str = "NCHW",
                 dtype: mstype.Type = mstype.float32) -> None:
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', only data_format 'NCHW' runs on the CPU, but got {data_format!r}.")
        k = pair(kernel_size, "kernel_size", "Conv2d")
        super().__init__("Conv2d", in_channels, out_channels, k, (out_channels, in_channels // max(group, 1)) + k,
                         pair(stride, "stride", "Conv2d"), pad_mode, padding, pair(dilation, "dilation", "Conv2d"),
                         group, has_bias, weight_init, bias_init, dtype, in_channels // max(group, 1) * k[0] * k[1])

    def construct(self, x: Tensor) -> Tensor:
        return F.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                        self.group)


class Conv1d(_Conv):
    """``nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
    group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mindspore.float32)`` on (N, C, L).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> c = Conv1d(2, 4, 3)
        >>> c(ms.Tensor(np.zeros((1, 2, 7), np.float32))).shape, c.weight.shape
        ((1, 4, 7), (4, 2, 1, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: int = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, dtype: mstype.Type = mstype.float32) -> None:
        k = (1, int(kernel_size))
        pad = (0, 0, padding, padding) if isinstance(padding, int) else (0, 0) + tuple(padding)
        if isinstance(weight_init, Tensor):  # given as (out, in / group, k), stored 4-D as MindSpore stores it
            if weight_init.ndim != 3:
                raise ValueError(f"For 'Conv1d', the 'weight_init_shape' must be int and must = 3, but got "
                                 f"'{weight_init.ndim}' with type 'int'.")
            weight_init = F.expand_dims(weight_init, 2)
        super().__init__("Conv1d", in_channels, out_channels, k, (out_channels, in_channels // max(group, 1)) + k,
                         (1, int(stride)), pad_mode, pad if pad_mode == "pad" else 0, (1, int(dilation)), group,
                         has_bias, weight_init, bias_init, dtype, in_channels // max(group, 1) * k[1])
        if pad_mode != "pad":
            self.padding = (0, 0, 0, 0)

    def construct(self, x: Tensor) -> Tensor:
        out = F.conv2d(F.expand_dims(x, 2), self.weight, self.bias, self.stride, self.pad_mode,
                       self.padding if self.pad_mode == "pad" else 0, self.dilation, self.group)
        return F.squeeze(out, 2)


class Conv2dTranspose(_Conv):
    """``nn.Conv2dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    output_padding=0, dilation=1, group=1, has_bias=False, ...)``; 'same' gives ``input * stride``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv2dTranspose(4, 2, 3, stride=2)(ms.Tensor(np.zeros((1, 4, 5, 5), np.float32))).shape
        (1, 2, 10, 10)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: mstype.Type = mstype.float32) -> None:
        k = pair(kernel_size, "kernel_size", "Conv2dTranspose")
        super().__init__("Conv2dTranspose", in_channels, out_channels, k,
                         (in_channels, out_channels // max(group, 1)) + k, pair(stride, "stride", "Conv2dTranspose"),
                         pad_mode, padding, pair(dilation, "dilation", "Conv2dTranspose"), group, has_bias,
                         weight_init, bias_init, dtype, out_channels // max(group, 1) * k[0] * k[1])
        self.output_padding = output_padding

    def construct(self, x: Tensor) -> Tensor:
        s, d = self.stride, self.dilation
        if self.pad_mode == "pad":
            return F.conv_transpose2d(x, self.weight, self.bias, s, self.padding, self.output_padding, self.group, d)
        out = F.conv_transpose2d(x, self.weight, None, s, 0, self.output_padding, self.group, d)
        if self.pad_mode == "same":
            full = out.shape[2:]
            want = (x.shape[2] * s[0], x.shape[3] * s[1])
            crop = [max(f - w, 0) for f, w in zip(full, want)]
            t, lft = crop[0] // 2, crop[1] // 2
            out = F.getitem(out, (slice(None), slice(None), slice(t, t + want[0]), slice(lft, lft + want[1])))
        if self.bias is not None:
            out = out + F.reshape(self.bias, (1, -1, 1, 1))
        return out

