"""Live progress for slow work: :class:`Ticker` reports ``(stage, seconds in that stage)`` from a thread.

The work itself stays in the calling (main) thread, so a kernel interrupt (KeyboardInterrupt)
reaches it -- the build layer then stops ninja and its compilers. The work says when it moves on
(``ticker.stage("linking")``, e.g. from the build layer's ``on_stage`` callback); the ticker's thread
only calls ``report(stage, seconds)``: nothing before ``delay`` seconds (fast work shows nothing) nor
before the first stage, then at once for every stage the work enters, and every ``interval`` seconds
for the current one (its time goes on). It is stopped and joined when the ``with`` block ends, after
a last report of the stage the work ended in, so no report arrives after the block. The thread runs
in a copy of the caller's context (ipykernel routes output to the running cell through context
variables). A ``report`` that raises ends the reports (Python prints the exception, as for any
thread); the work goes on.

Example:
    >>> seen = []
    >>> with Ticker(lambda stage, t: seen.append(stage), delay=0.0, interval=60.0) as t:
    ...     t.stage("compiling")
    ...     t.stage("linking")
    >>> [s for i, s in enumerate(seen) if i == 0 or seen[i - 1] != s]
    ['compiling', 'linking']
    >>> [name for name, seconds in t.stages()]
    ['compiling', 'linking']
"""
from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable

__all__ = ["Ticker"]


class Ticker:
    """Records the stages of a block of work and reports them from a background thread as they happen.

    ``report`` (or None: record only) gets ``(stage, seconds spent in it so far)``; see the module
    docstring for when. :meth:`stages` gives every stage with its duration.

    Example:
        >>> with Ticker(None) as t:
        ...     t.stage("loading")
        >>> t.current
        'loading'
    """

    def __init__(self, report: Callable[[str, float], None] | None, delay: float = 0.3,
                 interval: float = 0.25) -> None:
        self.report = report
        self.delay = delay
        self.interval = interval
        self.history: list[tuple[str, float]] = []  # (stage, when it began, in seconds since the block began)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = time.perf_counter()
        self._end: float | None = None

    @property
    def current(self) -> str:
        """The stage the work is in (``'starting'`` before the first :meth:`stage`)."""
        return self.history[-1][0] if self.history else "starting"

    def stage(self, name: str) -> None:
        """The work has moved on to stage ``name``: reported at once (after the delay); a repeat is ignored."""
        if name != self.current or not self.history:
            self.history.append((name, self.elapsed()))
            self._wake.set()

    def elapsed(self) -> float:
        """Seconds since the block started (until it ended)."""
        return self._end if self._end is not None else time.perf_counter() - self._t0

    def stages(self) -> list[tuple[str, float]]:
        """Every stage entered, in order, with the seconds spent in it (the last one: until now or the block's end).

        Example:
            >>> with Ticker(None) as t:
            ...     t.stage("compiling"); t.stage("compiling"); t.stage("loading")
            >>> [name for name, _ in t.stages()], all(s >= 0 for _, s in t.stages())
            (['compiling', 'loading'], True)
        """
        history, now = list(self.history), self.elapsed()
        ends = [start for _, start in history[1:]] + [now]
        return [(name, end - start) for (name, start), end in zip(history, ends)]

    def _loop(self) -> None:
        if self._stop.wait(self.delay):
            return
        starts = [start for _, start in self.history]
        # the stages that ended before the delay are not shown: start at the one current at the delay
        shown = next((i for i, end in enumerate(starts[1:]) if end > self.delay), max(len(starts) - 1, 0))
        while True:
            stopping = self._stop.is_set()
            stages = self.stages()
            for name, seconds in stages[shown:]:  # the stages entered since the last report, then the current one
                self.report(name, seconds)  # type: ignore[misc]
            shown = max(len(stages) - 1, 0)
            if stopping:
                return
            self._wake.wait(self.interval)
            self._wake.clear()

    def __enter__(self) -> Ticker:  # noqa: PYI034
        self._t0 = time.perf_counter()
        self._end = None
        if self.report is not None:
            ctx = contextvars.copy_context()
            self._thread = threading.Thread(target=ctx.run, args=(self._loop,), name="mskernel-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._end = time.perf_counter() - self._t0
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
