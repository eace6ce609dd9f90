"""The func_types of ``ops.Custom``: which kernel kind runs each, and what ``func`` each accepts.

MindSpore names seven func_types; four run on the CPU here, each through a kernel kind of
:mod:`mskernel.kernels` entered in the table ``KINDS`` below, one line each
(:func:`mskernel.kernels.register_func_type` adds more); "tbe", "aicpu" and "julia" are refused with the
reason. :func:`check_func` holds a construction's ``func`` to its func_type: a "file:function" string for
"aot" (or an aclnn operator name), a ``@kernel`` function for "hybrid", a function for the others.

Example:
    >>> check_func("hybrid", lambda x: x, "For 'Custom'")
    Traceback (most recent call last):
    ...
    TypeError: For 'Custom', 'func' must be a function decorated by kernel (add @kernel from mskernel.ops, or use func_type='akg', which also accepts undecorated functions)
"""  # noqa: E501
from __future__ import annotations

import logging
from typing import Any

from mskernel.kernels import KINDS, UnsupportedFuncTypeError
from mskernel.kernels.aot import aot_kernel
from mskernel.kernels.hybrid import HybridAdapter
from mskernel.kernels.pyfunc import PyFuncKernel

__all__ = ["FUNC_TYPES", "check_func"]

log = logging.getLogger("mskernel.ops")

FUNC_TYPES = ["hybrid", "akg", "tbe", "aot", "pyfunc", "julia", "aicpu"]

# The kernel kind of each func_type that runs on the CPU, one rule per line (kernels.register_func_type adds more).
KINDS.update({
    "pyfunc": PyFuncKernel.from_op,
    "hybrid": HybridAdapter.from_op,
    "akg": HybridAdapter.from_op,
    "aot": aot_kernel,
})


def check_func(func_type: str, func: Any, prefix: str) -> None:
    """Refuse a func_type that does not exist or cannot run here, and a ``func`` its func_type does not take;
    warn where MindSpore warns (a ``@kernel`` function given to "akg" or "pyfunc").

    Example:
        >>> check_func("aot", "lib.so:add", "For 'Custom'")
        >>> check_func("tbe", "add", "For 'Custom'")
        Traceback (most recent call last):
        ...
        mskernel.kernels.base.UnsupportedFuncTypeError: For 'Custom', func_type 'tbe' cannot run here (it needs an Ascend device); mskernel runs 'pyfunc', 'hybrid', 'akg' and 'aot' kernels on the CPU.
    """  # noqa: E501
    if func_type not in FUNC_TYPES:
        raise ValueError(f"{prefix}, 'func_type' must be one of {FUNC_TYPES}, but got {func_type}")
    if func_type in ("tbe", "aicpu", "julia"):
        raise UnsupportedFuncTypeError(
            f"{prefix}, func_type '{func_type}' cannot run here (it needs "
            f"{'a Julia runtime' if func_type == 'julia' else 'an Ascend device'}); mskernel runs 'pyfunc', "
            f"'hybrid', 'akg' and 'aot' kernels on the CPU.")
    if func_type == "aot":
        if not isinstance(func, str):
            raise TypeError(f"{prefix}, 'func' must be of type str, but got {type(func)}")
        if ":" not in func and func.startswith("aclnn"):
            return  # an Ascend operator registered by its aclnn name: constructs (kernels/aclnn_op.py)
        if func.count(":") != 1:
            raise TypeError(f"{prefix}, 'func' should be like 'file_name:func_name', but got {func}")
        return
    if not callable(func):
        raise TypeError(f"For 'Custom', 'func' must be of type function or str, but got {type(func)}")
    decorated = getattr(func, "ms_kernel_flag", False)
    if func_type == "hybrid" and not decorated:
        raise TypeError(f"{prefix}, 'func' must be a function decorated by kernel (add @kernel from mskernel.ops, "
                        f"or use func_type='akg', which also accepts undecorated functions)")
    if func_type == "akg" and decorated:
        log.warning("%s, 'func' is decorated by @kernel: consider func_type 'hybrid'.", prefix)
    if func_type == "pyfunc" and decorated:
        log.warning("%s, Now you are using the function with decorator @kernel in the mode pyfunc. The kernel "
                    "will be executed as a native python function, which might lead to low efficiency. To "
                    "accelerate the kernel, set the 'func_type' to be \"hybrid\"", prefix)
