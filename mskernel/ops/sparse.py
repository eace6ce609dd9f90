"""MindSpore's functions on sparse tensors: ``ops.coo_*`` and ``ops.csr_*`` (elementwise ops on the stored values,
arithmetic, products, conversions), the ``make_*`` / ``*_get_*`` accessors, ``coalesce``, ``dense_to_sparse_*``,
``csr2coo`` / ``coo2csr`` and ``Tensor.to_coo`` / ``Tensor.to_csr``.

An elementwise function is one row of :data:`UNARY` (the sparse name's suffix → the dense op applied to the
values), so its gradient is the dense op's. Structure (indices, indptr) is computed with numpy.

Example:
    >>> import mskernel as ms
    >>> x = COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int64), ms.Tensor([-1.0, 4.0]), (3, 4))
    >>> print(coo_sqrt(coo_abs(x)).values)
    [1. 2.]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.sparse_tensor import IMPL, COOTensor, CSRTensor, RowTensor
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F

#: ``coo_NAME`` / ``csr_NAME`` → the dense op (of :data:`mskernel.ops.opdef.F`) applied to the stored values
UNARY: Dict[str, str] = {
    "abs": "abs", "acos": "acos", "acosh": "acosh", "asin": "asin", "asinh": "asinh", "atan": "atan",
    "atanh": "atanh", "ceil": "ceil", "cos": "cos", "cosh": "cosh", "exp": "exp", "expm1": "expm1",
    "floor": "floor", "inv": "reciprocal", "isfinite": "isfinite", "isinf": "isinf", "isnan": "isnan", "log": "log",
    "log1p": "log1p", "neg": "neg", "relu": "relu", "relu6": "relu6", "round": "round", "sigmoid": "sigmoid",
    "sin": "sin", "sinh": "sinh", "softsign": "softsign", "sqrt": "sqrt", "square": "square", "tan": "tan",
    "tanh": "tanh",
}
#: the values each example of :data:`UNARY` starts from (inside every op's domain)
_EXAMPLE_VALUES = {"acosh": "[1.0, 2.0]", "atanh": "[-0.5, 0.25]", "acos": "[-0.5, 0.25]", "asin": "[-0.5, 0.25]",
                   "log": "[1.0, 2.0]", "log1p": "[1.0, 2.0]", "sqrt": "[1.0, 4.0]"}


def _coo(x: Any, op: str) -> COOTensor:
    if not isinstance(x, COOTensor):
        raise TypeError(f"For '{op}', the input must be a COOTensor, but got {type(x).__name__}.")
    return x


def _csr(x: Any, op: str) -> CSRTensor:
    if not isinstance(x, CSRTensor):
        raise TypeError(f"For '{op}', the input must be a CSRTensor, but got {type(x).__name__}.")
    return x


def _make_unary(kind: str, suffix: str, dense: str) -> Callable:
    name = f"{kind}_{suffix}"
    if kind == "coo":
        def fn(x: COOTensor) -> COOTensor:
            x = _coo(x, name)
            return COOTensor(x.indices, getattr(F, dense)(x.values), x.shape)
        setup = (f">>> x = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int64), "
                 f"ms.Tensor({_EXAMPLE_VALUES.get(suffix, '[-1.0, 2.0]')}), (3, 4))")
    else:
        def fn(x: CSRTensor) -> CSRTensor:
            x = _csr(x, name)
            return CSRTensor(x.indptr, x.indices, getattr(F, dense)(x.values), x.shape)
        setup = (f">>> x = ms.CSRTensor(ms.Tensor([0, 1, 2, 2], ms.int32), ms.Tensor([3, 0], ms.int32), "
                 f"ms.Tensor({_EXAMPLE_VALUES.get(suffix, '[-1.0, 2.0]')}), (3, 4))")
    values = Tensor(eval(_EXAMPLE_VALUES.get(suffix, "[-1.0, 2.0]")))  # noqa: S307 (our own literal)
    shown = str(getattr(F, dense)(values)) if hasattr(F, dense) else ""
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    fn.__doc__ = (f"``ops.{dense}`` of a {kind.upper()}Tensor's values (the structure unchanged).\n\n"
                  f"Example:\n    >>> import mskernel as ms\n    >>> from mskernel import ops\n    {setup}\n"
                  f"    >>> print(ops.{name}(x).values)\n    {shown}\n")
    return fn


def _sorted_unique(idx: np.ndarray, vals: np.ndarray, shape: Sequence[int]) -> Tuple[np.ndarray, np.ndarray]:
    """Coordinates (N x ndim) in row-major order, duplicates summed."""
    if idx.shape[0] == 0:
        return idx, vals
    flat = np.ravel_multi_index(tuple(idx.T.astype(np.int64)), tuple(shape))
    keys, inverse = np.unique(flat, return_inverse=True)
    out = np.zeros(len(keys), vals.dtype)
    np.add.at(out, inverse, vals)
    return np.stack(np.unravel_index(keys, tuple(shape)), 1).astype(idx.dtype), out


def coo_to_dense(x: COOTensor) -> Tensor:
    """The dense form of ``x`` (repeated coordinates add up); gradients flow to ``x.values``.

    Example:
        >>> import mskernel as ms
        >>> print(coo_to_dense(COOTensor(ms.Tensor([[1]]), ms.Tensor([2.0]), (3,))))
        [0. 2. 0.]
    """
    x = _coo(x, "coo_to_dense")
    return F.scatter_nd(x.indices, x.values, x.shape)


def coo_to_csr(x: COOTensor) -> CSRTensor:
    """A 2-D COOTensor in CSR form (rows sorted, duplicates summed).

    Example:
        >>> import mskernel as ms
        >>> print(coo_to_csr(COOTensor(ms.Tensor([[1, 0]], ms.int32), ms.Tensor([2.0]), (2, 2))).indptr)
        [0 0 1]
    """
    x = _coo(x, "coo_to_csr")
    idx, vals = _sorted_unique(x.indices._data, x.values._data, x.shape)
    indptr = np.searchsorted(idx[:, 0], np.arange(x.shape[0] + 1)).astype(idx.dtype)
    return CSRTensor(Tensor._wrap(indptr), Tensor._wrap(idx[:, 1].copy()), Tensor._wrap(vals), x.shape)


def coo_add(x1: COOTensor, x2: COOTensor, thresh: Tensor) -> COOTensor:
    """The sum of two COOTensors of one shape; sums whose magnitude is below ``thresh`` are dropped. Indices must
    be Int64.

    Example:
        >>> import mskernel as ms
        >>> a = COOTensor(ms.Tensor([[0, 1]], ms.int64), ms.Tensor([1.0]), (2, 2))
        >>> b = COOTensor(ms.Tensor([[0, 0], [0, 1]], ms.int64), ms.Tensor([3.0, -1.0]), (2, 2))
        >>> print(coo_add(a, b, ms.Tensor(0.0)).values)
        [3. 0.]
    """
    x1, x2 = _coo(x1, "coo_add"), _coo(x2, "coo_add")
    for name, t in (("x1_indices", x1.indices), ("x2_indices", x2.indices)):
        if t._data.dtype != np.int64:
            raise TypeError(f"For primitive[SparseAdd], the input argument[{name}] must be a type of "
                            f"{{Tensor[Int64]}}, but got Tensor[{t.dtype}].")
    if x1.dtype != x2.dtype:
        raise TypeError(f"For primitive[SparseAdd], the input arguments 'x1_values' and 'x2_values' must have the "
                        f"same dtype, but got {x1.dtype} and {x2.dtype}.")
    if x1.shape != x2.shape:
        raise ValueError(f"For primitive[SparseAdd], the shapes of 'x1' and 'x2' must be the same, but got "
                         f"{x1.shape} and {x2.shape}.")
    idx = np.concatenate([x1.indices._data, x2.indices._data])
    vals = np.concatenate([x1.values._data, x2.values._data])
    idx, vals = _sorted_unique(idx, vals, x1.shape)
    keep = np.abs(vals) >= np.asarray(thresh._data if isinstance(thresh, Tensor) else thresh)
    return COOTensor(Tensor._wrap(idx[keep]), Tensor._wrap(vals[keep]), x1.shape)


def coo_concat(sp_input: Sequence[COOTensor], concat_dim: int = 0) -> COOTensor:
    """COOTensors joined along ``concat_dim`` (their other dimensions equal); coordinates in row-major order.

    Example:
        >>> import mskernel as ms
        >>> a = COOTensor(ms.Tensor([[0, 1]], ms.int64), ms.Tensor([1]), (2, 2))
        >>> print(coo_concat((a, a), 1).indices)
        [[0 1]
         [0 3]]
    """
    parts = [_coo(x, "coo_concat") for x in sp_input]
    if len(parts) < 2:
        raise ValueError(f"For 'coo_concat', the number of COOTensors must be at least 2, but got {len(parts)}.")
    nd = parts[0].ndim
    if not -nd <= concat_dim < nd:
        raise ValueError(f"For 'coo_concat', 'concat_dim' must be in [{-nd}, {nd}), but got {concat_dim}.")
    d = concat_dim % nd
    offset, idxs, vals = 0, [], []
    for p in parts:
        i = p.indices._data.astype(np.int64).copy()
        i[:, d] += offset
        offset += p.shape[d]
        idxs.append(i)
        vals.append(p.values._data)
    shape = list(parts[0].shape)
    shape[d] = offset
    idx = np.concatenate(idxs)
    order = np.lexsort(idx.T[::-1])
    return COOTensor(Tensor._wrap(idx[order]), Tensor._wrap(np.concatenate(vals)[order]), tuple(shape))


def coalesce(x_indices: Tensor, x_values: Tensor, x_shape: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """Sort a sparse tensor's coordinates (``x_indices`` is ndim x N) and sum the values of repeated ones:
    ``(indices, values, shape)``.

    Example:
        >>> import mskernel as ms
        >>> i, v, s = coalesce(ms.Tensor([[0, 0, 1], [1, 1, 2]]), ms.Tensor([1.0, 5.0, 4.0]), ms.Tensor([3, 3]))
        >>> print(i, v, s)
        [[0 1]
         [1 2]] [6. 4.] [3 3]
    """
    i = check_tensor(x_indices, "Coalesce", "x_indices")
    v = check_tensor(x_values, "Coalesce", "x_values")
    s = check_tensor(x_shape, "Coalesce", "x_shape")
    for name, t in (("x_indices", i), ("x_shape", s)):
        if t._data.dtype != np.int64:
            raise TypeError(f"For primitive[Coalesce], the input argument[{name}] must be a type of "
                            f"{{Tensor[Int64]}}, but got Tensor[{t.dtype}].")
    idx, vals = _sorted_unique(i._data.T, v._data, s._data.tolist())
    return Tensor._wrap(np.ascontiguousarray(idx.T)), Tensor._wrap(vals), Tensor._wrap(s._data.copy())


# -- CSR ---------------------------------------------------------------------------------------------------
def csr_to_dense(csr_tensor: CSRTensor) -> Tensor:
    """The dense form of a CSRTensor; gradients flow to its values.

    Example:
        >>> import mskernel as ms
        >>> print(csr_to_dense(CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([2.0, 1.0]), (2, 3))))
        [[2. 0. 0.]
         [0. 1. 0.]]
    """
    x = _csr(csr_tensor, "csr_to_dense")
    return coo_to_dense(csr_to_coo(x))


def csr_to_coo(tensor: CSRTensor) -> COOTensor:
    """A CSRTensor in COO form (indices of the CSR's index dtype).

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32), ms.Tensor([2.0, 1.0]), (2, 4))
        >>> print(csr_to_coo(x).indices)
        [[0 0]
         [1 1]]
    """
    x = _csr(tensor, "csr_to_coo")
    rows = x._rows().astype(x.indices._data.dtype)
    return COOTensor(Tensor._wrap(np.stack([rows, x.indices._data], 1)), x.values, x.shape)


def _csr_pick(x: CSRTensor, dense: Tensor, op: str) -> Tensor:
    d = check_tensor(dense, op, "y")
    try:
        full = np.broadcast_to(d._data, x.shape)
    except ValueError:
        raise ValueError(f"For '{op}', the dense tensor's shape {d.shape} cannot broadcast to the CSRTensor's "
                         f"shape {x.shape}.") from None
    return Tensor._wrap(np.ascontiguousarray(full[x._rows(), x.indices._data.astype(np.int64)]))


def csr_mul(x: CSRTensor, y: Tensor) -> CSRTensor:
    """A CSRTensor times a dense Tensor that broadcasts to its shape, at the stored positions.

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([2.0, 1.0]), (2, 2))
        >>> print(csr_mul(x, ms.Tensor([[3.0, 4.0]])).values)
        [6. 4.]
    """
    x = _csr(x, "csr_mul")
    return CSRTensor(x.indptr, x.indices, x.values * _csr_pick(x, y, "csr_mul"), x.shape)


def csr_div(x: CSRTensor, y: Tensor) -> Tensor:
    """A CSRTensor's values divided by a dense Tensor (broadcast to its shape) at the stored positions: the new
    values.

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([2.0, 1.0]), (2, 2))
        >>> print(csr_div(x, ms.Tensor([[4.0, 2.0]])))
        [0.5 0.5]
    """
    x = _csr(x, "csr_div")
    return x.values / _csr_pick(x, y, "csr_div")


def csr_mv(csr_tensor: CSRTensor, dense: Tensor) -> Tensor:
    """A CSRTensor (m x n) times a dense column (n x 1): m x 1.

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([2.0, 1.0]), (2, 2))
        >>> print(csr_mv(x, ms.Tensor([[1.0], [3.0]])))
        [[2.]
         [3.]]
    """
    x = _csr(csr_tensor, "csr_mv")
    return F.matmul(csr_to_dense(x), dense)


def csr_mm(a: CSRTensor, b: CSRTensor, trans_a: bool = False, trans_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False) -> CSRTensor:
    """The product of two CSRTensors (each optionally transposed): a CSRTensor.

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([1, 0], ms.int32), ms.Tensor([2.0, 3.0]), (2, 2))
        >>> print(csr_mm(x, x).values)
        [6. 6.]
    """
    a, b = _csr(a, "csr_mm"), _csr(b, "csr_mm")
    da, db = a.to_dense()._data, b.to_dense()._data
    da = da.T if trans_a or adjoint_a else da
    db = db.T if trans_b or adjoint_b else db
    return dense_to_sparse_csr(Tensor._wrap(da @ db), a.indptr._data.dtype)


def csr_add(a: CSRTensor, b: CSRTensor, alpha: Tensor, beta: Tensor) -> CSRTensor:
    """``alpha * a + beta * b`` for two CSRTensors of one shape (the union of their structure).

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32), ms.Tensor([1.0, 2.0]), (2, 6))
        >>> print(csr_add(x, x, ms.Tensor(1.0), ms.Tensor(2.0)).values)
        [3. 6.]
    """
    a, b = _csr(a, "csr_add"), _csr(b, "csr_add")
    if a.shape != b.shape:
        raise ValueError(f"For 'csr_add', the shapes of 'a' and 'b' must be the same, but got {a.shape} and "
                         f"{b.shape}.")
    ca, cb = csr_to_coo(a), csr_to_coo(b)
    idx = np.concatenate([ca.indices._data, cb.indices._data]).astype(np.int64)
    al = np.asarray(alpha._data if isinstance(alpha, Tensor) else alpha)
    be = np.asarray(beta._data if isinstance(beta, Tensor) else beta)
    vals = np.concatenate([a.values._data * al, b.values._data * be]).astype(a.values._data.dtype)
    idx, vals = _sorted_unique(idx, vals, a.shape)
    dt = a.indptr._data.dtype
    indptr = np.searchsorted(idx[:, 0], np.arange(a.shape[0] + 1)).astype(dt)
    return CSRTensor(Tensor._wrap(indptr), Tensor._wrap(idx[:, 1].astype(a.indices._data.dtype)),
                     Tensor._wrap(vals), a.shape)


def csr_reduce_sum(csr_tensor: CSRTensor, axis: int) -> Tensor:
    """The sum of a CSRTensor along ``axis``, kept with length 1 (a dense Tensor).

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([2.0, 1.0]), (2, 2))
        >>> print(csr_reduce_sum(x, 0))
        [[2. 1.]]
    """
    x = _csr(csr_tensor, "csr_reduce_sum")
    return F.sum(csr_to_dense(x), axis, keepdim=True)


def csr_softmax(logits: CSRTensor, dtype: Any = mstype.float32) -> CSRTensor:
    """The softmax of each row's stored values (rows' missing entries take no part).

    Example:
        >>> import mskernel as ms
        >>> x = CSRTensor(ms.Tensor([0, 2, 3], ms.int32), ms.Tensor([0, 2, 1], ms.int32), ms.Tensor([1.0, 1.0, 5.0]),
        ...               (2, 3))
        >>> print(csr_softmax(x, ms.float32).values)
        [0.5 0.5 1. ]
    """
    x = _csr(logits, "csr_softmax")
    rows = x._rows()
    v = x.values._data.astype(np.float64)
    out = np.empty_like(v)
    for r in range(x.shape[0]):
        m = rows == r
        if m.any():
            e = np.exp(v[m] - v[m].max())
            out[m] = e / e.sum()
    return CSRTensor(x.indptr, x.indices, Tensor._wrap(out.astype(mstype.to_dtype(dtype).np)), x.shape)


def csr_gather(indptr: Tensor, indices: Tensor, dense: Tensor, sparse_shape: Tuple[int, ...]) -> CSRTensor:
    """A CSRTensor of ``sparse_shape`` whose values are taken from ``dense`` at the positions the CSR structure
    (``indptr``, ``indices``) names.

    Example:
        >>> import mskernel as ms
        >>> out = csr_gather(ms.Tensor([0, 1, 2]), ms.Tensor([1, 0]), ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), (2, 2))
        >>> print(out.values)
        [2. 3.]
    """
    x = CSRTensor(indptr, indices, Tensor._wrap(np.zeros(indices.shape[0], dense._data.dtype)), sparse_shape)
    return CSRTensor(indptr, indices, _csr_pick(x, dense, "csr_gather"), x.shape)


def dense_to_sparse_coo(tensor: Tensor) -> COOTensor:
    """The non-zero entries of a dense Tensor as a COOTensor (Int32 indices, row-major order).

    Example:
        >>> import mskernel as ms
        >>> print(dense_to_sparse_coo(ms.Tensor([[1, 0], [-5, 0]], ms.float32)).values)
        [ 1. -5.]
    """
    t = check_tensor(tensor, "dense_to_sparse_coo", "tensor")
    idx = np.argwhere(t._data != 0)
    return COOTensor(Tensor._wrap(idx.astype(np.int32)), Tensor._wrap(t._data[tuple(idx.T)]), t.shape)


def dense_to_sparse_csr(tensor: Tensor, index_dtype: Any = np.int32) -> CSRTensor:
    """The non-zero entries of a 2-D dense Tensor as a CSRTensor (Int32 indptr and indices).

    Example:
        >>> import mskernel as ms
        >>> print(dense_to_sparse_csr(ms.Tensor([[1, 0], [-5, 0]], ms.float32)).indptr)
        [0 1 2]
    """
    t = check_tensor(tensor, "dense_to_sparse_csr", "tensor")
    if t.ndim != 2:
        raise ValueError(f"For 'dense_to_sparse_csr', the input must be 2-D, but got {t.ndim}-D.")
    idx = np.argwhere(t._data != 0)
    indptr = np.searchsorted(idx[:, 0], np.arange(t.shape[0] + 1)).astype(index_dtype)
    return CSRTensor(Tensor._wrap(indptr), Tensor._wrap(idx[:, 1].astype(index_dtype)),
                     Tensor._wrap(t._data[tuple(idx.T)]), t.shape)


def csr2coo(indptr: Tensor, nnz: int) -> Tensor:
    """The row of each of ``nnz`` stored values of a CSR structure (Int32 ``indptr``).

    Example:
        >>> import mskernel as ms
        >>> print(csr2coo(ms.Tensor([0, 1, 1, 3], ms.int32), 3))
        [0 2 2]
    """
    p = check_tensor(indptr, "csr2coo", "indptr")
    if p._data.dtype != np.int32:
        raise TypeError(f"For 'csr2coo', the dtype of indptr only support Int32 for now, but got {p.dtype}.")
    rows = np.repeat(np.arange(p.shape[0] - 1), np.diff(p._data))
    if rows.shape[0] != nnz:
        raise ValueError(f"For 'csr2coo', 'nnz' must equal indptr[-1] = {rows.shape[0]}, but got {nnz}.")
    return Tensor._wrap(rows.astype(np.int32))


def coo2csr(row_indices: Tensor, height: int) -> Tensor:
    """The ``indptr`` (``height`` + 1) of sorted COO row indices (Int32).

    Example:
        >>> import mskernel as ms
        >>> print(coo2csr(ms.Tensor([0, 2, 2], ms.int32), 3))
        [0 1 1 3]
    """
    r = check_tensor(row_indices, "coo2csr", "row_indices")
    if r._data.dtype != np.int32:
        raise TypeError(f"The dtype of row_indices only support Int32 for now, but got {r.dtype}.")
    return Tensor._wrap(np.searchsorted(r._data, np.arange(height + 1)).astype(np.int32))


# -- construction and parts --------------------------------------------------------------------------------
def make_coo_tensor(indices: Tensor, values: Tensor, dense_shape: Tuple[int, ...]) -> COOTensor:
    """``COOTensor(indices, values, dense_shape)`` (MindSpore's graph primitive MakeCOOTensor).

    Example:
        >>> import mskernel as ms
        >>> make_coo_tensor(ms.Tensor([[0, 1]]), ms.Tensor([1.0]), (2, 2)).shape
        (2, 2)
    """
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr: Tensor, indices: Tensor, values: Tensor, dense_shape: Tuple[int, ...]) -> CSRTensor:
    """``CSRTensor(indptr, indices, values, dense_shape)`` (MindSpore's graph primitive MakeCSRTensor).

    Example:
        >>> import mskernel as ms
        >>> make_csr_tensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([1.0]), (2, 2)).shape
        (2, 2)
    """
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor(indices: Tensor, values: Tensor, dense_shape: Tuple[int, ...]) -> RowTensor:
    """``RowTensor(indices, values, dense_shape)``.

    Example:
        >>> import mskernel as ms
        >>> make_row_tensor(ms.Tensor([0]), ms.Tensor([[1.0, 2.0]]), (3, 2)).dense_shape
        (3, 2)
    """
    return RowTensor(indices, values, dense_shape)


def make_sparse_tensor(indices: Tensor, values: Tensor, dense_shape: Tuple[int, ...]) -> COOTensor:
    """``COOTensor(indices, values, dense_shape)`` (MindSpore's older name).

    Example:
        >>> import mskernel as ms
        >>> make_sparse_tensor(ms.Tensor([[0, 1]]), ms.Tensor([1.0]), (2, 2)).shape
        (2, 2)
    """
    return COOTensor(indices, values, dense_shape)


def row_tensor_add(x: RowTensor, y: Tensor) -> RowTensor:
    """A RowTensor with ``y`` added to its values.

    Example:
        >>> import mskernel as ms
        >>> x = RowTensor(ms.Tensor([0]), ms.Tensor([[1.0, 2.0]]), (3, 2))
        >>> print(row_tensor_add(x, ms.Tensor([[1.0, 1.0]])).values)
        [[2. 3.]]
    """
    return RowTensor(x.indices, x.values + y, x.dense_shape)


def _getter(name: str, kind: type, attr: str) -> Callable:
    def fn(x: Any) -> Any:
        if not isinstance(x, kind):
            raise TypeError(f"For '{name}', the input must be a {kind.__name__}, but got {type(x).__name__}.")
        return getattr(x, attr)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    build = {"COOTensor": "ms.COOTensor(ms.Tensor([[0, 1]]), ms.Tensor([1.0]), (2, 2))",
             "CSRTensor": "ms.CSRTensor(ms.Tensor([0, 1, 1]), ms.Tensor([1]), ms.Tensor([1.0]), (2, 2))",
             "RowTensor": "ms.RowTensor(ms.Tensor([0]), ms.Tensor([[1.0, 2.0]]), (2, 2))"}[kind.__name__]
    shown = {"indices": {"COOTensor": "[[0 1]]", "CSRTensor": "[1]", "RowTensor": "[0]"}[kind.__name__],
             "values": "[[1. 2.]]" if kind is RowTensor else "[1.]", "indptr": "[0 1 1]",
             "shape": "(2, 2)", "dense_shape": "(2, 2)"}[attr]
    fn.__doc__ = (f"The ``{attr}`` of a {kind.__name__}.\n\nExample:\n    >>> import mskernel as ms\n"
                  f"    >>> from mskernel import ops\n    >>> print(ops.{name}({build}))\n    {shown}\n")
    return fn


def _tensor_to_coo(self: Tensor) -> COOTensor:
    """``dense_to_sparse_coo(self)``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 0], [-5, 0]], ms.float32).to_coo().indices)
        [[0 0]
         [1 0]]
    """
    return dense_to_sparse_coo(self)


def _tensor_to_csr(self: Tensor) -> CSRTensor:
    """``dense_to_sparse_csr(self)``.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1, 0], [-5, 0]], ms.float32).to_csr().indices)
        [0 0]
    """
    return dense_to_sparse_csr(self)


Tensor.to_coo = _tensor_to_coo
Tensor.to_csr = _tensor_to_csr

_GENERATED: Dict[str, Callable] = {}
for _kind in ("coo", "csr"):
    for _suffix, _dense in UNARY.items():
        _GENERATED[f"{_kind}_{_suffix}"] = _make_unary(_kind, _suffix, _dense)
for _name, _kind_cls, _attr in [("coo_tensor_get_indices", COOTensor, "indices"),
                                ("coo_tensor_get_values", COOTensor, "values"),
                                ("coo_tensor_get_dense_shape", COOTensor, "shape"),
                                ("csr_tensor_get_indptr", CSRTensor, "indptr"),
                                ("csr_tensor_get_indices", CSRTensor, "indices"),
                                ("csr_tensor_get_values", CSRTensor, "values"),
                                ("csr_tensor_get_dense_shape", CSRTensor, "shape"),
                                ("row_tensor_get_indices", RowTensor, "indices"),
                                ("row_tensor_get_values", RowTensor, "values"),
                                ("row_tensor_get_dense_shape", RowTensor, "dense_shape")]:
    _GENERATED[_name] = _getter(_name, _kind_cls, _attr)
globals().update(_GENERATED)
IMPL.update(coo_to_dense=coo_to_dense, coo_to_csr=coo_to_csr, coo_abs=_GENERATED["coo_abs"], coo_add=coo_add,
            coalesce=coalesce, csr_to_dense=csr_to_dense, csr_to_coo=csr_to_coo, csr_add=csr_add, csr_mv=csr_mv,
            csr_mm=csr_mm, csr_reduce_sum=csr_reduce_sum, csr_mul=csr_mul, csr_div=csr_div)
make_row_tensor_inner = make_row_tensor
#: the functional ops this module adds to ``mskernel.ops``
__test__ = {n: f for n, f in _GENERATED.items()}

__all__: List[str] = sorted(_GENERATED) + [
    "coo_add", "coo_concat", "coalesce", "csr_to_dense", "csr_to_coo", "csr_mul", "csr_div", "csr_mv", "csr_mm",
    "csr_add", "csr_reduce_sum", "csr_softmax", "csr_gather", "dense_to_sparse_coo", "dense_to_sparse_csr",
    "csr2coo", "coo2csr", "make_coo_tensor", "make_csr_tensor", "make_row_tensor", "make_row_tensor_inner",
    "make_sparse_tensor", "row_tensor_add", "COOTensor", "CSRTensor", "RowTensor"]
