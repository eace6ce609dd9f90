"""MindSpore's padding layers: ``nn.ConstantPad1d/2d/3d``, ``nn.ReflectionPad1d/2d/3d``, ``nn.ReplicationPad1d/2d/3d``,
``nn.ZeroPad2d`` and ``nn.Pad`` (MindSpore's older layer: one (before, after) pair per axis and 'CONSTANT',
'REFLECT' or 'SYMMETRIC').

Each pads by an index map of the input's elements (:func:`mskernel.ops.table.rearrange.gather_map`), so the
gradient of a padded element goes back to the element it copies. ``padding`` is torch's: an int for every side,
or (left, right, top, bottom, front, back) from the last axis backwards; negative amounts crop.

Example:
    >>> import numpy as np, mskernel as ms
    >>> x = ms.Tensor(np.arange(3, dtype=np.float32).reshape(1, 3))
    >>> print(ConstantPad1d(1, 9.0)(x), ReflectionPad1d(1)(x), ReplicationPad1d((0, 2))(x))
    [[9. 0. 1. 2. 9.]] [[1. 0. 1. 2. 1.]] [[0. 1. 2. 2. 2.]]
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops._core import check_tensor
from mskernel.ops.table.rearrange import _index, gather_map

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad2d", "Pad"]


def index_pad(x: Tensor, pairs: Sequence[Tuple[int, int]], mode: str = "constant", value: Any = 0) -> Tensor:
    """``x`` padded by (before, after) for each of its last ``len(pairs)`` axes (first pair for the first of
    them), numpy's ``mode`` ('constant', 'reflect', 'edge', 'symmetric'); negative amounts crop.

    Example:
        >>> import mskernel as ms
        >>> print(index_pad(ms.Tensor([[1.0, 2.0]]), [(0, 0), (2, 1)], "symmetric"))
        [[2. 1. 1. 2. 2.]]
    """
    full = [(0, 0)] * (x.ndim - len(pairs)) + [(int(lo), int(hi)) for lo, hi in pairs]
    index = _index(x.shape)
    index = index[tuple(slice(-lo if lo < 0 else 0, hi if hi < 0 else None) for lo, hi in full)]
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in full]
    if mode == "constant":
        index = np.pad(index, grow, constant_values=-1)
    else:
        index = np.pad(index, grow, mode=mode)
    out = gather_map(x, index)
    if mode == "constant" and value not in (None, 0) and (index < 0).any():
        out = out + Tensor._wrap((index < 0).astype(x._data.dtype) * np.asarray(value, x._data.dtype))
    return out


def _pairs(padding: Tuple[int, ...]) -> List[Tuple[int, int]]:
    """torch's flat padding (last axis first) as (before, after) pairs from the first padded axis on."""
    return [(padding[i], padding[i + 1]) for i in range(0, len(padding), 2)][::-1]


class _ConstantPadNd(Cell):
    """Pads with ``value``; ``padding`` an int or a tuple of at most ``2 * _N`` ints (exactly 2 for 1d)."""

    _N = 1

    def __init__(self, padding: Any, value: Any) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, tuple], but got "
                            f"{type(padding)}")
        if isinstance(padding, tuple):
            if self._N == 1 and len(padding) != 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must equal to 2."
                                 f"but got {len(padding)}")
            if len(padding) % 2:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must be a "
                                 f"multiple of 2, but got {len(padding)}")
            if len(padding) > 2 * self._N:
                raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must be no more "
                                 f"than {2 * self._N}, but got {len(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, float], but got "
                            f"{type(value)}")
        self.padding = (padding,) * (2 * self._N) if isinstance(padding, int) else padding
        self.value = value

    def construct(self, x: Tensor) -> Tensor:
        x = check_tensor(x, "PadV3", "x")
        if len(self.padding) // 2 > x.ndim:
            raise ValueError(f"For 'PadV3' constant mode, paddings length too large for input dims, the pad dims "
                             f"must be less than or equal to {x.ndim}")
        return index_pad(x, _pairs(self.padding), "constant", self.value)


class ConstantPad1d(_ConstantPadNd):
    """``nn.ConstantPad1d(padding, value)``: the last axis padded with ``value``.

    Example:
        >>> import mskernel as ms
        >>> print(ConstantPad1d((1, 2), 0.5)(ms.Tensor([[1.0, 2.0]])))
        [[0.5 1.  2.  0.5 0.5]]
    """


class ConstantPad2d(_ConstantPadNd):
    """``nn.ConstantPad2d(padding, value)``: the last two axes padded with ``value``.

    Example:
        >>> import mskernel as ms
        >>> print(ConstantPad2d((1, 0, 0, 1), 7)(ms.Tensor([[1.0, 2.0]])))
        [[7. 1. 2.]
         [7. 7. 7.]]
    """

    _N = 2


class ConstantPad3d(_ConstantPadNd):
    """``nn.ConstantPad3d(padding, value)``: the last three axes padded with ``value``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> ConstantPad3d(1, 0.0)(ms.Tensor(np.ones((1, 2, 2, 2), np.float32))).shape
        (1, 4, 4, 4)
    """

    _N = 3


class ZeroPad2d(ConstantPad2d):
    """``nn.ZeroPad2d(padding)``: the last two axes padded with zeros.

    Example:
        >>> import mskernel as ms
        >>> print(ZeroPad2d((1, 1, 0, 0))(ms.Tensor([[1.0, 2.0]])))
        [[0. 1. 2. 0.]]
    """

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0)


class _MirrorPadNd(Cell):
    """Reflection or replication of the edges; ``padding`` an int or a tuple of an even number of ints."""

    _N = 1
    _MODE = "reflect"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but got "
                            f"{type(padding).__name__}")
        if isinstance(padding, tuple) and len(padding) % 2:
            raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by 2, but got padding of "
                             f"length {len(padding)}. ")
        self.padding = (padding,) * (2 * self._N) if isinstance(padding, int) else padding

    def _check(self, x: Tensor) -> None:
        n = len(self.padding)
        if self._MODE == "edge":  # MindSpore's PadV3 kernel: a (2*k)-long padding takes a (k+1)- or (k+2)-D input
            if x.ndim not in (n // 2 + 1, n // 2 + 2):
                if x.ndim < 3:
                    raise ValueError(f"For primitive[PadV3], the input dims for edge, reflect or circular mode must "
                                     f"be greater than or equal to 3, but got {x.ndim}.")
                raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal {n} must be equal "
                                 f"to {n // 2 + 2}, but got {x.ndim}.")
            return
        if x.ndim < n // 2:
            raise ValueError(f"For padding with length {n}, the dimension of the tensor should be at least {n // 2}, "
                             f"but got {x.ndim}")
        for (lo, hi), size in zip(_pairs(self.padding), x.shape[x.ndim - n // 2:]):
            if lo >= size or hi >= size:
                raise ValueError(f"For 'MirrorPad', paddings must be no greater than the dimension size: [{lo}], "
                                 f"[{hi}] not less than [{size}]")

    def construct(self, x: Tensor) -> Tensor:
        x = check_tensor(x, type(self).__name__, "x")
        self._check(x)
        return index_pad(x, _pairs(self.padding), self._MODE)


class ReflectionPad1d(_MirrorPadNd):
    """``nn.ReflectionPad1d(padding)``: the last axis padded by its reflection (the edge not repeated).

    Example:
        >>> import mskernel as ms
        >>> print(ReflectionPad1d((2, 1))(ms.Tensor([[0.0, 1.0, 2.0]])))
        [[2. 1. 0. 1. 2. 1.]]
    """


class ReflectionPad2d(_MirrorPadNd):
    """``nn.ReflectionPad2d(padding)``: the last two axes padded by their reflection.

    Example:
        >>> import mskernel as ms
        >>> print(ReflectionPad2d((1, 0, 1, 0))(ms.Tensor([[0.0, 1.0], [2.0, 3.0]])))
        [[3. 2. 3.]
         [1. 0. 1.]
         [3. 2. 3.]]
    """

    _N = 2


class ReflectionPad3d(_MirrorPadNd):
    """``nn.ReflectionPad3d(padding)``: the last three axes padded by their reflection.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> ReflectionPad3d(1)(ms.Tensor(np.ones((1, 2, 2, 2), np.float32))).shape
        (1, 4, 4, 4)
    """

    _N = 3


class ReplicationPad1d(_MirrorPadNd):
    """``nn.ReplicationPad1d(padding)``: the last axis padded by repeating its edge elements.

    Example:
        >>> import mskernel as ms
        >>> print(ReplicationPad1d((2, 1))(ms.Tensor([[0.0, 1.0, 2.0]])))
        [[0. 0. 0. 1. 2. 2.]]
    """

    _MODE = "edge"


class ReplicationPad2d(ReplicationPad1d):
    """``nn.ReplicationPad2d(padding)``: the last two axes padded by repeating their edges ((C, H, W) or
    (N, C, H, W) input).

    Example:
        >>> import mskernel as ms
        >>> print(ReplicationPad2d((1, 0, 0, 1))(ms.Tensor([[[0.0, 1.0]]])))
        [[[0. 0. 1.]
          [0. 0. 1.]]]
    """

    _N = 2


class ReplicationPad3d(ReplicationPad1d):
    """``nn.ReplicationPad3d(padding)``: the last three axes padded by repeating their edges ((C, D, H, W) or
    (N, C, D, H, W) input).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> ReplicationPad3d(1)(ms.Tensor(np.ones((1, 1, 2, 2, 2), np.float32))).shape
        (1, 1, 4, 4, 4)
    """

    _N = 3


class Pad(Cell):
    """``nn.Pad(paddings, mode='CONSTANT')``: ``paddings`` is a tuple of one (before, after) pair per axis;
    ``mode`` 'CONSTANT' (zeros), 'REFLECT' (the edge not repeated) or 'SYMMETRIC' (the edge repeated).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(Pad(((0, 0), (1, 2)), "SYMMETRIC")(ms.Tensor([[1.0, 2.0, 3.0]])))
        [[1. 1. 2. 3. 3. 2.]]
    """

    _MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}

    def __init__(self, paddings: Any, mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in self._MODES:
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in '{list(self._MODES)}', but got "
                             f"'{mode}'.")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got {type(paddings).__name__}.")
        for pair in paddings:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(f"For 'Pad', each element of 'paddings' must be a pair, but got {pair!r}.")
        self.paddings, self.mode = paddings, mode

    def construct(self, x: Tensor) -> Tensor:
        x = check_tensor(x, "Pad", "input_x")
        if len(self.paddings) != x.ndim:
            raise ValueError(f"For 'Pad', the length of 'paddings' must be equal to the rank of 'input_x', but got "
                             f"{len(self.paddings)} vs {x.ndim}")
        mode = self._MODES[self.mode]
        if mode != "constant":
            for (lo, hi), size in zip(self.paddings, x.shape):
                if (lo >= size or hi >= size) if mode == "reflect" else (lo > size or hi > size):
                    relation = "not less than" if mode == "reflect" else "greater than"
                    raise ValueError(f"For 'MirrorPad', paddings must be no greater than the dimension size: [{lo}], "
                                     f"[{hi}] {relation} [{size}]")
        return index_pad(x, self.paddings, mode)
