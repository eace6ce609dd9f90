"""``mindspore.ops.composite`` (imported as ``C``): ``GradOperation`` and the grad functions.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import composite as C
    >>> print(C.GradOperation()(lambda x: x * x)(ms.Tensor(3.0)))
    6.0
"""
from mskernel.autograd.api import GradOperation, grad, value_and_grad

__all__ = ["GradOperation", "grad", "value_and_grad"]
