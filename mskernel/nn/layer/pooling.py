"""Pooling layers: ``nn.MaxPool2d``, ``nn.AvgPool2d``, ``nn.MaxPool1d``, ``nn.AvgPool1d``,
``nn.AdaptiveAvgPool2d``, ``nn.AdaptiveMaxPool2d`` (MindSpore's arguments; ``pad_mode`` 'valid', 'same' or
'pad' with ``padding``).

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import nn
    >>> nn.MaxPool2d(2, 2)(ms.Tensor(np.zeros((1, 3, 8, 8), np.float32))).shape
    (1, 3, 4, 4)
"""
from __future__ import annotations

from typing import Any

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F
from mskernel.ops.table.nn_conv import pair, same_pads
from mskernel.ops.table.nn_pool import _prim_pool

__all__ = ["MaxPool2d", "AvgPool2d", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d"]


def _mode(op: str, pad_mode: str, padding: Any) -> str:
    mode = pad_mode.upper()
    if mode not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], but got {pad_mode!r}.")
    if mode != "PAD" and padding not in (0, (0, 0), (0, 0, 0, 0)):
        raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got {padding!r}.")
    return mode


def _pads(x: Tensor, k: tuple, s: tuple, d: tuple, mode: str, padding: Any) -> Any:
    if mode == "SAME":
        (a, b), (c, e) = same_pads(x.shape[-2], k[0], s[0], d[0]), same_pads(x.shape[-1], k[1], s[1], d[1])
        return (a, b, c, e)
    return padding if mode == "PAD" else 0


class _Pool2d(Cell):
    def __init__(self, op: str, kernel_size: Any, stride: Any, pad_mode: str, padding: Any) -> None:
        super().__init__()
        self.kernel_size, self.stride = kernel_size, stride
        self.pad_mode, self.padding = _mode(op, pad_mode, padding), padding
        self._k, self._s = pair(kernel_size, "kernel_size", op), pair(stride, "stride", op)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """``nn.MaxPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False,
    ceil_mode=False, data_format='NCHW')``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(MaxPool2d(2, 2)(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)))[0, 0])
        [[ 5.  7.]
         [13. 15.]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW") -> None:
        super().__init__("MaxPool2d", kernel_size, stride, pad_mode, padding)
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        d = pair(self.dilation, "dilation", "MaxPool2d")
        return F.max_pool2d(x, self._k, self._s, _pads(x, self._k, self._s, d, self.pad_mode, self.padding), d,
                            self.return_indices, self.ceil_mode)


class AvgPool2d(_Pool2d):
    """``nn.AvgPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None, data_format='NCHW')``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AvgPool2d(2, 2)(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)))[0, 0])
        [[ 2.5  4.5]
         [10.5 12.5]]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: Any = None,
                 data_format: str = "NCHW") -> None:
        super().__init__("AvgPool2d", kernel_size, stride, pad_mode, padding)
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, x: Tensor) -> Tensor:
        if self.pad_mode == "SAME":  # MindSpore's 'same' averages over the real elements of each window
            return _prim_pool("AvgPool")(x, self._k, self._s, "same")
        return F.avg_pool2d(x, self._k, self._s, _pads(x, self._k, self._s, (1, 1), self.pad_mode, self.padding),
                            self.ceil_mode, self.count_include_pad, self.divisor_override or 0)


class MaxPool1d(Cell):
    """``nn.MaxPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ...)`` on (N, C, L).

    Example:
        >>> import mskernel as ms
        >>> print(MaxPool1d(2, 2)(ms.Tensor([[[1.0, 3.0, 2.0, 0.0]]])))
        [[[3. 2.]]]
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: int = 0,
                 dilation: int = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size, self.stride = (1, int(kernel_size)), (1, int(stride))
        self.pad_mode, self.padding = _mode("MaxPool1d", pad_mode, padding), padding
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        x4 = F.expand_dims(x, 2)
        pads = _pads(x4, self.kernel_size, self.stride, (1, self.dilation), self.pad_mode,
                     (0, 0, self.padding, self.padding))
        out = F.max_pool2d(x4, self.kernel_size, self.stride, pads, (1, self.dilation), self.return_indices,
                           self.ceil_mode)
        if self.return_indices:
            return F.squeeze(out[0], 2), F.squeeze(out[1], 2)
        return F.squeeze(out, 2)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class AvgPool1d(Cell):
    """``nn.AvgPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True)`` on (N, C, L).

    Example:
        >>> import mskernel as ms
        >>> print(AvgPool1d(2, 2)(ms.Tensor([[[1.0, 3.0, 2.0, 0.0]]])))
        [[[2. 1.]]]
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: int = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size, self.stride = (1, int(kernel_size)), (1, int(stride))
        self.pad_mode, self.padding = _mode("AvgPool1d", pad_mode, padding), padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def construct(self, x: Tensor) -> Tensor:
        x4 = F.expand_dims(x, 2)
        if self.pad_mode == "SAME":
            return F.squeeze(_prim_pool("AvgPool")(x4, self.kernel_size, self.stride, "same"), 2)
        pads = _pads(x4, self.kernel_size, self.stride, (1, 1), self.pad_mode, (0, 0, self.padding, self.padding))
        return F.squeeze(F.avg_pool2d(x4, self.kernel_size, self.stride, pads, self.ceil_mode,
                                      self.count_include_pad), 2)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class AdaptiveAvgPool2d(Cell):
    """``nn.AdaptiveAvgPool2d(output_size)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> AdaptiveAvgPool2d((2, 3))(ms.Tensor(np.zeros((1, 4, 7, 9), np.float32))).shape
        (1, 4, 2, 3)
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(x, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """``nn.AdaptiveMaxPool2d(output_size, return_indices=False)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> AdaptiveMaxPool2d(2)(ms.Tensor(np.zeros((1, 4, 7, 9), np.float32))).shape
        (1, 4, 2, 2)
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, x: Tensor) -> Any:
        return F.adaptive_max_pool2d(x, self.output_size, self.return_indices)
