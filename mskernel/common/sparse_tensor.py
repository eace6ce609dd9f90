"""MindSpore's sparse tensors: :class:`COOTensor` (coordinates and values), :class:`CSRTensor` (compressed rows),
:class:`RowTensor` (a slice of rows) and the older :class:`SparseTensor`.

Each holds its parts as Tensors (so gradients flow through ``values``) and the dense shape as a tuple; the
operations on them are the ``ops.coo_*`` / ``ops.csr_*`` functions (:mod:`mskernel.ops.sparse`), which the
methods here call.

Example:
    >>> import mskernel as ms
    >>> x = COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4))
    >>> print(x.to_dense())
    [[0. 1. 0. 0.]
     [0. 0. 2. 0.]
     [0. 0. 0. 0.]]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from mskernel._format import values_repr
from mskernel.common.tensor import Tensor

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor", "IMPL"]

#: the functions the methods call, by name: :mod:`mskernel.ops.sparse` fills it (the classes are a lower layer
#: than the ops, which they may not import)
IMPL: Dict[str, Callable] = {}


def _part_repr(t: Tensor) -> str:
    """A part as MindSpore shows it inside a sparse tensor: the Tensor form without commas between values."""
    arr = t._data
    shape = "[" + ", ".join(str(d) for d in arr.shape) + "]"
    return f"Tensor(shape={shape}, dtype={t.dtype}, value={chr(10) if arr.ndim > 1 else ''}" \
           f"{values_repr(arr).replace(',', '')})"


def _tensor(x: Any, cls: str, what: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For SparseTensors, '{what}' must be Tensor, but got {type(x)}.")
    return x


def _shape(shape: Any, cls: str) -> Tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape._data.tolist()
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError(f"For {cls}, 'shape' must be a tuple or list of int, but got {shape}.")
    for d in shape:
        if d <= 0:
            raise ValueError(f"For {cls}, the element of 'shape' must be positive, but got {d} in {tuple(shape)}.")
    return tuple(int(d) for d in shape)


class COOTensor:
    """A sparse tensor in coordinate form: ``indices`` (N x ndim, Int32 or Int64), ``values`` (N) and the dense
    ``shape``; or a copy of ``coo_tensor``.

    Example:
        >>> import mskernel as ms
        >>> x = COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4))
        >>> print(x.values, x.shape, x.dtype)
        [1. 2.] (3, 4) Float32
    """

    def __init__(self, indices: Optional[Tensor] = None, values: Optional[Tensor] = None,
                 shape: Optional[Tuple[int, ...]] = None, coo_tensor: Optional["COOTensor"] = None) -> None:
        if coo_tensor is not None:
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        indices = _tensor(indices, "COOTensor", "indices")
        values = _tensor(values, "COOTensor", "values")
        shape = _shape(shape, "COOTensor")
        if indices.ndim != 2:
            raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                             f"{indices.ndim}-dimensional tensor.")
        if indices._data.dtype not in (np.int16, np.int32, np.int64):
            raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, int32, int64], but got "
                            f"{indices.dtype}.")
        if values.ndim != 1:
            raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                             f"{values.ndim}-dimensional tensor.")
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]', but got "
                             f"'indices.shape[0]' = {indices.shape[0]} and 'values.shape[0]' = {values.shape[0]}.")
        if indices.shape[1] != len(shape):
            raise ValueError(f"For COOTensor, the length of 'shape' must be {indices.shape[1]}, but got {shape}.")
        self._indices, self._values, self._shape = indices, values, shape

    indices = property(lambda self: self._indices, doc="The coordinates, N x ndim.")
    values = property(lambda self: self._values, doc="The values, N.")
    shape = property(lambda self: self._shape, doc="The dense shape.")
    dtype = property(lambda self: self._values.dtype, doc="The values' dtype.")
    size = property(lambda self: self._values.size, doc="The number of stored values.")
    itemsize = property(lambda self: self._values._data.itemsize, doc="The bytes of one value.")
    ndim = property(lambda self: len(self._shape), doc="The dense rank.")

    def to_dense(self) -> Tensor:
        """The dense Tensor (values at repeated coordinates add up).

        Example:
            >>> import mskernel as ms
            >>> print(COOTensor(ms.Tensor([[0], [0]]), ms.Tensor([1, 2]), (2,)).to_dense())
            [3 0]
        """
        coo_to_dense = IMPL["coo_to_dense"]
        return coo_to_dense(self)

    def to_csr(self) -> "CSRTensor":
        """The same 2-D tensor in CSR form (rows sorted).

        Example:
            >>> import mskernel as ms
            >>> print(COOTensor(ms.Tensor([[1, 0], [0, 1]], ms.int32), ms.Tensor([5.0, 6.0]), (2, 2)).to_csr().indptr)
            [0 1 2]
        """
        coo_to_csr = IMPL["coo_to_csr"]
        return coo_to_csr(self)

    def to_tuple(self) -> Tuple[Tensor, Tensor, Tuple[int, ...]]:
        """``(indices, values, shape)``.

        Example:
            >>> import mskernel as ms
            >>> COOTensor(ms.Tensor([[0]]), ms.Tensor([1.0]), (2,)).to_tuple()[2]
            (2,)
        """
        return self._indices, self._values, self._shape

    def abs(self) -> "COOTensor":
        """Elementwise absolute value.

        Example:
            >>> import mskernel as ms
            >>> print(COOTensor(ms.Tensor([[0]]), ms.Tensor([-1.5]), (2,)).abs().values)
            [1.5]
        """
        coo_abs = IMPL["coo_abs"]
        return coo_abs(self)

    def astype(self, dtype: Any) -> "COOTensor":
        """The values cast to ``dtype``.

        Example:
            >>> import mskernel as ms
            >>> COOTensor(ms.Tensor([[0]]), ms.Tensor([1.5]), (2,)).astype(ms.int32).dtype
            mindspore.int32
        """
        return COOTensor(self._indices, self._values.astype(dtype), self._shape)

    def add(self, other: "COOTensor", thresh: Any) -> "COOTensor":
        """``ops.coo_add(self, other, thresh)``.

        Example:
            >>> import mskernel as ms
            >>> x = COOTensor(ms.Tensor([[0]]), ms.Tensor([1.5]), (2,))
            >>> print(x.add(x, ms.Tensor(0.0)).values)
            [3.]
        """
        coo_add = IMPL["coo_add"]
        return coo_add(self, other, thresh)

    def coalesce(self) -> "COOTensor":
        """Duplicate coordinates summed, coordinates sorted.

        Example:
            >>> import mskernel as ms
            >>> print(COOTensor(ms.Tensor([[1], [1]]), ms.Tensor([1.0, 2.0]), (2,)).coalesce().values)
            [3.]
        """
        coalesce = IMPL["coalesce"]
        i, v, _ = coalesce(self._indices.T, self._values, Tensor(list(self._shape)))
        return COOTensor(i.T, v, self._shape)

    def __neg__(self) -> "COOTensor":
        return COOTensor(self._indices, -self._values, self._shape)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, COOTensor):
            coo_add = IMPL["coo_add"]
            return coo_add(self, other, Tensor(0, self._values.dtype))
        return self.to_dense() + other

    def __sub__(self, other: Any) -> Any:
        return self + (-other)

    def __mul__(self, other: Any) -> "COOTensor":
        other = other if isinstance(other, Tensor) else Tensor(other)
        dense = other._data.reshape(other.shape)
        picked = np.broadcast_to(dense, self._shape)[tuple(self._indices._data.T)]
        return COOTensor(self._indices, self._values * Tensor._wrap(picked.astype(dense.dtype)), self._shape)

    def __truediv__(self, other: Any) -> "COOTensor":
        other = other if isinstance(other, Tensor) else Tensor(other)
        picked = np.broadcast_to(other._data, self._shape)[tuple(self._indices._data.T)]
        return COOTensor(self._indices, self._values / Tensor._wrap(picked), self._shape)

    def __repr__(self) -> str:
        return (f"COOTensor(shape={list(self._shape)}, dtype={self.dtype.name}, indices={_part_repr(self._indices)}, "
                f"values={_part_repr(self._values)})")

    __str__ = __repr__


class CSRTensor:
    """A 2-D (or batched) sparse tensor in compressed-row form: ``indptr`` (rows + 1), column ``indices``,
    ``values`` and the dense ``shape``; or a copy of ``csr_tensor``.

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32), ms.Tensor([1.0, 2.0]), (2, 4))
        >>> print(x.to_dense())
        [[1. 0. 0. 0.]
         [0. 2. 0. 0.]]
    """

    def __init__(self, indptr: Optional[Tensor] = None, indices: Optional[Tensor] = None,
                 values: Optional[Tensor] = None, shape: Optional[Tuple[int, ...]] = None,
                 csr_tensor: Optional["CSRTensor"] = None) -> None:
        if csr_tensor is not None:
            indptr, indices, values, shape = csr_tensor.indptr, csr_tensor.indices, csr_tensor.values, \
                csr_tensor.shape
        indptr = _tensor(indptr, "CSRTensor", "indptr")
        indices = _tensor(indices, "CSRTensor", "indices")
        values = _tensor(values, "CSRTensor", "values")
        shape = _shape(shape, "CSRTensor")
        if indptr.ndim != 1 or indices.ndim != 1:
            raise ValueError("For CSRTensor, 'indptr' and 'indices' must be 1-D, but got "
                             f"{indptr.ndim}-D and {indices.ndim}-D.")
        if indptr._data.dtype not in (np.int16, np.int32, np.int64) or \
                indices._data.dtype not in (np.int16, np.int32, np.int64):
            bad, name = (indptr, "indptr") if indptr._data.dtype not in (np.int16, np.int32, np.int64) \
                else (indices, "indices")
            raise TypeError(f"For CSRTensor, {name} must have int16 or int32 or int64 data type, but got "
                            f"{bad.dtype}.")
        if indptr.shape[0] != shape[0] + 1:
            raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: {indptr.shape[0]}")
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but got indices shape: "
                             f"{indices.shape[0]}, values shape: {values.shape[0]}.")
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, shape

    indptr = property(lambda self: self._indptr, doc="Where each row's entries start, rows + 1.")
    indices = property(lambda self: self._indices, doc="The column of each value.")
    values = property(lambda self: self._values, doc="The values.")
    shape = property(lambda self: self._shape, doc="The dense shape.")
    dtype = property(lambda self: self._values.dtype, doc="The values' dtype.")
    size = property(lambda self: self._values.size, doc="The number of stored values.")
    itemsize = property(lambda self: self._values._data.itemsize, doc="The bytes of one value.")
    ndim = property(lambda self: len(self._shape), doc="The dense rank.")

    def _rows(self) -> np.ndarray:
        return np.repeat(np.arange(self._shape[0]), np.diff(self._indptr._data.astype(np.int64)))

    def to_dense(self) -> Tensor:
        """The dense Tensor.

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.to_dense())
            [[0. 3.]
             [0. 0.]]
        """
        csr_to_dense = IMPL["csr_to_dense"]
        return csr_to_dense(self)

    def to_coo(self) -> COOTensor:
        """The same tensor in COO form.

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.to_coo().indices)
            [[0 1]]
        """
        csr_to_coo = IMPL["csr_to_coo"]
        return csr_to_coo(self)

    def to_tuple(self) -> Tuple[Tensor, Tensor, Tensor, Tuple[int, ...]]:
        """``(indptr, indices, values, shape)``.

        Example:
            >>> import mskernel as ms
            >>> CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2)).to_tuple()[3]
            (2, 2)
        """
        return self._indptr, self._indices, self._values, self._shape

    def abs(self) -> "CSRTensor":
        """Elementwise absolute value.

        Example:
            >>> import mskernel as ms
            >>> print(CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([-3.0]), (2, 2)).abs().values)
            [3.]
        """
        return CSRTensor(self._indptr, self._indices, self._values.abs(), self._shape)

    def astype(self, dtype: Any) -> "CSRTensor":
        """The values cast to ``dtype``.

        Example:
            >>> import mskernel as ms
            >>> CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([-3.0]), (2, 2)).astype(ms.int32).dtype
            mindspore.int32
        """
        return CSRTensor(self._indptr, self._indices, self._values.astype(dtype), self._shape)

    def add(self, b: "CSRTensor", alpha: Any, beta: Any) -> "CSRTensor":
        """``ops.csr_add(self, b, alpha, beta)``.

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.add(x, ms.Tensor(1.0), ms.Tensor(2.0)).values)
            [9.]
        """
        csr_add = IMPL["csr_add"]
        return csr_add(self, b, alpha, beta)

    def mv(self, dense_vector: Tensor) -> Tensor:
        """``ops.csr_mv(self, dense_vector)``: the product with an (n, 1) column.

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.mv(ms.Tensor([[1.0], [2.0]])))
            [[6.]
             [0.]]
        """
        csr_mv = IMPL["csr_mv"]
        return csr_mv(self, dense_vector)

    def mm(self, matrix: Any) -> Any:
        """The product with a dense matrix (a Tensor) or another CSRTensor.

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.mm(ms.Tensor([[1.0, 1.0], [2.0, 0.0]])))
            [[6. 0.]
             [0. 0.]]
        """
        csr_mm = IMPL["csr_mm"]
        if isinstance(matrix, CSRTensor):
            return csr_mm(self, matrix)
        return self.to_dense() @ matrix

    def sum(self, axis: int) -> Tensor:
        """``ops.csr_reduce_sum(self, axis)`` (the axis kept, of length 1).

        Example:
            >>> import mskernel as ms
            >>> x = CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([3.0]), (2, 2))
            >>> print(x.sum(1))
            [[3.]
             [0.]]
        """
        csr_reduce_sum = IMPL["csr_reduce_sum"]
        return csr_reduce_sum(self, axis)

    def __neg__(self) -> "CSRTensor":
        return CSRTensor(self._indptr, self._indices, -self._values, self._shape)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, CSRTensor):
            csr_add = IMPL["csr_add"]
            one = Tensor(1, self._values.dtype)
            return csr_add(self, other, one, one)
        return self.to_dense() + other

    def __sub__(self, other: Any) -> Any:
        return self + (-other)

    def __mul__(self, other: Any) -> "CSRTensor":
        csr_mul = IMPL["csr_mul"]
        return csr_mul(self, other if isinstance(other, Tensor) else Tensor(other, self._values.dtype))

    def __truediv__(self, other: Any) -> Tensor:
        csr_div = IMPL["csr_div"]
        return csr_div(self, other if isinstance(other, Tensor) else Tensor(other, self._values.dtype))

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype.name}, indptr={_part_repr(self._indptr)}, "
                f"indices={_part_repr(self._indices)}, values={_part_repr(self._values)})")

    __str__ = __repr__


class RowTensor:
    """Some rows of a dense tensor: the row ``indices``, their ``values`` (rows x rest of ``shape``) and the
    dense shape (``dense_shape``); or a copy of ``row_tensor``.

    Example:
        >>> import mskernel as ms
        >>> x = RowTensor(ms.Tensor([0]), ms.Tensor([[1.0, 2.0]]), (3, 2))
        >>> print(x.values, x.dense_shape)
        [[1. 2.]] (3, 2)
    """

    def __init__(self, indices: Optional[Tensor] = None, values: Optional[Tensor] = None,
                 shape: Optional[Tuple[int, ...]] = None, row_tensor: Optional["RowTensor"] = None) -> None:
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        self._indices = _tensor(indices, "RowTensor", "indices")
        self._values = _tensor(values, "RowTensor", "values")
        self._shape = _shape(shape, "RowTensor")

    indices = property(lambda self: self._indices, doc="The row indices.")
    values = property(lambda self: self._values, doc="The rows' values.")
    dense_shape = property(lambda self: self._shape, doc="The dense shape.")

    def to_dense(self) -> Tensor:
        """The dense Tensor (rows given twice add up).

        Example:
            >>> import mskernel as ms
            >>> print(RowTensor(ms.Tensor([1]), ms.Tensor([[1.0, 2.0]]), (2, 2)).to_dense())
            [[0. 0.]
             [1. 2.]]
        """
        out = np.zeros(self._shape, self._values._data.dtype)
        np.add.at(out, self._indices._data.astype(np.int64), self._values._data)
        return Tensor._wrap(out)

    def __repr__(self) -> str:
        return (f"RowTensor(shape={list(self._shape)}, dtype={self._values.dtype.name}, "
                f"indices={_part_repr(self._indices)}, values={_part_repr(self._values)})")


class SparseTensor(COOTensor):
    """The older name of a COO tensor (MindSpore keeps it, deprecated): ``indices``, ``values``, ``shape``.

    Example:
        >>> import mskernel as ms
        >>> print(SparseTensor(ms.Tensor([[0, 1]]), ms.Tensor([1.0]), (3, 4)).indices)
        [[0 1]]
    """

    def __init__(self, indices: Tensor, values: Tensor, shape: Tuple[int, ...]) -> None:
        super().__init__(indices, values, shape)

