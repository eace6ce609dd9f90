"""The thread pool of parallel loops (thread_pool.h, mskernel.hybrid.threads).

Results do not depend on the team size; the settings are honoured, in their order, and the team is
observable (the pool's workers, the process's threads); a loop completes when the workers never get to
run, and the workers alone can run a whole loop; errors inside parallel loops are reported as on one
thread. No timing is asserted and nothing sleeps: the pool's test hooks make the schedules deterministic.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading

import numpy as np
import pytest

import mskernel as ms
from mskernel.hybrid import HybridKernel, compiler, threads
from mskernel.hybrid.codegen import PARALLEL_MIN_WORK

N = PARALLEL_MIN_WORK * 3 // 2 + 37  # enough work for the pool (every loop below); the last chunk is partial

SQUARE = ("def square(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
          "        y[i] = x[i] * x[i]\n    return y\n")
STEPS = ("def steps(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(1, x.shape[0], 3):\n"
         "        y[i] = x[i] + 1.0\n    for i in parallel(x.shape[0] - 2, 0, -3):\n        y[i] = x[i] - 1.0\n"
         "    return y\n")
ROWS = ("def rows(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
        "        s = 0.0\n        for j in range(x.shape[1]):\n            s = s + x[i, j]\n"
        "        for j in range(x.shape[1]):\n            y[i, j] = x[i, j] / s\n    return y\n")
SIMD = ("def g(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
        "        for j in vectorize(x.shape[1]):\n            y[i, j] = x[i, j] * 3.0 + i - j\n    return y\n")
GATHER = ("def gather(x, idx):\n    y = output_tensor(idx.shape, x.dtype)\n    for i in parallel(idx.shape[0]):\n"
          "        y[i] = x[idx[i]] * 2.0\n    return y\n")
SCRATCH = ("def scratch(x, n):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
           "        t = allocate((n,), x.dtype)\n        t[0] = x[i]\n        y[i] = t[0] * 2.0\n    return y\n")


@pytest.fixture(autouse=True)
def default_team():
    yield
    hooks(hold=False, caller_idle=False)
    ms.set_context(runtime_num_threads=0)
    threads.refresh()


def hooks(hold: bool, caller_idle: bool) -> None:
    compiler.dispatcher()
    compiler._module.pool_test(hold, caller_idle)


@contextlib.contextmanager
def counted():
    """Yields a list that holds, after the block, the pool's counters for the block (a PoolStats)."""
    compiler.dispatcher()
    box = []
    before = threads.pool_stats()
    yield box
    box.append(threads.pool_stats() - before)


def cases():
    rng = np.random.default_rng(0)
    x = rng.random(N, dtype=np.float32)
    m = rng.random((N // 64, 64), dtype=np.float32) + 0.5
    y2 = x * x
    steps = x.copy() * 0
    steps[1::3] = x[1::3] + 1
    steps[N - 2:0:-3] = x[N - 2:0:-3] - 1
    gi, gj = np.indices(m.shape)
    return [(SQUARE, [x], y2), (STEPS, [x], steps), (ROWS, [m], m / m.sum(axis=1, keepdims=True)),
            (SIMD, [m], m * np.float32(3) + gi.astype(np.float32) - gj.astype(np.float32))]


def run_all():
    return [HybridKernel.from_source(src).run(inputs)[0] for src, inputs, _ in cases()]


def test_results_are_identical_for_any_team_size():
    expected = [want for _, _, want in cases()]
    results = {}
    for n in (1, 2, 3, 5):
        ms.set_context(runtime_num_threads=n)
        with counted() as c:
            results[n] = run_all()
        assert (c[0].loops > 0) == (n > 1)  # one thread: every loop on the calling thread, none on the pool
    for n, got in results.items():
        for g, r1, want in zip(got, results[1], expected):
            assert np.array_equal(g, r1), n  # bit for bit: the iterations are independent
            np.testing.assert_allclose(g, want, rtol=1e-6)


def test_the_team_size_is_honoured_and_observable():
    tasks = "/proc/self/task"
    count = {}
    for n in (1, 3, 2):
        ms.set_context(runtime_num_threads=n)
        HybridKernel.from_source(SQUARE).run([np.ones(N, np.float32)])  # workers start with the first loop
        stats = threads.pool_stats()
        assert (stats.threads, stats.workers) == (n, n - 1)
        assert threads.pool_info()["threads"] == n
        if os.path.isdir(tasks):
            count[n] = len(os.listdir(tasks))
    if count:
        assert count[3] - count[1] == 2 and count[2] - count[1] == 1  # the process's threads: workers come and go


def test_the_settings_apply_in_their_order(monkeypatch):
    monkeypatch.setenv("MSKERNEL_NUM_THREADS", "3")
    monkeypatch.setenv("OMP_NUM_THREADS", "1,1")
    assert threads.thread_setting() == threads.ThreadSetting(3, "MSKERNEL_NUM_THREADS")
    assert threads.refresh() == 3 and threads.pool_stats().threads == 3
    ms.set_context(runtime_num_threads=2)  # set_context wins, and takes effect at once
    assert threads.thread_setting() == threads.ThreadSetting(2, "set_context(runtime_num_threads=2)")
    assert threads.pool_stats().threads == 2
    ms.set_context(runtime_num_threads=0)  # unset again
    monkeypatch.delenv("MSKERNEL_NUM_THREADS")
    assert threads.thread_setting() == threads.ThreadSetting(1, "OMP_NUM_THREADS")
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert threads.thread_setting().source == "the cores this process may run on"
    assert threads.thread_setting().threads == len(os.sched_getaffinity(0))


def test_bad_settings_are_refused_or_ignored(monkeypatch):
    with pytest.raises(ValueError, match="runtime_num_threads' must be bigger than or equal to 0"):
        ms.set_context(runtime_num_threads=-1)
    with pytest.raises(TypeError):
        ms.set_context(runtime_num_threads="2")
    monkeypatch.setenv("MSKERNEL_NUM_THREADS", "many")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    threads._warned.discard("MSKERNEL_NUM_THREADS")
    with pytest.warns(UserWarning, match="MSKERNEL_NUM_THREADS='many' is not a positive number of threads"):
        assert threads.thread_setting() == threads.ThreadSetting(2, "OMP_NUM_THREADS")


def test_a_loop_completes_when_the_workers_never_get_to_run():
    ms.set_context(runtime_num_threads=3)
    expected = [want for _, _, want in cases()]
    hooks(hold=True, caller_idle=False)  # workers woken, then stopped before they look for work
    with counted() as c:
        got = run_all()
    assert c[0].loops > 0 and c[0].worker_chunks == 0 and c[0].joined == 0  # the caller ran every chunk
    hooks(hold=False, caller_idle=False)  # the late workers find their jobs over, and sleep again
    for g, want in zip(got, expected):
        np.testing.assert_allclose(g, want, rtol=1e-6)
    for g, again in zip(got, run_all()):
        assert np.array_equal(g, again)


def test_the_workers_alone_can_run_every_chunk():
    ms.set_context(runtime_num_threads=3)
    expected = [want for _, _, want in cases()]
    hooks(hold=False, caller_idle=True)  # the caller claims nothing: the workers run it all
    big = np.random.default_rng(1).random(3 << 20, dtype=np.float32)  # 12 MB: the streaming-store path
    with counted() as c:
        got = run_all()
        streamed = HybridKernel.from_source(SQUARE).run([big])[0]
    assert c[0].loops > 0 and c[0].worker_chunks == c[0].chunks and c[0].joined == c[0].loops
    for g, want in zip(got, expected):
        np.testing.assert_allclose(g, want, rtol=1e-6)
    assert np.array_equal(streamed, big * big)


@pytest.mark.parametrize("mode", ["one thread", "pool", "workers held", "workers only"])
def test_errors_inside_parallel_loops_are_reported_as_before(mode):
    ms.set_context(runtime_num_threads=1 if mode == "one thread" else 2)
    hooks(hold=mode == "workers held", caller_idle=mode == "workers only")
    x = np.arange(N, dtype=np.float32)
    idx = np.arange(N)[::-1].copy()
    idx[N // 3] = N
    with pytest.raises(IndexError, match=rf"index \({N},\) is out of bounds for tensor x with shape \({N},\)"):
        HybridKernel.from_source(GATHER).run([x, idx])
    idx[N // 3] = -1
    with pytest.raises(IndexError, match=rf"index \(-1,\) is out of bounds for tensor x with shape \({N},\)"):
        HybridKernel.from_source(GATHER).run([x, idx])
    scratch = HybridKernel.from_source(SCRATCH)
    np.testing.assert_array_equal(scratch.run([x], [1])[0], x * 2)
    with pytest.raises(ValueError, match="negative"):
        scratch.run([x], [-1])


def test_loops_from_several_python_threads_are_right():
    ms.set_context(runtime_num_threads=2)
    (src, inputs, want), = [c for c in cases() if c[0] is ROWS]
    hk = HybridKernel.from_source(src)
    hk.run(inputs)  # compiled before the threads start
    failures = []

    def work():
        for _ in range(20):  # one at a time on the pool; a loop that finds it busy runs on its own thread
            if not np.allclose(hk.run(inputs)[0], want, rtol=1e-6):
                failures.append(1)

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not failures


def _child(conn):
    (src, inputs, want), = [c for c in cases() if c[0] is SQUARE]
    conn.send(bool(np.array_equal(HybridKernel.from_source(src).run(inputs)[0], want)))
    conn.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_a_forked_child_runs_parallel_loops():
    ms.set_context(runtime_num_threads=2)
    HybridKernel.from_source(SQUARE).run([np.ones(N, np.float32)])  # the parent's worker is running
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_child, args=(child,))
    p.start()
    ok = parent.recv()
    p.join()
    assert ok and p.exitcode == 0
