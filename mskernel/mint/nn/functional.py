"""``mindspore.mint.nn.functional``: activations, losses, convolution, pooling and normalisation, front ends of the
op table (:mod:`mskernel.mint.frontends`).

Example:
    >>> import mskernel as ms
    >>> from mskernel.mint.nn import functional as F
    >>> print(F.relu(ms.Tensor([-1.0, 2.0])), F.softmax(ms.Tensor([0.0, 0.0]), dim=0))
    [0. 2.] [0.5 0.5]
"""
from typing import Any, Callable, Dict

from mskernel.mint.frontends import HELPERS, NN_FUNCTIONAL, front_end_examples
from mskernel.ops.registry import front_ends

FUNCTIONS: Dict[str, Callable[..., Any]] = front_ends(
    NN_FUNCTIONAL, __name__, HELPERS, front_end_examples("nn.functional"),
    ("import mskernel as ms", "from mskernel import mint", "from mskernel.mint.nn import functional as F"))
globals().update(FUNCTIONS)
__test__ = dict(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
