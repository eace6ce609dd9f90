"""The backward of ``ops.Custom``: the engine node a call records, and the gradients it computes.

A call with a tracked input records one node (op ``Custom``, kind ``custom``, carrying the op's facts for
the graph view). Its backward is the user's ``bprop(*inputs, out, dout)`` — checked once per input count
to take those arguments, its result held to MindSpore's rules (one gradient per input) — or, for a
hybrid/akg op without a bprop, the backward kernel derived from the DSL (:mod:`mskernel.hybrid.autodiff`,
through the kernel's adapter). Any other op without a bprop stops the gradient with an error that says
what to pass. The inputs the bprop reads are saved as they were at the call (a later in-place write leaves
them unchanged).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> op = ops.Custom(lambda x: x * 3, lambda x: x, lambda x: x, func_type="pyfunc")
    >>> ms.grad(op)(ms.Tensor([1.0]))
    Traceback (most recent call last):
    ...
    RuntimeError: For 'Custom', 'func_type': pyfunc, 'func': <lambda>: gradients cannot flow through this Custom op because it has no bprop. Pass bprop=fn with fn(*inputs, out, dout) returning one gradient per input.
"""  # noqa: E501
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mskernel.autograd.bprop_args import check_bprop_args, check_bprop_output
from mskernel.autograd.node import _record as record, saved
from mskernel.common.tensor import Tensor
from mskernel.kernels import CustomKernel
from mskernel.kernels.hybrid import HybridAdapter

__all__ = ["CustomBackward"]


class CustomBackward:
    """The backward of one op: ``recorders[multi](args, outs)`` records a call (single or several outputs).

    ``split(args)`` gives a call's Tensors and attribute values (what a derived backward runs on); ``info``
    is what every node of the op shows.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import ops
        >>> op = ops.Custom(lambda x: x * 3, lambda x: x, lambda x: x, func_type="pyfunc",
        ...                 bprop=lambda x, out, dout: (dout * 3,))
        >>> print(ms.grad(op)(ms.Tensor([1.0, 2.0])))
        [3. 3.]
    """

    def __init__(self, bprop: Optional[Callable], kernel: CustomKernel,
                 split: Callable[[tuple], Tuple[List[Tensor], List[Any]]], prefix: str, info: Dict[str, Any]) -> None:
        self.bprop, self.kernel, self.split, self.prefix, self.info = bprop, kernel, split, prefix, info
        self._arity_ok: set = set()  # input counts the bprop was checked to accept
        self.recorders = (self._recorder(False), self._recorder(True))

    def _recorder(self, multi: bool) -> Callable[[tuple, tuple], None]:
        """``record(args, outs)``: puts one call on the graph (when an input is tracked)."""
        def record_call(args: tuple, outs: tuple) -> None:
            record("Custom", args, outs, self.backward(args, multi), kind="custom", needs_outputs=True,
                   info=self.info)
        return record_call

    def backward(self, args: tuple, multi: bool) -> Callable:
        """The backward of the call with ``args``: ``backward(douts, outs)`` -> one gradient (or None) per arg."""
        bprop = self.bprop
        prefix = self.prefix
        args = tuple(saved(a) for a in args)  # what the bprop reads (an in-place write later leaves them as they are)

        def backward(douts: List[Tensor], outs: List[Tensor]) -> Sequence[Optional[Tensor]]:
            if bprop is None and isinstance(self.kernel, HybridAdapter):  # derived from the DSL
                tensors, attrs = self.split(args)
                grads = iter(self.kernel.auto_backward(tensors, attrs, douts, outs))
                return [next(grads) if isinstance(a, Tensor) else None for a in args]
            if bprop is None:
                raise RuntimeError(
                    f"{prefix}: gradients cannot flow through this Custom op because it has no bprop. Pass "
                    f"bprop=fn with fn(*inputs, out, dout) returning one gradient per input.")
            out = tuple(outs) if multi else outs[0]
            dout = tuple(douts) if multi else douts[0]
            if len(args) not in self._arity_ok:
                check_bprop_args(bprop, len(args) + 2, prefix)
                self._arity_ok.add(len(args))
            grads = bprop(*args, out, dout)
            return check_bprop_output(grads, args, prefix, " of bprop")
        return backward

    def derived_source(self, args: tuple, func_type: str) -> str:
        """The DSL source of the backward kernel derived for ``args`` (example inputs: Tensors or arrays, then
        attributes); a TypeError for an op whose kernel is not a DSL kernel."""
        if not isinstance(self.kernel, HybridAdapter):
            raise TypeError(f"{self.prefix}, backward_source() is for func_type 'hybrid'/'akg' kernels, whose "
                            f"backward is derived from the DSL; this op's func_type is '{func_type}'.")
        tensors, attrs = self.split(tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in args))
        _, src = self.kernel.backward_for([t._data for t in tensors], attrs)
        return src.source
