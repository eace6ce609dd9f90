"""The order in which MindSpore 2.10's CPU TopK kernel returns tied values (measured on the wheel; its docs say
the smaller index comes first, which holds only when ``k`` is more than half the row).

With ``sorted=True`` the kernel takes, for each row of ``n`` values, either

* ``k > n // 2``: a stable sort of the whole row by value (ties: the smaller index first), or
* ``k <= n // 2``: a quickselect that moves the ``k`` largest to the front (the C++ standard library's
  ``nth_element`` as libstdc++ writes it: median-of-three pivot moved to the front, an unguarded Hoare partition,
  insertion sort once a range holds 3 or fewer, heap selection past a depth limit of ``2 * floor(log2(n))``), then a
  stable sort of those ``k`` by value: tied values keep the order the selection left them in.

:func:`select_order` reproduces the second case (a plain Python rendering of that algorithm, run only on rows
where a tie can change the answer); every comparison is ``a before b`` when ``a``'s value is larger (smaller for
``largest=False``).

Example:
    >>> select_order([-1.0, -1.0, -1.0, 0.5], 2, True)  # the wheel: [3 2], not [3 0]
    [3, 2]
    >>> select_order([0.5, 0.5, -0.5, -1.0], 1, True)  # the second of the tied maxima
    [1]
"""
from __future__ import annotations

from typing import Callable, List, Sequence

__all__ = ["select_order"]

Before = Callable[[int, int], bool]


def _sift(a: List[int], first: int, hole: int, length: int, value: int, before: Before) -> None:
    """Move ``value`` down from ``hole`` (a max-heap of ``length`` from ``first`` under ``before``) then up."""
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if before(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and before(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _heap_select(a: List[int], first: int, middle: int, last: int, before: Before) -> None:
    length = middle - first
    if length > 1:
        for parent in range((length - 2) // 2, -1, -1):
            _sift(a, first, parent, length, a[first + parent], before)
    for i in range(middle, last):
        if before(a[i], a[first]):
            value = a[i]
            a[i] = a[first]
            _sift(a, first, 0, length, value, before)


def _median_to_front(a: List[int], front: int, x: int, y: int, z: int, before: Before) -> None:
    if before(a[x], a[y]):
        pick = y if before(a[y], a[z]) else z if before(a[x], a[z]) else x
    else:
        pick = x if before(a[x], a[z]) else z if before(a[y], a[z]) else y
    a[front], a[pick] = a[pick], a[front]


def _partition(a: List[int], first: int, last: int, pivot: int, before: Before) -> int:
    while True:
        while before(a[first], a[pivot]):
            first += 1
        last -= 1
        while before(a[pivot], a[last]):
            last -= 1
        if first >= last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a: List[int], first: int, last: int, before: Before) -> None:
    for i in range(first + 1, last):
        value = a[i]
        if before(value, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
            continue
        j = i
        while before(value, a[j - 1]):
            a[j] = a[j - 1]
            j -= 1
        a[j] = value


def _nth(a: List[int], nth: int, before: Before) -> None:
    first, last = 0, len(a)
    if nth >= last:
        return
    depth = 2 * (last.bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, before)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        _median_to_front(a, first, first + 1, first + (last - first) // 2, last - 1, before)
        cut = _partition(a, first + 1, last, first, before)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, before)


def select_order(row: Sequence[float], k: int, largest: bool) -> List[int]:
    """The indices of the ``k`` largest (smallest) of ``row`` in the kernel's order, for ``k <= len(row) // 2``."""
    values = list(row)
    before: Before = (lambda i, j: values[i] > values[j]) if largest else (lambda i, j: values[i] < values[j])
    idx = list(range(len(values)))
    _nth(idx, k, before)
    top = idx[:k]
    top.sort(key=lambda i: -values[i] if largest else values[i])  # Python's sort is stable
    return top
