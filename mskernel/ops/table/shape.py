"""Op table: shape, layout and dtype ops (views stay views).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0]])
    >>> ops.transpose(x, (1, 0)).shape, ops.Reshape()(x, (3,)).shape, x.expand_dims(0).shape
    ((3, 1), (3,), (1, 1, 3))
"""
from __future__ import annotations

from typing import List

from mskernel.ops import shape as S
from mskernel.ops.opdef import Op

OPS: List[Op] = [
    Op("reshape", "input, shape", fn=S.reshape, prim="Reshape"),
    Op("transpose", "input, input_perm", fn=S.transpose, prim="Transpose", aliases=("permute",)),
    Op("swapaxes", "input, axis0, axis1", fn=S.swapaxes, method=True, aliases=("swapdims",)),
    Op("broadcast_to", "input, shape", fn=S.broadcast_to, prim="BroadcastTo(shape)(x) -> x, shape", method=True),
    Op("expand_dims", "input_x, axis", fn=S.expand_dims, prim="ExpandDims", method=True),
    Op("squeeze", "input, axis=None", fn=S.squeeze, prim="Squeeze(axis=())(x) -> x, axis if axis != () else None",
       method=True),
    Op("flatten", "input, order='C', *, start_dim=1, end_dim=-1", fn=S.flatten),
    Op("concat", "tensors, axis=0", fn=S.concat, prim="Concat(axis=0)(x) -> x, axis", aliases=("cat",)),
    Op("stack", "tensors, axis=0", fn=S.stack, prim="Stack(axis=0)(x) -> x, axis"),
    Op("cast", "input, dtype", fn=S.cast, prim="Cast"),
    Op("identity", "input, copy=False", fn=S.identity, prim="Identity"),
    Op("stop_gradient", "value", fn=S.stop_gradient, prim="StopGradient"),
    Op("getitem", "input, index", fn=S.getitem),
    Op("sum_to", "input, shape", fn=S.sum_to),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "Reshape": ("ops.Reshape()(ms.Tensor([1, 2, 3, 4]), (2, 2))", "[[1 2]\n [3 4]]"),
    "Transpose": ("ops.Transpose()(ms.Tensor([[1, 2, 3]]), (1, 0))", "[[1]\n [2]\n [3]]"),
    "BroadcastTo": ("ops.BroadcastTo((2, 3))(ms.Tensor([1, 2, 3]))", "[[1 2 3]\n [1 2 3]]"),
    "ExpandDims": ("ops.ExpandDims()(ms.Tensor([1, 2]), 0).shape", "(1, 2)"),
    "Squeeze": ("ops.Squeeze(0)(ms.Tensor([[1, 2]])).shape", "(2,)"),
    "Concat": ("ops.Concat(axis=1)((ms.Tensor([[1, 2]]), ms.Tensor([[3]])))", "[[1 2 3]]"),
    "Stack": ("ops.Stack(axis=1)((ms.Tensor([1, 2]), ms.Tensor([3, 4])))", "[[1 3]\n [2 4]]"),
    "Cast": ("ops.Cast()(ms.Tensor([1.7, -1.7]), ms.int32)", "[ 1 -1]"),
    "Identity": ("ops.Identity()(ms.Tensor([1.0, 2.0]))", "[1. 2.]"),
    "StopGradient": ("ms.grad(lambda x: (x * ops.StopGradient()(x)).sum())(ms.Tensor([3.0]))", "[3.]"),
}
