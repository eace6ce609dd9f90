"""``mindspore.dataset.vision.c_transforms`` (older path): as :mod:`mskernel.dataset.vision`.

Example:
    >>> from mskernel.dataset.vision import c_transforms
    >>> c_transforms.HWC2CHW is not None
    True
"""
from mskernel.dataset.vision import *  # noqa: F401,F403
from mskernel.dataset.vision import __all__  # noqa: F401
