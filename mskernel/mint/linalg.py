"""``mindspore.mint.linalg``: norms and the inverse, front ends of the op table (:mod:`mskernel.mint.frontends`).

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> print(mint.linalg.vector_norm(ms.Tensor([[3.0, 0.0], [0.0, 4.0]])))
    5.0
"""
from typing import Any, Callable, Dict

from mskernel.mint.frontends import HELPERS, LINALG, front_end_examples
from mskernel.ops.registry import front_ends

FUNCTIONS: Dict[str, Callable[..., Any]] = front_ends(LINALG, __name__, HELPERS, front_end_examples("linalg"),
                                                      ("import mskernel as ms", "from mskernel import mint"))
globals().update(FUNCTIONS)
__test__ = dict(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
