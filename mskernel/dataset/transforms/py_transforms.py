"""``mindspore.dataset.transforms.py_transforms`` (older path): as :mod:`mskernel.dataset.transforms`.

Example:
    >>> from mskernel.dataset.transforms import py_transforms
    >>> py_transforms.TypeCast is not None
    True
"""
from mskernel.dataset.transforms import *  # noqa: F401,F403
from mskernel.dataset.transforms import __all__  # noqa: F401
