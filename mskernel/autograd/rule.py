"""Declared backward rules: what an op's backward reads, said by its parameter names.

A rule is Python, written with ops (so a recorded backward gives higher-order gradients). Its
parameters name what it reads of the call: ``g`` (the output gradient; a tuple for several
outputs), ``out`` (the output), a tensor input by its name, ``NAME_shape`` (only that input's
shape, so the node does not keep its data alive), or an attribute by its name. It is written in
one of two forms:

* one function returning a gradient per tensor input (the op table's ``backward``);
* one formula per tensor input, each returning that input's gradient (``None`` for an input
  that has none): only the formulas of inputs that need a gradient run, and the node keeps only
  what those formulas read.

:func:`rule` reads the names once and makes the engine's ``Rule``; recording an op binds it to the
call (``record_rule``), and the backward pass calls it with the output gradients.

Example:
    >>> import mskernel as ms
    >>> from mskernel.autograd.node import record_rule
    >>> MUL = rule("Mul", ("input", "other"), (lambda g, other: g * other, lambda g, input: g * input))
    >>> x = ms.Tensor([1.0, 2.0]); x.requires_grad = True
    >>> y = ms.Tensor([3.0, 4.0])
    >>> out = ms.Tensor._wrap(x.asnumpy() * y.asnumpy())
    >>> record_rule(MUL, (x, y), out)
    >>> out.grad_fn.backward([ms.Tensor([1.0, 1.0])])  # y needs no gradient: its formula does not run
    (Tensor(shape=[2], dtype=Float32, value= [ 3.00000000e+00,  4.00000000e+00]), None)
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence, Tuple, Union

from mskernel._accel import cengine

__all__ = ["rule", "Rule"]

_C = cengine()
Rule = _C.Rule

# where an argument comes from, as the engine reads it (mskernel/autograd/_cengine_rules.c)
_G, _OUT, _SHAPE, _ATTR = -1, -2, 1000, 2000


def _codes(prim: str, fn: Callable, inputs: Sequence[str], attrs: Sequence[str]) -> Tuple[int, ...]:
    codes = []
    for name in inspect.signature(fn).parameters:
        if name == "g":
            codes.append(_G)
        elif name == "out":
            codes.append(_OUT)
        elif name in inputs:
            codes.append(inputs.index(name))
        elif name.endswith("_shape") and name[:-6] in inputs:
            codes.append(_SHAPE + inputs.index(name[:-6]))
        elif name in attrs:
            codes.append(_ATTR + list(attrs).index(name))
        else:
            known = ["g", "out", *inputs, *(f"{t}_shape" for t in inputs), *attrs]
            raise TypeError(f"The backward rule of '{prim}' reads '{name}', which is not one of {known}.")
    return tuple(codes)


def rule(prim: str, inputs: Sequence[str], backward: Union[Callable, Sequence[Any]], attrs: Sequence[str] = (),
         multi: bool = False) -> Any:
    """The engine's rule for an op named ``prim`` whose tensor inputs are ``inputs`` and attributes ``attrs``.

    ``backward`` is one function (returning a gradient per input) or a sequence of formulas, one per input
    (``None`` for an input without a gradient). ``multi``: the op has several outputs, so ``g`` and ``out``
    are tuples.

    Example:
        >>> r = rule("Sub", ("input", "other"), (lambda g: g, lambda g: -g))
        >>> r.prim, len(r.fns)
        ('Sub', 2)
        >>> rule("Exp", ("input",), lambda g, out: (g * out,)).needs_out
        1
        >>> rule("Bad", ("input",), lambda g, y: (g,))
        Traceback (most recent call last):
        ...
        TypeError: The backward rule of 'Bad' reads 'y', which is not one of ['g', 'out', 'input', 'input_shape'].
    """
    whole = callable(backward)
    fns = (backward,) if whole else tuple(backward)
    if not whole and len(fns) != len(inputs):
        raise TypeError(f"The backward of '{prim}' has {len(fns)} formulas for {len(inputs)} inputs.")
    codes = tuple(() if f is None else _codes(prim, f, inputs, attrs) for f in fns)
    return Rule(prim, fns, codes, whole, multi)
