"""Op table: statistics and logical reductions — var, std (and their ``_mean`` pairs), logsumexp, prod, norm,
all, any, count_nonzero, nansum, aminmax, and the ``ReduceProd``/``ReduceAll``/``ReduceAny`` primitives.

The moments are written with ops, so their gradients (and gradients of gradients) come from the engine.
MindSpore's ``ddof`` may be an int or a bool (``True`` meaning 1); integer inputs to var/std are refused.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    >>> print(ops.var(x), ops.std(x, 1), ops.prod(x, 1))
    3.138889 [1.6996732 1.6996732] [10. 36.]
    >>> print(ops.logsumexp(x, 1), ops.norm(x), ops.all(x > 1, 1))
    [5.065884 6.065884] 8.888194 [False  True]
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Union

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor, float_input, normalize_axis
from mskernel.ops.opdef import F, Op


def _kept(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _count(x: Tensor, axes: tuple) -> int:
    return int(np.prod([x.shape[a] for a in axes])) if axes else 1


def var(input: Any, axis: Any = None, ddof: Union[int, bool] = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` (all when None) with ``ddof`` delta degrees of freedom.

    Example:
        >>> import mskernel as ms
        >>> print(var(ms.Tensor([1.0, 2.0, 6.0]), ddof=1))
        7.0
    """
    x = float_input(input, "var", "input")
    axes = normalize_axis(axis, x.ndim, "var") if x.ndim else ()
    d = x - F.mean(x, axes, True)
    return F.sum(d * d, axes, keepdims) / builtins_max(_count(x, axes) - int(ddof), 0)


def builtins_max(a: int, b: int) -> float:
    """``max`` of two counts as a float (a zero count divides to inf/NaN, as numpy's var does).

    Example:
        >>> builtins_max(2, 0)
        2.0
    """
    return float(a if a > b else b)


def std(input: Any, axis: Any = None, ddof: Union[int, bool] = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis`` (all when None).

    Example:
        >>> import mskernel as ms
        >>> print(std(ms.Tensor([1.0, 3.0])))
        1.0
    """
    return F.sqrt(var(input, axis, ddof, keepdims))


def var_mean(input: Any, axis: Any = None, ddof: Union[int, bool] = 0, keepdims: bool = False) -> tuple:
    """``(var, mean)`` over ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(var_mean(ms.Tensor([1.0, 3.0])))
        (Tensor(shape=[], dtype=Float32, value= 1), Tensor(shape=[], dtype=Float32, value= 2))
    """
    x = float_input(input, "var_mean", "input")
    return var(x, axis, ddof, keepdims), F.mean(x, axis, keepdims)


def std_mean(input: Any, axis: Any = None, ddof: Union[int, bool] = 0, keepdims: bool = False) -> tuple:
    """``(std, mean)`` over ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(std_mean(ms.Tensor([1.0, 3.0]))[0])
        1.0
    """
    x = float_input(input, "std_mean", "input")
    return std(x, axis, ddof, keepdims), F.mean(x, axis, keepdims)


def _logsumexp(x: np.ndarray, dim: Any, keepdim: bool = False) -> np.ndarray:
    axes = normalize_axis(dim, x.ndim, "logsumexp") if x.ndim else ()
    m = np.max(x, axis=axes, keepdims=True) if x.size else np.zeros(_kept(x.shape, axes), x.dtype)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return (out if keepdim else np.squeeze(out, axes)).astype(x.dtype)


def _logsumexp_grad(g: Tensor, out: Tensor, input: Tensor, dim: Any, keepdim: bool) -> tuple:
    axes = normalize_axis(dim, input.ndim, "logsumexp") if input.ndim else ()
    if not keepdim:
        g, out = F.reshape(g, _kept(input.shape, axes)), F.reshape(out, _kept(input.shape, axes))
    return (g * F.exp(input - out),)


def _prod(x: np.ndarray, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> np.ndarray:
    if dtype is not None:
        x = x.astype(mstype.to_dtype(dtype).np)
    elif x.dtype.kind in "biu":
        x = x.astype(np.int64)
    axes = normalize_axis(axis, x.ndim, "ReduceProd") if x.ndim else ()
    return np.asarray(np.prod(x, axis=axes, keepdims=keep_dims))


def _others_product(x: np.ndarray, axes: tuple) -> np.ndarray:
    """For each element, the product of the other elements of its reduced group (no division: zeros are fine)."""
    keep = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, keep + list(axes))
    flat = moved.reshape(moved.shape[:len(keep)] + (-1,))
    ones = np.ones(flat.shape[:-1] + (1,), x.dtype)
    left = np.concatenate([ones, np.cumprod(flat, -1)[..., :-1]], -1)
    right = np.concatenate([np.cumprod(flat[..., ::-1], -1)[..., -2::-1], ones], -1)
    others = (left * right).reshape(moved.shape)
    return np.transpose(others, np.argsort(keep + list(axes)))


def _prod_grad(g: Tensor, out: Tensor, input: Tensor, axis: Any, keep_dims: bool) -> tuple:
    if input._data.dtype.kind not in "fc":
        return (None,)
    axes = normalize_axis(axis, input.ndim, "ReduceProd") if input.ndim else ()
    gk = g if keep_dims else F.reshape(g, _kept(input.shape, axes))
    if np.all(input._data):
        ok = out if keep_dims else F.reshape(out, _kept(input.shape, axes))
        return (gk * ok / input,)
    return (gk * Tensor._wrap(_others_product(input._data, axes)),)


def _logical(fn: Any, prim: str) -> Any:
    def forward(x: np.ndarray, axis: Any = None, keep_dims: bool = False) -> np.ndarray:
        axes = normalize_axis(axis, x.ndim, prim) if x.ndim else ()
        return np.asarray(fn(x, axis=axes, keepdims=keep_dims))
    return forward


def _vector_norm(x: Tensor, p: float, axes: Optional[tuple], keepdim: bool) -> Tensor:
    a = F.abs(x)
    if p == math.inf:
        return F.amax(a, axes, keepdim)
    if p == -math.inf:
        return F.amin(a, axes, keepdim)
    if p == 0:
        return F.sum(F.cast(F.not_equal(x, 0), x.dtype), axes, keepdim)
    if p == 1:
        return F.sum(a, axes, keepdim)
    if p == 2:
        return F.sqrt(F.sum(x * x, axes, keepdim))
    return F.pow(F.sum(F.pow(a, p), axes, keepdim), 1.0 / p)


def _matrix_norm(x: Tensor, ord: Any, dims: tuple, keepdim: bool) -> Tensor:
    r, c = dims
    if ord == "fro":
        return F.sqrt(F.sum(x * x, dims, keepdim))
    if ord in (1, -1, math.inf, -math.inf):
        inner, outer = (r, c) if ord in (1, -1) else (c, r)
        s = F.sum(F.abs(x), inner, True)
        pick = F.amax if ord in (1, math.inf) else F.amin
        out = pick(s, outer, True)
        return out if keepdim else F.squeeze(out, dims)
    if ord in ("nuc", 2, -2):  # of the singular values: matrix_norm's (differentiable)
        return F.matrix_norm(x, ord, dims, keepdim)
    raise ValueError(f"For 'norm', the matrix norm 'ord' must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf, "
                     f"but got {ord!r}.")


def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Vector or matrix norm (MindSpore's ``ops.norm``): the 2-norm of all elements by default; ``dim`` an int
    (or a 1-D input) gives vector norms, a pair of dims (or a 2-D input with an ``ord``) matrix norms.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[3.0, -4.0], [0.0, 1.0]])
        >>> print(norm(x), norm(x, 1, dim=1), norm(x, float("inf")))
        5.0990195 [7. 1.] 7.0
    """
    x = check_tensor(A, "norm", "A")
    if dtype is not None:
        x = F.cast(x, mstype.to_dtype(dtype))
    elif x._data.dtype.kind not in "fc":
        x = F.cast(x, mstype.float32)
    if isinstance(dim, (tuple, list)) and len(dim) == 2:
        return _matrix_norm(x, "fro" if ord is None else ord, tuple(dim), keepdim)
    if dim is None and ord is not None and x.ndim == 2:
        return _matrix_norm(x, ord, (0, 1), keepdim)
    if ord == "fro" or ord == "nuc":
        if dim is None and x.ndim != 2 and ord == "nuc":
            raise ValueError(f"For 'norm', ord='nuc' needs a 2-D input or two dims, but got {x.ndim}-D input.")
        return _vector_norm(x, 2, None if dim is None else normalize_axis(dim, x.ndim, "norm"), keepdim)
    axes = None if dim is None else normalize_axis(dim, x.ndim, "norm")
    return _vector_norm(x, 2 if ord is None else float(ord), axes, keepdim)


def _nansum(x: np.ndarray, axis: Any = None, keepdims: bool = False, *, dtype: Any = None) -> np.ndarray:
    if dtype is not None:
        x = x.astype(mstype.to_dtype(dtype).np)
    axes = normalize_axis(axis, x.ndim, "nansum") if x.ndim else ()
    return np.asarray(np.nansum(x, axis=axes, keepdims=keepdims))


def _nansum_grad(g: Tensor, input: Tensor, axis: Any, keepdims: bool) -> tuple:
    axes = normalize_axis(axis, input.ndim, "nansum") if input.ndim else ()
    gk = g if keepdims else F.reshape(g, _kept(input.shape, axes))
    return (gk * Tensor._wrap((~np.isnan(input._data)).astype(g._data.dtype)),)


def _count_nonzero(x: np.ndarray, axis: Any = (), keep_dims: bool = False, dtype: Any = mstype.int32) -> np.ndarray:
    axes = normalize_axis(axis, x.ndim, "count_nonzero") if x.ndim else ()
    return np.asarray(np.count_nonzero(x, axis=axes, keepdims=keep_dims)).astype(mstype.to_dtype(dtype).np)


def aminmax(input: Any, *, axis: int = 0, keepdims: bool = False) -> tuple:
    """``(amin, amax)`` along ``axis``.

    Example:
        >>> import mskernel as ms
        >>> print(aminmax(ms.Tensor([[1.0, 5.0], [3.0, 2.0]]), axis=1))
        (Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00]), \
Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e+00,  3.00000000e+00]))
    """
    # as ops.min/ops.max with an axis: a tie's gradient goes to the first of the tied (MindSpore 2.10's); a NaN
    # propagates, as in every mskernel comparison (tests/golden/cases/edge_values.py says why)
    x = check_tensor(input, "aminmax", "input")
    if axis is None:  # over every element; kept dims are all of them
        lo, hi = aminmax(F.reshape(x, (-1,)), axis=0)
        shape = (1,) * x.ndim if keepdims else ()
        return F.reshape(lo, shape), F.reshape(hi, shape)
    return F.min(x, axis, keepdims)[0], F.max(x, axis, keepdims)[0]


def _torch_style(axis: Any, ddof: Any, keepdims: bool, dim: Any, correction: Any, keepdim: Any) -> tuple:
    """(axis, ddof, keepdims) of MindSpore 2.10's two spellings: ``(axis, ddof, keepdims)`` and
    ``(dim, *, correction=1, keepdim=False)``."""
    if dim is None and correction is None and keepdim is None:
        return axis, ddof, keepdims
    return ((dim if dim is not None else axis), (1 if correction is None else correction),
            (keepdims if keepdim is None else bool(keepdim)))


def _std_method(self: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False, *, dim: Any = None,
                correction: Any = None, keepdim: Any = None) -> Tensor:
    """``Tensor.std``, either spelling (``(axis, ddof, keepdims)`` or ``(dim, *, correction=1, keepdim=False)``).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 3.0], [2.0, 2.0]])
        >>> print(x.std(), x.std(dim=1, correction=1))
        0.70710677 [1.4142135 0.       ]
    """
    return std(self, *_torch_style(axis, ddof, keepdims, dim, correction, keepdim))


def _var_method(self: Tensor, axis: Any = None, ddof: Any = 0, keepdims: bool = False, *, dim: Any = None,
                correction: Any = None, keepdim: Any = None) -> Tensor:
    """``Tensor.var``, either spelling (``(axis, ddof, keepdims)`` or ``(dim, *, correction=1, keepdim=False)``).

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 3.0], [2.0, 2.0]]).var(dim=1, correction=0))
        [1. 0.]
    """
    return var(self, *_torch_style(axis, ddof, keepdims, dim, correction, keepdim))


#: methods shaped differently from their functional op (MindSpore 2.10's overloaded Tensor methods)
METHODS = {"std": _std_method, "var": _var_method}


OPS: List[Op] = [
    Op("var", "input, axis=None, ddof=0, keepdims=False", fn=var, method=True),
    Op("std", "input, axis=None, ddof=0, keepdims=False", fn=std, method=True),
    Op("var_mean", "input, axis=None, ddof=0, keepdims=False", fn=var_mean),
    Op("std_mean", "input, axis=None, ddof=0, keepdims=False", fn=std_mean),
    Op("logsumexp", "input, dim, keepdim=False", _logsumexp, _logsumexp_grad, dtype="float", method=True),
    Op("prod", "input, axis=None, keep_dims=False, dtype=None", _prod, _prod_grad, method=True,
       prim="ReduceProd(keep_dims=False)(x, axis=()) -> x, axis, keep_dims"),
    Op("all", "input, axis=None, keep_dims=False", _logical(np.all, "ReduceAll"), method=True,
       prim="ReduceAll(keep_dims=False)(x, axis=()) -> x, axis, keep_dims"),
    Op("any", "input, axis=None, keep_dims=False", _logical(np.any, "ReduceAny"), method=True,
       prim="ReduceAny(keep_dims=False)(x, axis=()) -> x, axis, keep_dims"),
    Op("norm", "A, ord=None, dim=None, keepdim=False, *, dtype=None", fn=norm, method=True),
    Op("nansum", "input, axis=None, keepdims=False, *, dtype=None", _nansum, _nansum_grad, method=True),
    Op("count_nonzero", "x, axis=(), keep_dims=False, dtype=mindspore.int32", _count_nonzero, method=True),
    Op("aminmax", "input, *, axis=0, keepdims=False", fn=aminmax),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "logsumexp": ("ops.logsumexp(ms.Tensor([[0.0, 0.0], [1.0, 2.0]]), 1)", "[0.6931472 2.3132617]"),
    "prod": ("ops.prod(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 1)", "[ 2. 12.]"),
    "all": ("ops.all(ms.Tensor([[True, False], [True, True]]), 1)", "[False  True]"),
    "any": ("ops.any(ms.Tensor([[True, False], [False, False]]), 1)", "[ True False]"),
    "nansum": ("ops.nansum(ms.Tensor([1.0, float('nan'), 2.0]))", "3.0"),
    "count_nonzero": ("ops.count_nonzero(ms.Tensor([[0, 1, 2], [0, 0, 3]]), 1)", "[2 1]"),
    "ReduceProd": ("ops.ReduceProd(keep_dims=True)(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 1)", "[[ 2.]\n [12.]]"),
    "ReduceAll": ("ops.ReduceAll()(ms.Tensor([[True, False], [True, True]]), 1)", "[False  True]"),
    "ReduceAny": ("ops.ReduceAny()(ms.Tensor([[True, False], [False, False]]))", "True"),
}
