"""Parallel loops under the default thread policy vs one thread, on idle cores and on a busy machine.

Run: ``python benchmarks/parallel_policy.py`` (``--quick``: fewer rounds). One table, one process.

What runs: three hybrid kernels whose ``parallel`` loop runs on mskernel's thread pool -- two large
maps over 4M float32, ``y[i] = x[i] * x[i]`` (16 MB in, 16 MB out with streaming stores: bound by the
memory's bandwidth) and ``y[i] = exp(-x[i]) * x[i]`` (bound by the cores: an ``exp`` per element),
and ``kernel_bandwidth.py``'s row softmax over 4096x1024 float32 (parallel over rows) -- in two
configurations that alternate in rounds: *one thread* (``ms.set_context(runtime_num_threads=1)``) and
*default* (the setting unset: as many threads as the cores this process may run on, see
``mskernel.hybrid.threads``).

Two phases: *idle* (this script starts nothing else; the share of the cores that other processes used
meanwhile is measured from ``/proc/stat`` and printed, since the machine may be shared) and *busy* (a
subprocess multiplies 1500x1500 float64 matrices in a loop with OpenBLAS on 2 threads,
``OPENBLAS_NUM_THREADS=2``: both cores busy; started before the phase, stopped after it).

Method: wall time per call (``time.perf_counter``: what a user waits for; time spent descheduled
counts), outputs reused from the kernels' output cache. Each round times ``calls`` back-to-back calls
in one configuration, then in the other (the order alternates by round). Columns: median per call of
each configuration; *ratio* = the median over rounds of (one-thread time / default time) of the round's
calls, so > 1 means the default is faster (and stalls inside a round count); *mean ratio* = the same with
the whole phase's mean per call. The goals (issue [20]): busy >= 0.95x (never slower than one thread), idle
>= 1.7x for large maps (two cores). The pool's counters say how many loops the workers joined. The first map
moves 32 MB per call and one thread already streams it near what one core can move, so what a second core
adds depends on the memory bandwidth the machine has free at the time (on a VM, its neighbours use the same
memory): a last line measures that headroom with numpy, a 16 MB copy into a preallocated array on one thread
and split over two Python threads. Seen on the 2-core VM where this was written: the x*x map at 1.76-1.89x
in some processes of an earlier stop and 1.01-1.55x in those of stop 45, on the same data and with the same
alignment and huge pages (likely where the host puts the VM's cores and memory: the copy's headroom moved with
it, 1.02-1.85x); one thread streams the map's output at the memory's write bandwidth, so a second adds only
what that bandwidth has to spare. The ``exp`` map and the softmax ran at 1.95-1.99x while ``exp`` was scalar
(compute-bound); with glibc's SIMD ``exp`` (3-4x faster on one thread) they move toward the memory's bound:
1.44-2.09x over the runs of stop 45. Busy: 0.97-1.25x with about 20 ms per round and configuration (0.94-1.47x
when a round was 3-4 ms of the ``exp`` map: a few scheduler slices, too few to average the load's bursts).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Callable, Dict, List

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import mskernel as ms  # noqa: E402
from mskernel.hybrid import HybridKernel  # noqa: E402
from mskernel.hybrid.threads import pool_stats, thread_setting  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_bandwidth import SOFTMAX  # noqa: E402  (the same row softmax: reduce loops, vector exp)
from kernel_bandwidth import SQUARE as MAP  # noqa: E402  (the same parallel x*x map)

EXP_MAP = '''
def damp(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[i] = exp(-x[i]) * x[i]
    return y
'''


MAP_X2, MAP_EXP, SOFTMAX_ROWS = "map x*x 4M float32", "map exp(-x)*x 4M float32", "row softmax 4096x1024"
LOAD = "import numpy as np\na = np.random.rand(1500, 1500)\nwhile True:\n    a @ a\n"


def cpu_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores from /proc/stat (zeros where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = [float(v) for v in f.readline().split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def others_share(before: tuple[float, float], after: tuple[float, float], own_cpu: float) -> float:
    """The share of all cores that processes other than this one kept busy between two cpu_busy() readings."""
    busy, total = after[0] - before[0], after[1] - before[1]
    if total <= 0:
        return float("nan")
    hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    return max(0.0, (busy - own_cpu * hz) / total)


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


def configure(threads: int) -> None:
    ms.set_context(runtime_num_threads=threads)  # 0: unset, the default


def phase(kernels: Dict[str, Callable[[], object]], rounds: int, calls: Dict[str, int]) -> Dict[str, dict]:
    """Per kernel: per-call times of each configuration, and the per-round ratios."""
    out = {}
    for name, fn in kernels.items():
        times: Dict[str, List[float]] = {"one": [], "default": []}
        ratios = []
        for r in range(rounds):
            order = [("one", 1), ("default", 0)] if r % 2 == 0 else [("default", 0), ("one", 1)]
            spent = {}
            for label, threads in order:
                configure(threads)
                fn()  # the first call after a change (a resize) is not timed
                t0 = time.perf_counter()
                for _ in range(calls[name]):
                    t1 = time.perf_counter()
                    fn()
                    times[label].append(time.perf_counter() - t1)
                spent[label] = time.perf_counter() - t0
            ratios.append(spent["one"] / spent["default"])
        configure(0)
        out[name] = {"times": times, "ratios": ratios}
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 9 if quick else 21
    rng = np.random.default_rng(0)
    x = rng.random(1 << 22, dtype=np.float32)
    m = rng.random((4096, 1024), dtype=np.float32)
    sq, dm, sm = (HybridKernel.from_source(src) for src in (MAP, EXP_MAP, SOFTMAX))
    np.testing.assert_array_equal(sq.run([x])[0], x * x)
    np.testing.assert_allclose(dm.run([x])[0], np.exp(-x) * x, rtol=1e-6)
    e = np.exp(m - m.max(axis=1, keepdims=True))
    np.testing.assert_allclose(sm.run([m])[0], e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    kernels = {MAP_X2: lambda: sq.run([x]), MAP_EXP: lambda: dm.run([x]), SOFTMAX_ROWS: lambda: sm.run([m])}
    calls = {MAP_X2: 30, MAP_EXP: 12, SOFTMAX_ROWS: 9}  # about 20 ms a round and configuration, one thread
    configure(0)
    default = thread_setting()
    print(f"default: {default.threads} threads ({default.source}); one thread: set_context(runtime_num_threads=1); "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'phase, kernel':<30}  {'one thread':>10}  {'default':>10}  {'ratio':>6}  {'mean ratio':>10}  "
          f"{'workers joined':>14}  {'others':>6}")
    results, timings = {}, {}
    load = None
    for label in ("idle", "busy"):
        if label == "busy":
            env = dict(os.environ, OPENBLAS_NUM_THREADS="2", OMP_NUM_THREADS="2")
            load = subprocess.Popen([sys.executable, "-c", LOAD], env=env)
            time.sleep(1.0)  # its threads started and busy
        try:
            before, cpu0, stats0 = cpu_busy(), own_cpu(), pool_stats()
            res = phase(kernels, rounds, calls)
            after, cpu1, stats1 = cpu_busy(), own_cpu(), pool_stats()
        finally:
            if load is not None:
                load.terminate()
                load.wait()
                load = None
        share = others_share(before, after, cpu1 - cpu0)
        delta = stats1 - stats0 if stats0 is not None and stats1 is not None else None
        joined = f"{delta.joined}/{delta.loops}" if delta is not None else "-"
        for name, r in res.items():
            timings[(label, name)] = r["times"]["one"]
            one, dflt = np.median(r["times"]["one"]), np.median(r["times"]["default"])
            ratio = float(np.median(r["ratios"]))
            mean_ratio = float(np.mean(r["times"]["one"]) / np.mean(r["times"]["default"]))
            results[(label, name)] = ratio
            print(f"{label + ', ' + name:<30}  {one * 1e3:8.2f}ms  {dflt * 1e3:8.2f}ms  {ratio:5.2f}x  "
                  f"{mean_ratio:9.2f}x  {joined:>14}  {share:6.0%}")
            joined = ""  # the counters cover the whole phase: shown once
    one_copy, two_copy = copy_times(x, rounds)
    one_map = float(np.median(timings[("idle", MAP_X2)]))
    print(f"memory headroom: a 16 MB numpy copy takes {one_copy * 1e3:.2f} ms on one thread, {two_copy * 1e3:.2f} ms "
          f"on two ({one_copy / two_copy:.2f}x; medians); the x*x map takes {one_map * 1e3:.2f} ms on one thread, "
          f"{one_map / two_copy:.2f}x that two-thread copy")
    worst_busy = min(v for (p, _), v in results.items() if p == "busy")
    state = "MET" if worst_busy >= 0.95 else "MISSED"
    print(f"goal: busy, default >= 0.95x one thread, every kernel: worst {worst_busy:.2f}x -> {state}")
    for name in (MAP_EXP, MAP_X2):
        r = results[("idle", name)]
        why = " (memory-bound: see the headroom line)" if name == MAP_X2 and r < 1.7 else ""
        print(f"goal: idle, {name} >= 1.7x one thread: {r:.2f}x -> {'MET' if r >= 1.7 else 'MISSED'}{why}")


def copy_times(x: np.ndarray, rounds: int) -> tuple[float, float]:
    """Median seconds of a copy of ``x`` into a preallocated array on one thread, and split over two."""
    import threading

    dst = np.empty_like(x)
    half = len(x) // 2

    def two() -> None:
        t = threading.Thread(target=np.copyto, args=(dst[half:], x[half:]))
        t.start()
        np.copyto(dst[:half], x[:half])
        t.join()

    times: list[list[float]] = [[], []]
    for _ in range(rounds):
        for k, fn in enumerate((lambda: np.copyto(dst, x), two)):
            fn()
            for _ in range(20):
                t0 = time.perf_counter()
                fn()
                times[k].append(time.perf_counter() - t0)
    return float(np.median(times[0])), float(np.median(times[1]))


if __name__ == "__main__":
    main()
