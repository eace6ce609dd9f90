"""``mindspore.nn.grad``: the cells MindSpore keeps for old code that differentiate a function, ``Jvp`` and ``Vjp``.

Example:
    >>> from mskernel.nn import grad
    >>> grad.__all__
    ['Jvp', 'Vjp']
"""
from mskernel.nn.grad.cell_grad import Jvp, Vjp

__all__ = ["Jvp", "Vjp"]
