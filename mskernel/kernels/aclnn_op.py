"""func_type "aot" named by an aclnn API alone (``Custom("aclnnAddCustom", ..., func_type="aot")``).

In MindSpore such an op is an Ascend operator registered by name (no ``file:func``); it
constructs anywhere and runs on an Ascend device. Here it constructs the same way; a call runs
the CPU version of that aclnn API when mskernel has one (:data:`mskernel.cpp.aclnn.ACLNN_OPS`:
``aclnnAdd``, ``aclnnMul``, ``aclnnMatmul``, ...) and otherwise raises a clear error naming the op.
Output shapes and dtypes come from ``out_shape``/``out_dtype``.

Example:
    >>> import mskernel as ms
    >>> add = ms.ops.Custom("aclnnAdd", lambda x, y: x, lambda x, y: x, func_type="aot")
    >>> print(add(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))
    [4. 6.]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.kernels.base import CustomKernel, OutSpec

__all__ = ["AclnnOpKernel"]


class AclnnOpKernel(CustomKernel):
    """An aot op named by an aclnn API: its CPU version, or a clear error at call time."""

    def __init__(self, op: Any) -> None:
        self.op = op
        self.func_name = op.func

    def run(self, inputs: List[np.ndarray], attrs: List[Any], out_specs: List[OutSpec]) -> List[np.ndarray]:
        from mskernel.cpp.aclnn import ACLNN_OPS, launch_aclnn

        if self.op.func not in ACLNN_OPS:
            raise RuntimeError(f"{self.op.log_prefix}, '{self.op.func}' is an aclnn operator registered for Ascend "
                               f"(func_type 'aot' with no 'file:func'); it runs on an Ascend device, and mskernel has "
                               f"no CPU version of it. CPU versions exist for: {', '.join(sorted(ACLNN_OPS))}. To run "
                               f"it here, give a CPU kernel as 'file.cc:Func' or use func_type 'pyfunc'.")
        outs = [np.empty(s.shape, s.dtype) for s in out_specs]
        launch_aclnn(self.op.func, [*inputs, *attrs], outs)
        return outs
