"""``mindspore.graph.mutable``: ``mutable`` (mskernel's, also at its top level).

Example:
    >>> mutable((1, 2))
    (1, 2)
"""
from mskernel.common.api import mutable

__all__ = ["mutable"]
