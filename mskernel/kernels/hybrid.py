"""func_type "hybrid" and "akg": the kernel DSL, compiled to native code by :mod:`mskernel.hybrid`.

The compiler is imported only when a hybrid op is built.

Example:
    >>> HybridAdapter.func_name
    '?'
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from mskernel.kernels.base import CustomKernel, OutSpec

__all__ = ["HybridAdapter"]


class HybridAdapter(CustomKernel):
    """func_type "hybrid"/"akg": the DSL compiled to native code by :mod:`mskernel.hybrid`."""

    def __init__(self, func: Callable, func_name: str, debug: Optional[bool]) -> None:
        from mskernel.hybrid import HybridKernel  # the compiler is only imported when a hybrid op is built
        self.kernel = HybridKernel.from_function(func, debug=debug)
        self.func_name = func_name

    def infer(self, shapes, dtypes, attrs):
        return [OutSpec(tuple(s), np.dtype(d)) for s, d in self.kernel.infer(shapes, dtypes, attrs)]

    def run(self, inputs, attrs, out_specs):
        return self.kernel.run(inputs, attrs)  # a tuple of fresh (or in-place input) arrays

    @classmethod
    def from_op(cls, op: Any) -> "HybridAdapter":
        """The kernel of an ``ops.Custom(func, ..., func_type="hybrid")`` op."""
        return cls(op.func, op.func_name, op.debug)
