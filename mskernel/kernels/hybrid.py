"""func_type "hybrid" and "akg": the kernel DSL, compiled to native code by :mod:`mskernel.hybrid`.

The compiler is imported only when a hybrid op is built. A hybrid op without a bprop gets its
backward from :mod:`mskernel.hybrid.autodiff`: a backward kernel derived from the DSL, run as
another op of the same class as the forward (``ops.Custom``, passed in by :meth:`HybridAdapter.from_op`:
this layer sits below the ops), so it is itself differentiable: higher-order gradients work. The
derived backward is kept once per signature, here; its op runs the very kernel derived (its
function is attached to it), so the backward's text is not parsed again.

Example:
    >>> HybridAdapter.func_name
    '?'
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.kernels.base import CustomKernel, OutSpec

__all__ = ["HybridAdapter"]


class HybridAdapter(CustomKernel):
    """func_type "hybrid"/"akg": the DSL compiled to native code by :mod:`mskernel.hybrid`.

    ``make_op(func, func_type=, debug=)`` builds the op that runs a derived backward kernel (the
    forward op's own class).
    """

    def __init__(self, func: Callable, func_name: str, debug: Optional[bool], akg: bool = False, *,
                 make_op: Callable[..., Any]) -> None:
        from mskernel.hybrid import HybridKernel  # the compiler is only imported when a hybrid op is built
        self.kernel = HybridKernel.from_function(func, debug=debug, akg=akg)
        self.func_name = func_name
        self.debug = debug
        self._make_op = make_op
        self._backwards: dict[tuple, tuple[Any, Any]] = {}  # (dtypes, ranks, attr types) -> (op or None, source)
        self._by_call: dict[tuple, tuple[Any, Any]] = {}  # ((dtype, rank) per tensor, attr values) -> the same
        self._fresh: Optional[list[bool]] = None  # per output: not an input returned in place

    def infer(self, shapes, dtypes, attrs):
        return [OutSpec(tuple(s), np.dtype(d)) for s, d in self.kernel.infer(shapes, dtypes, attrs)]

    def run(self, inputs, attrs, out_specs):
        return self.kernel.run(inputs, attrs)  # a tuple of fresh (or in-place input) arrays

    def runner(self, inputs, attrs, out_specs):
        """The compiled kernel of this signature, called through the dispatcher directly: allocate the
        outputs, call. After a change of the debug switch it binds the build for the new setting. Any other
        case (a kernel writing an input in place or returning one, an input the dispatcher cannot take as
        is, an error) goes through :meth:`run` and its checks (a kernel writing no input can run again)."""
        from mskernel.hybrid import config
        from mskernel.hybrid.runner import plain_attr

        hk = self.kernel
        plain = tuple(plain_attr(a) for a in attrs)
        dtypes, ranks = [a.dtype for a in inputs], [a.ndim for a in inputs]

        def bind() -> Optional[tuple]:
            gen = config.generation
            ck = hk.compile(dtypes, ranks, plain)
            if hk.inplace_map or ck.select is not None:
                return None
            return gen, ck.call

        bound = [bind()]
        if bound[0] is None:
            return super().runner(inputs, attrs, out_specs)

        def run(arrays: tuple) -> Optional[tuple]:
            b = bound[0]
            if b[0] != config.generation:
                b = bound[0] = bind()
            try:
                return b[1](arrays, plain)  # type: ignore[no-any-return]
            except Exception:  # a shape numpy refuses, an array the dispatcher refuses: run() says what
                return None
        return run

    @classmethod
    def from_op(cls, op: Any) -> "HybridAdapter":
        """The kernel of an ``ops.Custom(func, ..., func_type="hybrid")`` op."""
        akg = op.func_type == "akg" and not getattr(op.func, "ms_kernel_flag", False)  # handed to akg as-is
        return cls(op.func, op.func_name, op.debug, akg=akg, make_op=type(op))

    # ------------------------------------------------------------------ automatic backward
    def backward_for(self, arrays: Sequence[Any], attrs: Sequence[Any]) -> tuple[Any, Any]:
        """``(backward op or None, BackwardSource)`` for inputs like ``arrays`` and ``attrs`` (derived once)."""
        from mskernel.hybrid.autodiff import backward_kernel
        from mskernel.hybrid.runner import plain_attr

        attrs = [plain_attr(a) for a in attrs]
        sig = self.kernel.signature([a.dtype for a in arrays], [np.ndim(a) for a in arrays], attrs, debug=False)
        key = (sig.dtypes, sig.ranks, sig.attr_types)
        if key not in self._backwards:
            bk, src = backward_kernel(self.kernel, sig)
            op = None if bk is None else self._make_op(bk.python_function(), func_type="akg", debug=self.debug)
            self._backwards[key] = (op, src)
        return self._backwards[key]

    def auto_backward(self, tensors: Sequence[Any], attrs: Sequence[Any], douts: Sequence[Any],
                      outs: Sequence[Any]) -> list[Optional[Any]]:
        """One gradient (or None) per tensor input, from the derived backward kernel."""
        try:  # the derived backward for these dtypes, ranks and attribute values, without a signature
            key: Optional[tuple] = (*[(t._data.dtype, t._data.ndim) for t in tensors], *attrs)
            found = self._by_call.get(key)
        except TypeError:  # an unhashable attribute value
            key, found = None, None
        if found is None:
            found = self.backward_for([t._data for t in tensors], attrs)
            if key is not None and len(self._by_call) < 256:
                self._by_call[key] = found
        op, src = found
        if op is None:
            return [None] * len(tensors)
        fresh = self._fresh
        if fresh is None:  # which outputs are new tensors (the rest are inputs returned in place)
            returns, params = self.kernel.ir.returns, self.kernel.ir.params
            fresh = self._fresh = [r not in params for r in returns]
        out_params = [o for o, new in zip(outs, fresh) if new]
        ds = list(douts)
        for i, (d, o) in enumerate(zip(douts, outs)):
            if d is None:
                ds[i] = Tensor._wrap(np.zeros(o.shape, o._data.dtype))
            elif d._data.dtype != o._data.dtype:
                ds[i] = d.astype(o.dtype)
        res = op(*tensors, *out_params, *ds, *attrs)
        res = res if isinstance(res, tuple) else (res,)
        return [None if k is None else res[k] for k in src.grads]

