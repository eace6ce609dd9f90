"""``mindspore.graph.jit_config``: ``JitConfig`` (mskernel's, also at its top level).

Example:
    >>> JitConfig(jit_level="O1").jit_config_dict["jit_level"]
    'O1'
"""
from mskernel.common.api import JitConfig

__all__ = ["JitConfig"]
