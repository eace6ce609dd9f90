"""Layers that rearrange or drop whole channels: ``nn.PixelShuffle``, ``nn.PixelUnshuffle``, ``nn.ChannelShuffle``,
``nn.Unflatten``, the channel dropouts ``nn.Dropout1d/2d/3d`` (and ``nn.Dropout2dExt``, mint's ``Dropout2d``), and
sliding blocks as channels or columns: ``nn.Unfold`` (image patches), mint's ``Unfold`` and ``Fold``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 8))
    >>> print(ChannelShuffle(2)(x), Unflatten(1, (2, 4))(x).shape)
    [[0. 4. 1. 5. 2. 6. 3. 7.]] (1, 2, 4)
"""
from __future__ import annotations

from typing import Any, Sequence

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Unflatten", "Dropout1d", "Dropout2d", "Dropout3d",
           "Dropout2dExt", "Unfold"]



def _channel_shuffle(x: Any, groups: int) -> Tensor:
    """(N, C, ...) with C = g * k: the channels read as a (g, k) grid and written out transposed. The layer
    takes 2 or more dimensions and reshapes (its error is the reshape's), where ops.channel_shuffle wants 4+."""
    t = check_tensor(x, "ChannelShuffle", "x")
    if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
        raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
    n, c = t.shape[0], t.shape[1]
    rest = t.shape[2:]
    if c % groups:
        shape = "{" + ", ".join(str(v) for v in (n, groups, c // groups, -1)) + "}"
        raise ValueError(f"proposed_shape '[const vector]{shape}' is invalid for input of size {t.size}")
    y = F.reshape(t, (n, groups, c // groups) + rest)
    y = F.transpose(y, (0, 2, 1) + tuple(range(3, 3 + len(rest))))
    return F.reshape(y, t.shape)


class PixelShuffle(Cell):
    """``nn.PixelShuffle(upscale_factor)``: (..., C * r * r, H, W) to (..., C, H * r, W * r).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> PixelShuffle(2)(ms.Tensor(np.ones((1, 4, 3, 3), np.float32))).shape
        (1, 1, 6, 6)
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """``nn.PixelUnshuffle(downscale_factor)``: (..., C, H * r, W * r) to (..., C * r * r, H, W).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> PixelUnshuffle(2)(ms.Tensor(np.ones((1, 1, 4, 4), np.float32))).shape
        (1, 4, 2, 2)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """``nn.ChannelShuffle(groups)``: the C channels read as a (groups, C / groups) grid, written out transposed.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(ChannelShuffle(3)(ms.Tensor(np.arange(6, dtype=np.float32).reshape(1, 6))))
        [[0. 2. 4. 1. 3. 5.]]
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = groups

    def construct(self, x: Tensor) -> Tensor:
        return _channel_shuffle(x, self.groups)


class Unflatten(Cell):
    """``nn.Unflatten(axis, unflattened_size)``: axis ``axis`` split into the shape ``unflattened_size`` (one
    entry may be -1).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Unflatten(1, (2, -1))(ms.Tensor(np.ones((3, 6), np.float32))).shape
        (3, 2, 3)
    """

    def __init__(self, axis: int, unflattened_size: Sequence[int]) -> None:
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'Unflatten', the type of 'axis' must be int, but got {type(axis).__name__}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"For 'Unflatten', the type of 'unflattened_size' must be tuple or list, but got "
                            f"{type(unflattened_size).__name__}.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input: Tensor) -> Tensor:
        shape = tuple(input.shape)
        axis = self.axis + len(shape) if self.axis < 0 else self.axis
        new = shape[:axis] + self.unflattened_size + shape[axis + 1:]
        known = 1
        for v in new:
            known *= v if v != -1 else 1
        if (-1 in new and input.size % known) or (-1 not in new and known != input.size):
            text = "{" + ", ".join(str(v) for v in new) + "}"
            raise ValueError(f"proposed_shape '[const vector]{text}' is invalid for input of size {input.size}")
        return F.reshape(input, new)


class _ChannelDropout(Cell):
    """Drops whole channels with probability ``p`` while training (the identity otherwise)."""

    _FN = "dropout2d"

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 <= p <= 1:
            raise ValueError(f"For '{type(self).__name__}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        return getattr(F, self._FN)(x, self.p, True)

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """``nn.Dropout1d(p=0.5)``: zeroes whole channels of (N, C, L) or (C, L) while training.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Dropout1d(0.5)(ms.Tensor(np.ones((1, 2, 2), np.float32))))  # a new Cell is not training
        [[[1. 1.]
          [1. 1.]]]
    """

    _FN = "dropout1d"

    def extend_repr(self) -> str:
        return ""


class Dropout2d(_ChannelDropout):
    """``nn.Dropout2d(p=0.5)``: zeroes whole channels of (N, C, H, W) while training.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Dropout2d(), Dropout2d()(ms.Tensor(np.ones((1, 1, 1, 2), np.float32))))
        Dropout2d(p=0.5) [[[[1. 1.]]]]
    """


class Dropout3d(_ChannelDropout):
    """``nn.Dropout3d(p=0.5)``: zeroes whole channels of (N, C, D, H, W) while training (its repr shows the keep
    probability as ``p``, as MindSpore's does).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Dropout3d(0.2), Dropout3d(0.2)(ms.Tensor(np.ones((1, 2, 1, 1, 2), np.float32))).shape)
        Dropout3d(p=0.8) (1, 2, 1, 1, 2)
    """

    _FN = "dropout3d"

    def extend_repr(self) -> str:
        return f"p={round(1 - self.p, 6)}"


class Dropout2dExt(Dropout2d):
    """``nn.Dropout2dExt(p=0.5, inplace=False)`` (mint's ``Dropout2d``): zeroes whole channels while training.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Dropout2dExt())
        Dropout2dExt()
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__(p)
        self.inplace = inplace

    def construct(self, x: Tensor) -> Tensor:
        out = super().construct(x)
        if self.inplace and out is not x:
            from mskernel.ops.inplace import inplace_update
            return inplace_update(x, out, "dropout2d")
        return out

    def extend_repr(self) -> str:
        return ""


class Unfold(Cell):
    """``nn.Unfold(ksizes, strides, rates, padding='valid')``: image patches as channels, (N, C, H, W) to
    (N, kh * kw * C, OH, OW) in the order (patch row, patch column, channel); ``ksizes``, ``strides`` and
    ``rates`` are [1, row, column, 1]; ``padding`` 'valid' or 'same'.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(ms.Tensor(np.ones((2, 3, 4, 5), np.float32))).shape
        (2, 12, 3, 4)
    """

    def __init__(self, ksizes: Sequence[int], strides: Sequence[int], rates: Sequence[int],
                 padding: str = "valid") -> None:
        super().__init__()
        for name, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if not isinstance(v, (tuple, list)) or len(v) != 4 or v[0] != 1 or v[3] != 1:
                raise ValueError(f"For 'Unfold', the '{name}' must be a tuple or list of 4 ints [1, row, col, 1], "
                                 f"but got {v!r}.")
        if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'valid' or 'same', but got {padding!r}.")
        self.ksizes, self.strides, self.rates, self.padding = tuple(ksizes), tuple(strides), tuple(rates), \
            padding.lower()

    def construct(self, input_x: Tensor) -> Tensor:
        from mskernel.ops.table.nn_conv import same_pads
        from mskernel.ops.table.nn_fold import im2col
        k, s, d = self.ksizes[1:3], self.strides[1:3], self.rates[1:3]
        x = input_x
        if self.padding == "same":
            (t, b), (lo, hi) = (same_pads(x.shape[2 + i], k[i], s[i], d[i]) for i in range(2))
            x = F.pad(x, (lo, hi, t, b))
        n, c = x.shape[:2]
        oh = (x.shape[2] - d[0] * (k[0] - 1) - 1) // s[0] + 1
        ow = (x.shape[3] - d[1] * (k[1] - 1) - 1) // s[1] + 1
        cols = im2col(x, k, d, (0, 0), s)  # (N, C, kh * kw, L)
        return F.reshape(F.transpose(cols, (0, 2, 1, 3)), (n, k[0] * k[1] * c, oh, ow))

