"""Layers built from other layers or ops: ``nn.DenseBnAct``, ``nn.Conv2dBnAct`` (a layer, an optional batch norm,
an optional activation), ``nn.TimeDistributed`` (a layer applied at every time step), ``nn.CentralCrop``,
``nn.ImageGradients``, ``nn.ReduceLogSumExp`` and ``nn.ClipByNorm``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> net = DenseBnAct(3, 4, has_bn=True, activation="relu")
    >>> net(ms.Tensor(np.ones((2, 3), np.float32))).shape, [n for n, _ in net.cells_and_names()][1:]
    ((2, 4), ['dense', 'batchnorm', 'activation'])
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.activation import LeakyReLU, get_activation
from mskernel.nn.layer.basic import Dense
from mskernel.nn.layer.conv import Conv2d
from mskernel.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from mskernel.ops import functional as F

__all__ = ["DenseBnAct", "Conv2dBnAct", "TimeDistributed", "CentralCrop", "ImageGradients", "ReduceLogSumExp",
           "ClipByNorm"]


def _activation(activation: Any, alpha: float) -> Optional[Cell]:
    if activation is None or isinstance(activation, Cell):
        return activation
    if isinstance(activation, str) and activation.lower() == "leakyrelu":
        return LeakyReLU(alpha)
    return get_activation(activation)


class DenseBnAct(Cell):
    """``nn.DenseBnAct(in_channels, out_channels, weight_init='normal', bias_init='zeros', has_bias=True,
    has_bn=False, momentum=0.9, eps=1e-05, activation=None, alpha=0.2, after_fake=True)``: Dense, then
    BatchNorm1d when ``has_bn``, then the activation.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> DenseBnAct(3, 4)(ms.Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, has_bn: bool = False, momentum: float = 0.9, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn, self.has_act = has_bn, activation is not None
        self.batchnorm = BatchNorm1d(out_channels, eps, momentum) if has_bn else None
        self.activation = _activation(activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class Conv2dBnAct(Cell):
    """``nn.Conv2dBnAct(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
    group=1, has_bias=False, weight_init='normal', bias_init='zeros', has_bn=False, momentum=0.997, eps=1e-05,
    activation=None, alpha=0.2, after_fake=True)``: Conv2d, then BatchNorm2d when ``has_bn``, then the activation.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Conv2dBnAct(1, 2, 3, has_bn=True, activation="relu")(ms.Tensor(np.ones((1, 1, 4, 4), np.float32))).shape
        (1, 2, 4, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros", has_bn: bool = False, momentum: float = 0.997,
                 eps: float = 1e-5, activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                           has_bias, weight_init, bias_init)
        self.has_bn, self.has_act = has_bn, activation is not None
        self.batchnorm = BatchNorm2d(out_channels, eps, momentum) if has_bn else None
        self.activation = _activation(activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class TimeDistributed(Cell):
    """``nn.TimeDistributed(layer, time_axis, reshape_with_axis=None)``: ``layer`` applied at every step of
    ``time_axis`` — the time axis folded into ``reshape_with_axis`` when given, else one call per step.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> from mskernel import nn
        >>> TimeDistributed(nn.Dense(3, 6), time_axis=1, reshape_with_axis=0)(
        ...     ms.Tensor(np.ones((4, 5, 3), np.float32))).shape
        (4, 5, 6)
    """

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: Optional[int] = None) -> None:
        super().__init__()
        if not isinstance(layer, Cell):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be a Cell, but got {type(layer).__name__}.")
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs: Tensor) -> Tensor:
        n = inputs.ndim
        t = self.time_axis % n
        if self.reshape_with_axis is not None:
            # MindSpore's layout: the time axis brought beside ``reshape_with_axis`` (the later of the two moved in
            # front of the earlier), the pair merged for the layer and split again, the result left in that layout
            r = self.reshape_with_axis % n
            new_t = n - 2 if r == n - 1 else (r + 1 if t > r else r - 1)
            pos = min(new_t, r)
            lo, hi = sorted((new_t, t))
            moved = F.moveaxis(inputs, hi, lo)
            shape = moved.shape
            out = self.layer(F.reshape(moved, shape[:pos] + (-1,) + shape[pos + 2:]))
            if pos >= out.ndim or out.shape[pos] != shape[pos] * shape[pos + 1]:
                raise ValueError(f"For 'TimeDistributed', the 'reshape_with_axis' is invalid in the input and output, "
                                 f"but got 'reshape_pos': {pos}, 'outputs_shape': {out.shape}.")
            new = out.shape[:pos] + shape[pos:pos + 2] + out.shape[pos + 1:]
            return F.reshape(out, (-1,) + new[1:])
        steps = [self.layer(F.getitem(inputs, (slice(None),) * t + (i,))) for i in range(inputs.shape[t])]
        return F.stack(steps, t)


class CentralCrop(Cell):
    """``nn.CentralCrop(central_fraction)``: the central part of the last two axes of a (C, H, W) or
    (N, C, H, W) image, ``central_fraction`` of each side.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> CentralCrop(0.5)(ms.Tensor(np.ones((4, 3, 4, 4), np.float32))).shape
        (4, 3, 2, 2)
    """

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if not isinstance(central_fraction, (int, float)) or not 0 < central_fraction <= 1:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of (0.0, 1.0], but got "
                             f"{central_fraction} with type '{type(central_fraction).__name__}'.")
        self.central_fraction = float(central_fraction)

    def construct(self, image: Tensor) -> Tensor:
        if image.ndim not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the dimension of 'image' must be 3 or 4, but got {image.ndim}.")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((h - h * self.central_fraction) / 2)
        left = int((w - w * self.central_fraction) / 2)
        return F.getitem(image, (Ellipsis, slice(top, h - top), slice(left, w - left)))


class ImageGradients(Cell):
    """``nn.ImageGradients()``: the (dy, dx) differences of neighbouring pixels of (N, C, H, W), the last row of
    dy and last column of dx zero.

    Example:
        >>> import mskernel as ms
        >>> dy, dx = ImageGradients()(ms.Tensor([[[[1, 2], [3, 4]]]], ms.int32))
        >>> print(dy, dx)
        [[[[2 2]
           [0 0]]]] [[[[1 0]
           [1 0]]]]
    """

    def construct(self, images: Tensor) -> Tuple[Tensor, Tensor]:
        if images.ndim != 4:
            raise ValueError(f"For 'ImageGradients', the dimension of 'images' must be 4d, but got {images.ndim}.")
        all_ = slice(None)
        dy = F.getitem(images, (all_, all_, slice(1, None))) - F.getitem(images, (all_, all_, slice(0, -1)))
        dx = F.getitem(images, (all_, all_, all_, slice(1, None))) - F.getitem(images, (all_, all_, all_,
                                                                                      slice(0, -1)))
        return F.pad(dy, (0, 0, 0, 1)), F.pad(dx, (0, 1))


class ReduceLogSumExp(Cell):
    """``nn.ReduceLogSumExp(axis, keep_dims=False)``: log(sum(exp(x))) over ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(ReduceLogSumExp(0)(ms.Tensor([0.0, 0.0])))
        0.6931472
    """

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Tensor) -> Tensor:
        return F.logsumexp(x, self.axis, self.keep_dims)


class ClipByNorm(Cell):
    """``nn.ClipByNorm(axis=None)``: ``x * clip_norm / max(l2_norm(x, axis), clip_norm)``, the L2 norm taken over
    ``axis`` (all axes when None).

    Example:
        >>> import mskernel as ms
        >>> print(ClipByNorm()(ms.Tensor([3.0, 4.0]), ms.Tensor(1.0)))
        [0.6 0.8]
    """

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor, clip_norm: Any) -> Tensor:
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        norm = F.sqrt(F.sum(x * x, axis, True))
        clip = clip_norm if isinstance(clip_norm, Tensor) else Tensor(float(clip_norm))
        return x * clip / F.maximum(norm, clip)
