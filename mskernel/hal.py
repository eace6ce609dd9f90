"""``mindspore.hal``: the hardware abstraction layer's device, stream, event and memory queries, as the CPU wheel
answers them (one CPU device, available; no architecture list or capability; memory statistics of zero).

Example:
    >>> from mskernel import hal
    >>> hal.device_count("CPU"), hal.is_available("CPU"), hal.get_device_name(0, "CPU")
    (1, True, 'CPU')
"""
from __future__ import annotations

from typing import Any, Optional

from mskernel.device_memory import (empty_cache, max_memory_allocated, max_memory_reserved,  # noqa: F401
                                    memory_allocated, memory_reserved, memory_stats, memory_summary,
                                    reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats,
                                    synchronize)
from mskernel.runtime import (Event, Stream, StreamCtx, communication_stream, current_stream,  # noqa: F401
                              default_stream, set_cur_stream)

__all__ = ["Event", "Stream", "StreamCtx", "communication_stream", "current_stream", "default_stream",
           "device_count", "empty_cache", "get_arch_list", "get_device_capability", "get_device_name",
           "get_device_properties", "is_available", "is_initialized", "max_memory_allocated", "max_memory_reserved",
           "memory_allocated", "memory_reserved", "memory_stats", "memory_summary", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "reset_peak_memory_stats", "set_cur_stream", "synchronize"]

_TARGETS = ("CPU", "GPU", "Ascend")


def _target(device_target: Optional[str]) -> str:
    if device_target is None:
        return "CPU"
    if device_target not in _TARGETS:
        raise ValueError(f"device_target must be one of {list(_TARGETS)}, but got {device_target!r}.")
    return device_target


def device_count(device_target: Optional[str] = None) -> int:
    """The number of devices of ``device_target``: the one CPU (GPU and Ascend run on it here).

    Example:
        >>> device_count()
        1
    """
    _target(device_target)
    return 1


def is_available(device_target: Optional[str] = None) -> bool:
    """Whether the device can be used: always (the CPU).

    Example:
        >>> is_available("CPU")
        True
    """
    _target(device_target)
    return True


def is_initialized(device_target: Optional[str] = None) -> bool:
    """Whether the device's runtime has been started: always (the CPU wheel answers True once it has run an op;
    mskernel's CPU runtime needs no start).

    Example:
        >>> is_initialized("CPU")
        True
    """
    _target(device_target)
    return True


def get_device_name(device_id: int, device_target: Optional[str] = None) -> str:
    """The device's name: ``'CPU'``.

    Example:
        >>> get_device_name(0)
        'CPU'
    """
    _target(device_target)
    return "CPU"


def get_device_capability(device_id: int, device_target: Optional[str] = None) -> Any:
    """A GPU's compute capability; None for the CPU (as the CPU wheel answers).

    Example:
        >>> print(get_device_capability(0, "CPU"))
        None
    """
    _target(device_target)
    return None


def get_device_properties(device_id: int, device_target: Optional[str] = None) -> Any:
    """A device's properties; None for the CPU (as the CPU wheel answers).

    Example:
        >>> print(get_device_properties(0, "CPU"))
        None
    """
    _target(device_target)
    return None


def get_arch_list(device_target: Optional[str] = None) -> Any:
    """The architectures the build supports; None for the CPU (as the CPU wheel answers).

    Example:
        >>> print(get_arch_list())
        None
    """
    _target(device_target)
    return None
