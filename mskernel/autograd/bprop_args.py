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
from typing import Any, Callable

__all__ = ["check_bprop_args"]


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
