"""``mindspore.ops.function.math_func``: the op table's functional ops by name (``math_func.float_power_ext``
is ``ops.float_power_ext``), looked up when first read.

Example:
    >>> import mskernel as ms
    >>> print(ms.ops.function.math_func.float_power_ext(ms.Tensor([1, 2, 3]), 2))
    [1. 4. 9.]
"""
from typing import Any, Callable


def __getattr__(name: str) -> Callable[..., Any]:
    from mskernel.ops.registry import FUNCTIONS
    if name in FUNCTIONS and not name.startswith("_"):
        return FUNCTIONS[name]
    raise AttributeError(f"module 'mskernel.ops.function.math_func' has no attribute {name!r}")
