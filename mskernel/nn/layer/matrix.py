"""MindSpore's matrix and statistics cells: ``nn.MatDet``, ``nn.MatInverse``, ``nn.MatrixDiag``,
``nn.MatrixDiagPart``, ``nn.MatrixSetDiag``, ``nn.Norm``, ``nn.Moments``, ``nn.Range``, ``nn.Tril``, ``nn.Triu``
and the bilinear layer ``nn.BiDense``. Each is a thin Cell over the op table.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> x = ms.Tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> print(nn.MatDet()(x), nn.Norm(axis=1)(x), nn.Tril()(x))
    8.0 [4.472136  3.6055512] [[4. 0.]
     [2. 3.]]
"""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.initializer import Uniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F

__all__ = ["MatDet", "MatInverse", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Norm", "Moments", "Range",
           "Tril", "Triu", "BiDense"]


class MatDet(Cell):
    """``nn.MatDet()``: the determinant of (a batch of) symmetric positive-definite matrices.

    Example:
        >>> import mskernel as ms
        >>> print(MatDet()(ms.Tensor([[4.0, 2.0], [2.0, 3.0]])))
        8.0
    """

    def construct(self, a: Tensor) -> Tensor:
        return F.det(a)


class MatInverse(Cell):
    """``nn.MatInverse()``: the inverse of (a batch of) symmetric positive-definite matrices.

    Example:
        >>> import mskernel as ms
        >>> print(MatInverse()(ms.Tensor([[2.0, 0.0], [0.0, 4.0]])))
        [[0.5  0.  ]
         [0.   0.25]]
    """

    def construct(self, a: Tensor) -> Tensor:
        return F.inverse(a)


class MatrixDiag(Cell):
    """``nn.MatrixDiag()``: square matrices with the last dimension of ``x`` on their diagonals.

    Example:
        >>> import mskernel as ms
        >>> print(MatrixDiag()(ms.Tensor([1.0, 2.0])))
        [[1. 0.]
         [0. 2.]]
    """

    def construct(self, input_x: Tensor) -> Tensor:
        return F.diag_embed(input_x)


class MatrixDiagPart(Cell):
    """``nn.MatrixDiagPart()``: the main diagonals of the innermost matrices.

    Example:
        >>> import mskernel as ms
        >>> print(MatrixDiagPart()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        [1. 4.]
    """

    def construct(self, input_x: Tensor) -> Tensor:
        return F.diagonal(input_x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """``nn.MatrixSetDiag()``: ``input_x`` with its main diagonals replaced by ``diagonal``.

    Example:
        >>> import mskernel as ms
        >>> print(MatrixSetDiag()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([0.0, -1.0])))
        [[ 0.  2.]
         [ 3. -1.]]
    """

    def construct(self, input_x: Tensor, diagonal: Tensor) -> Tensor:
        return F.matrix_set_diag(input_x, diagonal)


def _axes(axis: Any) -> Any:
    return None if axis in ((), []) else tuple(axis) if isinstance(axis, list) else axis


class Norm(Cell):
    """``nn.Norm(axis=(), keep_dims=False)``: the Euclidean norm over ``axis`` (all axes when empty).

    Example:
        >>> import mskernel as ms
        >>> print(Norm()(ms.Tensor([3.0, 4.0])))
        5.0
    """

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Tensor) -> Tensor:
        return F.sqrt(F.sum(F.square(x), _axes(self.axis), self.keep_dims))


class Moments(Cell):
    """``nn.Moments(axis=None, keep_dims=None)``: the mean and the (biased) variance over ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(Moments()(ms.Tensor([1.0, 2.0, 6.0])))
        (Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 4.66667))
    """

    def __init__(self, axis: Any = None, keep_dims: Optional[bool] = None) -> None:
        super().__init__()
        self.axis, self.keep_dims = axis, bool(keep_dims)

    def construct(self, x: Tensor) -> Tuple[Tensor, Tensor]:
        axis = _axes(self.axis)
        mean = F.mean(x, axis, True)
        var = F.mean(F.square(x - mean), axis, self.keep_dims)
        return (mean if self.keep_dims else F.mean(x, axis, False)), var


class Range(Cell):
    """``nn.Range(start, limit=None, delta=1)``: a cell returning ``[start, limit)`` in steps of ``delta`` (``[0,
    start)`` with no limit); Int32 for integer arguments, else Float32.

    Example:
        >>> print(Range(1, 4, 0.5)())
        [1.  1.5 2.  2.5 3.  3.5]
    """

    def __init__(self, start: Any, limit: Any = None, delta: Any = 1) -> None:
        super().__init__()
        if limit is None:
            start, limit = 0, start
        if delta == 0:
            raise ValueError("For 'Range', 'delta' can not be 0.")
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, limit, delta))
        dt = np.int32 if ints else np.float32
        self._values = np.arange(start, limit, delta).astype(dt)

    def construct(self) -> Tensor:
        return Tensor._wrap(self._values.copy())


class Tril(Cell):
    """``nn.Tril()``: ``x`` with the elements above diagonal ``k`` zeroed.

    Example:
        >>> import mskernel as ms
        >>> print(Tril()(ms.Tensor([[1, 2], [3, 4]]), 1))
        [[1 2]
         [3 4]]
    """

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        return F.tril(x, k)


class Triu(Cell):
    """``nn.Triu()``: ``x`` with the elements below diagonal ``k`` zeroed.

    Example:
        >>> import mskernel as ms
        >>> print(Triu()(ms.Tensor([[1, 2], [3, 4]])))
        [[1 2]
         [0 4]]
    """

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        return F.triu(x, k)


class BiDense(Cell):
    """``nn.BiDense(in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
    dtype=mindspore.float32)``: ``y = x1^T W x2 + b`` with ``weight`` of shape ``(out, in1, in2)`` and both
    parameters drawn from ``Uniform(1 / sqrt(in1_channels))`` by default.

    Example:
        >>> import mskernel as ms
        >>> net = BiDense(2, 1, 1, weight_init="ones", bias_init="zeros")
        >>> print(net, net(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0]])))
        BiDense(in1_channels=2, in2_channels=1, output_channels=1, has_bias=True) [[9.]]
    """

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        for name, v in (("in1_channels", in1_channels), ("in2_channels", in2_channels),
                        ("out_channels", out_channels)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"For 'BiDense', '{name}' must be a positive int, but got {v!r}.")
        self.in1_channels, self.in2_channels, self.out_channels = in1_channels, in2_channels, out_channels
        self.has_bias = has_bias
        bound = 1.0 / math.sqrt(in1_channels)
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            (out_channels, in1_channels, in2_channels), dtype), name="weight")
        self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init, (out_channels,),
                                          dtype), name="bias") if has_bias else None

    def construct(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self) -> str:
        return (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
                f"output_channels={self.out_channels}, has_bias={self.has_bias}")
