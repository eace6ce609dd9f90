"""func_type "hybrid" and "akg": the kernel DSL, compiled to native code by :mod:`mskernel.hybrid`.

The compiler is imported only when a hybrid op is built. A hybrid op without a bprop gets its
backward from :mod:`mskernel.hybrid.autodiff`: a backward kernel derived from the DSL, run as
another ``ops.Custom`` (so it is itself differentiable: higher-order gradients work).

Example:
    >>> HybridAdapter.func_name
    '?'
"""
from __future__ import annotations

import linecache
from typing import Any, Callable, Optional, Sequence

import numpy as np

from mskernel.kernels.base import CustomKernel, OutSpec

__all__ = ["HybridAdapter"]


class HybridAdapter(CustomKernel):
    """func_type "hybrid"/"akg": the DSL compiled to native code by :mod:`mskernel.hybrid`."""

    def __init__(self, func: Callable, func_name: str, debug: Optional[bool], akg: bool = False) -> None:
        from mskernel.hybrid import HybridKernel  # the compiler is only imported when a hybrid op is built
        self.kernel = HybridKernel.from_function(func, debug=debug, akg=akg)
        self.func_name = func_name
        self.debug = debug
        self._backward_ops: dict[Any, tuple[Any, Any]] = {}

    def infer(self, shapes, dtypes, attrs):
        return [OutSpec(tuple(s), np.dtype(d)) for s, d in self.kernel.infer(shapes, dtypes, attrs)]

    def run(self, inputs, attrs, out_specs):
        return self.kernel.run(inputs, attrs)  # a tuple of fresh (or in-place input) arrays

    @classmethod
    def from_op(cls, op: Any) -> "HybridAdapter":
        """The kernel of an ``ops.Custom(func, ..., func_type="hybrid")`` op."""
        akg = op.func_type == "akg" and not getattr(op.func, "ms_kernel_flag", False)  # handed to akg as-is
        return cls(op.func, op.func_name, op.debug, akg=akg)

    # ------------------------------------------------------------------ automatic backward
    def backward_for(self, arrays: Sequence[Any], attrs: Sequence[Any]) -> tuple[Any, Any]:
        """``(backward ops.Custom or None, BackwardSource)`` for inputs like ``arrays`` and ``attrs``."""
        from mskernel.hybrid.autodiff import backward_kernel
        from mskernel.hybrid.runner import plain_attr

        attrs = [plain_attr(a) for a in attrs]
        sig = self.kernel.signature([a.dtype for a in arrays], [np.ndim(a) for a in arrays], attrs, debug=False)
        key = (sig.dtypes, sig.ranks, sig.attr_types)
        if key not in self._backward_ops:
            _, src = backward_kernel(self.kernel, sig)
            self._backward_ops[key] = (_custom_from_source(src.source, src.name, self.debug), src)
        return self._backward_ops[key]

    def auto_backward(self, tensors: Sequence[Any], attrs: Sequence[Any], douts: Sequence[Any],
                      outs: Sequence[Any]) -> list[Optional[Any]]:
        """One gradient (or None) per tensor input, from the derived backward kernel."""
        from mskernel.common.tensor import Tensor

        op, src = self.backward_for([t._data for t in tensors], attrs)
        if op is None:
            return [None] * len(tensors)
        returns, params = self.kernel.ir.returns, self.kernel.ir.params
        out_params = [o for o, r in zip(outs, returns) if r not in params]
        ds = []
        for d, o in zip(douts, outs):
            if d is None:
                d = Tensor._wrap(np.zeros(o.shape, o._data.dtype))
            elif d._data.dtype != o._data.dtype:
                d = d.astype(o.dtype)
            ds.append(d)
        res = op(*tensors, *out_params, *ds, *attrs)
        res = res if isinstance(res, tuple) else (res,)
        return [None if k is None else res[k] for k in src.grads]


def _custom_from_source(source: str, name: str, debug: Optional[bool]) -> Any:
    """An ``ops.Custom(func_type="akg")`` over generated DSL text (its source readable by inspect)."""
    if not source:
        return None
    from mskernel.hybrid.intrinsics import RUNTIME_NAMES
    from mskernel.ops.custom import Custom

    filename = f"<mskernel backward {name} {abs(hash(source)):x}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = dict(RUNTIME_NAMES)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - code we generated
    return Custom(namespace[name], func_type="akg", debug=debug)
