"""Op table: matrix decompositions and solves — cholesky (and its inverse and solve), eig, svd, qr, lstsq,
the LU unpack and solve, slogdet/logdet, matrix_solve, pinv, matrix_exp/logarithm, triangular solves and the
LAPACK-shaped Householder trio geqrf, orgqr, ormqr.

The forwards are numpy's (scipy's, imported inside the function, where numpy has no such routine: the matrix
exponential and logarithm, the LAPACK Householder calls). ``cholesky`` has a backward of its own; the solves and
determinants are written with ops (inverse, det, matmul), so their gradients come from those.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> a = ms.Tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> print(ops.cholesky(a), ops.slogdet(a)[1])
    [[2.        0.       ]
     [1.        1.4142135]] 2.0794415
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops._core import check_tensor, float_input
from mskernel.ops.opdef import F, Op

_w = Tensor._wrap


def _mT(x: Tensor) -> Tensor:
    return F.swapaxes(x, -1, -2)


def _square(x: Tensor, op: str, arg: str = "input") -> Tensor:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{op}', the input '{arg}' must be a batch of square matrices, but got shape "
                         f"{list(x.shape)}.")
    return x


def _cholesky_fwd(x: np.ndarray, upper: bool = False) -> np.ndarray:
    low = np.linalg.cholesky(x).astype(x.dtype)
    return np.swapaxes(low, -1, -2).conj() if upper else low


def _cholesky_grad(g: Tensor, out: Tensor, upper: bool) -> tuple:
    low, gl = (_mT(out), _mT(g)) if upper else (out, g)
    p = F.tril(M.matmul(_mT(low), gl))
    p = p - F.diag_embed(F.diagonal(p, 0, -2, -1)) * 0.5
    inv = F.inverse(low)
    s = M.matmul(M.matmul(_mT(inv), p), inv)
    return ((s + _mT(s)) * 0.5,)


def _lower_product(x: Tensor, upper: bool) -> Tensor:
    """``L @ L^T`` (``U^T @ U`` when upper): the matrix whose Cholesky factor ``x`` is."""
    return M.matmul(_mT(x), x) if upper else M.matmul(x, _mT(x))


def cholesky_inverse(input_x: Any, upper: bool = False) -> Tensor:
    """The inverse of the matrix whose Cholesky factor is ``input_x``.

    Example:
        >>> import mskernel as ms
        >>> print(cholesky_inverse(ms.Tensor([[2.0, 0.0], [1.0, 1.0]])))
        [[ 0.5 -0.5]
         [-0.5  1. ]]
    """
    x = _square(float_input(input_x, "CholeskyInverse", "input_x"), "CholeskyInverse", "input_x")
    return F.inverse(_lower_product(x, upper))


def cholesky_solve(input: Any, input2: Any, upper: bool = False) -> Tensor:
    """Solve ``A X = input`` where ``input2`` is the Cholesky factor of ``A``.

    Example:
        >>> import mskernel as ms
        >>> print(cholesky_solve(ms.Tensor([[1.0], [1.0]]), ms.Tensor([[2.0, 0.0], [1.0, 1.0]])))
        [[0. ]
         [0.5]]
    """
    b = float_input(input, "CholeskySolve", "input")
    f = _square(float_input(input2, "CholeskySolve", "input2"), "CholeskySolve", "input2")
    return M.matmul(F.inverse(_lower_product(f, upper)), b)


def _complex_of(dt: np.dtype) -> np.dtype:
    return np.dtype(np.complex128) if dt in (np.float64, np.complex128) else np.dtype(np.complex64)


def _eig(x: np.ndarray, compute_v: bool = True) -> Tuple[np.ndarray, np.ndarray]:
    w, v = np.linalg.eig(x)
    ct = _complex_of(x.dtype)
    return w.astype(ct), (v.astype(ct) if compute_v else np.zeros(x.shape[:-2] + (0,), ct))


def eig(A: Any) -> Tuple[Tensor, Tensor]:
    """Eigenvalues and right eigenvectors of square matrices (complex results).

    Example:
        >>> import mskernel as ms
        >>> print(eig(ms.Tensor([[2.0, 0.0], [0.0, 3.0]]))[0])
        [2.+0.j 3.+0.j]
    """
    x = _square(check_tensor(A, "Eig", "A"), "Eig", "A")
    w, v = _eig(x._data)
    return _w(w), _w(v)


def _eig_prim(x: Any, compute_v: bool = False) -> Any:
    t = _square(check_tensor(x, "Eig", "x"), "Eig", "x")
    w, v = _eig(t._data, compute_v)
    return (_w(w), _w(v))


def eigvals(A: Any) -> Tensor:
    """Eigenvalues of square matrices (complex).

    Example:
        >>> import mskernel as ms
        >>> print(eigvals(ms.Tensor([[1.0, 0.0], [0.0, 2.0]])))
        [1.+0.j 2.+0.j]
    """
    return eig(A)[0]


def _svd(x: np.ndarray, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    if not compute_uv:
        s = np.linalg.svd(x, compute_uv=False).astype(x.dtype)
        return s, np.zeros((), x.dtype), np.zeros((), x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    v = np.swapaxes(vh, -1, -2).conj()
    k = s.shape[-1]
    # singular vectors are unique up to sign: the wheel's have v's first row non-negative
    flip = np.where(np.real(v[..., :1, :k]) < 0, -1, 1).astype(v.dtype)
    u, v = u.copy(), v.copy()
    u[..., :, :k] *= flip
    v[..., :, :k] *= flip
    return s.astype(x.dtype), u.astype(x.dtype), v.astype(x.dtype)


def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """Singular values ``s`` and, with ``compute_uv``, ``u`` and ``v`` (not transposed): ``input = u diag(s) v^H``.

    Example:
        >>> import mskernel as ms
        >>> print(svd(ms.Tensor([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False))
        [4. 3.]
        >>> print(ms.grad(lambda a: svd(a, compute_uv=False).sum())(ms.Tensor([[3.0, 0.0], [0.0, -4.0]])))
        [[ 1.  0.]
         [ 0. -1.]]
    """
    x = float_input(input, "Svd", "input")
    if x.ndim < 2:
        raise ValueError(f"For 'Svd', the input must be at least 2-D, but got {x.ndim}-D.")
    s, u, v = _svd(x._data, full_matrices, compute_uv)
    s_t = _w(s) if x._data.dtype.kind == "c" else _singular_values(x, s)
    return (s_t, _w(u), _w(v)) if compute_uv else s_t


def _singular_values(x: Tensor, s: np.ndarray) -> Tensor:
    """``s`` as a function of ``x`` for the gradient: s_k = u_k^T x v_k, whose derivative is u_k v_k^T (the
    singular vectors taken as constants, exact for distinct singular values); the value is LAPACK's ``s``."""
    _, u, v = _svd(x._data, False, True)
    ut, vt = _w(np.swapaxes(u, -1, -2).copy()), _w(np.swapaxes(v, -1, -2).copy())
    expr = F.sum(F.matmul(ut, x) * vt, -1)
    return expr - F.stop_gradient(expr) + _w(s)


def _svd_prim(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> tuple:
    float_input(input, "Svd", "input")
    if compute_uv:
        return tuple(svd(input, full_matrices, True))
    # MindSpore's primitive still gives u and v: one zero each
    s = svd(input, full_matrices, False)
    return s, _w(np.zeros((1,), s._data.dtype)), _w(np.zeros((1,), s._data.dtype))


def qr(input: Any, mode: str = "reduced") -> Tuple[Tensor, Tensor]:
    """The QR decomposition: ``mode`` 'reduced' (Q has the input's columns) or 'complete' (Q square).

    Example:
        >>> import mskernel as ms
        >>> print(qr(ms.Tensor([[0.0, 2.0], [1.0, 0.0]]))[1])
        [[-1.  0.]
         [ 0. -2.]]
    """
    x = float_input(input, "Qr", "input")
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got {mode}.")
    if x.ndim < 2:
        raise ValueError(f"For 'Qr', the input must be at least 2-D, but got {x.ndim}-D.")
    q, r = np.linalg.qr(x._data, mode=mode)
    return _w(q.astype(x._data.dtype)), _w(r.astype(x._data.dtype))


def lstsq(input: Any, A: Any) -> Tensor:
    """The least-squares solution ``X`` of ``input @ X = A`` (``A`` a vector or matrix).

    Example:
        >>> import mskernel as ms
        >>> print(lstsq(ms.Tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]), ms.Tensor([[1.0], [2.0], [3.0]])))
        [[1.]
         [2.]]
    """
    x, a = float_input(input, "Lstsq", "input"), float_input(A, "Lstsq", "A")
    if x.ndim != 2 or a.ndim not in (1, 2):
        raise ValueError(f"For 'Lstsq', the dimension of 'input' must be 2 and of 'A' 1 or 2, but got "
                         f"{x.ndim} and {a.ndim}.")
    if x.shape[0] != a.shape[0]:
        raise ValueError(f"For 'Lstsq', the rows of 'input' and 'A' must agree, but got {x.shape[0]} and "
                         f"{a.shape[0]}.")
    rhs = a._data.reshape(-1, 1) if a.ndim == 1 else a._data  # a vector is solved as one column
    return _w(np.linalg.lstsq(x._data.astype(np.float64), rhs.astype(np.float64), rcond=None)[0]
              .astype(x._data.dtype))


def _lstsq_prim(matrix: Any, rhs: Any, fast: bool = True, l2_regularizer: float = 0.0) -> Tensor:
    x, b = float_input(matrix, "Lstsq", "matrix"), float_input(rhs, "Lstsq", "rhs")
    if l2_regularizer:
        a = x._data.astype(np.float64)
        n = a.shape[-1]
        sol = np.linalg.solve(a.T @ a + l2_regularizer * np.eye(n), a.T @ b._data.astype(np.float64))
        return _w(sol.astype(x._data.dtype))
    return lstsq(x, b)


def _permutation(piv: np.ndarray, n: int) -> np.ndarray:
    """Row order from LAPACK's 1-based pivots: row i swapped with row piv[i] - 1, in turn."""
    perm = np.arange(n)
    for i, p in enumerate(piv):
        j = int(p) - 1
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def _perm_matrices(piv: np.ndarray, n: int, dtype: np.dtype) -> np.ndarray:
    flat = piv.reshape(-1, piv.shape[-1])
    out = np.zeros((flat.shape[0], n, n), dtype)
    for b, row in enumerate(flat):
        perm = _permutation(row, n)
        out[b, perm, np.arange(n)] = 1
    return out.reshape(piv.shape[:-1] + (n, n))


def lu_unpack(LU_data: Any, LU_pivots: Any, unpack_data: bool = True, unpack_pivots: bool = True) -> tuple:
    """``(P, L, U)`` from a packed LU factorisation and its 1-based pivots (``A = P @ L @ U``).

    Example:
        >>> import mskernel as ms
        >>> p, l, u = lu_unpack(ms.Tensor([[2.0, 1.0], [0.5, 1.0]]), ms.Tensor([2, 2], ms.int32))
        >>> print(p)
        [[0. 1.]
         [1. 0.]]
    """
    lu = check_tensor(LU_data, "LuUnpack", "LU_data")
    piv = check_tensor(LU_pivots, "LuUnpack", "LU_pivots")
    if lu.ndim < 2:
        raise ValueError(f"For 'LuUnpack', the dimension of 'LU_data' must be at least 2, but got {lu.ndim}.")
    if piv._data.dtype.kind not in "iu":
        raise TypeError(f"For 'LuUnpack', 'LU_pivots' must be an integer tensor, but got {piv.dtype}.")
    m, n = lu.shape[-2:]
    k = min(m, n)
    if unpack_data:
        eye_l = Tensor._wrap(np.eye(m, k, dtype=lu._data.dtype))
        low = F.tril(F.getitem(lu, (Ellipsis, slice(None), slice(0, k))), -1) + eye_l
        up = F.triu(F.getitem(lu, (Ellipsis, slice(0, k), slice(None))))
    else:
        low = up = _w(np.zeros((0,), lu._data.dtype))
    p = _w(_perm_matrices(piv._data, m, lu._data.dtype)) if unpack_pivots else _w(np.zeros((0,), lu._data.dtype))
    return p, low, up


def lu_solve(b: Any, LU_data: Any, LU_pivots: Any) -> Tensor:
    """Solve ``A X = b`` from ``A``'s packed LU factorisation and its 1-based pivots.

    Example:
        >>> import mskernel as ms
        >>> print(lu_solve(ms.Tensor([[3.0], [2.0]]), ms.Tensor([[2.0, 1.0], [0.5, 1.5]]), ms.Tensor([1, 2], ms.int32)))
        [[1.3333333 ]
         [0.33333337]]
    """
    rhs = float_input(b, "LuSolve", "b")
    lu = _square(float_input(LU_data, "LuSolve", "LU_data"), "LuSolve", "LU_data")
    p, low, up = lu_unpack(lu, check_tensor(LU_pivots, "LuSolve", "LU_pivots"))
    a = M.matmul(M.matmul(p, low), up)
    return M.matmul(F.inverse(a), rhs)


def _slogdet(input: Any, op: str = "LogMatrixDeterminant") -> Tuple[Tensor, Tensor]:
    x = _square(float_input(input, op, "input"), op, "input")
    d = F.det(x)
    return F.stop_gradient(F.sign(d)), F.log(F.abs(d))


def slogdet(input: Any) -> Tuple[Tensor, Tensor]:
    """``(sign, log|det|)`` of square matrices.

    Example:
        >>> import mskernel as ms
        >>> print(slogdet(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        (Tensor(shape=[], dtype=Float32, value= -1), Tensor(shape=[], dtype=Float32, value= 0.693147))
    """
    return _slogdet(input)


def logdet(input: Any) -> Tensor:
    """``log(det(input))`` (NaN where the determinant is negative).

    Example:
        >>> import mskernel as ms
        >>> print(logdet(ms.Tensor([[8.0, 9.0], [2.0, 3.0]])))
        1.7917595
    """
    x = _square(float_input(input, "LogDet", "input"), "LogDet", "input")
    return F.log(F.det(x))


def matrix_solve(matrix: Any, rhs: Any, adjoint: bool = False) -> Tensor:
    """Solve ``matrix @ X = rhs`` (``matrix``'s adjoint with ``adjoint=True``).

    Example:
        >>> import mskernel as ms
        >>> print(matrix_solve(ms.Tensor([[2.0, 0.0], [0.0, 4.0]]), ms.Tensor([[1.0], [1.0]])))
        [[0.5 ]
         [0.25]]
    """
    a = _square(float_input(matrix, "MatrixSolve", "matrix"), "MatrixSolve", "matrix")
    b = float_input(rhs, "MatrixSolve", "rhs")
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"For 'MatrixSolve', the rows of 'rhs' must equal the order of 'matrix', but got "
                         f"{list(b.shape)} and {list(a.shape)}.")
    return M.matmul(F.inverse(_mT(a) if adjoint else a), b)


def _matrix_solve_ls(matrix: Any, rhs: Any, l2: Any, fast: bool = True) -> Tensor:
    return _lstsq_prim(matrix, rhs, fast, float(l2))


def pinv(x: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """The Moore-Penrose pseudo-inverse (singular values below ``max(atol, rtol * largest)`` dropped).

    Example:
        >>> import mskernel as ms
        >>> print(pinv(ms.Tensor([[4.0, 0.0], [0.0, 5.0]])))
        [[0.25 0.  ]
         [0.   0.2 ]]
    """
    t = float_input(x, "pinv", "x")
    a = t._data
    u, s, vh = np.linalg.svd(a, full_matrices=False, hermitian=hermitian)
    big = s.max(-1, keepdims=True) if s.size else np.zeros(s.shape[:-1] + (1,))
    r = (max(a.shape[-2:]) * np.finfo(a.dtype).eps) if rtol is None and atol is None else \
        (0.0 if rtol is None else float(rtol))
    cut = np.maximum(0.0 if atol is None else float(atol), r * big)
    sinv = np.where(s > cut, 1.0 / np.where(s == 0, 1, s), 0.0)
    out = np.swapaxes(vh, -1, -2).conj() @ (sinv[..., None] * np.swapaxes(u, -1, -2).conj())
    return _w(out.astype(a.dtype))


def _expm(x: np.ndarray) -> np.ndarray:
    from scipy.linalg import expm  # numpy has no matrix exponential
    return np.asarray(expm(x), x.dtype)


def _expm_grad(g: Tensor, input: Tensor) -> tuple:
    # d expm(A)[G] = top-right block of expm([[A^T, G], [0, A^T]])
    n = input.shape[-1]
    at = _mT(input)
    z = F.zeros_like(at)
    big = F.concat((F.concat((at, g), -1), F.concat((z, at), -1)), -2)
    return (F.getitem(F.matrix_exp(big), (Ellipsis, slice(0, n), slice(n, None))),)


def _logm(x: np.ndarray) -> np.ndarray:
    from scipy.linalg import logm  # numpy has no matrix logarithm
    flat = x.reshape((-1,) + x.shape[-2:])
    return np.stack([logm(m) for m in flat]).reshape(x.shape).astype(x.dtype)


def _triangular(b: Any, A: Any, upper: bool, transpose: bool, unitriangular: bool, op: str) -> Tensor:
    rhs, a = float_input(b, op, "b"), _square(float_input(A, op, "A"), op, "A")
    a = F.triu(a) if upper else F.tril(a)
    if unitriangular:
        a = a - F.diag_embed(F.diagonal(a, 0, -2, -1)) + _w(np.eye(a.shape[-1], dtype=a._data.dtype))
    return M.matmul(F.inverse(_mT(a) if transpose else a), rhs)


def triangular_solve(b: Any, A: Any, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> Tuple[Tensor, Tensor]:
    """Solve ``A X = b`` for triangular ``A``; returns ``(X, A)`` as MindSpore does.

    Example:
        >>> import mskernel as ms
        >>> print(triangular_solve(ms.Tensor([[2.0], [3.0]]), ms.Tensor([[1.0, 1.0], [0.0, 3.0]]))[0])
        [[1.]
         [1.]]
    """
    x = _triangular(b, A, upper, transpose, unitriangular, "triangular_solve")
    return x, F.identity(A)


def _matrix_triangular_solve(matrix: Any, rhs: Any, lower: bool = True, adjoint: bool = False) -> Tensor:
    return _triangular(rhs, matrix, not lower, adjoint, False, "MatrixTriangularSolve")


def _lapack(name: str, dtype: np.dtype) -> Any:
    from scipy.linalg import lapack  # numpy does not expose LAPACK's Householder routines
    return getattr(lapack, {np.float32: "s", np.float64: "d", np.complex64: "c",
                            np.complex128: "z"}[dtype.type] + name)


def _geqrf(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    flat = x.reshape((-1,) + x.shape[-2:])
    ys, taus = [], []
    for m in flat:
        qr_, tau, _, _ = _lapack("geqrf", x.dtype)(m)
        ys.append(qr_)
        taus.append(tau)
    k = min(x.shape[-2:])
    return (np.stack(ys).reshape(x.shape).astype(x.dtype),
            np.stack(taus).reshape(x.shape[:-2] + (k,)).astype(x.dtype))


def geqrf(input: Any) -> Tuple[Tensor, Tensor]:
    """LAPACK's Householder QR: R above the diagonal and the reflectors below (``y``), and their ``tau``.

    Example:
        >>> import mskernel as ms
        >>> print(geqrf(ms.Tensor([[3.0], [4.0]]))[0])
        [[-5. ]
         [ 0.5]]
    """
    x = float_input(input, "Geqrf", "input")
    if x.ndim < 2:
        raise ValueError(f"For 'Geqrf', the dimension of 'input' must be at least 2, but got {x.ndim}.")
    y, tau = _geqrf(x._data)
    return _w(y), _w(tau)


def _batched(fn: Any, *arrays: np.ndarray, core: int = 2) -> np.ndarray:
    lead = arrays[0].shape[:-2]
    flats = [a.reshape((-1,) + a.shape[a.ndim - (2 if i != 1 else 1):]) for i, a in enumerate(arrays)]
    outs = [fn(*parts) for parts in zip(*flats)]
    return np.stack(outs).reshape(lead + outs[0].shape)


def orgqr(input: Any, input2: Any) -> Tensor:
    """The first ``n`` columns of the product of Householder reflectors (``geqrf``'s ``y`` and ``tau``).

    Example:
        >>> import mskernel as ms
        >>> y, tau = geqrf(ms.Tensor([[3.0], [4.0]]))
        >>> print(orgqr(y, tau))
        [[-0.6]
         [-0.8]]
    """
    x, tau = float_input(input, "Orgqr", "input"), float_input(input2, "Orgqr", "input2")
    if x.ndim < 2 or x.shape[-2] < x.shape[-1]:
        raise ValueError(f"For 'Orgqr', 'input' must be at least 2-D with rows >= columns, but got shape "
                         f"{list(x.shape)}.")
    if tau.shape[-1] > x.shape[-1]:
        raise ValueError(f"For 'Orgqr', the last dimension of 'input2' must not exceed the columns of 'input', "
                         f"but got {tau.shape[-1]} and {x.shape[-1]}.")
    fn = _lapack("orgqr", x._data.dtype)
    return _w(_batched(lambda a, t: fn(a, t)[0], x._data, tau._data).astype(x._data.dtype))


def ormqr(input: Any, tau: Any, other: Any, left: bool = True, transpose: bool = False) -> Tensor:
    """``Q @ other`` (or ``other @ Q``, ``Q^T`` with ``transpose``) for ``Q`` given as Householder reflectors.

    Example:
        >>> import mskernel as ms
        >>> y, tau = geqrf(ms.Tensor([[3.0], [4.0]]))
        >>> print(ormqr(y, tau, ms.Tensor([[1.0], [0.0]])))
        [[-0.6]
         [-0.8]]
    """
    x, t = float_input(input, "Ormqr", "input"), float_input(tau, "Ormqr", "tau")
    c = float_input(other, "Ormqr", "other")
    m = c.shape[-2] if left else c.shape[-1]
    if x.shape[-2] != m:
        raise ValueError(f"For 'Ormqr', the rows of 'input' must equal {'rows' if left else 'columns'} of 'other', "
                         f"but got {x.shape[-2]} and {m}.")
    fn = _lapack("ormqr", x._data.dtype)
    trans = ("C" if x._data.dtype.kind == "c" else "T") if transpose else "N"

    def one(a: np.ndarray, tt: np.ndarray, cc: np.ndarray) -> np.ndarray:
        return fn("L" if left else "R", trans, a, tt, cc, max(1, cc.shape[0] * cc.shape[1]) * 64)[0]

    flat = [a.reshape((-1,) + a.shape[-k:]) for a, k in ((x._data, 2), (t._data, 1), (c._data, 2))]
    outs = [one(*p) for p in zip(*flat)]
    return _w(np.stack(outs).reshape(c.shape).astype(c._data.dtype))


OPS: List[Op] = [
    Op("cholesky", "input_x, upper=False", _cholesky_fwd, _cholesky_grad, dtype="float",
       prim="Cholesky(upper=False)(input_x) -> input_x, upper", method=True),
    Op("cholesky_inverse", "input_x, upper=False", fn=cholesky_inverse,
       prim="CholeskyInverse(upper=False)(x) -> x, upper", method=True),
    Op("cholesky_solve", "input, input2, upper=False", fn=cholesky_solve,
       prim="CholeskySolve(upper=False)(x1, x2) -> x1, x2, upper", method=True),
    Op("eig", "A", fn=eig),
    Op("_eig_prim", "x, compute_v=False", fn=_eig_prim, prim="Eig(compute_v=False)(x) -> x, compute_v"),
    Op("eigvals", "A", fn=eigvals, method=True),
    Op("svd", "input, full_matrices=False, compute_uv=True", fn=svd,
       method=True),
    Op("_svd_prim", "input, full_matrices=False, compute_uv=True", fn=_svd_prim,
       prim="Svd(full_matrices=False, compute_uv=True)(input) -> input, full_matrices, compute_uv"),
    Op("qr", "input, mode='reduced'", fn=qr,
       prim="Qr(full_matrices=False)(x) -> x, 'complete' if full_matrices else 'reduced'"),
    Op("lstsq", "input, A", fn=lstsq, method=True),
    Op("_lstsq_prim", "matrix, rhs, fast=True, l2_regularizer=0.0", fn=_lstsq_prim,
       prim="Lstsq(fast=True, l2_regularizer=0.0)(matrix, rhs) -> matrix, rhs, fast, l2_regularizer"),
    Op("lu_unpack", "LU_data, LU_pivots, unpack_data=True, unpack_pivots=True", fn=lu_unpack,
       prim="LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots) -> "
            "LU_data, LU_pivots, unpack_data, unpack_pivots"),
    Op("lu_solve", "b, LU_data, LU_pivots", fn=lu_solve, prim="LuSolve()(x, lu_data, lu_pivots) -> "
       "x, lu_data, lu_pivots", method=True),
    Op("slogdet", "input", fn=slogdet, method=True),
    Op("log_matrix_determinant", "input", fn=lambda input: _slogdet(input), prim="LogMatrixDeterminant",
       method=True),
    Op("logdet", "input", fn=logdet, method=True),
    Op("matrix_determinant", "input", fn=lambda input: F.det(input), method=True),
    Op("matrix_solve", "matrix, rhs, adjoint=False", fn=matrix_solve,
       prim="MatrixSolve(adjoint=False)(matrix, rhs) -> matrix, rhs, adjoint"),
    Op("_matrix_solve_ls", "matrix, rhs, l2, fast=True", fn=_matrix_solve_ls,
       prim="MatrixSolveLs(fast=True)(matrix, rhs, l2) -> matrix, rhs, l2, fast"),
    Op("pinv", "x, *, atol=None, rtol=None, hermitian=False", fn=pinv),
    Op("matrix_exp", "input", _expm, _expm_grad, dtype="float", prim="MatrixExp"),
    Op("_matrix_logarithm", "x", _logm, dtype="any", prim="MatrixLogarithm"),
    Op("triangular_solve", "b, A, upper=True, transpose=False, unitriangular=False", fn=triangular_solve,
       method=True),
    Op("_matrix_triangular_solve", "matrix, rhs, lower=True, adjoint=False", fn=_matrix_triangular_solve,
       prim="MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs) -> matrix, rhs, lower, adjoint"),
    Op("geqrf", "input", fn=geqrf, prim="Geqrf", method=True),
    Op("orgqr", "input, input2", fn=orgqr, prim="Orgqr()(x, tau) -> x, tau", method=True),
    Op("ormqr", "input, tau, other, left=True, transpose=False", fn=ormqr,
       prim="Ormqr(left=True, transpose=False)(x, tau, other) -> x, tau, other, left, transpose", method=True),
]

#: methods shaped differently from their functional op
METHODS = {
    "qr": lambda self, some=True: qr(self, "reduced" if some else "complete"),
}

#: the examples, by op or primitive name: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "cholesky": ("ops.cholesky(ms.Tensor([[4.0, 2.0], [2.0, 3.0]]))",
                 "[[2.        0.       ]\n [1.        1.4142135]]"),
    "Cholesky": ("ops.Cholesky(upper=True)(ms.Tensor([[4.0, 2.0], [2.0, 3.0]]))",
                 "[[2.        1.       ]\n [0.        1.4142135]]"),
    "CholeskyInverse": ("ops.CholeskyInverse()(ms.Tensor([[2.0, 0.0], [1.0, 1.0]]))", "[[ 0.5 -0.5]\n [-0.5  1. ]]"),
    "CholeskySolve": ("ops.CholeskySolve()(ms.Tensor([[1.0], [1.0]]), ms.Tensor([[2.0, 0.0], [1.0, 1.0]]))",
                      "[[0. ]\n [0.5]]"),
    "Eig": ("ops.Eig(True)(ms.Tensor([[2.0, 0.0], [0.0, 3.0]]))[0]", "[2.+0.j 3.+0.j]"),
    "Svd": ("ops.Svd(compute_uv=False)(ms.Tensor([[3.0, 0.0], [0.0, -4.0]]))[0]", "[4. 3.]"),
    "Qr": ("ops.Qr()(ms.Tensor([[0.0, 2.0], [1.0, 0.0]]))[1]", "[[-1.  0.]\n [ 0. -2.]]"),
    "Lstsq": ("ops.Lstsq()(ms.Tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]), ms.Tensor([[1.0], [2.0], [3.0]]))",
              "[[1.]\n [2.]]"),
    "LuUnpack": ("ops.LuUnpack()(ms.Tensor([[2.0, 1.0], [0.5, 1.0]]), ms.Tensor([2, 2], ms.int32))[1]",
                 "[[1.  0. ]\n [0.5 1. ]]"),
    "LuSolve": ("ops.LuSolve()(ms.Tensor([[3.0], [2.0]]), ms.Tensor([[2.0, 1.0], [0.5, 1.5]]), "
                "ms.Tensor([1, 2], ms.int32))", "[[1.3333333 ]\n [0.33333337]]"),
    "log_matrix_determinant": ("ops.log_matrix_determinant(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))[1]", "0.6931472"),
    "matrix_determinant": ("ops.matrix_determinant(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]))", "-2.0"),
    "MatrixSolve": ("ops.MatrixSolve()(ms.Tensor([[2.0, 0.0], [0.0, 4.0]]), ms.Tensor([[1.0], [1.0]]))",
                    "[[0.5 ]\n [0.25]]"),
    "MatrixSolveLs": ("ops.MatrixSolveLs()(ms.Tensor([[2.0, 0.0], [0.0, 4.0]]), ms.Tensor([[1.0], [1.0]]), "
                      "ms.Tensor(0.0))", "[[0.5 ]\n [0.25]]"),
    "matrix_exp": ("ops.matrix_exp(ms.Tensor([[0.0, 1.0], [0.0, 0.0]]))", "[[1. 1.]\n [0. 1.]]"),
    "MatrixLogarithm": ("ops.MatrixLogarithm()(ms.Tensor([[1.0 + 0j, 1.0], [0.0, 1.0]]))",
                        "[[0.+0.j 1.+0.j]\n [0.+0.j 0.+0.j]]"),
    "MatrixTriangularSolve": ("ops.MatrixTriangularSolve()(ms.Tensor([[2.0, 0.0], [1.0, 1.0]]), "
                              "ms.Tensor([[2.0], [3.0]]))", "[[1.]\n [2.]]"),
    "Geqrf": ("ops.Geqrf()(ms.Tensor([[3.0], [4.0]]))[1]", "[1.6]"),
    "Orgqr": ("ops.Orgqr()(ms.Tensor([[-5.0], [0.5]]), ms.Tensor([1.6]))", "[[-0.6]\n [-0.8]]"),
    "Ormqr": ("ops.Ormqr()(ms.Tensor([[-5.0], [0.5]]), ms.Tensor([1.6]), ms.Tensor([[1.0], [0.0]]))",
              "[[-0.6]\n [-0.8]]"),
}

__all__ = ["OPS", "EXAMPLES", "METHODS", "mstype"]
