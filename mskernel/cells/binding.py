"""Two plain C++ functions, one differentiable op: :class:`ForwardBackwardOp`.

``--forward F --backward B`` names two functions of a built module (``ms::Tensor`` in,
``ms::Tensor`` out). Calling the op runs ``F(*inputs)`` without recording anything inside it, then
records one node through :func:`mskernel.cpp.record_function` (the path C++ ``Function<T>``
ops take into the one engine function, :func:`mskernel.autograd.record`). Its backward calls
``B(*inputs, out, dout)`` -- like a bprop -- which returns one gradient per input (a Tensor, a
tuple/list of them, or None for an input without gradient).

Example:
    >>> import mskernel as ms
    >>> op = ForwardBackwardOp("cube", lambda x: x * x * x, lambda x, out, dout: 3 * x * x * dout)
    >>> print(ms.grad(op)(ms.Tensor([1.0, 2.0])))
    [ 3. 12.]
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from mskernel.autograd.node import no_grad
from mskernel.common.tensor import Tensor

__all__ = ["ForwardBackwardOp"]


class ForwardBackwardOp:
    """``op(*inputs)``: ``forward(*inputs)`` with ``backward(*inputs, out, dout)`` as its gradient.

    Example:
        >>> op = ForwardBackwardOp("ident", lambda x: x, lambda x, out, dout: dout)
        >>> op.name, op.forward.__name__
        ('ident', '<lambda>')
    """

    def __init__(self, name: str, forward: Callable[..., Any], backward: Callable[..., Any],
                 module: Any = None) -> None:
        for role, fn in (("forward", forward), ("backward", backward)):
            if not callable(fn):
                raise TypeError(f"{name}: the {role} function must be callable, but got {type(fn).__name__}")
        self.name = name
        self.forward = forward
        self.backward = backward
        self.module = module

    def __call__(self, *inputs: Any) -> Any:
        from mskernel.cpp import record_function  # the C++ bridge records C++ ops into the engine

        with no_grad():
            out = self.forward(*inputs)
        if isinstance(out, Tensor):
            outs, single = [out], True
        elif isinstance(out, (tuple, list)) and all(isinstance(o, Tensor) for o in out):
            outs, single = list(out), False
        else:
            raise TypeError(f"{self.name}: the forward function must return a Tensor (or a tuple of Tensors), "
                            f"but got {type(out).__name__}")
        tensors = [a if isinstance(a, Tensor) else None for a in inputs]
        n = len(inputs)

        def cpp_backward(douts: Sequence[Tensor | None], fwd_outs: Sequence[Tensor]) -> list:
            o = fwd_outs[0] if single else tuple(fwd_outs)
            d = douts[0] if single else tuple(douts)
            with no_grad():
                grads = self.backward(*inputs, o, d)
            if not isinstance(grads, (list, tuple)):
                grads = [grads]
            grads = list(grads)
            if len(grads) != n:
                raise TypeError(f"{self.name}: the backward function must return one gradient per input ({n}), "
                                f"but returned {len(grads)}")
            for i, g in enumerate(grads):
                if g is not None and not isinstance(g, Tensor):
                    raise TypeError(f"{self.name}: gradient {i} from the backward function must be a Tensor or "
                                    f"None, but got {type(g).__name__}")
            return grads

        result = record_function(self.name, self.name, tensors, outs, [], [], cpp_backward, True)
        return result[0] if single else tuple(result)

    def signature(self) -> str:
        """``name(args) -> out`` from the forward function's docstring or signature, where known.

        Example:
            >>> ForwardBackwardOp("f", lambda x, y: x, lambda x, y, o, d: (d, d)).signature()
            'f(x, y)'
        """
        try:
            return f"{self.name}{inspect.signature(self.forward)}"
        except (TypeError, ValueError):
            doc = (getattr(self.forward, "__doc__", "") or "").splitlines()
            first = doc[0] if doc else ""
            if "(" in first:  # pybind11 puts "name(arg0: T, ...) -> R" first
                return self.name + first[first.index("("):]
            return f"{self.name}(...)"

    def __repr__(self) -> str:
        return f"<custom op {self.signature()}: forward and backward from C++>"
