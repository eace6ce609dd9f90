"""``mindspore.ops.functional`` (imported as ``F``): the functional ops.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import functional as F
    >>> print(F.mul(ms.Tensor([2.0]), 4))
    [8.]
"""
from mskernel.ops.math import *  # noqa: F401,F403
from mskernel.ops.math import __all__ as _math
from mskernel.ops.reduce import *  # noqa: F401,F403
from mskernel.ops.reduce import __all__ as _reduce
from mskernel.ops.shape import *  # noqa: F401,F403
from mskernel.ops.shape import __all__ as _shape

__all__ = list(_math) + list(_reduce) + list(_shape)
