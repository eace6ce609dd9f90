"""``mindspore.profiler``: a CPU profiler of op calls.

``Profiler(output_path=...)`` times every call of a table op (``ops.exp``, ``ops.matmul``, the Tensor methods and
primitives built from them) between ``start()`` (at construction by default) and ``stop()``, counting only the
outermost op of a call made of others. ``analyse()`` writes what MindSpore 2.10's CPU wheel writes for host ops,
under ``output_path/<host>_<pid>_<time>_ascend_ms/``: ``FRAMEWORK/cpu_op_type_info_0.csv`` (per op type:
calls, total and mean milliseconds, share), ``FRAMEWORK/cpu_op_detail_info_0.csv``,
``FRAMEWORK/cpu_op_execute_timestamp_0.txt``
and a Chrome trace ``ASCEND_PROFILER_OUTPUT/trace_view.json``; ``op_table()`` gives the per-op table as text.
The Tensor operators the engine core runs in C (``x + y``) are not seen.

Example:
    >>> import tempfile, mskernel as ms
    >>> p = Profiler(output_path=tempfile.mkdtemp())
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> _ = [ms.ops.exp(x) for _ in range(3)]
    >>> p.stop()
    >>> [(r.op_type, r.calls) for r in p.rows()]
    [('Exp', 3)]
"""
from mskernel.profiler.profiler import OpRow, Profiler

__all__ = ["Profiler", "OpRow"]
