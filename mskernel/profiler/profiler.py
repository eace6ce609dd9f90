"""The op-call profiler behind :class:`Profiler` (see :mod:`mskernel.profiler`)."""
from __future__ import annotations

import json
import os
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["Profiler", "OpRow"]


def _op_codes() -> Dict[Any, str]:
    """The code object of each table op's functional -> the op's primitive name (``Exp``, ``MatMul``)."""
    from mskernel.ops import table  # the profiler sits above the op table

    codes: Dict[Any, str] = {}
    for module in table.MODULES:
        for op in module.OPS:
            fn = op.functional()
            code = getattr(fn, "__code__", None)
            if code is not None:
                codes.setdefault(code, op.prim_name)
    return codes


@dataclass
class OpRow:
    """One op type's line of the table: calls, total and mean time (ms), share of all op time.

    Example:
        >>> OpRow("Exp", 2, 0.5, 0.25, 1.0).avg_ms
        0.25
    """

    op_type: str
    calls: int
    total_ms: float
    avg_ms: float
    share: float


class Profiler:
    """MindSpore's ``Profiler(**kwargs)`` for host ops on the CPU (see :mod:`mskernel.profiler`). Keyword
    arguments: ``output_path`` (default ``'./data'``), ``start_profile`` (default True); MindSpore's device options
    (``profile_memory``, ``aic_metrics``, ...) are accepted and have nothing to measure here.

    Example:
        >>> import tempfile, mskernel as ms
        >>> with Profiler(output_path=tempfile.mkdtemp(), start_profile=False) as p:
        ...     _ = ms.ops.sin(ms.ops.exp(ms.Tensor([[1.0]])))
        >>> [r.op_type for r in p.rows()]
        ['Exp', 'Sin']
    """

    def __init__(self, **kwargs: Any) -> None:
        self.output_path = os.path.realpath(str(kwargs.get("output_path", "./data")))
        self.options = dict(kwargs)
        self.events: List[Tuple[str, int, int]] = []  # (op, start ns since the epoch, duration ns)
        self._codes: Dict[Any, str] = {}
        self._stack: List[Tuple[Any, int]] = []
        self._previous: Any = None
        self._running = False
        self._dir: Optional[str] = None
        if kwargs.get("start_profile", True):
            self.start()

    # -- collection ------------------------------------------------------------------------------------
    def _hook(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            name = self._codes.get(frame.f_code)
            if name is not None and not self._stack:
                self._stack.append((frame, time.perf_counter_ns()))
            elif name is not None:
                self._stack.append((frame, 0))
        elif event == "return" and self._stack and self._stack[-1][0] is frame:
            _, t0 = self._stack.pop()
            if not self._stack:
                end = time.perf_counter_ns()
                self.events.append((self._codes[frame.f_code], self._epoch + t0, end - t0))

    def start(self) -> None:
        """Start timing op calls (on this thread).

        Example:
            >>> p = Profiler(start_profile=False); p.start(); p.stop(); p.events
            []
        """
        if self._running:
            return
        if not self._codes:
            self._codes = _op_codes()
        self._epoch = time.time_ns() - time.perf_counter_ns()
        self._previous = sys.getprofile()
        sys.setprofile(self._hook)
        self._running = True

    def stop(self) -> None:
        """Stop timing.

        Example:
            >>> p = Profiler(); p.stop(); p.stop()
        """
        if self._running:
            sys.setprofile(self._previous)
            self._running = False
            self._stack.clear()

    def step(self) -> None:
        """Mark a step (MindSpore's step boundary for its schedule; every op is recorded here)."""

    def __enter__(self) -> "Profiler":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
        self.analyse()

    # -- results ---------------------------------------------------------------------------------------
    def rows(self) -> List[OpRow]:
        """The per-op-type table, in the order the op types were first called.

        Example:
            >>> Profiler(start_profile=False).rows()
            []
        """
        order: Dict[str, List[int]] = {}
        for name, _, dur in self.events:
            order.setdefault(name, []).append(dur)
        total = sum(sum(d) for d in order.values()) or 1
        return [OpRow(name, len(d), sum(d) / 1e6, sum(d) / 1e6 / len(d), sum(d) / total) for name, d in order.items()]

    def op_table(self) -> str:
        """The per-op-type table as text (op, calls, total ms, mean ms, share).

        Example:
            >>> print(Profiler(start_profile=False).op_table())
            op_type  calls  total(ms)  avg(ms)  percent
        """
        lines = ["op_type  calls  total(ms)  avg(ms)  percent"]
        for r in self.rows():
            lines.append(f"{r.op_type}  {r.calls}  {r.total_ms:.6f}  {r.avg_ms:.6f}  {100 * r.share:.2f}%")
        return "\n".join(lines)

    def analyse(self, offline_path: Optional[str] = None, pretty: bool = False, step_list: Any = None,
                mode: str = "sync") -> None:
        """Stop, then write the profile files (see :mod:`mskernel.profiler`) under ``output_path``.

        Example:
            >>> import os, tempfile
            >>> p = Profiler(output_path=tempfile.mkdtemp()); p.analyse()
            >>> sorted(os.listdir(os.path.join(p.profile_dir, "FRAMEWORK")))  # doctest: +NORMALIZE_WHITESPACE
            ['cpu_op_detail_info_0.csv', 'cpu_op_execute_timestamp_0.txt', 'cpu_op_type_info_0.csv']
        """
        self.stop()
        stamp = time.strftime("%Y%m%d%H%M%S", time.localtime()) + "000"
        self._dir = os.path.join(self.output_path, f"{socket.gethostname()}_{os.getpid()}_{stamp}_ascend_ms")
        fw = os.path.join(self._dir, "FRAMEWORK")
        out = os.path.join(self._dir, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(fw, exist_ok=True)
        os.makedirs(out, exist_ok=True)
        rows = self.rows()
        with open(os.path.join(fw, "cpu_op_type_info_0.csv"), "w") as f:
            f.write("op_type,type_occurrences,execution_frequency(per-step),total_compute_time,avg_time(ms),percent\n")
            for r in rows:
                f.write(f"{r.op_type},{r.calls},1,{r.total_ms:.6g},{r.avg_ms:.6g},{r.share:.6g}\n")
        with open(os.path.join(fw, "cpu_op_detail_info_0.csv"), "w") as f:
            f.write("op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),op_avg_time(ms),"
                    "total_proportion,subgraph,pid\n")
            for r in rows:
                f.write(f"Host,{r.op_type},{r.op_type},{r.op_type},{r.calls},{r.total_ms:.6g},{r.avg_ms:.6g},"
                        f"{r.share:.6g},Default,{os.getpid()}\n")
        per_op: Dict[str, List[Tuple[int, int]]] = {}
        for name, start, dur in self.events:
            per_op.setdefault(name, []).append((start, dur))
        with open(os.path.join(fw, "cpu_op_execute_timestamp_0.txt"), "w") as f:
            for name, calls in per_op.items():
                f.write(f"{name};HostCpuOps;" + "".join(f"{s},{d / 1e6:.6f},0 " for s, d in calls) + "\n")
        trace: List[Dict[str, Any]] = [
            {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "CPU OP"}},
            {"ph": "M", "name": "thread_name", "pid": 2, "tid": 0, "args": {"name": "Thread 0"}}]
        trace += [{"ph": "X", "name": name, "pid": 2, "tid": 0, "ts": f"{start / 1e3:.3f}", "dur": f"{dur / 1e3:.3f}",
                   "cat": "", "args": {"type": "HostCpuOps"}} for name, start, dur in self.events]
        with open(os.path.join(out, "trace_view.json"), "w") as f:
            json.dump(trace, f, indent=1 if pretty else None)

    @property
    def profile_dir(self) -> Optional[str]:
        """The directory the last ``analyse()`` wrote (None before)."""
        return self._dir

    @classmethod
    def offline_analyse(cls, path: str, pretty: bool = False, step_list: Any = None, data_simplification: bool = True
                        ) -> None:
        """MindSpore's analysis of a profile written by another process: mskernel's ``analyse`` writes the final
        files at once, so there is nothing left to do."""
