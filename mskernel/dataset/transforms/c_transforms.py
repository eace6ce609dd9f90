"""``mindspore.dataset.transforms.c_transforms`` (older path): as :mod:`mskernel.dataset.transforms`.

Example:
    >>> from mskernel.dataset.transforms import c_transforms
    >>> c_transforms.TypeCast is not None
    True
"""
from mskernel.dataset.transforms import *  # noqa: F401,F403
from mskernel.dataset.transforms import __all__  # noqa: F401
