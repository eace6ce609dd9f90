"""MindSpore's ops: functional ops, primitive classes and ``ops.Custom``.

Every built-in op is one entry of the op table (:mod:`mskernel.ops.table`), with its backward rule
written in ops; :mod:`mskernel.ops.registry` builds the functional op, the primitive class and the
Tensor method from it, and every call is recorded through the one autograd engine.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([1.0, 2.0])
    >>> print(ops.mul(x, x), ops.Mul()(x, x), x.mul(x))
    [1. 4.] [1. 4.] [1. 4.]
"""
from mskernel.ops import functional, operations
from mskernel.ops import function  # noqa: F401  (ops.function.random_func, as MindSpore's docs reach it)
from mskernel.ops.functional import *  # noqa: F401,F403
from mskernel.ops.operations import *  # noqa: F401,F403
from mskernel.ops.composite import *  # noqa: F401,F403  (GradOperation, grad transforms, HyperMap, ...)
from mskernel.ops.sparse import *  # noqa: F401,F403  (coo_*, csr_* and the other sparse-tensor functions)
from mskernel.ops.op_info import CustomRegOp, DataType, custom_info_register
from mskernel.ops.primitive import prim_attr_register
from mskernel.refusals import refused_names as _refused_names

globals().update(_refused_names("mindspore.ops"))  # refused with their reason (mskernel.refusals)

_LAZY = {"kernel": "mskernel.hybrid", "ms_kernel": "mskernel.hybrid", "CustomOpBuilder": "mskernel.toolchain"}


def __getattr__(name: str):
    """Names from the hybrid compiler and the build layer, imported on first use."""
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mskernel.ops' has no attribute {name!r}")
