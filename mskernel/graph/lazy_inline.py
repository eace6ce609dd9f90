"""``mindspore.graph.lazy_inline``: the ``lazy_inline`` decorator (mskernel's, also at its top level).

Example:
    >>> lazy_inline is not None
    True
"""
from mskernel.graph_settings import lazy_inline

__all__ = ["lazy_inline"]
