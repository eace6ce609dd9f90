"""MindSpore's device-memory and stream-sync functions, as the CPU wheel answers them.

MindSpore's memory pool serves a device (Ascend/GPU); on the CPU the wheel keeps no pool statistics: it
reports zero bytes everywhere, an empty pool in ``memory_stats``, and synchronizing or emptying the cache does
nothing. mskernel holds its tensors in numpy arrays, with no pool either, and answers the same.

Example:
    >>> import mskernel as ms
    >>> ms.memory_allocated(), ms.max_memory_reserved(), ms.synchronize()
    (0, 0, None)
"""
from __future__ import annotations

from typing import Any, Dict

__all__ = ["synchronize", "empty_cache", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "memory_stats", "memory_summary", "ms_memory_recycle"]

#: the summary's rows: (label, memory_stats key)
_SUMMARY_ROWS = (("Reserved memory", "total_reserved_memory"), ("Allocated memory", "total_allocated_memory"),
                 ("Idle memory", "total_idle_memory"), ("Eager free memory", "total_eager_free_memory"),
                 ("Max reserved memory", "max_reserved_memory"), ("Max allocated memory", "max_allocated_memory"))


def memory_stats() -> Dict[str, Any]:
    """The memory pool's statistics: all zero, no blocks (there is no device pool on the CPU).

    Example:
        >>> memory_stats()["total_allocated_memory"], memory_stats()["common_mem_pool_stats"]["blocks_info"]
        (0, {})
    """
    out: Dict[str, Any] = {key: 0 for _, key in _SUMMARY_ROWS}
    out["common_mem_pool_stats"] = {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}}
    out["persistent_mem_pool_stats"] = {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}}
    return out


def memory_summary() -> str:
    """The statistics as MindSpore's printed table.

    Example:
        >>> print(memory_summary().splitlines()[5])
        | Reserved memory      |      0 B             |
    """
    stats = memory_stats()
    rule, line = "|" + "=" * 45 + "|", "|" + "-" * 45 + "|"
    rows = [rule, "|" + " " * 15 + "Memory summary" + " " * 16 + "|", rule, f"| {'Metric':<20} | {'Data':<20} |", line]
    for i, (label, key) in enumerate(_SUMMARY_ROWS):
        rows.append(f"| {label:<20} | {stats[key]:>6} B{'':12} |")
        rows.append(rule if i == len(_SUMMARY_ROWS) - 1 else line)
    return "\n".join(rows) + "\n"


def _zero() -> int:
    return 0


def _nothing() -> None:
    return None


def _entry(name: str, fn: Any, text: str) -> Any:
    def entry() -> Any:
        return fn()
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = (f"{text}\n\n    Example:\n        >>> {name}()" + ("\n        0\n" if fn is _zero else "\n"))
    return entry


memory_allocated = _entry("memory_allocated", _zero, "Bytes allocated in the device pool: 0 on the CPU.")
max_memory_allocated = _entry("max_memory_allocated", _zero, "Peak bytes allocated: 0 on the CPU.")
memory_reserved = _entry("memory_reserved", _zero, "Bytes reserved by the device pool: 0 on the CPU.")
max_memory_reserved = _entry("max_memory_reserved", _zero, "Peak bytes reserved: 0 on the CPU.")
synchronize = _entry("synchronize", _nothing, "Wait for the device's streams (the CPU runs each op at once).")
empty_cache = _entry("empty_cache", _nothing, "Release the pool's cached blocks (there are none).")
reset_peak_memory_stats = _entry("reset_peak_memory_stats", _nothing, "Reset the peak statistics.")
reset_max_memory_allocated = _entry("reset_max_memory_allocated", _nothing, "Reset the allocated peak.")
reset_max_memory_reserved = _entry("reset_max_memory_reserved", _nothing, "Reset the reserved peak.")
ms_memory_recycle = _entry("ms_memory_recycle", _nothing, "Recycle the memory of compiled graphs (none here).")
