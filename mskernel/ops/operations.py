"""``mindspore.ops.operations`` (imported as ``P``): the primitive classes and ``Custom``.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import operations as P
    >>> print(P.Mul()(ms.Tensor([2.0]), ms.Tensor([3.0])))
    [6.]
"""
from mskernel.ops.custom import Custom
from mskernel.ops.primitives import *  # noqa: F401,F403
from mskernel.ops.primitives import __all__ as _prims

__all__ = list(_prims) + ["Custom"]
