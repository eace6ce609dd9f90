"""``mindspore.graph.no_inline``: the ``no_inline`` decorator (mskernel's, also at its top level).

Example:
    >>> no_inline is not None
    True
"""
from mskernel.graph_settings import no_inline

__all__ = ["no_inline"]
