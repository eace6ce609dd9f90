"""Op table: reductions.

Axis arguments take None (all), an int or a tuple, negative axes included; ``keep_dims``/``keepdims``
as MindSpore spells each op's.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 5.0], [3.0, 2.0]])
    >>> print(ops.sum(x, 1), ops.ReduceMean(keep_dims=True)(x, 0), x.sum())
    [6. 5.] [[2.  3.5]] 11.0
"""
from __future__ import annotations

from typing import Any, Callable, List

from mskernel.common.tensor import Tensor
from mskernel.ops import reductions as R
from mskernel.ops.opdef import F, Op


def _masked_extreme(op: str, reduce: Callable, pick: Callable, input: Any, axis: Any, keepdims: bool, initial: Any,
                    where: Any) -> Tensor:
    """``reduce`` over the elements ``where`` selects (all when None), ``initial`` taking part as one more value."""
    if where is not None:
        if initial is None:
            raise ValueError(f"For '{op}', 'initial' must be given with 'where' (a masked-out row needs a value), "
                             "but got initial=None")
        input = F.where(where, input, F.full_like(input, initial))
    out = reduce(input, axis, keepdims)
    return out if initial is None else pick(out, F.full_like(out, initial))


def _amax(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
    """Maximum over ``axis`` (all when None) of the elements ``where`` selects, at least ``initial``; ties share
    the gradient.

    Example:
        >>> import mskernel as ms
        >>> x = ms.Tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> print(_amax(x, 1), _amax(x, 1, initial=4.0, where=ms.Tensor([[True, False], [True, True]])))
        [5. 3.] [4. 4.]
    """
    return _masked_extreme("amax", R.amax, F.maximum, input, axis, keepdims, initial, where)


def _amin(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Tensor:
    """Minimum over ``axis`` (all when None) of the elements ``where`` selects, at most ``initial``; ties share
    the gradient.

    Example:
        >>> import mskernel as ms
        >>> print(_amin(ms.Tensor([1.0, -5.0]), initial=-7.0))
        -7.0
    """
    return _masked_extreme("amin", R.amin, F.minimum, input, axis, keepdims, initial, where)

OPS: List[Op] = [
    Op("sum", "input, dim=None, keepdim=False, *, dtype=None", fn=R.sum,
       prim="ReduceSum(keep_dims=False, skip_mode=False)(x, axis=()) -> x, axis, keep_dims"),
    Op("reduce_sum", "x, axis=(), keep_dims=False", fn=R.reduce_sum),
    Op("mean", "x, axis=None, keep_dims=False", fn=R.mean,
       prim="ReduceMean(keep_dims=False)(x, axis=()) -> x, axis, keep_dims", method=True),
    Op("reduce_mean", "x, axis=(), keep_dims=False", fn=R.reduce_mean),
    Op("amax", "input, axis=None, keepdims=False, *, initial=None, where=None", fn=_amax,
       prim="ReduceMax(keep_dims=False)(x, axis=()) -> x, axis, keep_dims", method=True),
    Op("amin", "input, axis=None, keepdims=False, *, initial=None, where=None", fn=_amin,
       prim="ReduceMin(keep_dims=False)(x, axis=()) -> x, axis, keep_dims", method=True),
    Op("reduce_max", "x, axis=(), keep_dims=False", fn=R.reduce_max),
    Op("reduce_min", "x, axis=(), keep_dims=False", fn=R.reduce_min),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "reduce_mean": ("ops.reduce_mean(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]), 1)", "[1.5 4.5]"),
    "reduce_max": ("ops.reduce_max(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]), 1, keep_dims=True)", "[[2.]\n [6.]]"),
    "reduce_min": ("ops.reduce_min(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]))", "1.0"),
    "ReduceSum": ("ops.ReduceSum(keep_dims=True)(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]), 1)", "[[3.]\n [9.]]"),
    "ReduceMean": ("ops.ReduceMean()(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]), 0)", "[2. 4.]"),
    "ReduceMax": ("ops.ReduceMax()(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]), 1)", "[2. 6.]"),
    "ReduceMin": ("ops.ReduceMin()(ms.Tensor([[1.0, 2.0], [3.0, 6.0]]))", "1.0"),
}
