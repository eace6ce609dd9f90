"""``mindspore.mint.special``: special functions, front ends of the op table (:mod:`mskernel.mint.frontends`).

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> print(mint.special.expm1(ms.Tensor([0.0, 1.0])))
    [0.        1.7182819]
"""
from typing import Any, Callable, Dict

from mskernel.mint.frontends import HELPERS, SPECIAL, front_end_examples
from mskernel.ops.registry import front_ends

FUNCTIONS: Dict[str, Callable[..., Any]] = front_ends(SPECIAL, __name__, HELPERS, front_end_examples("special"),
                                                      ("import mskernel as ms", "from mskernel import mint"))
globals().update(FUNCTIONS)
__test__ = dict(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
