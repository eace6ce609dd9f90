"""Op table: tensors made from shapes and values (no gradient flows into them).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.zeros((2,)), ops.ones_like(ms.Tensor([[1, 2]])), ops.fill(ms.float32, (2,), 3))
    [0. 0.] [[1 1]] [3. 3.]
"""
from __future__ import annotations

from typing import List

from mskernel.ops import shape as S
from mskernel.ops.opdef import Op

OPS: List[Op] = [
    Op("zeros", "size, dtype=None", fn=S.zeros, inputs=0, prim="Zeros()(size, dtype) -> size, dtype"),
    Op("ones", "shape, dtype=None", fn=S.ones, inputs=0, prim="Ones()(shape, dtype) -> shape, dtype"),
    Op("zeros_like", "input, *, dtype=None", fn=S.zeros_like, prim="ZerosLike"),
    Op("ones_like", "input, *, dtype=None", fn=S.ones_like, prim="OnesLike"),
    Op("fill", "type, shape, value", fn=S.fill, inputs=0, prim="Fill"),
]
