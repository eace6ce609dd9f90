"""``mindspore._extends.parse``: only ``compile_config`` is provided (mskernel has no graph parser).

Example:
    >>> from mskernel._extends.parse import compile_config
    >>> compile_config.CHECK_BPROP
    ''
"""
from mskernel._extends.parse import compile_config

__all__ = ["compile_config"]
