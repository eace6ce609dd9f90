"""Op table: norms and distances — vector_norm, matrix_norm, dist, pdist, renorm, and the primitives LpNorm,
L2Normalize, NuclearNorm, EuclideanNorm, Pdist, Renorm. Each is written with ops, so it is differentiable, with the
wheel's conventions (``dist`` floors at LpNorm's epsilon 1e-12; ``renorm`` scales each slice whose norm passes
``maxnorm`` down to it).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.vector_norm(ms.Tensor([3.0, -4.0])), ops.dist(ms.Tensor([0.0, 0.0]), ms.Tensor([3.0, 4.0])))
    5.0 5.0
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor, float_input
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.stats_more import _axes

_w = Tensor._wrap
_INF = float("inf")


def vector_norm(x: Any, ord: Any = 2, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> Tensor:
    """The vector ``ord``-norm over ``axis`` (all elements when None): inf/-inf the largest/smallest magnitude, 0
    the count of non-zeros, otherwise ``sum(|x|**ord) ** (1/ord)``.

    Example:
        >>> import mskernel as ms
        >>> print(vector_norm(ms.Tensor([3.0, -4.0]), 1), vector_norm(ms.Tensor([3.0, -4.0]), float('inf')))
        7.0 4.0
    """
    t = float_input(x, "vector_norm", "x")
    if dtype is not None:
        t = F.cast(t, dtype)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"For 'vector_norm', 'ord' must be an int or a float, but got {type(ord).__name__}.")
    axes = _axes(axis, t.ndim, "vector_norm")
    a = F.abs(t)
    if ord == _INF:
        return F.amax(a, axes, keepdims)
    if ord == -_INF:
        return F.amin(a, axes, keepdims)
    if ord == 0:
        return F.sum(F.cast(t != 0, t.dtype), axes, keepdims)
    if ord == 1:
        return F.sum(a, axes, keepdims)
    if ord == 2:
        return F.sqrt(F.sum(t * t, axes, keepdims))
    return F.pow(F.sum(F.pow(a, float(ord)), axes, keepdims), 1.0 / float(ord))


_MATRIX_ORDS = ("fro", "nuc", _INF, -_INF, 1, -1, 2, -2)


def matrix_norm(A: Any, ord: Any = "fro", axis: Tuple[int, int] = (-2, -1), keepdims: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The matrix norm over the two ``axis``: 'fro', 'nuc', inf/-inf (row sums), 1/-1 (column sums), 2/-2
    (singular values).

    Example:
        >>> import mskernel as ms
        >>> print(matrix_norm(ms.Tensor([[1.0, -2.0], [3.0, 4.0]]), float('inf')))
        7.0
    """
    t = float_input(A, "matrix_norm", "A")
    if dtype is not None:
        t = F.cast(t, dtype)
    if t.ndim < 2:
        raise ValueError(f"For 'matrix_norm', the dimension of 'A' must be at least 2, but got {t.ndim}.")
    if ord not in _MATRIX_ORDS:
        raise ValueError(f"For 'matrix_norm', 'ord' must be one of ['fro', 'nuc', inf, -inf, 1, -1, 2, -2], but got "
                         f"{ord!r}.")
    r, c = (a % t.ndim for a in axis)
    if ord == "fro":
        out = F.sqrt(F.sum(t * t, (r, c), True))
    elif ord in (_INF, -_INF, 1, -1):
        inner, outer = (c, r) if ord in (_INF, -_INF) else (r, c)
        sums = F.sum(F.abs(t), inner, True)
        out = F.amax(sums, outer, True) if ord > 0 else F.amin(sums, outer, True)
    else:
        moved = F.movedim(t, (r, c), (-2, -1))
        s = np.linalg.svd(moved._data.astype(np.float64), compute_uv=False)
        v = s.sum(-1) if ord == "nuc" else s.max(-1) if ord == 2 else s.min(-1)
        sv = F.svd(moved, compute_uv=False)  # differentiable singular values: the gradient (the value is v's)
        expr = F.sum(sv, -1) if ord == "nuc" else F.amax(sv, -1) if ord == 2 else F.amin(sv, -1)
        value = expr - F.stop_gradient(expr) + _w(v.astype(t._data.dtype))
        out = F.expand_dims(F.expand_dims(value, -1), -1)
        out = F.movedim(out, (-2, -1), (r, c)) if t.ndim > 2 else out
    return out if keepdims else F.squeeze(out, tuple(sorted((r, c))))


def dist(input: Any, other: Any, p: Any = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` over all elements (an int ``p``, as MindSpore's LpNorm takes).

    Example:
        >>> import mskernel as ms
        >>> print(dist(ms.Tensor([1.0, 1.0]), ms.Tensor([4.0, 5.0])))
        5.0
    """
    a, b = check_tensor(input, "dist", "input"), check_tensor(other, "dist", "other")
    return _lp_norm(a - b, list(range(max(a.ndim, b.ndim))), p)


def pdist(input: Any, p: float = 2.0) -> Tensor:
    """The ``p``-norm distances between each pair of rows ``i < j`` (row-major order of the pairs).

    Example:
        >>> import mskernel as ms
        >>> print(pdist(ms.Tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])))
        [5.        1.        4.2426405]
    """
    x = float_input(input, "Pdist", "input")
    if x.ndim < 2:
        raise ValueError(f"For 'Pdist', the dimension of 'x' must be at least 2, but got {x.ndim}.")
    if p < 0:
        raise ValueError(f"For 'Pdist', 'p' must be a non-negative value, but got {p}.")
    i, j = np.triu_indices(x.shape[-2], 1)
    d = F.gather(x, _w(i.astype(np.int64)), x.ndim - 2) - F.gather(x, _w(j.astype(np.int64)), x.ndim - 2)
    return vector_norm(d, float(p), -1)


def renorm(input: Any, p: Any, axis: int, maxnorm: float) -> Tensor:
    """Each slice along ``axis`` whose ``p``-norm exceeds ``maxnorm`` scaled down to norm ``maxnorm``.

    Example:
        >>> import mskernel as ms
        >>> print(renorm(ms.Tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0))
        [[0.6 0.8]
         [0.3 0.4]]
    """
    x = float_input(input, "Renorm", "input")
    if not isinstance(p, (int, float)) or p <= 0:
        raise ValueError(f"For 'Renorm', 'p' must be a positive number, but got {p!r}.")
    ax = int(axis) % max(x.ndim, 1)
    others = tuple(i for i in range(x.ndim) if i != ax)
    norm = vector_norm(x, float(p), others, True)
    factor = F.where(norm > maxnorm, maxnorm / (norm + 1e-7), F.ones_like(norm))
    return x * factor


def _l2_normalize(x: Any, axis: Any = 0, epsilon: float = 1e-4) -> Tensor:
    t = float_input(x, "L2Normalize", "x")
    axes = _axes(axis, t.ndim, "L2Normalize")
    return t / F.sqrt(F.maximum(F.sum(t * t, axes, True), epsilon))


def _lp_norm(input: Any, axis: Any, p: int = 2, keep_dims: bool = False, epsilon: float = 1e-12) -> Tensor:
    if not isinstance(p, int) or isinstance(p, bool):
        raise TypeError(f"For 'LpNorm', the type of 'p' should be 'int', but got type '{type(p).__name__}'.")
    norm = vector_norm(float_input(input, "LpNorm", "input"), p, tuple(axis) if isinstance(axis, list) else axis,
                       keep_dims)
    return F.maximum(norm, epsilon)  # the wheel's kernel never returns less than epsilon


def _nuclear_norm(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    axis = (0, 1) if dim is None else tuple(dim)
    return matrix_norm(input, "nuc", axis, keepdim)


def _euclidean_norm(x: Any, axes: Any, keep_dims: bool = False) -> Tensor:
    t = check_tensor(x, "EuclideanNorm", "x")
    ax = axes._data.reshape(-1).tolist() if isinstance(axes, Tensor) else axes
    tf = F.cast(t, mstype.float64) if t._data.dtype.kind in "iu" else t
    out = F.sqrt(F.sum(tf * tf, tuple(int(a) for a in np.atleast_1d(ax)), keep_dims))
    return F.cast(out, t.dtype) if t._data.dtype.kind in "iu" else out


def _renorm_prim(x: Any, p: int, dim: int, maxnorm: float) -> Tensor:
    return renorm(x, p, dim, maxnorm)


OPS: List[Op] = [
    Op("vector_norm", "x, ord=2, axis=None, keepdims=False, *, dtype=None", fn=vector_norm),
    Op("matrix_norm", "A, ord='fro', axis=(-2, -1), keepdims=False, *, dtype=None", fn=matrix_norm),
    Op("dist", "input, other, p=2", fn=dist),
    Op("pdist", "input, p=2.0", fn=pdist, prim="Pdist(p=2.0)(x) -> x, p"),
    Op("renorm", "input, p, axis, maxnorm", fn=renorm, method=True),
    Op("_renorm_prim", "x, p, dim, maxnorm", fn=_renorm_prim, prim="Renorm(p, dim, maxnorm)(x) -> x, p, dim, maxnorm"),
    Op("_l2_normalize", "x, axis=0, epsilon=0.0001", fn=_l2_normalize,
       prim="L2Normalize(axis=0, epsilon=0.0001)(x) -> x, axis, epsilon"),
    Op("_lp_norm", "input, axis, p=2, keep_dims=False, epsilon=1e-12", fn=_lp_norm,
       prim="LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input) -> input, axis, p, keep_dims, epsilon"),
    Op("_nuclear_norm", "input, dim=None, keepdim=False", fn=_nuclear_norm,
       prim="NuclearNorm(dim=None, keepdim=False)(input) -> input, dim, keepdim"),
    Op("_euclidean_norm", "x, axes, keep_dims=False", fn=_euclidean_norm,
       prim="EuclideanNorm(keep_dims=False)(x, axes) -> x, axes, keep_dims"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it)
EXAMPLES = {
    "Pdist": ("ops.Pdist(p=1.0)(ms.Tensor([[0.0, 0.0], [3.0, 4.0]]))", "[7.]"),
    "Renorm": ("ops.Renorm(p=1, dim=0, maxnorm=5.0)(ms.Tensor([[1.0, 1.0], [4.0, 6.0]]))", "[[1. 1.]\n [2. 3.]]"),
    "L2Normalize": ("ops.L2Normalize(axis=-1)(ms.Tensor([[3.0, 4.0]]))", "[[0.6 0.8]]"),
    "LpNorm": ("ops.LpNorm(axis=[0, 1], p=2)(ms.Tensor([[3.0, 4.0]]))", "5.0"),
    "NuclearNorm": ("ops.NuclearNorm()(ms.Tensor([[3.0, 0.0], [0.0, -4.0]]))", "7.0"),
    "EuclideanNorm": ("ops.EuclideanNorm()(ms.Tensor([[3.0, 5.0], [4.0, 12.0]]), ms.Tensor([0]))", "[ 5. 13.]"),
}
