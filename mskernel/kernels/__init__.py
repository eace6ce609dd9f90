"""The kernel kinds behind ``ops.Custom``: one module per func_type over one interface (:mod:`.base`).

``pyfunc`` (Python on numpy arrays), ``hybrid``/``akg`` (the kernel DSL, compiled by
:mod:`mskernel.hybrid`) and ``aot`` (MindSpore's C ABI kernels, with ``aot_runtime.cpp``). The
table from func_type to kind is in :mod:`mskernel.ops.custom.kinds`.

Example:
    >>> from mskernel.kernels import CustomKernel, OutSpec
    >>> OutSpec((2,), "float32").shape
    (2,)
"""
from mskernel.kernels.base import (KINDS, CustomKernel, OutSpec, UnsupportedFuncTypeError, make_kernel,
                                   register_func_type)

__all__ = ["KINDS", "CustomKernel", "OutSpec", "UnsupportedFuncTypeError", "make_kernel", "register_func_type"]
