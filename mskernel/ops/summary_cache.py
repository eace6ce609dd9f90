"""What the summary operators (``ScalarSummary``, ``TensorSummary``, ``ImageSummary``, ``HistogramSummary``) were
given since a ``SummaryRecord`` last recorded in 'train' mode: ``(operator, name, value)``, the last value of each
operator and name, in the order the names first came (only the last is recorded, so a training loop that never
records keeps one value per name, not one per step).

Example:
    >>> _ = take()  # empty what earlier summary operators left
    >>> push("ScalarSummary", "loss", 0.5)
    >>> take()
    [('ScalarSummary', 'loss', 0.5)]
    >>> take()
    []
"""
from __future__ import annotations

import threading
from typing import Any, Dict, List, Tuple

__all__ = ["push", "take"]

_LOCK = threading.Lock()
_ITEMS: Dict[Tuple[str, Any], Tuple[str, Any, Any]] = {}


def push(op: str, name: Any, value: Any) -> None:
    """Keep what the summary operator ``op`` was called with (replacing its last value under ``name``).

    Example:
        >>> _ = take(); push("TensorSummary", "w", 1); push("TensorSummary", "w", 2); take()
        [('TensorSummary', 'w', 2)]
    """
    try:
        key = (op, hash(name), name)
    except TypeError:  # an unhashable name is wrong; it is kept so that recording reports it
        key = (op, id(name), None)
    with _LOCK:
        _ITEMS[key] = (op, name, value)


def take() -> List[Tuple[str, Any, Any]]:
    """What was kept, in order, emptying the cache.

    Example:
        >>> _ = take(); push("ScalarSummary", "acc", 0.9); take(), take()
        ([('ScalarSummary', 'acc', 0.9)], [])
    """
    with _LOCK:
        items = list(_ITEMS.values())
        _ITEMS.clear()
    return items
