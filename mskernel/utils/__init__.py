"""``mindspore.utils``: the DLPack exchange (:mod:`mskernel.utils.dlpack`).

Example:
    >>> from mskernel.utils import dlpack
    >>> callable(dlpack.to_dlpack)
    True
"""
from mskernel.utils import dlpack  # noqa: F401
