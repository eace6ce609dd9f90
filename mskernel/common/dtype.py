"""``mindspore.common.dtype``: the dtype objects and helpers (same as :mod:`mskernel.dtype`).

Example:
    >>> import mskernel.common.dtype as mstype
    >>> str(mstype.int32)
    'Int32'
"""
from mskernel.dtype import *  # noqa: F401,F403
from mskernel.dtype import __all__  # noqa: F401
