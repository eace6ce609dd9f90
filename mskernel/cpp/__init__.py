"""Python support for mskernel's C++ extension headers (``mskernel/include``), one module per concern.

The headers keep C++ compile times low by leaving everything that is not per-op arithmetic to
Python: allocating numpy buffers for C++ tensors (:mod:`.buffers`), ``ms::Tensor``'s reshaping and
casting methods (:mod:`.tensor_methods`), putting a C++ ``Function<T>::Apply`` into mskernel's one
autograd graph (:mod:`.function`) and the CPU implementations behind ``custom::CustomLaunchAclnn``
(:mod:`.aclnn`). Only the per-call numpy work -- a new tensor's array, an argument's layout -- is done
in C, by :mod:`.arrays` (an extension built once, on first use), since the headers include no numpy; the
per-call steps the headers share with the autograd engine (a Tensor's fields, ``Tensor._wrap``, grad mode)
are the engine core's own, called through its C API (``mskernel/include/mskernel/engine_api.h``).
``mskernel/include/mskernel/bridge.h`` imports this package by name and looks the functions below up
as its attributes, so every name the C++ side calls is re-exported here.

Nothing here is needed from Python code; it is public so that the C++ side has a stable place to
call, and so that :data:`ACLNN_OPS` can be inspected.

Example:
    >>> import numpy as np
    >>> from mskernel import cpp
    >>> x, y = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)
    >>> out = cpp.empty((2,), "float32")
    >>> cpp.launch_aclnn("aclnnMul", [x, y], [out])
    >>> out
    array([3., 8.], dtype=float32)
    >>> "aclnnMatmul" in cpp.ACLNN_OPS
    True
"""
from mskernel.autograd.node import STATE
from mskernel.cpp.aclnn import ACLNN_OPS, launch_aclnn
from mskernel.cpp.arrays import array_api
from mskernel.cpp.buffers import copy_into, empty, from_values, full, ones, wrap, zeros
from mskernel.cpp.function import SecondOrderError, record_function
from mskernel.cpp.tensor_methods import (cast, chunk, contiguous, flatten, index_select, repeat, repeat_interleave,
                                         reshape)
from mskernel.common.tensor import Tensor
from mskernel.common.tensor import array_storage_offset as storage_offset

__all__ = ["STATE", "Tensor", "wrap", "empty", "zeros", "ones", "full", "from_values", "storage_offset",
           "copy_into", "contiguous", "cast", "reshape", "flatten", "chunk", "repeat", "index_select",
           "repeat_interleave", "record_function", "launch_aclnn", "ACLNN_OPS", "SecondOrderError", "array_api"]
