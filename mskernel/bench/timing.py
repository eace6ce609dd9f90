"""How a benchmark times: warm-up by time budget, interleaved rounds, repeats until the spread settles.

The method (:class:`Method`), stated with every result:

1. **Warm-up by time budget**: each implementation is called until ``warmup`` seconds have passed
   (at least once), which also compiles, allocates and fills caches. The warm-up calls estimate the
   time per call.
2. **Samples**: a warm-cache sample times ``number`` consecutive calls (``number`` chosen from the
   warm-up so that a sample lasts at least ``min_sample`` seconds) and divides; a cache-flushed
   sample times one call right after writing a buffer of ``flush_bytes`` (twice the last-level
   cache), so the call starts with its data evicted.
3. **Interleaving**: one round takes one sample of every implementation, in an order rotated each
   round, so a slow phase of the machine hits them all alike.
4. **Stopping**: after each round the relative spread ``(q_hi - q_lo) / median`` of each
   implementation's samples is recorded; rounds stop when, for every implementation, that spread
   moved by at most ``settle_tol`` over the last ``window`` rounds (at least ``min_rounds``), or at
   ``max_rounds`` / ``max_time`` -- then the timing says it did not settle.
5. **Statistics**: the median and a quantile band (``quantiles``, default 10%-90%) per call.
   Garbage collection is off while sampling.

Example:
    >>> m = Method(warmup=0.0, min_rounds=3, max_rounds=3)
    >>> t = measure({"noop": lambda: None}, m)["noop"]
    >>> t.rounds, len(t.samples), t.mode
    (3, 3, 'warm')
    >>> t.q_lo <= t.median <= t.q_hi
    True
"""
from __future__ import annotations

import gc
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from .env import llc_bytes

__all__ = ["Method", "Timing", "measure", "flush_cache"]

_clock = time.perf_counter


@dataclass(frozen=True)
class Method:
    """The timing method's settings (see the module docstring for what each one does).

    Example:
        >>> Method(warmup=0.05).describe().splitlines()[0]
        'warm-up 0.05 s per implementation (time budget); implementations interleaved, order rotated each round'
    """

    warmup: float = 0.1
    min_sample: float = 1e-3
    min_rounds: int = 5
    max_rounds: int = 50
    max_time: float = 2.0
    window: int = 5
    settle_tol: float = 0.02
    quantiles: tuple[float, float] = (0.1, 0.9)
    flush_bytes: Optional[int] = None

    def __post_init__(self) -> None:
        lo, hi = self.quantiles
        if not 0.0 <= lo < 0.5 < hi <= 1.0:
            raise ValueError(f"benchmark: quantiles must be (lo, hi) with 0 <= lo < 0.5 < hi <= 1, "
                             f"got {self.quantiles}")
        if self.min_rounds < 1 or self.max_rounds < self.min_rounds:
            raise ValueError(f"benchmark: need 1 <= min_rounds <= max_rounds, got min_rounds={self.min_rounds}, "
                             f"max_rounds={self.max_rounds}")
        if self.warmup < 0 or self.max_time <= 0:
            raise ValueError(f"benchmark: warmup must be >= 0 and max_time > 0, got warmup={self.warmup}, "
                             f"max_time={self.max_time}")

    @property
    def flush_size(self) -> int:
        """Bytes written between cache-flushed samples (``flush_bytes``, else 2x the last-level cache)."""
        return self.flush_bytes if self.flush_bytes is not None else 2 * llc_bytes()

    def describe(self, flushed: bool = True) -> str:
        """The method in words, as stated with every result (``flushed``: whether cache-flushed runs were made).

        Example:
            >>> "flushed" in Method().describe(flushed=False)
            False
        """
        lo, hi = (round(q * 100) for q in self.quantiles)
        samples = f"warm cache: each sample times >= {self.min_sample * 1e3:g} ms of back-to-back calls"
        if flushed:
            samples += f"; flushed: one call after writing {self.flush_size >> 20} MiB (2x LLC)"
        return "\n".join([
            f"warm-up {self.warmup:g} s per implementation (time budget); implementations interleaved, "
            "order rotated each round",
            samples,
            f"rounds until the relative spread (q{hi}-q{lo})/median moves <= {self.settle_tol:.0%} over "
            f"{self.window} rounds (min {self.min_rounds}, max {self.max_rounds} rounds or {self.max_time:g} s)",
            f"reported: median per call and the q{lo}-q{hi} band; gc off while sampling",
        ])


@dataclass
class Timing:
    """The samples of one implementation in one mode (``"warm"`` or ``"flushed"``), seconds per call.

    Example:
        >>> t = Timing("f", "warm", [3.0, 1.0, 2.0], 10, True, 3, (0.1, 0.9))
        >>> t.median, round(t.q_lo, 2), round(t.q_hi, 2)
        (2.0, 1.2, 2.8)
    """

    name: str
    mode: str
    samples: list[float]
    number: int
    settled: bool
    rounds: int
    quantiles: tuple[float, float] = (0.1, 0.9)
    spreads: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """The median time per call, in seconds."""
        return float(np.median(self.samples))

    @property
    def q_lo(self) -> float:
        """The lower quantile of the time per call."""
        return float(np.quantile(self.samples, self.quantiles[0]))

    @property
    def q_hi(self) -> float:
        """The upper quantile of the time per call."""
        return float(np.quantile(self.samples, self.quantiles[1]))

    @property
    def rel_spread(self) -> float:
        """``(q_hi - q_lo) / median``."""
        med = self.median
        return (self.q_hi - self.q_lo) / med if med > 0 else math.inf


_flush_buffer: Optional[np.ndarray] = None


def flush_cache(nbytes: int) -> None:
    """Write ``nbytes`` of a kept buffer, evicting what the caches held.

    Example:
        >>> flush_cache(1 << 16)
    """
    global _flush_buffer
    if _flush_buffer is None or _flush_buffer.nbytes != nbytes:
        _flush_buffer = np.zeros(nbytes, np.uint8)
    np.add(_flush_buffer, 1, out=_flush_buffer)


def _warm_up(thunk: Callable[[], Any], budget: float) -> float:
    """Call ``thunk`` for ``budget`` seconds (at least twice); the last calls' mean time per call."""
    thunk()  # the first call may compile or allocate: not part of the estimate
    calls, start = 0, _clock()
    now = start
    while calls < 1 or now - start < budget:
        thunk()
        calls += 1
        now = _clock()
    return (now - start) / calls


def _sample(thunk: Callable[[], Any], number: int, flush: Optional[int]) -> float:
    if flush is not None:
        flush_cache(flush)
    if number == 1:
        t0 = _clock()
        thunk()
        return _clock() - t0
    t0 = _clock()
    for _ in range(number):
        thunk()
    return (_clock() - t0) / number


def measure(thunks: dict[str, Callable[[], Any]], method: Method, flushed: bool = False) -> dict[str, Timing]:
    """Time each zero-argument callable by ``method``; warm-cache, or cache-flushed when ``flushed``.

    Example:
        >>> out = measure({"a": lambda: None, "b": lambda: None}, Method(warmup=0, min_rounds=2, max_rounds=2),
        ...               flushed=True)
        >>> [(t.name, t.mode, t.number, len(t.samples)) for t in out.values()]
        [('a', 'flushed', 1, 2), ('b', 'flushed', 1, 2)]
    """
    if not thunks:
        raise ValueError("benchmark: nothing to time (no implementations)")
    names = list(thunks)
    numbers: dict[str, int] = {}
    for name in names:
        per_call = _warm_up(thunks[name], method.warmup)
        numbers[name] = 1 if flushed else max(1, math.ceil(method.min_sample / max(per_call, 1e-9)))
    flush = method.flush_size if flushed else None
    samples: dict[str, list[float]] = {n: [] for n in names}
    spreads: dict[str, list[float]] = {n: [] for n in names}
    lo, hi = method.quantiles
    rounds = 0
    settled = False
    gc_was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        start = _clock()
        while True:
            order = names[rounds % len(names):] + names[:rounds % len(names)]
            for name in order:
                samples[name].append(_sample(thunks[name], numbers[name], flush))
            rounds += 1
            for name in names:
                s = samples[name]
                med = float(np.median(s))
                spreads[name].append((float(np.quantile(s, hi)) - float(np.quantile(s, lo))) / med
                                     if med > 0 else 0.0)
            if rounds >= max(method.min_rounds, method.window):
                settled = all(max(spreads[n][-method.window:]) - min(spreads[n][-method.window:])
                              <= method.settle_tol for n in names)
            if rounds >= method.min_rounds and (settled or rounds >= method.max_rounds
                                                or _clock() - start > method.max_time):
                break
    finally:
        if gc_was_on:
            gc.enable()
    mode = "flushed" if flushed else "warm"
    return {n: Timing(n, mode, samples[n], numbers[n], settled, rounds, method.quantiles, spreads[n])
            for n in names}
