"""Checking that a user bprop can take the arguments it will be called with.

A bprop is called as ``bprop(*inputs, out, dout)``. One written with the wrong parameters would
otherwise fail inside the backward pass with Python's bare "takes 2 positional arguments but 3
were given"; :func:`check_bprop_args` says instead whose bprop it is, what it must accept and
what it accepts.

Example:
    >>> def bprop(x, dout):
    ...     return (dout,)
    >>> try:
    ...     check_bprop_args(bprop, 3, "For 'Custom', 'func': square")
    ... except TypeError as e:
    ...     print(e)  # doctest: +ELLIPSIS
    For 'Custom', 'func': square, the bprop is called as bprop(*inputs, out, dout) with 3 arguments ... takes 2.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, List, Optional

from mskernel.autograd.broadcast import fit_grad
from mskernel.common.tensor import Tensor

__all__ = ["check_bprop_args", "check_bprop_output"]


def check_bprop_args(bprop: Callable[..., Any], n_args: int, prefix: str) -> None:
    """Raise TypeError (starting with ``prefix``) unless ``bprop`` accepts ``n_args`` positional arguments."""
    try:
        sig = inspect.signature(bprop)
    except (TypeError, ValueError):  # builtins and C callables: let the call itself decide
        return
    try:
        sig.bind(*range(n_args))
    except TypeError:
        params = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        n_in = n_args - 2
        name = getattr(bprop, "__name__", "bprop")
        shown = "lambda" if name == "<lambda>" else name
        raise TypeError(f"{prefix}, the bprop is called as bprop(*inputs, out, dout) with {n_args} arguments "
                        f"({n_in} input{'' if n_in == 1 else 's'}, out and dout), but {shown}{sig} takes "
                        f"{len(params)}.") from None


def check_bprop_output(grads: Any, args: tuple, prefix: str, what: str = "",
                       fit: bool = False) -> List[Optional[Any]]:
    """The gradients a bprop returned, checked with MindSpore's rules and messages: one per input
    (a single Tensor is wrapped, as PyNative does), each None or a Tensor of the input's shape
    (else ValueError) and dtype (else TypeError); non-Tensor inputs get None. ``what`` is
    inserted after "return value(s)" (" of bprop" for ``ops.Custom``, "" for a Cell's bprop,
    whose prefix names the net). With ``fit`` (a Cell's bprop, as MindSpore's PyNative runs it) a
    gradient of another shape or dtype is fitted to its input instead (:func:`fit_grad`: summed
    over broadcast axes and cast, so an int32 input gets the bprop's value truncated).

    Example:
        >>> from mskernel.common.tensor import Tensor
        >>> x = Tensor([1.0, 2.0])
        >>> try:
        ...     check_bprop_output((Tensor([1.0]),), (x,), "For user defined method 'bprop' of net 'Net'")
        ... except ValueError as e:
        ...     print(e)  # doctest: +ELLIPSIS
        For user defined method 'bprop' of net 'Net', the 0th return value(gradient of the 0th argument) ...
    """
    if grads is None:
        raise TypeError(f"{prefix}, The python function output is none: the bprop must return a tuple with one "
                        f"gradient per input.")
    if isinstance(grads, Tensor):
        grads = (grads,)  # MindSpore's PyNative wraps a single Tensor
    if isinstance(grads, list):
        grads = tuple(grads)
    if not isinstance(grads, tuple):
        raise TypeError(f"{prefix}, the bprop must return a tuple of gradients, but got {type(grads).__name__}.")
    if len(grads) != len(args):
        raise TypeError(f"{prefix}, the number of return values(gradients){what} should be equal to the number of "
                        f"input arguments except 'out' and 'dout', which is: {len(args)}, but got:{len(grads)}.")
    out: List[Optional[Any]] = []
    for i, (g, a) in enumerate(zip(grads, args)):
        if not isinstance(a, Tensor):
            out.append(None)  # attribute inputs get no gradient (e.g. zeros_like(axis))
            continue
        if g is None:
            out.append(None)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"{prefix}, the {i}th return value(gradient of the {i}th argument){what} should be "
                            f"Tensor, but got {type(g).__name__}, and the value is {g}.")
        if fit:
            out.append(fit_grad(g, a))
            continue
        gd, ad = g._data, a._data
        if gd.shape != ad.shape:
            raise ValueError(f"{prefix}, the {i}th return value(gradient of the {i}th argument){what} should have "
                             f"the same shape as the {i}th argument, which is:{list(a.shape)}, but got: "
                             f"{list(g.shape)}.")
        if gd.dtype != ad.dtype:
            raise TypeError(f"{prefix}, the {i}th return value(gradient of the {i}th argument){what} should have "
                            f"the same dtype as the {i}th argument, which is:{a.dtype}, but got: {g.dtype}.")
        out.append(g)
    return out
