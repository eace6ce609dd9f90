"""``mindspore.runtime``: streams, events and the kernel-launch settings of a device, as MindSpore's CPU wheel has
them. A CPU runs each op to completion in order, so there is one stream (``stream id:0``), waiting on a stream or
an event returns at once, and the launch, affinity, memory and core-limit settings are recorded and change no
result. Code written for a device that creates streams, records events or limits cores runs unchanged.

Example:
    >>> import mskernel as ms
    >>> s = ms.runtime.Stream()
    >>> with ms.runtime.StreamCtx(s):
    ...     y = ms.Tensor([1.0, 2.0]) * 2
    >>> s, ms.runtime.current_stream() == s
    (Stream(device_name=CPU, device_id:0, stream id:0), True)
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from mskernel.device_memory import synchronize

__all__ = ["Stream", "Event", "StreamCtx", "StreamLimitCtx", "current_stream", "default_stream",
           "communication_stream", "set_cur_stream", "synchronize", "launch_blocking", "set_cpu_affinity",
           "dispatch_threads_num", "set_memory", "set_kernel_launch_capture", "set_kernel_launch_group",
           "get_stream_limit", "set_stream_limit", "reset_stream_limit", "get_device_limit", "set_device_limit",
           "SETTINGS"]

#: what the settings functions recorded (they change no result on a CPU)
SETTINGS: Dict[str, Any] = {"launch_blocking": False, "dispatch_threads_num": None, "cpu_affinity": None,
                            "memory": None, "kernel_launch_capture": None, "kernel_launch_group": None,
                            "device_limit": None}


class Stream:
    """The CPU's one stream: every op has finished when it returns, so ``synchronize``, ``wait_stream`` and
    ``wait_event`` return at once. All streams are the same stream (``stream id:0``).

    Example:
        >>> Stream() == Stream(), Stream().query()
        (True, True)
    """

    def __init__(self, priority: int = 0, **kwargs: Any) -> None:
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"For 'Stream', 'priority' must be an int, but got {type(priority).__name__}")
        self._limits: Dict[str, int] = {"cube_core_num": -1, "vector_core_num": -1}

    def query(self) -> bool:
        """Whether every op on the stream has finished: always, on a CPU."""
        return True

    def synchronize(self) -> None:
        """Wait for the stream's ops (they have finished)."""

    def wait_stream(self, stream: "Stream") -> None:
        """Make this stream wait for ``stream`` (one stream: nothing to wait for)."""
        _check_stream(stream, "wait_stream")

    def wait_event(self, event: "Event") -> None:
        """Make this stream wait for ``event`` (recorded events have completed)."""

    def record_event(self, event: Optional["Event"] = None) -> "Event":
        """Record ``event`` (a new one when None) on this stream."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "Stream(device_name=CPU, device_id:0, stream id:0)"


class Event:
    """A marker recorded on a stream; on a CPU it has completed when recorded, and the time between two timed
    events is the wall time between their recordings, in milliseconds.

    Example:
        >>> start, end = Event(enable_timing=True), Event(enable_timing=True)
        >>> start.record(); end.record(); start.elapsed_time(end) >= 0.0
        True
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False) -> None:
        self.enable_timing, self.blocking = bool(enable_timing), bool(blocking)
        self._time: Optional[float] = None

    def record(self, stream: Optional[Stream] = None) -> None:
        """Record the event on ``stream`` (the current one when None)."""
        import time

        if stream is not None:
            _check_stream(stream, "Event.record")
        self._time = time.perf_counter()

    def wait(self, stream: Optional[Stream] = None) -> None:
        """Make ``stream`` wait for the event (it has completed)."""

    def synchronize(self) -> None:
        """Wait for the event (it has completed)."""

    def query(self) -> bool:
        """Whether the event has completed: always, on a CPU."""
        return True

    def elapsed_time(self, end_event: "Event") -> float:
        """Milliseconds between this event's recording and ``end_event``'s."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("For 'Event.elapsed_time', both events must be created with enable_timing=True")
        if self._time is None or end_event._time is None:
            raise RuntimeError("For 'Event.elapsed_time', both events must be recorded first")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return (f"Event(enable_timing={int(self.enable_timing)}, blocking:{int(self.blocking)}, "
                f"is_created:{int(self._time is not None)}, event:0)")


_STREAM = Stream()
_CURRENT: List[Stream] = [_STREAM]


def _check_stream(stream: Any, where: str) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{where}', the argument 'stream' should be Stream, but got {type(stream).__name__}")


def current_stream() -> Stream:
    """The stream ops run on (the CPU's one stream).

    Example:
        >>> current_stream()
        Stream(device_name=CPU, device_id:0, stream id:0)
    """
    return _CURRENT[-1]


def default_stream() -> Stream:
    """The default stream (the CPU's one stream).

    Example:
        >>> default_stream() == current_stream()
        True
    """
    return _STREAM


def communication_stream() -> Stream:
    """The stream collective communication runs on (the CPU's one stream).

    Example:
        >>> communication_stream() == default_stream()
        True
    """
    return _STREAM


def set_cur_stream(stream: Stream) -> None:
    """Make ``stream`` the current stream.

    Example:
        >>> set_cur_stream(Stream()); current_stream() == Stream()
        True
    """
    _check_stream(stream, "set_cur_stream")
    _CURRENT[-1] = stream


class StreamCtx:
    """``with StreamCtx(stream):`` runs its ops on ``stream`` (the CPU's one stream).

    Example:
        >>> with StreamCtx(Stream()):
        ...     current_stream() == Stream()
        True
    """

    def __init__(self, ctx_stream: Optional[Stream]) -> None:
        if ctx_stream is not None:
            _check_stream(ctx_stream, "StreamCtx")
        self.stream = ctx_stream

    def __enter__(self) -> "StreamCtx":
        _CURRENT.append(self.stream if self.stream is not None else _CURRENT[-1])
        return self

    def __exit__(self, *exc: Any) -> None:
        _CURRENT.pop()


def set_stream_limit(stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
    """Limit the cube and vector cores ``stream``'s ops may use (recorded; a CPU has neither).

    Example:
        >>> s = Stream(); set_stream_limit(s, 2, 4); get_stream_limit(s)
        {'cube_core_num': 2, 'vector_core_num': 4}
    """
    _check_stream(stream, "set_stream_limit")
    stream._limits = {"cube_core_num": int(cube_num), "vector_core_num": int(vector_num)}


def get_stream_limit(stream: Stream) -> Dict[str, int]:
    """The core limits set on ``stream`` (-1: none).

    Example:
        >>> get_stream_limit(Stream())
        {'cube_core_num': -1, 'vector_core_num': -1}
    """
    _check_stream(stream, "get_stream_limit")
    return dict(stream._limits)


def reset_stream_limit(stream: Stream) -> None:
    """Remove ``stream``'s core limits.

    Example:
        >>> s = Stream(); set_stream_limit(s, 1, 1); reset_stream_limit(s); get_stream_limit(s)["cube_core_num"]
        -1
    """
    _check_stream(stream, "reset_stream_limit")
    stream._limits = {"cube_core_num": -1, "vector_core_num": -1}


class StreamLimitCtx:
    """``with StreamLimitCtx(stream, cube_num, vector_num):`` limits ``stream``'s cores inside the block.

    Example:
        >>> s = Stream()
        >>> with StreamLimitCtx(s, 2, 2):
        ...     get_stream_limit(s)["cube_core_num"]
        2
    """

    def __init__(self, stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
        _check_stream(stream, "StreamLimitCtx")
        self.stream, self.limits = stream, (cube_num, vector_num)

    def __enter__(self) -> "StreamLimitCtx":
        self._before = get_stream_limit(self.stream)
        set_stream_limit(self.stream, *self.limits)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stream._limits = self._before


def set_device_limit(device: Any, cube_num: int = -1, vector_num: int = -1) -> None:
    """Limit a device's cube and vector cores (recorded).

    Example:
        >>> set_device_limit(0, 4, 8); get_device_limit(0)
        {'cube_core_num': 4, 'vector_core_num': 8}
    """
    SETTINGS["device_limit"] = {"cube_core_num": int(cube_num), "vector_core_num": int(vector_num)}


def get_device_limit(device: Any) -> Dict[str, int]:
    """The core limits set with :func:`set_device_limit` (-1: none).

    Example:
        >>> sorted(get_device_limit(0))
        ['cube_core_num', 'vector_core_num']
    """
    return dict(SETTINGS["device_limit"] or {"cube_core_num": -1, "vector_core_num": -1})


def launch_blocking() -> None:
    """Launch each kernel synchronously (a CPU always does).

    Example:
        >>> launch_blocking(); SETTINGS["launch_blocking"]
        True
    """
    SETTINGS["launch_blocking"] = True


def dispatch_threads_num(threads_num: int) -> None:
    """The number of threads that dispatch ops (recorded).

    Example:
        >>> dispatch_threads_num(3); SETTINGS["dispatch_threads_num"]
        3
    """
    if isinstance(threads_num, bool) or not isinstance(threads_num, int) or threads_num < 1:
        raise ValueError(f"For 'dispatch_threads_num', 'threads_num' must be a positive int, but got {threads_num!r}")
    SETTINGS["dispatch_threads_num"] = threads_num


def set_cpu_affinity(enable_affinity: bool, affinity_cpu_list: Any = None, module_to_cpu_dict: Any = None,
                     bind_file: Any = None) -> None:
    """Bind MindSpore's threads to CPU cores (recorded; mskernel's threads are the host's).

    Example:
        >>> set_cpu_affinity(True); SETTINGS["cpu_affinity"]["enable_affinity"]
        True
    """
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', 'enable_affinity' must be bool, but got "
                        f"{type(enable_affinity).__name__}")
    SETTINGS["cpu_affinity"] = {"enable_affinity": enable_affinity, "affinity_cpu_list": affinity_cpu_list,
                                "module_to_cpu_dict": module_to_cpu_dict, "bind_file": bind_file}


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """The device memory pool's sizes (recorded; mskernel's tensors live in host memory).

    Example:
        >>> set_memory(max_size="2GB"); SETTINGS["memory"]["max_size"]
        '2GB'
    """
    for name, value in (("init_size", init_size), ("increase_size", increase_size), ("max_size", max_size),
                        ("huge_page_reserve_size", huge_page_reserve_size)):
        if not isinstance(value, str) or not value.endswith("GB"):
            raise ValueError(f"For 'set_memory', '{name}' must be a size string such as '2GB', but got {value!r}")
    SETTINGS["memory"] = {"init_size": init_size, "increase_size": increase_size, "max_size": max_size,
                          "optimize_level": optimize_level, "huge_page_reserve_size": huge_page_reserve_size}


def set_kernel_launch_capture(enable_capture_graph: bool, op_capture_skip: Optional[List[str]] = None) -> None:
    """Capture kernel launches into a graph (recorded; not with :func:`set_kernel_launch_group`).

    Example:
        >>> set_kernel_launch_capture(True, ["matmul"]); SETTINGS["kernel_launch_capture"]
        (True, ['matmul'])
    """
    if SETTINGS["kernel_launch_group"] is not None:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    SETTINGS["kernel_launch_capture"] = (bool(enable_capture_graph), op_capture_skip)


def set_kernel_launch_group(thread_num: int = 2, kernel_group_num: int = 8) -> None:
    """Launch kernels in groups from several threads (recorded; not with kernel-launch capture).

    Example:
        >>> SETTINGS["kernel_launch_capture"] = None
        >>> set_kernel_launch_group(); SETTINGS["kernel_launch_group"]
        (2, 8)
    """
    if SETTINGS["kernel_launch_capture"] is not None:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    SETTINGS["kernel_launch_group"] = (thread_num, kernel_group_num)
