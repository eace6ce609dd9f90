"""``mindspore.ops.function``: the module path through which MindSpore's docs reach some functional ops
(``ops.function.math_func.float_power_ext``); :mod:`~mskernel.ops.function.math_func` gives the op table's
functional ops by name.

Example:
    >>> import mskernel as ms
    >>> print(ms.ops.function.math_func.isnan_ext(ms.Tensor([float("nan"), 2.0])))
    [ True False]
"""
from mskernel.ops.function import math_func

__all__ = ["math_func"]
