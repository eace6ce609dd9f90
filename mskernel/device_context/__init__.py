"""``mindspore.device_context``: per-device settings. ``device_context.cpu`` has the CPU's device queries and its
kernel thread count (the CPU is the one device mskernel runs on).

Example:
    >>> from mskernel import device_context
    >>> device_context.cpu.device_count(), device_context.cpu.is_available()
    (1, True)
"""
from mskernel.device_context import cpu

__all__ = ["cpu"]
