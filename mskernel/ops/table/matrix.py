"""Op table: matrix products and matrix structure — inner, vecdot, mv, addmv, addr, addbmm, adjoint, t, dense,
bidense, the band and diagonal ops of the V3 family (matrix_band_part, matrix_diag, matrix_diag_part,
matrix_set_diag), block_diag, cartesian_prod, combinations, tril/triu_indices, diagflat, TridiagonalMatMul and
ConjugateTranspose.

All are written with ops (matmul, gather, concat, ...), so their gradients come from those; the diagonal
family gathers from the flattened matrix (and a padding slot) by an index table built once per call.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> m = ms.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    >>> print(ops.matrix_band_part(m, 0, 1), ops.mv(m, ms.Tensor([1.0, 0.0, -1.0])))
    [[1. 2. 0.]
     [0. 5. 6.]
     [0. 0. 9.]] [-2. -2. -2.]
"""
from __future__ import annotations

import itertools
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_w = Tensor._wrap


def _mT(x: Tensor) -> Tensor:
    return F.swapaxes(x, -1, -2)


def _conj(x: Tensor) -> Tensor:
    return _w(np.conj(x._data)) if x._data.dtype.kind == "c" else x


def inner(input: Any, other: Any) -> Tensor:
    """Sum of products over the last axes of both inputs (a product when either is a scalar).

    Example:
        >>> import mskernel as ms
        >>> print(inner(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([4.0, 5.0, 6.0])))
        32.0
    """
    a, b = check_tensor(input, "inner", "input"), check_tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For 'inner', the last dimension of 'input' and 'other' must be the same, but got "
                         f"input.shape: {a.shape} and other.shape: {b.shape}.")
    return F.tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def vecdot(x: Any, y: Any, *, axis: int = -1) -> Tensor:
    """The dot product of vectors along ``axis`` (``x`` conjugated).

    Example:
        >>> import mskernel as ms
        >>> print(vecdot(ms.Tensor([[1, 3], [5, 7]]), ms.Tensor([[4, 5], [6, 7]])))
        [19 79]
    """
    a, b = check_tensor(x, "vecdot", "x"), check_tensor(y, "vecdot", "y")
    return F.sum(_conj(a) * b, axis)


def mv(mat: Any, vec: Any) -> Tensor:
    """Matrix times vector.

    Example:
        >>> import mskernel as ms
        >>> print(mv(ms.Tensor([[3.0, 4.0], [1.0, 6.0]]), ms.Tensor([1.0, 2.0])))
        [11. 13.]
    """
    m, v = check_tensor(mat, "mv", "mat"), check_tensor(vec, "mv", "vec")
    if m.ndim != 2 or v.ndim != 1:  # the wheel multiplies mat by vec as a column: its MatMul check speaks
        raise ValueError("MatMul inputs should have the same dimension size and equal to 2.")
    if m.shape[1] != v.shape[0]:
        raise ValueError(f"For 'mv', the columns of 'mat' must equal the length of 'vec', but got {m.shape[1]} and "
                         f"{v.shape[0]}.")
    return M.matmul(m, v)


def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``.

    Example:
        >>> import mskernel as ms
        >>> print(addmv(ms.Tensor([2.0, 3.0]), ms.Tensor([[2.0, 5.0], [4.0, 2.0]]), ms.Tensor([1.0, 1.0])))
        [9. 9.]
    """
    x = check_tensor(input, "addmv", "input")
    return x * beta + mv(mat, vec) * alpha


def addr(x: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * x + alpha * outer(vec1, vec2)``.

    Example:
        >>> import mskernel as ms
        >>> print(addr(ms.Tensor([[1.0, 1.0]]), ms.Tensor([2.0]), ms.Tensor([3.0, 4.0]), beta=2))
        [[ 8. 10.]]
    """
    t = check_tensor(x, "addr", "x")
    a, b = check_tensor(vec1, "addr", "vec1"), check_tensor(vec2, "addr", "vec2")
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"For 'addr', 'vec1' and 'vec2' must be 1-D, but got {a.ndim}-D and {b.ndim}-D.")
    return t * beta + F.outer(a, b) * alpha


def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * sum_i(batch1[i] @ batch2[i])``.

    Example:
        >>> import mskernel as ms
        >>> print(addbmm(ms.Tensor([[1.0]]), ms.Tensor(np.ones((2, 1, 3))), ms.Tensor(np.ones((2, 3, 1)))))
        [[7.]]
    """
    x = check_tensor(input, "addbmm", "input")
    a, b = check_tensor(batch1, "addbmm", "batch1"), check_tensor(batch2, "addbmm", "batch2")
    if a.ndim != 3 or b.ndim != 3:
        raise ValueError(f"For 'addbmm', 'batch1' and 'batch2' must be 3-D, but got {a.ndim}-D and {b.ndim}-D.")
    return x * beta + F.sum(M.matmul(a, b), 0) * alpha


def baddbmm_ext(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)`` (keyword-only scales).

    Example:
        >>> import mskernel as ms
        >>> baddbmm_ext(ms.Tensor(np.ones((3, 3))), ms.Tensor(np.ones((2, 3, 4))), ms.Tensor(np.ones((2, 4, 3)))).shape
        (2, 3, 3)
    """
    return F.baddbmm(input, batch1, batch2, beta, alpha)


def adjoint(x: Any) -> Tensor:
    """The conjugate transpose of the last two dimensions.

    Example:
        >>> import mskernel as ms
        >>> print(adjoint(ms.Tensor(np.array([[1 + 1j, 2j]]))))
        [[1.-1.j]
         [0.-2.j]]
    """
    return _conj(_mT(check_tensor(x, "adjoint", "x")))


def t(input: Any) -> Tensor:
    """The transpose of a 2-D tensor (any other as it is, as MindSpore's).

    Example:
        >>> import mskernel as ms
        >>> print(t(ms.Tensor([[1, 2, 3]])))
        [[1]
         [2]
         [3]]
    """
    x = check_tensor(input, "t", "input")
    return F.transpose(x, (1, 0)) if x.ndim == 2 else x


def dense(input: Any, weight: Any, bias: Any = None) -> Tensor:
    """``input @ weight.T + bias``.

    Example:
        >>> import mskernel as ms
        >>> print(dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0], [0.0, -1.0]]), ms.Tensor([0.5, 0.0])))
        [[ 3.5 -2. ]]
    """
    x, w = check_tensor(input, "Dense", "input"), check_tensor(weight, "Dense", "weight")
    out = M.matmul(x, _mT(w) if w.ndim > 1 else w)
    return out if bias is None else out + bias


def bidense(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    """The bilinear map ``y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]``.

    Example:
        >>> import mskernel as ms
        >>> print(bidense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0]]), ms.Tensor([[[1.0], [1.0]]])))
        [[9.]]
    """
    a, b = check_tensor(input1, "bidense", "input1"), check_tensor(input2, "bidense", "input2")
    w = check_tensor(weight, "bidense", "weight")
    lead = a.shape[:-1]
    out = F.einsum("ni,oij,nj->no", F.reshape(a, (-1, a.shape[-1])), w, F.reshape(b, (-1, b.shape[-1])))
    out = F.reshape(out, lead + (w.shape[0],))
    return out if bias is None else out + bias


# -- the band and diagonal family --------------------------------------------------------------------------

def _band_mask(m: int, n: int, lower: int, upper: int) -> np.ndarray:
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    return ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))


def matrix_band_part(x: Any, lower: Any, upper: Any) -> Tensor:
    """Zero everything outside the band of ``lower`` sub- and ``upper`` superdiagonals (negative: keep all).

    Example:
        >>> import mskernel as ms
        >>> print(matrix_band_part(ms.Tensor(np.ones((3, 3))), 1, 0))
        [[1. 0. 0.]
         [1. 1. 0.]
         [0. 1. 1.]]
    """
    t = check_tensor(x, "MatrixBandPart", "x")
    if t.ndim < 2:
        raise ValueError(f"For 'MatrixBandPart', the dimension of 'x' must be at least 2, but got {t.ndim}.")
    mask = _band_mask(t.shape[-2], t.shape[-1], int(lower), int(upper))
    return F.where(_w(mask), t, F.zeros_like(t))


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_range(k: Any, op: str) -> Tuple[int, int]:
    if isinstance(k, Tensor) and k._data.dtype != np.int32:
        raise TypeError(f"For primitive[{op}], the input argument[k] must be a type of {{Tensor[Int32]}}, but got "
                        f"Tensor[{k.dtype}].")
    ks = np.asarray(k._data if isinstance(k, Tensor) else k).reshape(-1)
    if ks.size not in (1, 2):
        raise ValueError(f"For '{op}', 'k' must have one or two elements, but got {ks.size}.")
    lo, hi = int(ks[0]), int(ks[-1])
    if lo > hi:
        raise ValueError(f"For '{op}', k[0] must not be greater than k[1], but got {lo} and {hi}.")
    return lo, hi


def _layout(lo: int, hi: int, m: int, n: int, align: str, op: str) -> Tuple[int, List[Tuple[int, int, int]]]:
    """The longest diagonal, and for each diagonal from ``hi`` down to ``lo``: (offset d, length, leading pad)."""
    if align not in _ALIGNS:
        raise ValueError(f"For '{op}', 'align' must be one of {list(_ALIGNS)}, but got {align!r}.")
    sup, sub = align.split("_")
    lens = [(d, max(0, min(m + min(0, d), n - max(0, d)))) for d in range(hi, lo - 1, -1)]
    longest = max(ln for _, ln in lens)
    return longest, [(d, ln, longest - ln if (sup if d >= 0 else sub) == "RIGHT" else 0) for d, ln in lens]


def _scalar_of(v: Any, dt: Any) -> Tensor:
    t = v if isinstance(v, Tensor) else Tensor(np.asarray(v))
    return F.cast(F.reshape(t, ()), dt)


def _gather_last(src: Tensor, pad: Tensor, idx: np.ndarray) -> Tensor:
    """``concat(src, pad)[..., idx]`` over the last axis (``pad`` one slot, broadcast over the batch)."""
    slot = F.broadcast_to(F.reshape(pad, (1,) * src.ndim), src.shape[:-1] + (1,))
    return F.gather(F.concat((src, slot), -1), _w(idx.astype(np.int64)), src.ndim - 1)


def matrix_diag_part(x: Any, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> Tensor:
    """The diagonals ``k[0]..k[1]`` of the innermost matrices, each padded to the longest and aligned per ``align``.

    Example:
        >>> import mskernel as ms
        >>> print(matrix_diag_part(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([0, 1], ms.int32), 0.0))
        [[0. 2.]
         [1. 4.]]
    """
    t = check_tensor(x, "MatrixDiagPartV3", "x")
    if t.ndim < 2:
        raise ValueError(f"For 'MatrixDiagPartV3', the dimension of 'x' must be at least 2, but got {t.ndim}.")
    m, n = t.shape[-2:]
    lo, hi = _k_range(k, "MatrixDiagPartV3")
    longest, diags = _layout(lo, hi, m, n, align, "MatrixDiagPartV3")
    idx = np.full((len(diags), longest), m * n)
    for row, (d, ln, lead) in enumerate(diags):
        s = np.arange(ln)
        idx[row, lead + s] = (s + max(-d, 0)) * n + s + max(d, 0)
    out = _gather_last(F.reshape(t, t.shape[:-2] + (m * n,)), _scalar_of(padding_value, t.dtype), idx.reshape(-1))
    shape = t.shape[:-2] + ((longest,) if lo == hi else (len(diags), longest))
    return F.reshape(out, shape)


def _diag_source(diagonal: Tensor, lo: int, hi: int, op: str) -> Tuple[Tensor, Tuple[int, ...], int]:
    nd = hi - lo + 1
    if lo == hi:
        return F.reshape(diagonal, diagonal.shape[:-1] + (diagonal.shape[-1],)), diagonal.shape[:-1], diagonal.shape[-1]
    if diagonal.ndim < 2 or diagonal.shape[-2] != nd:
        raise ValueError(f"For '{op}', the second-to-last dimension of the diagonals must be {nd} (k[1] - k[0] + 1), "
                         f"but got shape {list(diagonal.shape)}.")
    flat = F.reshape(diagonal, diagonal.shape[:-2] + (nd * diagonal.shape[-1],))
    return flat, diagonal.shape[:-2], diagonal.shape[-1]


def _fill_index(m: int, n: int, diags: Sequence[Tuple[int, int, int]], width: int, outside: int,
                base: np.ndarray) -> np.ndarray:
    idx = base.copy()
    for row, (d, ln, lead) in enumerate(diags):
        s = np.arange(ln)
        idx[(s + max(-d, 0)) * n + s + max(d, 0)] = outside + row * width + lead + s
    return idx


def matrix_diag(x: Any, k: Any = 0, num_rows: Any = -1, num_cols: Any = -1, padding_value: Any = 0,
                align: str = "RIGHT_LEFT") -> Tensor:
    """Matrices with the given diagonals ``k[0]..k[1]`` and ``padding_value`` elsewhere.

    Example:
        >>> import mskernel as ms
        >>> print(matrix_diag(ms.Tensor([1.0, 2.0]), 1))
        [[0. 1. 0.]
         [0. 0. 2.]
         [0. 0. 0.]]
    """
    t = check_tensor(x, "MatrixDiagV3", "x")
    lo, hi = _k_range(k, "MatrixDiagV3")
    src, batch, width = _diag_source(t, lo, hi, "MatrixDiagV3")
    rows, cols = int(num_rows), int(num_cols)
    min_rows, min_cols = width - min(hi, 0), width + max(lo, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    longest, diags = _layout(lo, hi, rows, cols, align, "MatrixDiagV3")
    if longest != width:
        raise ValueError(f"For 'MatrixDiagV3', the last dimension of 'x' must be the longest diagonal ({longest}), "
                         f"but got {width}.")
    total = src.shape[-1]
    idx = _fill_index(rows, cols, diags, width, 0, np.full(rows * cols, total))
    out = _gather_last(src, _scalar_of(padding_value, t.dtype), idx)
    return F.reshape(out, batch + (rows, cols))


def matrix_set_diag(x: Any, diagonal: Any, k: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """``x`` with its diagonals ``k[0]..k[1]`` replaced by ``diagonal`` (laid out as matrix_diag_part gives them).

    Example:
        >>> import mskernel as ms
        >>> print(matrix_set_diag(ms.Tensor(np.zeros((2, 2))), ms.Tensor([5.0, 6.0])))
        [[5. 0.]
         [0. 6.]]
    """
    t = check_tensor(x, "MatrixSetDiagV3", "x")
    dg = check_tensor(diagonal, "MatrixSetDiagV3", "diagonal")
    if t.ndim < 2:
        raise ValueError(f"For 'MatrixSetDiagV3', the dimension of 'x' must be at least 2, but got {t.ndim}.")
    m, n = t.shape[-2:]
    lo, hi = _k_range(k, "MatrixSetDiagV3")
    longest, diags = _layout(lo, hi, m, n, align, "MatrixSetDiagV3")
    src, _, width = _diag_source(F.cast(dg, t.dtype), lo, hi, "MatrixSetDiagV3")
    if width != longest:
        raise ValueError(f"For 'MatrixSetDiagV3', the last dimension of 'diagonal' must be {longest}, but got "
                         f"{width}.")
    src = F.broadcast_to(src, t.shape[:-2] + src.shape[-1:])
    idx = _fill_index(m, n, diags, width, m * n, np.arange(m * n))
    out = F.gather(F.concat((F.reshape(t, t.shape[:-2] + (m * n,)), src), -1), _w(idx.astype(np.int64)), t.ndim - 2)
    return F.reshape(out, t.shape)


# -- building matrices and index sets ----------------------------------------------------------------------

def block_diag(*inputs: Any) -> Tensor:
    """A block-diagonal matrix of the inputs (scalars and vectors as one-row blocks).

    Example:
        >>> import mskernel as ms
        >>> print(block_diag(ms.Tensor([[1, 2]]), ms.Tensor(3)))
        [[1 2 0]
         [0 0 3]]
    """
    ts = [check_tensor(x, "block_diag", "inputs") for x in inputs]
    if not ts:
        raise ValueError("For 'block_diag', at least one input is needed.")
    dt = ts[0].dtype
    for x in ts[1:]:
        dt = mstype.promote(dt, x.dtype)
    blocks = []
    for x in ts:
        if x.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must be at most 2-D, but got {x.ndim}-D.")
        blocks.append(F.cast(F.reshape(x, (1, -1)) if x.ndim < 2 else x, dt))
    total = sum(b.shape[1] for b in blocks)
    rows, before = [], 0
    for b in blocks:
        r, c = b.shape
        parts = [p for p in (_w(np.zeros((r, before), dt.np)), b, _w(np.zeros((r, total - before - c), dt.np)))
                 if p.shape[1]]
        rows.append(F.concat(tuple(parts), 1) if len(parts) > 1 else parts[0])
        before += c
    return F.concat(tuple(rows), 0)


def cartesian_prod(*inputs: Any) -> Tensor:
    """Every combination of one element from each 1-D input, one per row.

    Example:
        >>> import mskernel as ms
        >>> print(cartesian_prod(ms.Tensor([1, 2]), ms.Tensor([5])))
        [[1 5]
         [2 5]]
    """
    ts = [check_tensor(x, "cartesian_prod", "inputs") for x in inputs]
    if any(x.ndim != 1 for x in ts):
        raise ValueError("For 'cartesian_prod', each input must be 1-D.")
    if len(ts) == 1:
        return ts[0]
    grids = F.meshgrid(*ts, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` combinations of a 1-D tensor's elements, one per row (as itertools orders them).

    Example:
        >>> import mskernel as ms
        >>> print(combinations(ms.Tensor([1, 2, 3])))
        [[1 2]
         [1 3]
         [2 3]]
    """
    x = check_tensor(input, "combinations", "input")
    if x.ndim != 1:
        raise ValueError(f"For 'combinations', 'input' must be 1-D, but got {x.ndim}-D.")
    if not isinstance(r, int) or r < 0:
        raise ValueError(f"For 'combinations', 'r' must be a non-negative int, but got {r!r}.")
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if idx.size == 0:
        return _w(np.zeros((0,) if r else (0,), x._data.dtype))
    return F.gather(x, _w(idx), 0)


def _indices(fn: Any, row: int, col: int, offset: int, dtype: Any) -> Tensor:
    dt = mstype.to_dtype(dtype)
    return _w(np.stack(fn(int(row), int(offset), int(col))).astype(dt.np).reshape(2, -1))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """Row and column indices of the lower triangle of a ``row`` x ``col`` matrix (diagonal ``offset`` and below).

    Example:
        >>> print(tril_indices(2, 2))
        [[0 1 1]
         [0 0 1]]
    """
    return _indices(np.tril_indices, row, col, offset, dtype)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = mstype.int64) -> Tensor:
    """Row and column indices of the upper triangle of a ``row`` x ``col`` matrix (diagonal ``offset`` and above).

    Example:
        >>> print(triu_indices(2, 2))
        [[0 0 1]
         [0 1 1]]
    """
    return _indices(np.triu_indices, row, col, offset, dtype)


def _diagflat_grad(g: Tensor, input_shape: tuple, offset: int) -> tuple:
    return (F.reshape(F.diagonal(g, offset, 0, 1), input_shape),)


def _tridiagonal_matmul(superdiag: Any, maindiag: Any, subdiag: Any, rhs: Any) -> Tensor:
    sup, main = check_tensor(superdiag, "TridiagonalMatMul", "superdiag"), check_tensor(maindiag, "TridiagonalMatMul",
                                                                                          "maindiag")
    sub, b = check_tensor(subdiag, "TridiagonalMatMul", "subdiag"), check_tensor(rhs, "TridiagonalMatMul", "rhs")
    n = b.shape[-2]
    vec = [F.reshape(v, v.shape[:-2] + (n,)) for v in (sup, main, sub)]
    mat = (F.diag_embed(vec[1]) + F.diag_embed(F.getitem(vec[0], (Ellipsis, slice(0, n - 1))), 1)
           + F.diag_embed(F.getitem(vec[2], (Ellipsis, slice(1, None))), -1))
    return M.matmul(mat, b)


def _conjugate_transpose(x: Any, perm: Any) -> Tensor:
    return _conj(F.transpose(check_tensor(x, "ConjugateTranspose", "x"), tuple(perm)))


OPS: List[Op] = [
    Op("inner", "input, other", fn=inner, method=True),
    Op("vecdot", "x, y, *, axis=-1", fn=vecdot),
    Op("mv", "mat, vec", fn=mv),
    Op("addmv", "input, mat, vec, *, beta=1, alpha=1", fn=addmv, method=True),
    Op("addr", "x, vec1, vec2, *, beta=1, alpha=1", fn=addr, method=True),
    Op("addbmm", "input, batch1, batch2, *, beta=1, alpha=1", fn=addbmm, method=True),
    Op("baddbmm_ext", "input, batch1, batch2, *, beta=1, alpha=1", fn=baddbmm_ext),
    Op("adjoint", "x", fn=adjoint, method=True),
    Op("t", "input", fn=t, method=True),
    Op("dense", "input, weight, bias=None", fn=dense, prim="Dense()(x, w, b=None) -> x, w, b"),
    Op("bidense", "input1, input2, weight, bias=None", fn=bidense),
    Op("matrix_band_part", "x, lower, upper", fn=matrix_band_part, prim="MatrixBandPart"),
    Op("matrix_diag", "x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT'", fn=matrix_diag,
       prim="MatrixDiagV3(align='RIGHT_LEFT')(x, k, num_rows, num_cols, padding_value) -> "
            "x, k, num_rows, num_cols, padding_value, align"),
    Op("matrix_diag_part", "x, k, padding_value, align='RIGHT_LEFT'", fn=matrix_diag_part,
       prim="MatrixDiagPartV3(align='RIGHT_LEFT')(x, k, padding_value) -> x, k, padding_value, align"),
    Op("matrix_set_diag", "x, diagonal, k=0, align='RIGHT_LEFT'", fn=matrix_set_diag,
       prim="MatrixSetDiagV3(align='RIGHT_LEFT')(x, diagonal, k) -> x, diagonal, k, align"),
    Op("block_diag", "*inputs", fn=block_diag, inputs=0),
    Op("cartesian_prod", "*inputs", fn=cartesian_prod, inputs=0),
    Op("combinations", "input, r=2, with_replacement=False", fn=combinations),
    Op("tril_indices", "row, col, offset=0, *, dtype=mindspore.int64", fn=tril_indices, inputs=0,
       prim="TrilIndices(row, col, offset=0, dtype=mindspore.int32)() -> row, col, offset, dtype=dtype"),
    Op("triu_indices", "row, col, offset=0, *, dtype=mindspore.int64", fn=triu_indices, inputs=0,
       prim="TriuIndices(row, col, offset=0, dtype=mindspore.int32)() -> row, col, offset, dtype=dtype"),
    Op("diagflat", "input, offset=0", lambda x, offset: np.diagflat(x, offset), _diagflat_grad, method=True),
    Op("_tridiagonal_matmul", "superdiag, maindiag, subdiag, rhs", fn=_tridiagonal_matmul, inputs=4,
       prim="TridiagonalMatMul"),
    Op("_conjugate_transpose", "x, perm", fn=_conjugate_transpose, prim="ConjugateTranspose"),
]

#: methods and properties shaped differently from their functional op
METHODS = {
    "mT": property(lambda self: _mT(self), doc="The last two dimensions swapped."),
    "mH": property(lambda self: adjoint(self), doc="The conjugate transpose of the last two dimensions."),
    "H": property(lambda self: _conj(t(self)), doc="The conjugate transpose of a 2-D tensor."),
}

#: the examples, by op or primitive name: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "diagflat": ("ops.diagflat(ms.Tensor([1, 2]), 1)", "[[0 1 0]\n [0 0 2]\n [0 0 0]]"),
    "Dense": ("ops.Dense()(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0]]), ms.Tensor([0.5]))", "[[3.5]]"),
    "MatrixBandPart": ("import numpy as np", "ops.MatrixBandPart()(ms.Tensor(np.ones((2, 3))), 0, -1)",
                       "[[1. 1. 1.]\n [0. 1. 1.]]"),
    "MatrixDiagV3": ("ops.MatrixDiagV3()(ms.Tensor([1.0, 2.0]), ms.Tensor(0, ms.int32), ms.Tensor(2), ms.Tensor(3), "
                     "ms.Tensor(9.0))", "[[1. 9. 9.]\n [9. 2. 9.]]"),
    "MatrixDiagPartV3": ("ops.MatrixDiagPartV3()(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor(0, ms.int32), "
                         "ms.Tensor(0.0))", "[1. 4.]"),
    "MatrixSetDiagV3": ("import numpy as np", "ops.MatrixSetDiagV3()(ms.Tensor(np.zeros((2, 2))), "
                        "ms.Tensor([5.0, 6.0]), ms.Tensor(0, ms.int32))", "[[5. 0.]\n [0. 6.]]"),
    "TrilIndices": ("ops.TrilIndices(2, 2)()", "[[0 1 1]\n [0 0 1]]"),
    "TriuIndices": ("ops.TriuIndices(2, 2)()", "[[0 0 1]\n [0 1 1]]"),
    "TridiagonalMatMul": ("import numpy as np", "v = ms.Tensor([[1.0, 2.0]])",
                          "ops.TridiagonalMatMul()(v, v, v, ms.Tensor(np.ones((2, 1), np.float32)))",
                          "[[2.]\n [4.]]"),
    "ConjugateTranspose": ("import numpy as np",
                           "ops.ConjugateTranspose()(ms.Tensor(np.array([[1 + 1j, 2j]])), (1, 0))",
                           "[[1.-1.j]\n [0.-2.j]]"),
}

__all__ = ["OPS", "EXAMPLES", "METHODS"]
