"""``nn.SparseToDense()`` (a COOTensor made dense) and ``nn.SparseTensorDenseMatmul(adjoint_st=False,
adjoint_dt=False)`` (a sparse matrix, given as its parts, times a dense one).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> x = ms.COOTensor(ms.Tensor([[0, 1]]), ms.Tensor([3]), (2, 2))
    >>> print(nn.SparseToDense()(x))
    [[0 3]
     [0 0]]
"""
from __future__ import annotations

from typing import Any, Tuple

from mskernel.common.sparse_tensor import COOTensor
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.ops import functional as F
from mskernel.ops import operations as P

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class SparseToDense(Cell):
    """The dense Tensor of a COOTensor.

    Example:
        >>> import mskernel as ms
        >>> x = ms.COOTensor(ms.Tensor([[1, 0]]), ms.Tensor([2.0]), (2, 2))
        >>> print(SparseToDense()(x))
        [[0. 0.]
         [2. 0.]]
    """

    def construct(self, sparse_tensor: COOTensor) -> Tensor:
        if not isinstance(sparse_tensor, COOTensor):
            raise TypeError(f"For 'SparseToDense', the input must be a COOTensor, but got "
                            f"{type(sparse_tensor).__name__}.")
        return F._sparse_to_dense(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``indices``/``values``/``sparse_shape`` (a sparse matrix) times ``dense``; ``adjoint_st`` / ``adjoint_dt``
    transpose the sparse / dense operand first.

    Example:
        >>> import mskernel as ms
        >>> i = ms.Tensor([[0, 1], [1, 0]], ms.int32)
        >>> print(SparseTensorDenseMatmul()(i, ms.Tensor([1.0, 2.0]), (2, 2), ms.Tensor([[1.0], [1.0]])))
        [[1.]
         [2.]]
    """

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        self.adjoint_st = adjoint_st
        self.adjoint_dt = adjoint_dt
        self._op = P.SparseTensorDenseMatmul(adjoint_st, adjoint_dt)

    def construct(self, indices: Tensor, values: Tensor, sparse_shape: Tuple[int, ...], dense: Tensor) -> Any:
        return self._op(indices, values, sparse_shape, dense)
