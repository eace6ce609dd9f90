"""How close hybrid kernels come to the machine's copy bandwidth -- vs numpy and numba.

Run: ``python benchmarks/kernel_bandwidth.py`` (``--quick``: fewer rounds). Prints two tables; the
ratio columns are what to quote (the machine is shared and noisy).

Method: every implementation runs on one thread (numpy and ``numba.njit`` do; hybrid kernels are
pinned with ``ms.set_context(runtime_num_threads=1)``) and is timed by the CPU time of the calling thread
(``time.thread_time``: page faults and the kernel's own time count, time spent descheduled by other
processes does not), in interleaved rounds. GB/s columns: bytes read + written per second, best round;
ratio columns: the median over rounds of the two implementations' times measured side by side.

1. Allocating elementwise kernels ``y = x*x`` and ``a*b + c`` (float32) at every power of two from 256 KB
   per array (inside L2) to twice the last-level cache. *copy* is ``np.copyto`` into a preallocated array
   of as many bytes as the kernel moves (``x`` for ``x*x``; an array twice as long for ``a*b+c``, so both
   touch the same cache level): the machine's copy bandwidth. *x.copy* is the same copy allocating its
   result. ``x.copy()`` and numpy's ``x*x`` allocate their result: above glibc's 32 MB mmap threshold that
   is fresh memory, which the OS faults in and zeroes page by page -- an extra write pass that costs them a
   third of their bandwidth. Hybrid kernels allocate an output they provably write in full with
   ``np.empty`` (no zero-fill), and above 16 MB from a cache of freed output blocks (no page faults); the
   *fresh* column empties that cache before every call, to show what it saves. Loops whose arrays fill
   three quarters of the last-level cache use streaming stores (``mskernel/hybrid/stream.py``), which is why
   hybrid can exceed the copy's bandwidth there. Each row pools 3 processes (``--quick``; 5 without it), each
   timing 3 placements of the arrays: where the arrays and numba's compiled code land moves a kernel's
   speed by a few percent from one process and allocation to the next (measured: 0.97-1.05x numba at 4 MB
   over eight allocations of ``x`` in one process), so one placement per size decided the last 3% before.
   The goal lines check the issue's goals: hybrid/copy >= 0.9x and hybrid/numba >= 1.0x at every size; a
   row below 1.0x shows the middle half of its per-round ratios, and is said to be *level* when that
   spread reaches 1.0x and *slower* when it does not.
2. Reductions (row sum, full sum, max) and a row-wise kernel (softmax per row) vs numpy and numba,
   written as plain loops in both the DSL and numba. The DSL kernels accumulate in ``reduce`` loops
   (a declared reduction, which the compiler may reassociate: SIMD lanes, float sums in blocks added
   pairwise; max exact -- see mskernel/hybrid/reduction.py) and normalize in a ``vectorize`` loop; the
   softmax's ``exp`` runs on glibc's SIMD ``expf`` (mskernel/hybrid/vector_math.py).
   *numba* is ``njit`` without fastmath (an in-order float sum cannot be vectorized); *numba-r* is
   ``njit(fastmath={"reassoc"})``, numba given the same permission to reassociate that ``reduce``
   declares. The goal line checks hybrid/numpy >= 1.0x on every row.

A last line times the default (all cores) hybrid ``x*x`` by wall time for reference
(``benchmarks/parallel_policy.py`` compares the default with one thread, idle and busy).

What it showed on the 2-core EPYC VM (32 MB L3) where it was written: allocating elementwise kernels
at 0.94-1.03x the copy in cache and 1.3-1.7x from 8-16 MB per array up (0.56-0.89x before the output
cache, ``np.empty`` for fully written outputs, streaming stores and 64-byte aligned outputs). Against
numba, which compiles the same loop (LLVM, 512-bit vectors unrolled 4x; GCC also chose 512-bit ones,
not unrolled: neither ``-mprefer-vector-width``, ``-funroll-loops`` nor ``#pragma GCC unroll`` moved the
ratio beyond its noise, nor did aligning the input), hybrid runs at 0.98-1.05x from 256 KB to 4 MB per
array -- the same speed: the same ordinary stores, the rows below 1.0x level within their spread -- and
at 1.06-1.4x from 8 MB up (streaming stores, no page faults), 6-12x at 32-64 MB where numba's fresh
output is faulted in page by page. A sweep of the streaming threshold (8 placements per point, ordinary
vs streaming vs numba) found streaming writes at the memory's bandwidth, about 27 GB/s whatever the size,
and ordinary stores at 60-90 GB/s while the arrays fit in the cache: ``x*x`` (two arrays) gains from
streaming from a 10-12 MB output, ``a*b`` (three) from 4-6 MB, ``a*b+c`` (four) from 3-6 MB; the earlier
rule (an output of a quarter of the cache, 8 MB) streamed ``x*x`` at 8 MB, where one run measured it at
0.83x numba, and the table's 4x size steps had skipped that size. The per-call path (allocate and dispatch in
one generated function: 0.46 us for 8 floats, numba's 0.61 us) is no longer what separates them.
Sums written with ``range`` loops ran at numba's speed and 0.3-0.45x numpy's (in-order float
accumulation); written with ``reduce`` loops they run at 2.5-3.1x numpy's and 12-15x numba's
(0.75-0.99x numba given ``reassoc``, whose LLVM keeps several vector accumulators), ``max`` at
numpy's speed (1.01-1.06x: both at the last-level cache's bandwidth). The row softmax ran at 0.35x
and 0.83x numpy with glibc's scalar ``expf``; with the SIMD one it runs at 2.3x (256x1024) and 5.1x
(4096x1024) numpy, 7-9x numba. A reduce loop inside a parallel loop had lost its vectorization when
parallel loops moved to the thread pool (row sums at 0.15-0.4x numpy, found by this benchmark; see
the parallel chunk's inner lambda in mskernel/hybrid/codegen.py).
numba is a comparison only, never a dependency (``pip install numba``); without it its columns say
why.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Callable, Dict, Optional

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import mskernel as ms  # noqa: E402
from mskernel.hybrid import HybridKernel  # noqa: E402
from mskernel.hybrid.compiler import release_output_blocks  # noqa: E402
from mskernel.hybrid.stream import last_level_cache_bytes  # noqa: E402
from mskernel.hybrid.threads import thread_setting  # noqa: E402

SQUARE = '''
def square(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[i] = x[i] * x[i]
    return y
'''

AXPY = '''
def muladd(a, b, c):
    y = output_tensor(a.shape, a.dtype)
    for i in parallel(a.shape[0]):
        y[i] = a[i] * b[i] + c[i]
    return y
'''

ROWSUM = '''
def rowsum(x):
    y = output_tensor((x.shape[0],), x.dtype)
    for i in parallel(x.shape[0]):
        s = 0.0
        for j in reduce(x.shape[1]):
            s = s + x[i, j]
        y[i] = s
    return y
'''

TOTAL = '''
def total(x):
    y = output_tensor((1,), x.dtype)
    s = 0.0
    for i in reduce(x.shape[0]):
        s = s + x[i]
    y[0] = s
    return y
'''

VMAX = '''
def vmax(x):
    y = output_tensor((1,), x.dtype)
    m = x[0]
    for i in reduce(1, x.shape[0]):
        m = max(m, x[i])
    y[0] = m
    return y
'''

SOFTMAX = '''
def softmax(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        m = x[i, 0]
        for j in reduce(x.shape[1]):
            m = max(m, x[i, j])
        s = 0.0
        for j in reduce(x.shape[1]):
            e = exp(x[i, j] - m)
            y[i, j] = e
            s = s + e
        for j in vectorize(x.shape[1]):
            y[i, j] = y[i, j] / s
    return y
'''


def numpy_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def numba_kernels():
    """{name: njit function} or the reason numba is not available."""
    try:
        import numba
    except Exception as exc:  # numba is optional: only a comparison
        return f"numba not available: {type(exc).__name__}: {exc} (pip install numba)"

    def square(x):
        y = np.empty_like(x)
        for i in range(x.shape[0]):
            y[i] = x[i] * x[i]
        return y

    def muladd(a, b, c):
        y = np.empty_like(a)
        for i in range(a.shape[0]):
            y[i] = a[i] * b[i] + c[i]
        return y

    def rowsum(x):
        y = np.empty(x.shape[0], x.dtype)
        for i in range(x.shape[0]):
            s = np.float32(0.0)
            for j in range(x.shape[1]):
                s += x[i, j]
            y[i] = s
        return y

    def total(x):
        s = np.float32(0.0)
        for i in range(x.shape[0]):
            s += x[i]
        return s

    def vmax(x):
        m = x[0]
        for i in range(1, x.shape[0]):
            m = max(m, x[i])
        return m

    def softmax(x):
        y = np.empty_like(x)
        for i in range(x.shape[0]):
            m = x[i, 0]
            for j in range(x.shape[1]):
                m = max(m, x[i, j])
            s = np.float32(0.0)
            for j in range(x.shape[1]):
                e = np.exp(x[i, j] - m)
                y[i, j] = e
                s += e
            for j in range(x.shape[1]):
                y[i, j] = y[i, j] / s
        return y
    fns = {f.__name__: numba.njit(f) for f in (square, muladd, rowsum, total, vmax, softmax)}
    for f in (rowsum, total, vmax, softmax):  # what a reduce loop permits: reassociation, nothing more
        fns[f.__name__ + "_r"] = numba.njit(fastmath={"reassoc"})(f)
    fns["version"] = numba.__version__
    return fns


def set_threads(n: int) -> None:
    """The team size of hybrid parallel loops (0: the default, the cores this process may run on)."""
    ms.set_context(runtime_num_threads=n)


def _loop(fn: Callable[[], object], n: int, clock: Callable[[], float]) -> float:
    t0 = clock()
    for _ in range(n):
        fn()
    return (clock() - t0) / n


def interleaved(fns: Dict[str, Callable[[], object]], rounds: int, min_time: float,
                clock: Callable[[], float] = time.thread_time) -> Dict[str, list[float]]:
    """Per-call seconds of each function by ``clock`` in each of ``rounds`` alternating rounds."""
    counts = {}
    for k, fn in fns.items():
        fn()
        n = 1
        while _loop(fn, n, time.perf_counter) * n < min_time and n < 1 << 20:
            n *= 2
        counts[k] = n
    times: Dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            times[k].append(_loop(fn, counts[k], clock))
    return times


def ratio(times: Dict[str, list[float]], a: str, b: str) -> float:
    """Median over rounds of ``time[b] / time[a]`` (a's speed relative to b's, measured side by side)."""
    return float(np.median([tb / ta for ta, tb in zip(times[a], times[b])]))


def spread(times: Dict[str, list[float]], a: str, b: str) -> tuple[float, float]:
    """The middle half (quartiles) of the per-round ratios :func:`ratio` takes the median of: the noise."""
    lo, hi = np.percentile([tb / ta for ta, tb in zip(times[a], times[b])], [25, 75])
    return float(lo), float(hi)


def _size(nbytes: float) -> str:
    return f"{nbytes / (1 << 20):.0f} MB" if nbytes >= 1 << 20 else f"{nbytes / 1024:.0f} KB"


def _draw(name: str, n: int, rng: np.random.Generator, k: HybridKernel,
          nb) -> tuple[Dict[str, Callable[[], object]], int]:
    """One placement of a case's arrays (fresh inputs and copy buffers): the functions to time, bytes moved."""
    x, b, c = (rng.random(n, dtype=np.float32) for _ in range(3))
    src2 = rng.random(2 * n, dtype=np.float32)
    dst, dst2 = np.empty_like(x), np.empty_like(src2)
    # (inputs, numpy, numba name, the copy moving as many bytes: same footprint, same cache level)
    cases = {"x*x": ([x], lambda: x * x, "square", lambda: np.copyto(dst, x), lambda: x.copy()),
             "a*b+c": ([x, b, c], lambda: x * b + c, "muladd", lambda: np.copyto(dst2, src2), lambda: src2.copy())}
    inputs, np_fn, nb_name, copy, copy_alloc = cases[name]
    np.testing.assert_allclose(k.run(inputs)[0], np_fn(), rtol=1e-6)
    fns = {"copy": copy, "hybrid": lambda: k.run(inputs), "x.copy": copy_alloc, "numpy": np_fn,
           "fresh": lambda: (release_output_blocks(), k.run(inputs))}
    if isinstance(nb, dict):
        nb_fn = nb[nb_name]
        fns["numba"] = lambda: nb_fn(*inputs)
    return fns, (len(inputs) + 1) * n * 4


def _sizes() -> list[int]:
    """float32 items per array: 256 KB, then every power of two up to twice the last-level cache."""
    llc = last_level_cache_bytes() or 32 << 20
    sizes = [1 << 16]
    while sizes[-1] * 4 < 2 * llc:
        sizes.append(sizes[-1] * 2)
    return sizes


def measure_elementwise(nb, rounds: int, min_time: float, draws: int, seed: int) -> Dict[str, Dict[str, list]]:
    """Per row ("x*x 4 MB"): the per-call seconds of each implementation in every round, over ``draws``
    placements of the arrays, ``rounds`` rounds each, in this process."""
    hk = {"x*x": HybridKernel.from_source(SQUARE), "a*b+c": HybridKernel.from_source(AXPY)}
    rng = np.random.default_rng(seed)
    rows: Dict[str, Dict[str, list]] = {}
    for n in _sizes():
        for name, k in hk.items():
            t = rows.setdefault(f"{name} {_size(n * 4)}", {})
            for _ in range(draws):  # the arrays' placement moves a kernel's speed by a few %: average over it
                fns, moved = _draw(name, n, rng, k, nb)
                for key, v in interleaved(fns, rounds, min_time).items():
                    t.setdefault(key, []).extend(v)
                del fns
    release_output_blocks()
    return rows


def _child_rows(rounds: int, min_time: float, draws: int, seed: int) -> Dict[str, Dict[str, list]]:
    """measure_elementwise in a new interpreter (its own placement of numba's code and of the heap)."""
    args = [sys.executable, os.path.abspath(__file__), "--elementwise-child", str(rounds), str(min_time), str(draws),
            str(seed)]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:  # say what the child said, not only that it failed
        raise RuntimeError(f"kernel_bandwidth: the table-1 process (seed {seed}) exited with {done.returncode}:\n"
                           + "\n".join(done.stderr.strip().splitlines()[-15:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def elementwise(nb, rounds: int, min_time: float, draws: int,
                processes: int) -> list[tuple[str, float, float, Optional[float], tuple]]:
    """Print table 1; return (kernel, bytes per array, hybrid/copy, hybrid/numba or None, its spread) per row
    for the goal line. Each row pools ``processes`` processes (1: this one) x ``draws`` placements of its
    arrays x ``rounds`` rounds."""
    llc = last_level_cache_bytes() or 32 << 20
    if processes <= 1:
        runs = [measure_elementwise(nb, rounds, min_time, draws, 0)]
    else:
        runs = [_child_rows(rounds, min_time, draws, seed) for seed in range(processes)]
    print(f"1. allocating elementwise kernels, float32 (last-level cache {_size(llc)}); GB/s = (bytes read + "
          f"written) / s, one thread; {processes} process(es) x {draws} placements of the arrays x {rounds} rounds")
    print(f"{'kernel, bytes per array':<24}  {'n':>9}  {'copy':>6}  {'x.copy':>6}  {'numpy':>6}  {'numba':>6}  "
          f"{'hybrid':>6}  {'fresh':>6}  {'hybrid/copy':>11}  {'hybrid/numpy':>12}  {'hybrid/numba':>12}")
    results = []
    for n in _sizes():
        for name in ("x*x", "a*b+c"):
            label = f"{name} {_size(n * 4)}"
            t: Dict[str, list[float]] = {}
            for run in runs:
                for key, v in run[label].items():
                    t.setdefault(key, []).extend(v)
            moved = (2 if name == "x*x" else 4) * n * 4
            gb = {key: moved / min(v) / 1e9 for key, v in t.items()}
            nbv = f"{gb['numba']:6.1f}" if "numba" in gb else f"{'-':>6}"
            nbr = f"{ratio(t, 'hybrid', 'numba'):11.2f}x" if "numba" in gb else f"{'-':>12}"
            of_copy = ratio(t, "hybrid", "copy")
            of_numba = ratio(t, "hybrid", "numba") if "numba" in gb else None
            results.append((name, n * 4, of_copy, of_numba, spread(t, "hybrid", "numba") if of_numba else ()))
            of_numpy = ratio(t, "hybrid", "numpy")
            print(f"{label:<24}  {n:>9}  {gb['copy']:6.1f}  {gb['x.copy']:6.1f}  {gb['numpy']:6.1f}  "
                  f"{nbv}  {gb['hybrid']:6.1f}  {gb['fresh']:6.1f}  {of_copy:10.2f}x  {of_numpy:11.2f}x  {nbr}")
    return results


def reductions(nb, rounds: int, min_time: float) -> list[tuple[str, float]]:
    """Print table 2; return (row label, hybrid/numpy) for the goal line."""
    rng = np.random.default_rng(1)
    m2 = rng.random((4096, 1024), dtype=np.float32)
    v = rng.random(1 << 22, dtype=np.float32)
    small = rng.random((256, 1024), dtype=np.float32)
    cases = [
        ("row sum", "256x1024", ROWSUM, small, lambda a: a.sum(axis=1), "rowsum", lambda r: r[0]),
        ("row sum", "4096x1024", ROWSUM, m2, lambda a: a.sum(axis=1), "rowsum", lambda r: r[0]),
        ("full sum", "4M", TOTAL, v, lambda a: a.sum(), "total", lambda r: r[0][0]),
        ("max", "4M", VMAX, v, lambda a: a.max(), "vmax", lambda r: r[0][0]),
        ("softmax rows", "256x1024", SOFTMAX, small, numpy_softmax, "softmax", lambda r: r[0]),
        ("softmax rows", "4096x1024", SOFTMAX, m2, numpy_softmax, "softmax", lambda r: r[0]),
    ]
    print()
    print("2. reductions and a row-wise kernel, float32; GB/s = bytes read / s, one thread")
    print(f"{'kernel, shape':<24}  {'numpy':>6}  {'numba':>6}  {'numba-r':>7}  {'hybrid':>6}  {'hybrid/numpy':>12}  "
          f"{'hybrid/numba':>12}  {'hybrid/numba-r':>14}")
    results = []
    for name, shape, src, a, np_fn, nb_name, pick in cases:
        hk = HybridKernel.from_source(src)
        np.testing.assert_allclose(pick(hk.run([a])), np_fn(a), rtol=2e-3)
        fns = {"numpy": lambda: np_fn(a), "hybrid": lambda: hk.run([a])}
        if isinstance(nb, dict):
            nb_fn, nb_r = nb[nb_name], nb[nb_name + "_r"]
            np.testing.assert_allclose(nb_fn(a), np_fn(a), rtol=2e-3)
            np.testing.assert_allclose(nb_r(a), np_fn(a), rtol=2e-3)
            fns["numba"] = lambda: nb_fn(a)
            fns["numba-r"] = lambda: nb_r(a)
        t = interleaved(fns, rounds, min_time)
        gb = {key: a.nbytes / min(s) / 1e9 for key, s in t.items()}
        cols = [f"{gb[k]:{w}.1f}" if k in gb else f"{'-':>{w}}" for k, w in (("numba", 6), ("numba-r", 7))]
        ratios = [f"{ratio(t, 'hybrid', k):{w - 1}.2f}x" if k in gb else f"{'-':>{w}}"
                  for k, w in (("numba", 12), ("numba-r", 14))]
        of_numpy = ratio(t, "hybrid", "numpy")
        results.append((f"{name} {shape}", of_numpy))
        print(f"{name + ' ' + shape:<24}  {gb['numpy']:6.1f}  {cols[0]}  {cols[1]}  {gb['hybrid']:6.1f}  "
              f"{of_numpy:11.2f}x  {ratios[0]}  {ratios[1]}")
    return results


def main() -> None:
    if "--elementwise-child" in sys.argv:  # one process of table 1 (see elementwise): its rows as JSON
        rounds, min_time, draws, seed = sys.argv[sys.argv.index("--elementwise-child") + 1:][:4]
        set_threads(1)
        print(json.dumps(measure_elementwise(numba_kernels(), int(rounds), float(min_time), int(draws), int(seed))))
        return
    quick = "--quick" in sys.argv
    rounds, min_time = (9, 0.02) if quick else (15, 0.05)
    processes, draws, draw_rounds = (3, 3, 5) if quick else (5, 3, 7)  # table 1: processes x placements x rounds
    nb = numba_kernels()
    set_threads(1)
    if isinstance(nb, str):
        print(nb)
    else:
        print(f"numba {nb['version']} (njit, one thread, compile excluded)")
    results = elementwise(nb, draw_rounds, min_time, draws, processes)
    missed = [f"{k} at {_size(size)} ({r:.2f}x)" for k, size, r, _, _ in results if r < 0.9]
    state = "MET at every size" if not missed else \
        f"met at {len(results) - len(missed)} of {len(results)} sizes; missed: {', '.join(missed)}"
    print(f"goal: allocating elementwise >= 90% of copy bandwidth (hybrid/copy >= 0.90x): {state}")
    if not isinstance(nb, str):
        level = [f"{k} at {_size(size)} ({r:.2f}x, middle half {lo:.2f}-{hi:.2f}x)"
                 for k, size, _, r, (lo, hi) in results if r < 1.0 <= hi]
        slower = [f"{k} at {_size(size)} ({r:.2f}x, middle half {lo:.2f}-{hi:.2f}x)"
                  for k, size, _, r, (lo, hi) in results if hi < 1.0]
        met = len(results) - len(level) - len(slower)
        state = "MET at every size" if not level and not slower else f"met at {met} of {len(results)} sizes" + \
            (f"; below 1.00x but level within the rounds' spread (upper quartile >= 1.00x): {', '.join(level)}"
             if level else "") + (f"; SLOWER (upper quartile < 1.00x): {', '.join(slower)}" if slower else "")
        print(f"goal: allocating elementwise >= numba (hybrid/numba >= 1.00x): {state}")
    reduced = reductions(nb, rounds, min_time)
    missed = [f"{label} ({r:.2f}x)" for label, r in reduced if r < 1.0]
    state = "MET on every row" if not missed else \
        f"met on {len(reduced) - len(missed)} of {len(reduced)} rows; missed: {', '.join(missed)}"
    print(f"goal: reductions and row softmax >= 1.0x numpy (hybrid/numpy >= 1.00x): {state}")
    set_threads(0)
    sq = HybridKernel.from_source(SQUARE)
    x = np.random.default_rng(2).random(1 << 22, dtype=np.float32)
    dst = np.empty_like(x)
    wall = interleaved({"copy": lambda: np.copyto(dst, x), "hybrid": lambda: sq.run([x])}, rounds, min_time,
                       clock=time.perf_counter)
    print()
    print(f"default threads ({thread_setting().threads}), wall time, x*x at 16 MB: hybrid/copy  "
          f"{ratio(wall, 'hybrid', 'copy'):.2f}x")


if __name__ == "__main__":
    main()
