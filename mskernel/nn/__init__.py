"""Neural-network building blocks (MindSpore's ``mindspore.nn``): :class:`Cell`.

Example:
    >>> from mskernel import nn
    >>> isinstance(nn.Cell(), nn.Cell)
    True
"""
from mskernel.nn.cell import Cell

__all__ = ["Cell"]
