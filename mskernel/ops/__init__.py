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
from mskernel.ops.functional import *  # noqa: F401,F403
from mskernel.ops.operations import *  # noqa: F401,F403
from mskernel.ops.composite import *  # noqa: F401,F403  (GradOperation, grad transforms, HyperMap, ...)
from mskernel.ops.sparse import *  # noqa: F401,F403  (coo_*, csr_* and the other sparse-tensor functions)
from mskernel.ops.op_info import CustomRegOp, DataType, custom_info_register
from mskernel.ops.graph_syntax import *  # noqa: F401,F403  (tuple_getitem, scalar_add, make_range, ...)
from mskernel.ops.graph_prims import *  # noqa: F401,F403  (ForiLoop, constexpr, prim_attr_register, ...)
from mskernel.ops.graph_internal import *  # noqa: F401,F403  (tail, ms_next, environ_*, _Grad, pows, ...)
from mskernel.ops import arg_dtype_cast, arg_handler, cpp_create_prim_instance_helper, signature  # noqa: F401
from mskernel.ops.vm_impl import get_vm_impl_fn, vm_impl_registry  # noqa: F401
from mskernel.ops.reg_ops import (AiCPURegOp, AkgAscendRegOp, AkgGpuRegOp, CpuRegOp, TBERegOp,  # noqa: F401
                                  op_info_register)
from mskernel.ops.condition import cond  # noqa: F401
from mskernel.ops.taylor import derivative, jet  # noqa: F401
from mskernel.autograd.api import get_grad  # noqa: F401
from mskernel.common.tensor import is_tensor  # noqa: F401
from mskernel.communication.p2p import P2POp  # noqa: F401  (a description; batch_isend_irecv is refused)
from mskernel.ops.table.comm import ReduceOp  # noqa: F401
from mskernel.ops.reshard import Reshard, reshard  # noqa: F401
from mskernel.refusals import refused_names as _refused_names
from mskernel.ops import internal_paths as _internal_paths
import sys as _sys

globals().update(_refused_names("mindspore.ops"))  # refused with their reason (mskernel.refusals)
P = operations  # MindSpore's own alias of the primitives' module
_internal_paths.install(_sys.modules[__name__])  # ops.function.math_func, ops.auto_generate, ... as facades

_LAZY = {"kernel": "mskernel.hybrid", "ms_kernel": "mskernel.hybrid", "CustomOpBuilder": "mskernel.toolchain"}
# the collective-communication functions, as mint.distributed has them (ops.gather and ops.scatter keep their own
# meaning here; ops.reduce is the collective, as in MindSpore: the reductions' module is ops.reductions)
_LAZY.update({n: "mskernel.mint.distributed" for n in (
    "set_comm_ops_inplace",
    "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_gather_object", "all_reduce",
    "all_to_all", "all_to_all_single", "barrier", "broadcast", "broadcast_object_list", "destroy_process_group",
    "gather_object", "get_backend", "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
    "get_world_size", "init_process_group", "is_available", "is_initialized", "new_group", "reduce_scatter",
    "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "scatter_object_list", "reduce",
    "gather_into_tensor", "scatter_tensor", "all_to_all_v_c")})
_LAZY["TCPStore"] = "mskernel.communication.tcp_store"


def __getattr__(name: str):
    """Names from the hybrid compiler and the build layer, imported on first use."""
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mskernel.ops' has no attribute {name!r}")
