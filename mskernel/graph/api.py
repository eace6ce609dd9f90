"""``mindspore.graph.api``: ``jit`` and its companions (mskernel's own, also at its top level).

Example:
    >>> from mskernel.graph.api import jit
    >>> jit(lambda x: x + 1)(1)
    2
"""
from mskernel.common.api import jit
from mskernel.device_memory import ms_memory_recycle
from mskernel.graph_settings import jit_class

__all__ = ["ms_memory_recycle", "jit", "jit_class"]
