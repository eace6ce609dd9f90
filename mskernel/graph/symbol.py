"""``mindspore.graph.symbol``: ``Symbol`` (mskernel's, also at its top level).

Example:
    >>> Symbol is not None
    True
"""
from mskernel.common.symbol import Symbol

__all__ = ["Symbol"]
