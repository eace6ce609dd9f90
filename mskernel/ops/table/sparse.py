"""Op table: the sparse primitives that take a sparse tensor as its parts (indices, values, shape) —
``SparseToDense``, ``SparseTensorDenseAdd``, ``SparseTensorDenseMatmul``, ``SparseSlice``, ``SparseGatherV2`` and
``Coalesce``. The functions on :class:`~mskernel.COOTensor` / :class:`~mskernel.CSRTensor` are in
:mod:`mskernel.ops.sparse`.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.SparseToDense()(ms.Tensor([[0, 1]]), ms.Tensor([5.0]), (2, 2)))
    [[0. 5.]
     [0. 0.]]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.ops.opdef import F, Op


def _dense_shape(shape: Any) -> Tuple[int, ...]:
    return tuple(int(d) for d in (shape.tolist() if isinstance(shape, np.ndarray) else
                                  shape._data.tolist() if hasattr(shape, "_data") else shape))


def _check_indices(indices: np.ndarray, shape: Tuple[int, ...], op: str) -> np.ndarray:
    idx = indices.astype(np.int64)
    if idx.ndim != 2 or idx.shape[1] != len(shape):
        raise ValueError(f"For '{op}', 'indices' must be 2-D with {len(shape)} columns, but got shape "
                         f"{list(indices.shape)}.")
    if idx.size and ((idx < 0).any() or (idx >= np.asarray(shape)).any()):
        raise ValueError(f"For '{op}', the indices must lie inside the dense shape {list(shape)}.")
    return idx


def _to_dense(indices: np.ndarray, values: np.ndarray, sparse_shape: Any) -> np.ndarray:
    shape = _dense_shape(sparse_shape)
    out = np.zeros(shape, values.dtype)
    np.add.at(out, tuple(_check_indices(indices, shape, "SparseToDense").T), values)
    return out


def _gather_at(g: Any, indices: Any) -> Any:
    return F.gather_nd(g, indices)


def _dense_add(x1_indices: np.ndarray, x1_values: np.ndarray, x1_shape: np.ndarray, x2: np.ndarray) -> np.ndarray:
    shape = _dense_shape(x1_shape)
    if tuple(x2.shape) != shape:
        raise ValueError(f"For 'SparseTensorDenseAdd', the shape of 'x2' {list(x2.shape)} must equal 'x1_shape' "
                         f"{list(shape)}.")
    out = x2.copy()
    np.add.at(out, tuple(_check_indices(x1_indices, shape, "SparseTensorDenseAdd").T), x1_values.astype(x2.dtype))
    return out


def _dense_matmul(indices: Any, values: Any, sparse_shape: Any, dense: Any, adjoint_st: bool = False,
                  adjoint_dt: bool = False) -> Any:
    a = F._sparse_to_dense(indices, values, _dense_shape(sparse_shape))
    a = F.transpose(a, (1, 0)) if adjoint_st else a
    b = F.transpose(dense, (1, 0)) if adjoint_dt else dense
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"For 'SparseTensorDenseMatmul', the sparse matrix's columns ({a.shape[1]}) must equal the "
                         f"dense matrix's rows ({b.shape[0]}).")
    return F.matmul(a, b)


def _slice(indices: np.ndarray, values: np.ndarray, shape: np.ndarray, start: np.ndarray,
           size: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo = start.astype(np.int64)
    hi = np.minimum(lo + size.astype(np.int64), shape.astype(np.int64))
    keep = np.all((indices >= lo) & (indices < hi), axis=1)
    return (indices[keep] - lo).astype(indices.dtype), values[keep], (hi - lo).astype(shape.dtype)


def _gather_v2(input_params: np.ndarray, input_indices: np.ndarray, axis: int) -> np.ndarray:
    return np.take(input_params, input_indices.astype(np.int64), axis=int(axis))


def _coalesce(x_indices: np.ndarray, x_values: np.ndarray, x_shape: np.ndarray) -> Tuple[np.ndarray, ...]:
    from mskernel.common.tensor import Tensor
    from mskernel.ops.sparse import coalesce
    return tuple(t._data for t in coalesce(Tensor._wrap(x_indices), Tensor._wrap(x_values), Tensor._wrap(x_shape)))


OPS: List[Op] = [
    Op("_sparse_to_dense", "indices, values, sparse_shape", forward=_to_dense, inputs=2,
       backward=(None, lambda g, indices: _gather_at(g, indices)),
       prim="SparseToDense()(indices, values, sparse_shape) -> indices, values, sparse_shape"),
    Op("_sparse_tensor_dense_add", "x1_indices, x1_values, x1_shape, x2", forward=_dense_add, inputs=4,
       backward=(None, lambda g, x1_indices: _gather_at(g, x1_indices), None, lambda g: g),
       prim="SparseTensorDenseAdd"),
    Op("_sparse_tensor_dense_matmul", "indices, values, sparse_shape, dense, adjoint_st=False, adjoint_dt=False",
       fn=_dense_matmul, inputs=0,
       prim="SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense) -> "
            "indices, values, sparse_shape, dense, adjoint_st, adjoint_dt", label="SparseTensorDenseMatmul"),
    Op("_sparse_slice", "indices, values, shape, start, size", forward=_slice, inputs=5, outputs=3,
       prim="SparseSlice"),
    Op("_sparse_gather_v2", "input_params, input_indices, axis", forward=_gather_v2, inputs=2,
       prim="SparseGatherV2()(input_params, input_indices, axis) -> input_params, input_indices, axis"),
    Op("_coalesce", "x_indices, x_values, x_shape", forward=_coalesce, inputs=3, outputs=3, prim="Coalesce"),
]

#: the examples, by op or primitive name (see mskernel.ops.registry): (setup, ..., expression, printed)
EXAMPLES = {
    "SparseToDense": ("ops.SparseToDense()(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([1.0, 2.0]), (2, 3))",
                      "[[0. 1. 0.]\n [0. 0. 2.]]"),
    "SparseTensorDenseAdd": ("i = ms.Tensor([[0, 0], [0, 1]], ms.int64)",
                             "ops.SparseTensorDenseAdd()(i, ms.Tensor([1.0, 1.0]), ms.Tensor([2, 2], ms.int64), "
                             "ops.ones((2, 2)))", "[[2. 2.]\n [1. 1.]]"),
    "SparseTensorDenseMatmul": ("i = ms.Tensor([[0, 1], [1, 0]], ms.int32)",
                                "ops.SparseTensorDenseMatmul()(i, ms.Tensor([1.0, 2.0]), (2, 2), ops.ones((2, 1)))",
                                "[[1.]\n [2.]]"),
    "SparseSlice": ("i = ms.Tensor([[0, 1], [1, 2], [1, 3]], ms.int64)",
                    "ops.SparseSlice()(i, ms.Tensor([1, 2, 3]), ms.Tensor([2, 4], ms.int64), "
                    "ms.Tensor([1, 2], ms.int64), ms.Tensor([1, 2], ms.int64))[1]", "[2 3]"),
    "SparseGatherV2": ("ops.SparseGatherV2()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([1, 0]), 1)",
                       "[[2. 1.]\n [4. 3.]]"),
    "Coalesce": ("i = ms.Tensor([[0, 0, 1], [1, 1, 2]])",
                 "ops.Coalesce()(i, ms.Tensor([1.0, 5.0, 4.0]), ms.Tensor([3, 3]))[1]", "[6. 4.]"),
}
