"""Live progress for slow work: :class:`Ticker` reports ``(stage, elapsed seconds)`` from a thread.

The work itself stays in the calling (main) thread, so a kernel interrupt (KeyboardInterrupt)
reaches it -- the build layer then stops ninja and its compilers. The ticker's thread only calls
``report(stage, elapsed)``: first after ``delay`` seconds (fast work shows nothing), then every
``interval`` seconds, and it is stopped and joined when the ``with`` block ends, so no report
arrives after it. The thread runs in a copy of the caller's context (ipykernel routes output to the
running cell through context variables).

Example:
    >>> seen = []
    >>> with Ticker(lambda stage, t: seen.append(stage), delay=0.0, interval=0.01) as t:
    ...     t.stage("compiling")
    ...     time.sleep(0.05)
    >>> "compiling" in seen
    True
"""
from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable

__all__ = ["Ticker"]


class Ticker:
    """Calls ``report(stage, elapsed)`` periodically from a background thread while a block runs.

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
        self.current = "starting"
        self.reported = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0

    def stage(self, name: str) -> None:
        """Set the stage shown by the next report."""
        self.current = name

    def elapsed(self) -> float:
        """Seconds since the block started."""
        return time.perf_counter() - self._t0

    def _loop(self) -> None:
        if self._stop.wait(self.delay):
            return
        while True:
            try:
                self.report(self.current, self.elapsed())  # type: ignore[misc]
                self.reported = True
            except Exception:  # noqa: BLE001 - a display failure must not break the build it reports on
                return
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> Ticker:  # noqa: PYI034
        self._t0 = time.perf_counter()
        if self.report is not None:
            ctx = contextvars.copy_context()
            self._thread = threading.Thread(target=ctx.run, args=(self._loop,), name="mskernel-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
