"""``mindspore.ops.function``: the modules MindSpore's docs reach its functional ops through
(``ops.function.random_func.rand_ext``).

Example:
    >>> from mskernel.ops.function import random_func
    >>> random_func.rand_ext(2, 3).shape
    (2, 3)
"""
from mskernel.ops.function import random_func

__all__ = ["random_func"]
