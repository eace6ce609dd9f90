"""Op table: ``MapCacheIdx``, the deprecated lookup-and-swap step of MindSpore's embedding cache (a primitive
with no functional op; measured on the 2.10 CPU wheel).

The cache's hashmap is an ``(n, 4)`` integer tensor, one row per slot: ``key`` (an embedding row's index), ``value``
(its slot in the device cache), ``step`` (the training step that last used it) and ``tag`` (its probe distance
plus one; 0 marks an empty slot). A key starts its probe at ``floor(frac(0.6180339 * key) * n)`` and walks
forward. ``MapCacheIdx()(hashmap, indices, step, emb_max_num, offset)`` looks each ``indices - offset`` up; a
key outside ``[0, emb_max_num)`` gets cache index -1, a found key its value (and the slot's step becomes
``step``), and each missing key is inserted in place of the next slot not used at this step or the one before,
whose cache index it takes over. The hashmap and ``step[0]`` (incremented) are written in place.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> rows = np.zeros((8, 4), np.int32)
    >>> rows[4], rows[5] = [9, 3, -5, 1], [1, 5, -5, 2]  # key 9 in its home slot 4, key 1 (home 4) one further
    >>> table = ms.Tensor(rows)
    >>> step = ms.Tensor(np.array([0], np.int32))
    >>> cache, old, miss, swap = ops.MapCacheIdx()(table, ms.Tensor(np.array([5, 12], np.int32)), step, 10, 0)
    >>> print(cache, old, miss, swap, step)
    [ 3 -1] [9] [5] [3] [1]
    >>> print(table[:, 0], table[:, 3])  # 5 took key 9's cache slot; key 1 moved back to its home slot
    [5 0 0 0 1 1 0 0] [1 0 0 0 1 0 0 0]
"""
from __future__ import annotations

import logging
import math
from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops.opdef import Op

logger = logging.getLogger(__name__)

_OP = "MapCacheIdx"
_KEY, _VALUE, _STEP, _TAG = range(4)
_RATIO = 0.6180339
_warned: List[bool] = []


def _warn_deprecated() -> None:
    """The wheel's one-time notice as the primitive is built (it logs it once per process)."""
    if not _warned:
        _warned.append(True)
        logger.warning("'%s' is deprecated from version 2.8.0 and will be removed in a future version.", _OP)


def _home(key: int, n: int) -> int:
    """The first slot a key probes: the fractional part of ``key * 0.6180339``, scaled to the table."""
    scaled = _RATIO * key
    return int((scaled - math.floor(scaled)) * n)


def _full(step: str) -> RuntimeError:
    return RuntimeError(f"For '{_OP}', hashmap is full, {step} failed, please set a larger vocab_cache_size!")


def _lookup(rows: np.ndarray, key: int) -> int:
    """The slot holding ``key``, or the empty slot that ends its probe."""
    n = len(rows)
    slot, seen = _home(key, n), 1
    while rows[slot, _TAG] != 0 and rows[slot, _KEY] != key:
        slot = (slot + 1) % n
        if seen > n:
            raise _full("search cache idx")
        seen += 1
    return slot


def _close_gap(rows: np.ndarray, hole: int) -> None:
    """Pull later entries of the probe run back into the freed slot ``hole`` while that shortens their probe
    (a freed slot keeps its old key, value and step; only its tag becomes 0)."""
    n = len(rows)
    at, dist = (hole + 1) % n, 1
    while rows[at, _TAG] != 0:
        if rows[at, _TAG] > dist:
            rows[hole, :_TAG] = rows[at, :_TAG]
            rows[hole, _TAG] = rows[at, _TAG] - dist
            rows[at, _TAG] = 0
            hole, dist = at, 0
        at, dist = (at + 1) % n, dist + 1


def _insert(rows: np.ndarray, key: int, step: int) -> Tuple[int, int]:
    """Put ``key`` in the first empty slot of its probe and evict the next entry not used at ``step`` or the
    step before; ``(evicted key, its cache index)``, which the new entry takes over."""
    n = len(rows)
    slot, dist = _home(key, n), 1
    while rows[slot, _TAG] != 0:
        slot = (slot + 1) % n
        if dist > n:
            raise _full("insert new key")
        dist += 1
    rows[slot, _KEY], rows[slot, _STEP], rows[slot, _TAG] = key, step, dist
    victim, walked = (slot + 1) % n, 1
    while rows[victim, _TAG] == 0 or rows[victim, _STEP] >= step - 1:
        victim = (victim + 1) % n
        if walked > n:
            raise _full("delete old key")
        walked += 1
    old_key, cache_idx = int(rows[victim, _KEY]), int(rows[victim, _VALUE])
    rows[slot, _VALUE] = cache_idx
    rows[victim, _TAG] = 0
    _close_gap(rows, victim)
    return old_key, cache_idx


def _scalar(x: Any) -> int:
    return int(x._data.reshape(-1)[0]) if isinstance(x, Tensor) else int(x)


_ACCEPTED = ("int8", "int16", "int32", "int64")


def _check_inputs(inputs: Tuple[Any, ...]) -> Tensor:
    """The wheel's checks of the five inputs: their number, the hashmap's rank and dtype, and that no input
    needs the (written in place, so unconvertible) hashmap converted to another dtype."""
    if len(inputs) != 5:
        raise ValueError(f"{_OP} inputs number {len(inputs)} does not match the requires signature size 5")
    table = inputs[0]
    if not isinstance(table, Tensor):
        raise TypeError(f"For '{_OP}', the 1th input hashmap can not be implicitly converted. Its type is "
                        f"{type(table).__name__}.")
    if table.ndim != 2:
        raise ValueError(f"For '{_OP}', the dimension of hashmap must be equal to 2, but got: {table.ndim}.")
    tensors = [t._data.dtype for t in inputs if isinstance(t, Tensor)]
    floats = [d for d in tensors if d.kind == "f"]
    common = max(floats or tensors, key=lambda d: d.itemsize)
    if common != table._data.dtype:
        raise TypeError(f"Data type conversion is not supported for a 'Parameter', nor for the input tensor of an "
                        f"in-place operator, the argument[hashmap]'s data type of primitive[{_OP}] is "
                        f"{table.dtype}, which cannot be converted to data type {mstype.to_dtype(common)} "
                        "automatically.")
    if table._data.dtype.name not in _ACCEPTED:
        raise TypeError(f"For primitive[{_OP}], the input argument[hashmap] must be a type of {{Tensor[Int16], "
                        f"Tensor[Int32], Tensor[Int64], Tensor[Int8]}}, but got Tensor[{table.dtype}].")
    if table.shape[0] == 0:
        raise RuntimeError(f"For '{_OP}', the first dimension of 'HashMap' must be greater than 0, but got 0")
    if table.shape[1] != 4:  # the wheel reads past such a table's end; here it is an error
        raise ValueError(f"For '{_OP}', 'hashmap' must have 4 columns (key, value, step, tag of each slot), but "
                         f"got shape {list(table.shape)}.")
    for i, name in ((1, "indices"), (2, "step")):
        if not isinstance(inputs[i], Tensor):
            raise TypeError(f"For '{_OP}', the input argument '{name}' must be a Tensor, but got "
                            f"{type(inputs[i]).__name__}.")
    return table


def map_cache_idx(*inputs: Any) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(cache_idx, old_emb_idx, miss_emb_idx, swap_cache_idx)`` of a lookup of ``indices - offset`` in the
    cache ``hashmap``, given as ``(hashmap, indices, step, emb_max_num, offset)``; the hashmap is written in
    place, and so is ``step`` (incremented) when it has the hashmap's dtype (else the wheel converts a copy); an
    int8 or int16 hashmap is not (the wheel's kernel runs on an int32 copy of it)."""
    table = _check_inputs(inputs)
    _, idx, step, emb_max_num, offset = inputs
    now, limit, shift = _scalar(step), _scalar(emb_max_num), _scalar(offset)
    # the CPU kernel is built for int32 and int64: the wheel runs an int8/int16 table on an int32 copy, so such a
    # table (and its step) is left as it was
    narrow = table._data.dtype.itemsize < 4
    rows = table._data.astype(np.int32) if narrow else table._data
    keys = idx._data.reshape(-1).astype(np.int64) - shift
    cache = np.full(keys.shape, -1, np.int64)
    missed: List[int] = []
    table._version += 0 if narrow else 1
    for i, key in enumerate(keys.tolist()):
        if 0 <= key < limit:
            slot = _lookup(rows, key)
            if rows[slot, _TAG] == 0:
                missed.append(i)
            else:
                cache[i] = rows[slot, _VALUE]
                rows[slot, _STEP] = now
    miss = [int(keys[i]) for i in missed]
    swapped = [_insert(rows, key, now) for key in miss]
    old = [k for k, _ in swapped]
    swap = [c for _, c in swapped]
    cache[missed] = swap
    if step._data.dtype == rows.dtype and not narrow:
        step._data.reshape(-1)[0] += 1
        step._version += 1
    dt = table._data.dtype
    return (Tensor._wrap(cache.reshape(idx.shape).astype(dt)), Tensor._wrap(np.array(old, dt)),
            Tensor._wrap(np.array(miss, dt)), Tensor._wrap(np.array(swap, dt)))


map_cache_idx.init_check = _warn_deprecated  # type: ignore[attr-defined]

OPS: List[Op] = [
    Op("_map_cache_idx", "hashmap, indices, step, emb_max_num, offset", fn=map_cache_idx,
       prim="MapCacheIdx()(*inputs) -> *inputs"),
]

#: the examples, by primitive name (see :mod:`mskernel.ops.table`)
EXAMPLES = {
    "MapCacheIdx": ("table = ms.Tensor([[2, 0, -5, 1], [7, 1, -5, 1], [0, 0, 0, 0], [0, 0, 0, 0]])",
                    "ops.MapCacheIdx()(table, ms.Tensor([7, 3]), ms.Tensor([0]), 10, 0)[0]", "[1 0]"),
}
