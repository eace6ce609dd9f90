"""Op table: scans along an axis — cumsum, cumprod, cummax, cummin and the ``CumSum``/``CumProd`` primitives
(``exclusive`` and ``reverse`` included).

The backward of a sum scan is the same scan run the other way; a product scan's is that scan of ``g * out``
divided by the input where the input has no zeros, and the exact product of the other factors where it has
(MindSpore 2.10's CPU wheel gives NaN there).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    >>> print(ops.cumsum(x, 1), ops.CumSum(exclusive=True, reverse=True)(x, 1)[0])
    [[ 1.  6.  8.]
     [ 3.  5. 11.]] [7. 2. 0.]
    >>> print(ms.grad(lambda a: ops.cumprod(a, 0).sum())(ms.Tensor([2.0, 0.0, 3.0])))
    [1. 8. 0.]
"""
from __future__ import annotations

from typing import Any, Callable, List

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.extremes import _axis


def _scan(ufunc: np.ufunc, identity: int, prim: str) -> Callable:
    def forward(x: np.ndarray, axis: Any, exclusive: bool = False, reverse: bool = False) -> np.ndarray:
        if x.ndim == 0:
            raise ValueError(f"For primitive[{prim}], the rank of 'x' must be greater than 0, but got 0.")
        ax = _axis(axis, x.ndim, prim)
        a = np.flip(x, ax) if reverse else x
        out = ufunc.accumulate(a, axis=ax, dtype=x.dtype)
        if exclusive:
            pad = np.full_like(np.take(out, [0], axis=ax), identity)
            out = np.concatenate([pad, np.take(out, range(out.shape[ax] - 1), axis=ax)], axis=ax)
        return np.ascontiguousarray(np.flip(out, ax) if reverse else out)
    return forward


def _cumsum_grad(g: Tensor, axis: Any, exclusive: bool, reverse: bool) -> tuple:
    return (F._cumsum(g, axis, exclusive, not reverse),)


def _cumprod_exact(g: np.ndarray, x: np.ndarray, ax: int, exclusive: bool, reverse: bool) -> np.ndarray:
    """d/dx_i of sum_j g_j out_j with the product of the other factors (correct where inputs are zero)."""
    if reverse:
        return np.flip(_cumprod_exact(np.flip(g, ax), np.flip(x, ax), ax, exclusive, False), ax)
    xs, gs = np.moveaxis(x, ax, -1), np.moveaxis(g, ax, -1)
    n = xs.shape[-1]
    grad = np.empty_like(xs)
    for i in range(n):
        others = xs.copy()
        others[..., i] = 1
        cp = _scan(np.multiply, 1, "CumProd")(others, -1, exclusive)
        start = i + 1 if exclusive else i
        grad[..., i] = (gs[..., start:] * cp[..., start:]).sum(-1)
    return np.moveaxis(grad, -1, ax)


def _cumprod_grad(g: Tensor, out: Tensor, x: Tensor, axis: Any, exclusive: bool, reverse: bool) -> tuple:
    if x.ndim and not np.all(x._data):
        ax = int(axis) % x.ndim
        return (Tensor._wrap(_cumprod_exact(g._data, x._data, ax, exclusive, reverse)),)
    return (F._cumsum(g * out, axis, exclusive, not reverse) / x,)


def cumsum(x: Any, axis: int, dtype: Any = None) -> Tensor:
    """Running sums along ``axis`` (MindSpore's ``ops.cumsum``; integers keep their dtype).

    Example:
        >>> import mskernel as ms
        >>> print(cumsum(ms.Tensor([1, 2, 3], ms.int32), 0))
        [1 3 6]
    """
    t = _scan_input(check_tensor(x, "CumSum", "x"), dtype, lambda dt: dt == np.bool_)
    return F._cumsum(t, axis)


def cumprod(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """Running products along ``dim`` (MindSpore's ``ops.cumprod``; integers become Int64).

    Example:
        >>> import mskernel as ms
        >>> print(cumprod(ms.Tensor([1, 2, 3], ms.int32), 0))
        [1 2 6]
    """
    t = _scan_input(check_tensor(input, "CumProd", "input"), dtype, lambda dt: dt.kind in "biu" and dt != np.int64)
    return F._cumprod(t, dim)


def _scan_input(t: Tensor, dtype: Any, to_int64: Callable[[np.dtype], bool]) -> Tensor:
    """``t`` cast to ``dtype`` when one is given, else to Int64 where ``to_int64(its numpy dtype)`` (the op's
    default: cumsum widens only Bool, cumprod every integer)."""
    if dtype is not None:
        return F.cast(t, mstype.to_dtype(dtype))
    if to_int64(t._data.dtype):
        return F.cast(t, mstype.int64)
    return t


def _tensor_cumsum(self: Tensor, axis: Any = None, dtype: Any = None) -> Tensor:
    """``Tensor.cumsum(axis=None, dtype=None)``: with no axis, over the flattened tensor.

    Example:
        >>> import mskernel as ms
        >>> print(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]).cumsum())
        [ 1.  3.  6. 10.]
    """
    if axis is None:
        return cumsum(F.reshape(self, (-1,)), 0, dtype)
    return cumsum(self, axis, dtype)


def _running_extreme(better: Callable, prim: str, index: type = np.int64) -> Callable:
    """The forward of cummax/cummin; ``index`` is the indices' dtype (MindSpore 2.10: int64 for Cummax, int32
    for Cummin)."""
    def forward(x: np.ndarray, axis: int) -> tuple:
        ax = _axis(axis, x.ndim, prim)
        if x.ndim == 0:
            return x.copy(), np.zeros((), index)
        xs = np.moveaxis(x, ax, -1)
        vals, idx = np.empty_like(xs), np.empty(xs.shape, np.int64)
        best, at = xs[..., 0].copy(), np.zeros(xs.shape[:-1], np.int64)
        for j in range(xs.shape[-1]):
            take = better(xs[..., j], best) | np.isnan(xs[..., j])
            best = np.where(take, xs[..., j], best)
            at = np.where(take, j, at)
            vals[..., j], idx[..., j] = best, at
        return np.moveaxis(vals, -1, ax), np.moveaxis(idx, -1, ax).astype(index, copy=False)
    return forward


def _running_grad(g: tuple, out: tuple, input: Tensor, axis: int) -> tuple:
    if g[0] is None:
        return (None,)
    if input.ndim == 0:
        return (g[0],)
    grad = np.zeros(input.shape, g[0]._data.dtype)
    ax = int(axis) % input.ndim
    np.add.at(np.moveaxis(grad, ax, -1), _along(out[1]._data, ax), np.moveaxis(g[0]._data, ax, -1))
    return (Tensor._wrap(grad),)


def _along(idx: np.ndarray, ax: int) -> tuple:
    moved = np.moveaxis(idx, ax, -1)
    lead = np.indices(moved.shape)[:-1]
    return (*lead, moved)


OPS: List[Op] = [
    Op("_cumsum", "x, axis, exclusive=False, reverse=False", _scan(np.add, 0, "CumSum"), _cumsum_grad,
       prim="CumSum(exclusive=False, reverse=False)(input, axis) -> input, axis, exclusive, reverse"),
    Op("_cumprod", "x, axis, exclusive=False, reverse=False", _scan(np.multiply, 1, "CumProd"), _cumprod_grad,
       prim="CumProd(exclusive=False, reverse=False)(x, axis) -> x, axis, exclusive, reverse"),
    Op("cumsum", "x, axis, dtype=None", fn=cumsum),
    Op("cumprod", "input, dim, dtype=None", fn=cumprod, method=True),
    Op("cummax", "input, axis", _running_extreme(np.greater_equal, "Cummax"), _running_grad, outputs=2,
       prim="Cummax(axis)(input) -> input, axis", method=True),
    Op("cummin", "input, axis", _running_extreme(np.less_equal, "Cummin", np.int32), _running_grad, outputs=2,
       prim="Cummin(axis)(input) -> input, axis", method=True),
]

METHODS = {"cumsum": _tensor_cumsum}

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "cummax": ("*ops.cummax(ms.Tensor([1.0, 3.0, 2.0, 5.0]), 0)", "[1. 3. 3. 5.] [0 1 1 3]"),
    "cummin": ("*ops.cummin(ms.Tensor([4.0, 3.0, 5.0, 1.0]), 0)", "[4. 3. 3. 1.] [0 1 1 3]"),
    "CumSum": ("ops.CumSum(exclusive=True)(ms.Tensor([1.0, 2.0, 3.0]), 0)", "[0. 1. 3.]"),
    "CumProd": ("ops.CumProd(reverse=True)(ms.Tensor([1.0, 2.0, 3.0]), 0)", "[6. 6. 3.]"),
    "Cummax": ("*ops.Cummax(axis=0)(ms.Tensor([1.0, 3.0, 2.0, 5.0]))", "[1. 3. 3. 5.] [0 1 1 3]"),
    "Cummin": ("*ops.Cummin(axis=0)(ms.Tensor([4.0, 3.0, 5.0, 1.0]))", "[4. 3. 3. 1.] [0 1 1 3]"),
}
