"""Hybrid DSL kernels: compile and load times, throughput, per-call overhead -- vs numpy and numba.

Run: ``python benchmarks/hybrid_kernels.py`` (add ``--quick`` for smaller arrays). Prints one
table; the ratios are what to quote (shared machines are noisy).

* cold compile: a fresh process with an empty ``MSKERNEL_CACHE_DIR`` compiles the fused kernel
  (the build layer's one-time toolchain probes and the dispatcher extension come first and
  are reported separately);
* cached load: a fresh process with that warm cache, and in-process after clearing the
  in-memory cache (no compiler runs);
* new shape: first call with a shape never seen (same dtypes/ranks: no recompile);
* throughput on 16M float32 of ``y = x*x`` and ``x*y*0.5 + 3*x - 1``: hybrid (allocating the
  output, and into a preallocated one) vs numpy vs a plain copy of the same bytes
  (``np.copyto`` into a preallocated array = the memory-bandwidth limit; ``x.copy()`` = the
  same with a fresh allocation, which costs page faults);
* per-call overhead on an 8-element tensor vs ``np.multiply``;
* bounds safety: each kernel compiled as mskernel compiles it (every loop nest's accesses
  proved in bounds before it runs; unproved ones checked) vs compiled with no safety at all
  (``bounds=False``, which exists only for this comparison): run time and compile time;
* numba (if importable): first-call compile and run of the same kernels (numba is not a
  dependency of mskernel; ``pip install numba`` to include it).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine_overhead import best_time  # noqa: E402  (the calibrated timing loop all benchmarks share)
from mskernel.hybrid import HybridKernel  # noqa: E402
from mskernel.hybrid.compiler import clear_memory_cache  # noqa: E402

from kernel_bandwidth import SQUARE  # noqa: E402  (the same x*x kernel; that module imports neither torch nor numba)

FUSED = '''
def fused(x, y):
    out = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        out[i] = x[i] * y[i] * 0.5 + 3 * x[i] - 1
    return out
'''

MUL = '''
def mul(x, y):
    out = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        out[i] = x[i] * y[i]
    return out
'''

_CHILD = textwrap.dedent('''
    import json, sys, time
    t0 = time.perf_counter()
    sys.path.insert(0, {root!r})
    from mskernel.hybrid import HybridKernel
    from mskernel.hybrid.compiler import dispatcher
    t1 = time.perf_counter()
    from mskernel.toolchain import find_toolchain
    find_toolchain().openmp_flags  # the build layer's one-time probes (stored in the cache)
    dispatcher()
    t2 = time.perf_counter()
    hk = HybridKernel.from_source({src!r})
    ck = hk.compile(["float32", "float32"], [1, 1])
    t3 = time.perf_counter()
    print(json.dumps({{"import": t1 - t0, "dispatcher": t2 - t1, "kernel": t3 - t2, "cached": ck.cached}}))
''')


def child(cache_dir: str) -> dict:
    env = dict(os.environ, MSKERNEL_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", _CHILD.format(root=ROOT, src=FUSED)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def numba_kernels():
    try:
        import numba
    except Exception:  # numba is optional: only a comparison
        return None

    def square(x):
        y = np.empty_like(x)
        for i in range(x.shape[0]):
            y[i] = x[i] * x[i]
        return y

    def fused(x, y):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = x[i] * y[i] * np.float32(0.5) + np.float32(3) * x[i] - np.float32(1)
        return out

    def mul(x, y):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = x[i] * y[i]
        return out
    return numba, {n: numba.njit(f) for n, f in [("square", square), ("fused", fused), ("mul", mul)]}


def mul_kernel(a, b):
    """The MUL kernel as a function, for ops.Custom (an akg op may be an undecorated function)."""
    c = output_tensor(a.shape, a.dtype)  # noqa: F821 -- a DSL intrinsic, not a Python name
    for i in range(a.shape[0]):
        c[i] = a[i] * b[i]
    return c


STENCIL = '''
def stencil(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        for j in range(x.shape[1]):
            if j > 0 and j < x.shape[1] - 1:
                y[i, j] = x[i, j - 1] - 2.0 * x[i, j] + x[i, j + 1]
            else:
                y[i, j] = x[i, j]
    return y
'''

MATMUL = '''
def matmul(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)
    for i in parallel(a.shape[0]):
        for k in range(a.shape[1]):
            for j in range(b.shape[1]):
                c[i, j] = c[i, j] + a[i, k] * b[k, j]
    return c
'''

GATHER = '''
def gather(x, idx):
    y = output_tensor(idx.shape, x.dtype)
    for i in parallel(idx.shape[0]):
        y[i] = x[idx[i]]
    return y
'''


def safety_rows(row, quick: bool) -> None:
    """Each kernel with mskernel's bounds proofs vs with no safety (run time, and compile time)."""
    from mskernel.hybrid.compiler import compile_typed

    n = 1 << (20 if quick else 24)
    side = 256 if quick else 512
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    grid = rng.random((side * 8, side * 8), dtype=np.float32)
    a, b = rng.random((side, side), dtype=np.float32), rng.random((side, side), dtype=np.float32)
    idx = rng.integers(0, n, n)
    cases = [("square (elementwise, parallel)", SQUARE, [x]), ("stencil (guarded i-1, i+1)", STENCIL, [grid]),
             ("matmul (3 loops)", MATMUL, [a, b]), ("gather x[idx[i]] (checked per access)", GATHER, [x, idx])]
    for name, src, inputs in cases:
        hk = HybridKernel.from_source(src)
        typed = hk.specialize(hk.signature([i.dtype for i in inputs], [i.ndim for i in inputs]))
        timings = {}
        for bounds in (True, False):
            clear_memory_cache()
            ck = compile_typed(typed, False, bounds)
            timings[bounds] = best_time(lambda: ck(inputs))
            np.testing.assert_allclose(ck(inputs)[0], hk.run(inputs)[0], rtol=1e-6)
        row(f"safe by default: {name}", timings[True], f"{timings[True] / timings[False]:5.3f}x of no safety "
            f"(goal <= 1.05x)")
        row(f"no safety: {name}", timings[False])
    compile_s = {b: compile_seconds(HybridKernel.from_source(STENCIL), [grid], b) for b in (True, False)}
    row("compile stencil, safe by default (two versions of the nest)", compile_s[True],
        f"{compile_s[True] / compile_s[False]:5.2f}x of no safety")


def compile_seconds(hk: HybridKernel, inputs: list, bounds: bool) -> float:
    """Best of 3 forced compiles (no cache) of ``hk``'s generated C++."""
    from mskernel.hybrid.codegen import generate
    from mskernel.hybrid.compiler import load_generated

    gen = generate(hk.specialize(hk.signature([i.dtype for i in inputs], [i.ndim for i in inputs])), False, bounds)
    best = float("inf")
    for _ in range(3):  # built as every kernel is (same flags, libraries), forced past both caches
        t0 = time.perf_counter()
        load_generated(f"bench_{hk.name}", gen, force=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    quick = "--quick" in sys.argv
    n = (1 << 20) if quick else 16 * (1 << 20)
    rows: list[tuple[str, str, str]] = []

    def row(what: str, seconds: float, note: str = "") -> None:
        rows.append((what, f"{seconds * 1e3:10.3f} ms" if seconds >= 1e-4 else f"{seconds * 1e6:10.2f} us", note))

    # ---- compile and load
    with tempfile.TemporaryDirectory() as cache:
        cold = child(cache)
        warm = child(cache)
    row("first use of a fresh cache: toolchain probes + dispatcher", cold["dispatcher"], "once per cache")
    row("cold compile: fused kernel", cold["kernel"], "fresh process, empty cache")
    row("cached load: fused kernel, fresh process", warm["kernel"], f"cached={warm['cached']}")
    hk = HybridKernel.from_source(FUSED)
    hk.compile(["float32", "float32"], [1, 1])
    clear_memory_cache()
    t0 = time.perf_counter()
    ck = HybridKernel.from_source(FUSED).compile(["float32", "float32"], [1, 1])
    row("cached load: fused kernel, in process", time.perf_counter() - t0, f"cached={ck.cached}")

    # ---- new shape, no recompile
    x8, y8 = np.random.rand(8).astype(np.float32), np.random.rand(8).astype(np.float32)
    hk.run([x8, y8])
    before = hk.compile_count
    x9, y9 = np.random.rand(1000).astype(np.float32), np.random.rand(1000).astype(np.float32)
    t0 = time.perf_counter()
    hk.run([x9, y9])
    row("new shape, first call", time.perf_counter() - t0, f"recompiles={hk.compile_count - before}")

    # ---- throughput
    x = np.random.rand(n).astype(np.float32)
    y = np.random.rand(n).astype(np.float32)
    dst = np.empty_like(x)
    sq, fu = HybridKernel.from_source(SQUARE), HybridKernel.from_source(FUSED)
    t_copy = best_time(lambda: np.copyto(dst, x))
    t_copy_alloc = best_time(lambda: x.copy())
    row(f"np.copyto(dst, x) [{n >> 20}M float32]", t_copy, "bandwidth limit (preallocated)")
    row("x.copy()", t_copy_alloc, "bandwidth + allocation")
    t_np_sq = best_time(lambda: x * x)
    t_sq = best_time(lambda: sq.run([x]))
    t_sq_out = best_time(lambda: sq.run([x], out=[dst]))
    row("numpy x * x", t_np_sq)
    row("hybrid square, allocating", t_sq, f"{t_copy_alloc / t_sq:5.0%} of x.copy() bandwidth")
    row("hybrid square, out=", t_sq_out, f"{t_copy / t_sq_out:5.0%} of np.copyto bandwidth")
    t_np_fu = best_time(lambda: x * y * 0.5 + 3 * x - 1)
    t_fu = best_time(lambda: fu.run([x, y]))
    t_fu_out = best_time(lambda: fu.run([x, y], out=[dst]))
    row("numpy x*y*0.5 + 3*x - 1", t_np_fu)
    row("hybrid fused, allocating", t_fu, f"{t_np_fu / t_fu:5.1f}x numpy")
    row("hybrid fused, out=", t_fu_out, f"{t_np_fu / t_fu_out:5.1f}x numpy")

    # ---- per-call overhead
    mul = HybridKernel.from_source(MUL)
    pair = [x8, y8]
    t_mul = best_time(lambda: mul.run(pair))
    t_npm = best_time(lambda: np.multiply(x8, y8))
    row("per call, 8 elements: hybrid mul.run", t_mul, f"{t_mul / t_npm:5.2f}x np.multiply")
    row("per call, 8 elements: np.multiply", t_npm)
    import mskernel as ms
    op = ms.ops.Custom(mul_kernel, lambda a, b: a, lambda a, b: a, func_type="akg")
    tx, ty = ms.Tensor(x8), ms.Tensor(y8)
    t_op = best_time(lambda: op(tx, ty))
    t_ms_mul = best_time(lambda: tx * ty)
    row("per call, 8 elements: ops.Custom(akg mul)", t_op, f"{t_op / t_ms_mul:5.2f}x mskernel's built-in mul "
        f"(goal <= 2x)")
    row("per call, 8 elements: mskernel tx * ty", t_ms_mul)

    # ---- bounds safety
    safety_rows(row, quick)

    # ---- numba
    nb = numba_kernels()
    if nb is not None:
        numba, ks = nb
        t0 = time.perf_counter()
        ks["fused"](x8, y8)
        t_nb_compile = time.perf_counter() - t0
        ks["square"](x8)
        ks["mul"](x8, y8)
        row(f"numba {numba.__version__} first call (compile) fused", t_nb_compile,
            f"hybrid cold = {cold['kernel'] / t_nb_compile:4.2f}x of it")
        row("numba square", best_time(lambda: ks["square"](x)))
        row("numba fused", best_time(lambda: ks["fused"](x, y)))
        row("numba per call, 8 elements: mul", best_time(lambda: ks["mul"](x8, y8)))
    else:
        rows.append(("numba", "not installed", "pip install numba to compare"))

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'time':>13}  note")
    for what, t, note in rows:
        print(f"{what:<{width}}  {t:>13}  {note}")


if __name__ == "__main__":
    main()
