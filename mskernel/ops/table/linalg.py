"""Op table: matrix products and linear algebra.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> a = ms.Tensor([[1.0, 2.0]])
    >>> print(ops.matmul(a, a.T), ops.MatMul(transpose_b=True)(a, a))
    [[5.]] [[5.]]
"""
from __future__ import annotations

from typing import Any, List

from mskernel.ops import math as M
from mskernel.ops import shape as S
from mskernel.ops.opdef import Op


def _matmul_t(x: Any, y: Any, transpose_a: bool, transpose_b: bool) -> Any:
    """``MatMul``/``BatchMatMul``: transpose the last two dimensions first where asked.

    Example:
        >>> import mskernel as ms
        >>> print(_matmul_t(ms.Tensor([[1.0], [2.0]]), ms.Tensor([[3.0], [4.0]]), True, False))
        [[11.]]
    """
    if transpose_a:
        x = S.swapaxes(x, -1, -2)
    if transpose_b:
        y = S.swapaxes(y, -1, -2)
    return M.matmul(x, y)


OPS: List[Op] = [
    Op("matmul", "input, other", fn=M.matmul, inputs=2, method=True, aliases=("mm",)),
    Op("matmul_t", "x, y, transpose_a=False, transpose_b=False", fn=_matmul_t, inputs=2,
       prim=("MatMul(transpose_a=False, transpose_b=False)(x, y) -> x, y, transpose_a, transpose_b",
             "BatchMatMul(transpose_a=False, transpose_b=False)(x, y) -> x, y, transpose_a, transpose_b")),
]
