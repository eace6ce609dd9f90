"""``mindspore.utils``: the DLPack exchange is :mod:`mskernel.utils.dlpack`.

Example:
    >>> from mskernel.utils import dlpack
    >>> callable(dlpack.to_dlpack)
    True
"""
