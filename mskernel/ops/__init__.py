"""Built-in ops (functional and as MindSpore primitive classes).

Every op is defined once, with its backward rule written in ops, and recorded through the one
autograd engine.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([1.0, 2.0])
    >>> print(ops.mul(x, x), ops.Mul()(x, x))
    [1. 4.] [1. 4.]
"""
from mskernel.autograd.api import GradOperation
from mskernel.ops.math import (abs, add, cos, div, equal, exp, greater, greater_equal, less, less_equal, log,
                               logical_not, matmul, maximum, minimum, mul, neg, not_equal, pow, relu, sigmoid, sign,
                               sin, sqrt, square, sub, tanh, where)
from mskernel.ops.primitives import (Abs, Add, BatchMatMul, BroadcastTo, Cast, Concat, Cos, Div, Equal, Exp,
                                     ExpandDims, Fill, Greater, Identity, Less, Log, MatMul, Maximum, Minimum, Mul,
                                     Neg, OnesLike, Pow, Primitive, PrimitiveWithInfer, RealDiv, ReduceMax,
                                     ReduceMean, ReduceMin, ReduceSum, ReLU, Reshape, Select, Sigmoid, Sin, Sqrt,
                                     Square, Squeeze, Stack, StopGradient, Sub, Tanh, Transpose, ZerosLike)
from mskernel.ops.reduce import amax, amin, mean, reduce_max, reduce_mean, reduce_min, reduce_sum, sum
from mskernel.ops.shape import (broadcast_to, cast, cat, concat, expand_dims, fill, flatten, getitem, identity,
                                ones, ones_like, reshape, squeeze, stack, stop_gradient, sum_to, swapaxes,
                                transpose, zeros, zeros_like)

from mskernel.ops.custom import Custom
from mskernel.ops.op_info import CustomRegOp, DataType, custom_info_register

_LAZY = {"kernel": "mskernel.hybrid", "ms_kernel": "mskernel.hybrid", "CustomOpBuilder": "mskernel.toolchain"}


def __getattr__(name: str):
    """Names from the hybrid compiler and the build layer, imported on first use."""
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mskernel.ops' has no attribute {name!r}")

max = amax
min = amin
permute = transpose
select = where
mm = matmul
multiply = mul
subtract = sub
negative = neg
