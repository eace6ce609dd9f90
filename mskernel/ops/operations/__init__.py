"""``mindspore.ops.operations`` (imported as ``P``): the primitive classes of the op table, and ``Custom``.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import operations as P
    >>> print(P.Mul()(ms.Tensor([2.0]), ms.Tensor([3.0])), P.ReduceSum(keep_dims=True)(ms.Tensor([1.0, 2.0])))
    [6.] [3.]
"""
from mskernel.ops.custom import Custom
from mskernel.ops.primitive import Primitive, PrimitiveWithInfer
from mskernel.ops.registry import PRIMITIVES

globals().update(PRIMITIVES)

__all__ = sorted(PRIMITIVES) + ["Custom", "Primitive", "PrimitiveWithInfer"]
