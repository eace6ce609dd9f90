"""``mindspore.parallel``: descriptions of how a tensor is split across devices. mskernel runs one process, so a
layout is only described, never applied; code that builds layouts for ``shard`` still runs, and their
``to_dict`` is MindSpore's.

Example:
    >>> from mskernel.parallel import Layout
    >>> Layout((2, 4), ("dp", "mp"))("mp", "None").to_dict()["tensor_map"]
    (0, -1)
"""
from mskernel.parallel.layout import Layout
from mskernel.parallel.shard import parameter_broadcast, shard

__all__ = ["Layout", "shard", "parameter_broadcast"]
