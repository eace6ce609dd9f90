"""Op table: extremes with their positions — max/min with indices, argmax/argmin, median and the primitives
``ArgMaxWithValue``, ``ArgMinWithValue``, ``Argmax``, ``Argmin``.

MindSpore 2.10's ``ops.max(x, axis)`` returns ``(values, indices)``; its gradient goes to the one position the
index names (with no axis, ``ops.max`` returns the largest value and index 0, and ties share the gradient as
``amax`` does). ``argmax`` gives Int64, ``argmin`` and the ``Argmax``/``Argmin`` primitives Int32 by default.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    >>> values, indices = ops.max(x, 1)
    >>> print(values, indices, ops.argmax(x), ops.argmin(x, 0))
    [5. 6.] [1 2] 5 [0 1 0]
    >>> print(ms.grad(lambda a: ops.min(a, 1)[0].sum())(x))
    [[1. 0. 0.]
     [0. 1. 0.]]
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, List, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _axis(axis: Any, ndim: int, prim: str) -> int:
    n = builtins.max(ndim, 1)
    if isinstance(axis, Tensor):
        axis = int(axis)
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For primitive[{prim}], the 'axis' must be an int, but got {type(axis).__name__}.")
    if not -n <= axis < n:
        raise ValueError(f"For primitive[{prim}], the axis must be in [{-n},{n}), but got {axis}.")
    return int(axis) % n


def _pick(arg: Callable, prim: str) -> Callable:
    """Forward of a (values, indices) op along one axis: ``arg`` picks the index per slice."""
    def forward(x: np.ndarray, axis: Any = 0, keepdims: bool = False) -> tuple:
        ax = _axis(axis, x.ndim, prim)
        if x.ndim == 0:
            return x.copy(), np.zeros((), np.int64)
        if x.shape[ax] == 0:
            raise ValueError(f"For primitive[{prim}], the input is empty along axis {ax}.")
        idx = arg(x, ax)
        val = np.take_along_axis(x, idx, ax)
        if not keepdims:
            idx, val = np.squeeze(idx, ax), np.squeeze(val, ax)
        return val, idx.astype(np.int64)
    return forward


def _argmax(x: np.ndarray, ax: int) -> np.ndarray:
    return np.expand_dims(np.argmax(x, ax), ax)


def _argmin(x: np.ndarray, ax: int) -> np.ndarray:
    return np.expand_dims(np.argmin(x, ax), ax)


def _lower_median(x: np.ndarray, ax: int) -> np.ndarray:
    order = np.argsort(x, axis=ax, kind="stable")
    return np.take(order, [(x.shape[ax] - 1) // 2], axis=ax)


def scatter_to_index(g: Optional[Tensor], input: Tensor, idx: Tensor, axis: Any, keepdims: bool) -> Optional[Tensor]:
    """The gradient of picking ``input``'s elements at ``idx`` along ``axis``: ``g`` at those positions, zero
    elsewhere (differentiable in ``g``).

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> print(scatter_to_index(ms.Tensor([1.0, 2.0]), x, ms.Tensor([1, 0]), 1, False))
        [[0. 1.]
         [2. 0.]]
    """
    if g is None:
        return None
    if input.ndim == 0:
        return g
    ax = int(axis) % input.ndim
    ind = idx._data if keepdims else np.expand_dims(idx._data, ax)
    picked = np.zeros(input.shape, bool)
    np.put_along_axis(picked, ind, True, ax)
    gk = g if keepdims else F.expand_dims(g, ax)
    return F.where(Tensor._wrap(picked), gk, 0.0)  # a select: an inf or NaN in g stays at its index only


def _values_grad(g: tuple, out: tuple, input: Tensor, axis: Any, keepdims: bool) -> tuple:
    return (scatter_to_index(g[0], input, out[1], axis, keepdims),)


def _swapped_grad(g: tuple, out: tuple, input: Tensor, axis: Any, keep_dims: bool) -> tuple:
    return (scatter_to_index(g[1], input, out[0], axis, keep_dims),)


def _swap(forward: Callable) -> Callable:
    def swapped(x: np.ndarray, axis: Any = 0, keep_dims: bool = False) -> tuple:
        val, idx = forward(x, axis, keep_dims)
        return idx, val
    return swapped


def _whole(reduce_name: str, input: Any, keepdims: bool, initial: Any, where: Any) -> tuple:
    x = check_tensor(input, reduce_name, "input")
    if initial is None and where is None:
        val = getattr(F, "amax" if reduce_name == "ReduceMax" else "amin")(x, None, keepdims)
    else:
        fn = np.max if reduce_name == "ReduceMax" else np.min
        kw = {"initial": initial} if initial is not None else {}
        if where is not None:
            kw["where"] = where._data if isinstance(where, Tensor) else np.asarray(where)
        val = Tensor._wrap(np.asarray(fn(x._data, axis=None, keepdims=keepdims, **kw)))
    return val, Tensor._wrap(np.zeros(val.shape, np.int64))


def _masked_pick(reduce: Callable, arg: Callable, input: Any, axis: int, keepdims: bool, initial: Any,
                 where: Any) -> tuple:
    """``ops.max``/``ops.min`` along ``axis`` over the elements ``where`` selects, ``initial`` included: the
    values, and the index of the chosen element (0 where ``initial`` or nothing was chosen). Not differentiable."""
    prim = "ArgMaxWithValue" if reduce is np.max else "ArgMinWithValue"
    x = check_tensor(input, prim, "input")._data
    ax = _axis(axis, x.ndim, prim)
    sel = np.ones(x.shape, bool) if where is None else np.broadcast_to(
        where._data if isinstance(where, Tensor) else np.asarray(where), x.shape)
    kw = {"initial": initial} if initial is not None else {}
    values = reduce(x, axis=ax, keepdims=True, where=sel, **kw)
    worst = np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf
    if reduce is np.min:
        worst = np.iinfo(x.dtype).max if x.dtype.kind in "iu" else np.inf
    idx = np.expand_dims(arg(np.where(sel, x, worst), axis=ax), ax)
    chosen = sel & (x == values)
    idx = np.where(np.take_along_axis(chosen, idx, ax), idx, 0).astype(np.int64)
    if not keepdims:
        values, idx = np.squeeze(values, ax), np.squeeze(idx, ax)
    return Tensor._wrap(np.asarray(values)), Tensor._wrap(idx)


def max(input: Any, axis: Optional[int] = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """MindSpore 2.10's ``ops.max``: ``(values, indices)`` along ``axis``; with no axis the largest value and 0.

    Example:
        >>> import mskernel as ms
        >>> print(max(ms.Tensor([[1.0, 5.0], [3.0, 2.0]]), 0, keepdims=True))
        (Tensor(shape=[1, 2], dtype=Float32, value=
        [[ 3.00000000e+00,  5.00000000e+00]]), Tensor(shape=[1, 2], dtype=Int64, value=
        [[1, 0]]))
    """
    if axis is None:
        return _whole("ReduceMax", input, keepdims, initial, where)
    if initial is not None or where is not None:
        return _masked_pick(np.max, np.argmax, input, axis, keepdims, initial, where)
    return F._max_with_indices(input, axis, keepdims)


def min(input: Any, axis: Optional[int] = None, keepdims: bool = False, *, initial: Any = None,
        where: Any = None) -> tuple:
    """MindSpore 2.10's ``ops.min``: ``(values, indices)`` along ``axis``; with no axis the smallest value and 0.

    Example:
        >>> import mskernel as ms
        >>> print(min(ms.Tensor([3.0, -1.0, 2.0]), 0)[1])
        1
    """
    if axis is None:
        return _whole("ReduceMin", input, keepdims, initial, where)
    if initial is not None or where is not None:
        return _masked_pick(np.min, np.argmin, input, axis, keepdims, initial, where)
    return F._min_with_indices(input, axis, keepdims)


def _arg(np_arg: Callable, prim: str, out_dtype: Any) -> Callable:
    def forward(x: np.ndarray, axis: Any = None, keepdims: bool = False) -> np.ndarray:
        keepdims = bool(keepdims)
        if axis is None:
            return np.asarray(np_arg(x), out_dtype)
        ax = _axis(axis, x.ndim, prim)
        if x.ndim == 0:
            return np.zeros((), out_dtype)
        return np.asarray(np_arg(x, ax, keepdims=keepdims), out_dtype)
    return forward


def _typed_arg(np_arg: Callable, prim: str) -> Callable:
    def forward(x: np.ndarray, axis: int = -1, output_type: Any = mstype.int32) -> np.ndarray:
        return _arg(np_arg, prim, mstype.to_dtype(output_type).np)(x, axis, False)
    return forward


OPS: List[Op] = [
    Op("_max_with_indices", "input, axis=0, keepdims=False", _pick(_argmax, "ArgMaxWithValue"), _values_grad,
       outputs=2, label="ArgMaxWithValue"),
    Op("_min_with_indices", "input, axis=0, keepdims=False", _pick(_argmin, "ArgMinWithValue"), _values_grad,
       outputs=2, label="ArgMinWithValue"),
    Op("max", "input, axis=None, keepdims=False, *, initial=None, where=None", fn=max),
    Op("min", "input, axis=None, keepdims=False, *, initial=None, where=None", fn=min),
    Op("_argmax_with_value", "input, axis=0, keep_dims=False", _swap(_pick(_argmax, "ArgMaxWithValue")),
       _swapped_grad, outputs=2, prim="ArgMaxWithValue(axis=0, keep_dims=False)(x) -> x, axis, keep_dims"),
    Op("_argmin_with_value", "input, axis=0, keep_dims=False", _swap(_pick(_argmin, "ArgMinWithValue")),
       _swapped_grad, outputs=2, prim="ArgMinWithValue(axis=0, keep_dims=False)(x) -> x, axis, keep_dims"),
    Op("argmax", "input, dim=None, keepdim=False",
       lambda x, dim=None, keepdim=False: _arg(np.argmax, "Argmax", np.int64)(x, dim, keepdim), method=True),
    Op("argmin", "input, axis=None, keepdims=False", _arg(np.argmin, "Argmin", np.int32), method=True),
    Op("_argmax_typed", "input, axis=-1, output_type=mindspore.int32", _typed_arg(np.argmax, "Argmax"),
       prim="Argmax(axis=-1, output_type=mindspore.int32)(input_x) -> input_x, axis, output_type"),
    Op("_argmin_typed", "input, axis=-1, output_type=mindspore.int32", _typed_arg(np.argmin, "Argmin"),
       prim="Argmin(axis=-1, output_type=mindspore.int32)(input_x) -> input_x, axis, output_type"),
    Op("median", "input, axis=-1, keepdims=False", _pick(_lower_median, "Median"), _values_grad, outputs=2,
       method=True),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "argmax": ("ops.argmax(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]), dim=1)", "[1 0]"),
    "argmin": ("ops.argmin(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]), axis=1)", "[0 1]"),
    "median": ("*ops.median(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))", "[2. 3.] [2 2]"),
    "ArgMaxWithValue": ("*ops.ArgMaxWithValue(axis=1)(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))", "[1 0] [5. 7.]"),
    "ArgMinWithValue": ("*ops.ArgMinWithValue()(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))", "[0 1 0] [1. 0. 2.]"),
    "Argmax": ("ops.Argmax()(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))", "[1 0]"),
    "Argmin": ("ops.Argmin(axis=0)(ms.Tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]))", "[0 1 0]"),
}
