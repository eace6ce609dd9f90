"""The threads of hybrid ``parallel`` loops: how many, set by what, and what they did.

A ``parallel`` loop whose iterations are provably independent (:mod:`.schedule`) runs on mskernel's
thread pool, one per process (``thread_pool.h``, in the dispatcher): the calling thread takes chunks of
iterations from a shared counter together with whichever workers wake up in time, and when the counter
is exhausted it waits only for chunks already running -- never for a worker that has not started. So on
a busy machine, where a woken worker may wait milliseconds for a core, a loop costs what one thread
costs plus a wake-up call; on idle cores it uses them all. Workers sleep between loops (passive waiting:
no spinning, no CPU taken from other processes). Loops below :data:`~.codegen.PARALLEL_MIN_WORK`
iterations (times those of directly nested loops) run on the calling thread without touching the pool.

The team size, the calling thread included, comes from the first of these that is set:

1. ``ms.set_context(runtime_num_threads=N)`` -- MindSpore's setting for the thread pool of its CPU
   kernels (``0``: unset again);
2. the environment variable ``MSKERNEL_NUM_THREADS``;
3. ``OMP_NUM_THREADS`` (its first value), as OpenMP programs read it;
4. the cores this process may run on (its affinity mask).

``1`` runs every loop on the calling thread. Results do not depend on the team size: the iterations of
a parallel loop are independent. The environment is read when the first kernel runs (and by
:func:`refresh`); ``set_context`` takes effect at once. ``ms.benchmark`` records the team, its source
and the policy, and how many of the timed loops the workers joined (:func:`pool_info`).

Example:
    >>> import mskernel as ms
    >>> ms.set_context(runtime_num_threads=1)
    >>> thread_setting()
    ThreadSetting(threads=1, source='set_context(runtime_num_threads=1)')
    >>> ms.set_context(runtime_num_threads=0)   # unset: the environment or the cores decide again
    >>> thread_setting().source in ("MSKERNEL_NUM_THREADS", "OMP_NUM_THREADS", "the cores this process may run on")
    True
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any, Optional

from mskernel import context

__all__ = ["ThreadSetting", "PoolStats", "POLICY", "thread_setting", "refresh", "pool_stats", "pool_info"]

#: how the pool schedules and waits, in one line (what ``ms.benchmark`` records as the policy)
POLICY = ("mskernel pool: the caller runs chunks with the workers that wake and waits only for chunks in "
          "progress; workers sleep between loops (passive)")

_pool: Any = None  # the dispatcher module once built (compiler.dispatcher): threads(), pool_stats()


@dataclass(frozen=True)
class ThreadSetting:
    """The team size of parallel loops (``threads``, the calling thread included) and what set it.

    Example:
        >>> ThreadSetting(2, "MSKERNEL_NUM_THREADS").threads
        2
    """

    threads: int
    source: str


@dataclass(frozen=True)
class PoolStats:
    """Counters of the thread pool since the process started (:func:`pool_stats`; subtract two to get what
    happened in between): ``threads`` (the team size now), ``workers`` (worker threads running; started
    by the first loop that needs them), ``loops`` run on the pool, ``alone`` (parallel loops run on the
    calling thread because another thread's loop had the pool), ``chunks``, ``worker_chunks`` (those run by
    workers rather than the caller) and ``joined`` (loops in which some worker ran a chunk).

    Example:
        >>> a = PoolStats(2, 1, 10, 0, 320, 100, 9); b = PoolStats(2, 1, 30, 0, 960, 400, 28)
        >>> (b - a).loops, (b - a).worker_share
        (20, 0.46875)
    """

    threads: int
    workers: int
    loops: int
    alone: int
    chunks: int
    worker_chunks: int
    joined: int

    def __sub__(self, other: "PoolStats") -> "PoolStats":
        return PoolStats(self.threads, self.workers, self.loops - other.loops, self.alone - other.alone,
                         self.chunks - other.chunks, self.worker_chunks - other.worker_chunks,
                         self.joined - other.joined)

    @property
    def worker_share(self) -> float:
        """The fraction of the chunks the workers ran (0.0 when no chunk ran)."""
        return self.worker_chunks / self.chunks if self.chunks else 0.0


_warned: set[str] = set()


def _positive(name: str) -> Optional[int]:
    """The positive integer in environment variable ``name`` (OMP_NUM_THREADS: its first value), or None."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    first = text.split(",")[0].strip()
    if first.isdigit() and int(first) > 0:
        return int(first)
    if name not in _warned:  # an unusable value is ignored, said once
        _warned.add(name)
        warnings.warn(f"mskernel: {name}={text!r} is not a positive number of threads; ignored", UserWarning,
                      stacklevel=3)
    return None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_setting() -> ThreadSetting:
    """The team size that the settings give now, and which setting gave it (see the module docstring).

    Example:
        >>> s = thread_setting()
        >>> s.threads >= 1 and isinstance(s.source, str)
        True
    """
    if context.is_set("runtime_num_threads"):
        n = context.get_context("runtime_num_threads")
        if n > 0:
            return ThreadSetting(int(n), f"set_context(runtime_num_threads={n})")
    for name in ("MSKERNEL_NUM_THREADS", "OMP_NUM_THREADS"):
        n = _positive(name)
        if n is not None:
            return ThreadSetting(n, name)
    return ThreadSetting(_cores(), "the cores this process may run on")


def refresh() -> int:
    """Read the settings again (e.g. after changing ``os.environ``) and resize the pool; the team size.

    Example:
        >>> refresh() == thread_setting().threads
        True
    """
    n = thread_setting().threads
    if _pool is not None:
        _pool.threads(n)
    return n


def attach(module: Any) -> None:
    """Give the dispatcher module (it holds the pool) its team size, and follow ``set_context`` from now on
    (called once, by :func:`mskernel.hybrid.compiler.dispatcher`, when it loads the dispatcher).

    Example:
        >>> from mskernel.hybrid import compiler
        >>> _ = compiler.dispatcher()   # loads the dispatcher (building it once), which attaches it here
        >>> pool_stats().threads == thread_setting().threads
        True
    """
    global _pool
    first = _pool is None
    _pool = module
    refresh()
    if first:
        context.watch("runtime_num_threads", refresh)


def pool_stats() -> Optional[PoolStats]:
    """The pool's counters (:class:`PoolStats`), or None before the first hybrid kernel ran in this process.

    Example:
        >>> from mskernel.hybrid.compiler import dispatcher
        >>> _ = dispatcher()
        >>> pool_stats().threads == thread_setting().threads
        True
    """
    if _pool is None:
        return None
    return PoolStats(*_pool.pool_stats())


def pool_info(since: Optional[PoolStats] = None) -> dict[str, Any]:
    """The policy and the team as plain values (what ``ms.benchmark`` records): ``policy``, ``threads``,
    ``set_by``, ``min_work`` (the work below which a loop stays on the calling thread) and, once a kernel
    has run, ``workers`` and the counters of :class:`PoolStats` -- since ``since`` when given.

    Example:
        >>> info = pool_info()
        >>> info["threads"] == thread_setting().threads, info["policy"] == POLICY
        (True, True)
    """
    from .codegen import PARALLEL_MIN_WORK

    setting = thread_setting()
    info: dict[str, Any] = {"policy": POLICY, "threads": setting.threads, "set_by": setting.source,
                            "min_work": PARALLEL_MIN_WORK}
    stats = pool_stats()
    if stats is not None:
        if since is not None:
            stats = stats - since
        info.update(threads=stats.threads, workers=stats.workers, loops=stats.loops, alone=stats.alone,
                    chunks=stats.chunks, worker_chunks=stats.worker_chunks, joined=stats.joined)
    return info
