"""Pooling layers over one or three spatial axes and Lp pooling: ``nn.AvgPool3d``, ``nn.MaxPool3d``,
``nn.AvgPool3dExt`` (mint's ``AvgPool3d``), ``nn.AdaptiveAvgPool1d``, ``nn.AdaptiveMaxPool1d``,
``nn.AdaptiveAvgPool3d``, ``nn.AdaptiveMaxPool3d``, ``nn.LPPool1d`` and ``nn.LPPool2d``, over the functional ops
of :mod:`mskernel.ops.table.nn_pool3d`.

Example:
    >>> import numpy as np, mskernel as ms
    >>> x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))
    >>> print(MaxPool3d(2)(x).reshape(-1), AdaptiveAvgPool3d(1)(x).reshape(-1))
    [ 7. 15.] [ 3.5 11.5]
"""
from __future__ import annotations

from typing import Any, Optional

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F
from mskernel.ops.table import nn_pool3d as P

__all__ = ["AvgPool3d", "MaxPool3d", "AvgPool3dExt", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveAvgPool3d",
           "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


def _pad_mode(op: str, pad_mode: str, padding: Any) -> str:
    mode = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{op}', the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], but got {pad_mode!r}.")
    if mode != "PAD" and padding not in (0, (0, 0, 0), (0, 0, 0, 0, 0, 0)):
        raise ValueError(f"For '{op}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got {padding!r}.")
    return mode


class AvgPool3d(Cell):
    """``nn.AvgPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None)`` on (N, C, D, H, W) or (C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AvgPool3d(2, 1)(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 2, 2))).reshape(-1))
        [ 3.5 11.5]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: Optional[int] = None) -> None:
        super().__init__()
        self.pad_mode = _pad_mode("AvgPool3d", pad_mode, padding)
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override or 0

    def construct(self, x: Tensor) -> Tensor:
        batched = x if x.ndim == 5 else F.expand_dims(x, 0)
        out = P._avg_pool3d_prim(batched, self.kernel_size, self.stride, self.pad_mode.lower(), self.padding,
                                 self.ceil_mode, self.count_include_pad, self.divisor_override)
        return out if x.ndim == 5 else F.squeeze(out, 0)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool3d(Cell):
    """``nn.MaxPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False,
    ceil_mode=False)`` on (N, C, D, H, W) or (C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> out, idx = MaxPool3d(2, 1, return_indices=True)(ms.Tensor(np.arange(8, dtype=np.float32).reshape(
        ...     1, 1, 2, 2, 2)))
        >>> print(out.reshape(-1), idx.reshape(-1))
        [7.] [7]
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.pad_mode = _pad_mode("MaxPool3d", pad_mode, padding)
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, x: Tensor) -> Any:
        batched = x if x.ndim == 5 else F.expand_dims(x, 0)
        if self.pad_mode == "SAME":
            k = P._tuple(self.kernel_size, 3, "kernel_size", "MaxPool3d")
            s = P._tuple(self.stride, 3, "stride", "MaxPool3d")
            index = P._asym_index(batched, k, s, P._same_3d(batched, k, s), self.ceil_mode)
            chosen = P._pick_max(batched, index, 3)
            out = P.gather_map(batched, chosen)
            idx = Tensor._wrap(chosen % int(batched[0, 0].size)) if self.return_indices else None
        else:
            res = P.max_pool3d(batched, self.kernel_size, self.stride, self.padding if self.pad_mode == "PAD" else 0,
                               self.dilation, self.ceil_mode, self.return_indices)
            out, idx = res if self.return_indices else (res, None)
        if x.ndim != 5:
            out = F.squeeze(out, 0)
            idx = None if idx is None else F.squeeze(idx, 0)
        return (out, idx) if self.return_indices else out

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class AvgPool3dExt(Cell):
    """``nn.AvgPool3dExt(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None)`` (``mint.nn.AvgPool3d``); the stride defaults to the kernel size.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(AvgPool3dExt(2)(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))).reshape(-1))
        [3.5]
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Optional[int] = None) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def construct(self, input: Tensor) -> Tensor:
        batched = input if input.ndim == 5 else F.expand_dims(input, 0)
        out = F.avg_pool3d(batched, self.kernel_size, self.kernel_size if self.stride is None else self.stride,
                           self.padding, self.ceil_mode, self.count_include_pad, self.divisor_override or 0)
        return out if input.ndim == 5 else F.squeeze(out, 0)


class _Adaptive(Cell):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size


class AdaptiveAvgPool1d(_Adaptive):
    """``nn.AdaptiveAvgPool1d(output_size)`` on (N, C, L); L must be a multiple of ``output_size``.

    Example:
        >>> import mskernel as ms
        >>> print(AdaptiveAvgPool1d(2)(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]])))
        [[[1.5 3.5]]]
    """

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[-1] % self.output_size:
            raise ValueError(f"For {type(self).__name__}, the input's last dimension must be divisible by output size "
                             f"{self.output_size}, but got {x.shape[-1]}.")
        return F.adaptive_avg_pool1d(x, self.output_size)


class AdaptiveMaxPool1d(AdaptiveAvgPool1d):
    """``nn.AdaptiveMaxPool1d(output_size)`` on (N, C, L); L must be a multiple of ``output_size``.

    Example:
        >>> import mskernel as ms
        >>> print(AdaptiveMaxPool1d(2)(ms.Tensor([[[1.0, 2.0, 4.0, 3.0]]])))
        [[[2. 4.]]]
    """

    def construct(self, x: Tensor) -> Tensor:
        if x.shape[-1] % self.output_size:
            raise ValueError(f"For {type(self).__name__}, the input's last dimension must be divisible by output size "
                             f"{self.output_size}, but got {x.shape[-1]}.")
        return F.adaptive_max_pool1d(x, self.output_size)


class AdaptiveAvgPool3d(_Adaptive):
    """``nn.AdaptiveAvgPool3d(output_size)`` on (N, C, D, H, W) or (C, D, H, W) (None keeps a size).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> AdaptiveAvgPool3d((None, 1, 2))(ms.Tensor(np.ones((1, 3, 4, 4), np.float32))).shape
        (1, 3, 1, 2)
    """

    def construct(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(Cell):
    """``nn.AdaptiveMaxPool3d(output_size, return_indices=False)`` on (N, C, D, H, W) or (C, D, H, W); the indices
    are Int32, as MindSpore's.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> out, idx = AdaptiveMaxPool3d(1, True)(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)))
        >>> print(out.reshape(-1), idx.reshape(-1), idx.dtype)
        [7.] [7] Int32
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input: Tensor) -> Any:
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class LPPool1d(Cell):
    """``nn.LPPool1d(norm_type, kernel_size, stride=None, ceil_mode=False)``: the power-``norm_type`` norm of
    each window of (N, C, L) or (C, L).

    Example:
        >>> import mskernel as ms
        >>> print(LPPool1d(2, 2)(ms.Tensor([[[3.0, 4.0, 6.0, 8.0]]])))
        [[[ 5. 10.]]]
    """

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x: Tensor) -> Tensor:
        return F.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(LPPool1d):
    """``nn.LPPool2d(norm_type, kernel_size, stride=None, ceil_mode=False)``: the power-``norm_type`` norm of
    each window of (N, C, H, W) or (C, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(LPPool2d(1, 2)(ms.Tensor(np.ones((1, 1, 2, 2), np.float32))))
        [[[[4.]]]]
    """

    def construct(self, x: Tensor) -> Tensor:
        return F.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpool(Cell):
    """Max unpooling over ``_N`` spatial axes: ``construct(x, indices, output_size=None)``."""

    _N = 2

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, x: Tensor, indices: Tensor, output_size: Any = None) -> Tensor:
        from mskernel.ops.table.nn_unpool import unpool_nd
        return unpool_nd(x, indices, self._N, self.kernel_size, self.stride, self.padding, output_size,
                         "MaxUnpool3D" if self._N == 3 else "MaxUnpool2D")


class MaxUnpool1d(_MaxUnpool):
    """``nn.MaxUnpool1d(kernel_size, stride=None, padding=0)``: each value of (N, C, L) or (C, L) put at its index.

    Example:
        >>> import mskernel as ms
        >>> print(MaxUnpool1d(2)(ms.Tensor([[2.0, 4.0]]), ms.Tensor([[1, 3]])))
        [[0. 2. 0. 4.]]
    """

    _N = 1


class MaxUnpool2d(_MaxUnpool):
    """``nn.MaxUnpool2d(kernel_size, stride=None, padding=0)`` (and ``mint.nn.MaxUnpool2d``) on (N, C, H, W) or
    (C, H, W).

    Example:
        >>> import mskernel as ms
        >>> print(MaxUnpool2d(2)(ms.Tensor([[[5.0]]]), ms.Tensor([[[3]]])))
        [[[0. 0.]
          [0. 5.]]]
    """


class MaxUnpool3d(_MaxUnpool):
    """``nn.MaxUnpool3d(kernel_size, stride=None, padding=0)`` on (N, C, D, H, W) or (C, D, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> MaxUnpool3d(2)(ms.Tensor(np.ones((1, 1, 1, 1, 1), np.float32)), ms.Tensor([[[[[7]]]]])).shape
        (1, 1, 2, 2, 2)
    """

    _N = 3
