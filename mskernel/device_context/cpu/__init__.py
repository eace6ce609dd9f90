"""``mindspore.device_context.cpu``: the CPU's device queries (:mod:`.device`) and kernel tuning
(:mod:`.op_tuning`).

Example:
    >>> from mskernel.device_context import cpu
    >>> cpu.op_tuning.threads_num(4); cpu.op_tuning.SETTINGS["threads_num"]
    4
"""
from mskernel.device_context.cpu import device, op_tuning
from mskernel.device_context.cpu.device import device_count, is_available
from mskernel.device_context.cpu.op_tuning import threads_num

__all__ = ["device", "op_tuning", "device_count", "is_available", "threads_num"]
