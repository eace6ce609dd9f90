"""Where streaming stores start to pay: ordinary vs streaming stores vs numba, by output size and array count.

Run: ``python benchmarks/stream_threshold.py`` (``--quick``: fewer placements). One table, one process.

What runs: three elementwise hybrid kernels that touch two, three and four float32 arrays -- ``x*x``, ``a*b``
and ``a*b + c``, ``parallel`` loops as in ``kernel_bandwidth.py``, pinned to one thread -- each built twice,
once with streaming stores never used and once with them always used (the threshold of
``mskernel/hybrid/stream.py`` set out of reach or to nothing while the kernel is generated), and numba's
``njit`` of the same loop (ordinary stores), at output sizes around the last-level cache. One thread
(``ms.set_context(runtime_num_threads=1)``), CPU time of the calling thread, interleaved rounds on several
placements of the arrays (fresh inputs per placement); ratios are medians of the per-round ratios against
numba, and of streaming against ordinary stores alone and *in a chain*: the kernel followed by another that
reads its output at once (``y*y``, ordinary stores), which pays for an output streamed to memory instead of
left in the cache. The last column says which build the rule of ``stream.py`` picks at that size (the loop's
footprint, every array it touches, against three quarters of the cache).

What it showed on the 2-core EPYC VM (32 MB L3) where it was written: streaming stores write at the memory's
bandwidth, 27 GB/s of output in most runs, whatever the size; ordinary stores run at numba's speed
throughout (the same loop), 90 GB/s while the arrays fit in the cache and falling toward 30-35 GB/s past it.
So ``x*x`` loses by streaming inside the cache (0.6x numba at a 2-4 MB output) and gains once its two arrays
near the cache's size (1.1-1.4x from a 10-12 MB output); ``a*b`` and ``a*b+c``, which read more per byte
written, gain earlier (1.1-1.8x from a 4-6 MB output). The crossovers move from run to run with the memory
bandwidth the VM's neighbours leave (``x*x`` at 10 MB measured 0.89x and 1.34x an hour apart). The rule
streams from a footprint of three quarters of the cache, where streaming was at least level in every run
and for every array count. It leaves the earlier gains of ``a*b`` and ``a*b+c`` on purpose, because of the
chain column: below that footprint the output is still in the cache when the next kernel reads it, and
streaming it to memory made the pair 0.7-0.98x as fast (``a*b+c`` at 2-4 MB: 0.76-0.98x, while the kernel
alone ran 1.0-1.3x faster); from the rule's threshold up the pair ran at 0.91-1.26x, level or faster in most runs.
numba is a comparison only, never a dependency (``pip install numba``).
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable, Dict, List

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mskernel as ms  # noqa: E402
from mskernel.hybrid import HybridKernel, stream  # noqa: E402
from mskernel.hybrid.stream import last_level_cache_bytes, stream_min_footprint  # noqa: E402
from kernel_bandwidth import interleaved, ratio  # noqa: E402  (the same timing and ratio)

KERNELS = {  # name: (DSL body, number of inputs)
    "x*x": ("x0[i] * x0[i]", 1),
    "a*b": ("x0[i] * x1[i]", 2),
    "a*b+c": ("x0[i] * x1[i] + x2[i]", 3),
}


def source(name: str, body: str, inputs: int) -> str:
    args = ", ".join(f"x{k}" for k in range(inputs))
    return (f"def {name}({args}):\n    y = output_tensor(x0.shape, x0.dtype)\n"
            f"    for i in parallel(x0.shape[0]):\n        y[i] = {body}\n    return y\n")


def built(name: str, body: str, inputs: int, threshold: int) -> HybridKernel:
    """The kernel generated with streaming stores from ``threshold`` bytes of footprint (built now)."""
    original = stream.stream_min_footprint
    stream.stream_min_footprint = lambda: threshold
    try:
        k = HybridKernel.from_source(source(name, body, inputs))
        k.run([np.ones(16, np.float32)] * inputs)
    finally:
        stream.stream_min_footprint = original
    return k


def numba_map(inputs: int):
    """numba's njit of the same loop, or None."""
    try:
        import numba
    except Exception:
        return None
    body = {1: "x0[i] * x0[i]", 2: "x0[i] * x1[i]", 3: "x0[i] * x1[i] + x2[i]"}[inputs]
    args = ", ".join(f"x{k}" for k in range(inputs))
    scope: Dict[str, object] = {"np": np}
    exec(f"def f({args}):\n    y = np.empty_like(x0)\n    for i in range(x0.shape[0]):\n        y[i] = {body}\n"
         f"    return y\n", scope)
    return numba.njit(scope["f"])


def main() -> None:
    quick = "--quick" in sys.argv
    placements, rounds = (3, 5) if quick else (6, 7)
    ms.set_context(runtime_num_threads=1)
    llc = last_level_cache_bytes() or 32 << 20
    print(f"last-level cache {llc >> 20} MB; the rule streams from a footprint of {stream_min_footprint() >> 20} MB; "
          f"{placements} placements x {rounds} rounds; GB/s = (bytes read + written) / s, one thread")
    print(f"{'kernel, output':<18}  {'footprint':>9}  {'ordinary':>8}  {'stream':>8}  {'numba':>8}  "
          f"{'ordinary/numba':>14}  {'stream/numba':>12}  {'stream/ordinary':>15}  {'in a chain':>15}  "
          f"{'rule picks':>10}")
    rng = np.random.default_rng(0)
    for name, (body, inputs) in KERNELS.items():
        tag = name.replace("*", "m").replace("+", "p")
        plain, streaming = built(f"plain_{tag}", body, inputs, 1 << 62), built(f"stream_{tag}", body, inputs, 0)
        square = built("next_square", "x0[i] * x0[i]", 1, 1 << 62)  # the next kernel of a chain: reads y at once
        nb = numba_map(inputs)
        for mb in (2, 4, 6, 8, 10, 12, 16):
            n = (mb << 20) // 4
            footprint = (inputs + 1) * n * 4
            times: Dict[str, List[float]] = {}
            for _ in range(placements):
                xs = [rng.random(n, dtype=np.float32) for _ in range(inputs)]
                fns: Dict[str, Callable[[], object]] = {
                    "ordinary": lambda: plain.run(xs), "stream": lambda: streaming.run(xs),
                    "ordinary, then y*y": lambda: square.run(plain.run(xs)),
                    "stream, then y*y": lambda: square.run(streaming.run(xs))}
                if nb is not None:
                    fns["numba"] = lambda: nb(*xs)
                for key, v in interleaved(fns, rounds, 0.02, clock=time.thread_time).items():
                    times.setdefault(key, []).extend(v)
            gb = {k: footprint / min(v) / 1e9 for k, v in times.items()}
            vs = {k: f"{ratio(times, k, 'numba'):13.2f}x" if nb is not None else f"{'-':>14}"
                  for k in ("ordinary", "stream")}
            picks = "stream" if footprint >= stream_min_footprint() else "ordinary"
            alone = ratio(times, "stream", "ordinary")
            chain = ratio(times, "stream, then y*y", "ordinary, then y*y")
            print(f"{name + ' ' + str(mb) + ' MB':<18}  {footprint >> 20:>6} MB  {gb['ordinary']:8.1f}  "
                  f"{gb['stream']:8.1f}  {gb.get('numba', float('nan')):8.1f}  {vs['ordinary']}  "
                  f"{vs['stream'][1:]}  {alone:14.2f}x  {chain:14.2f}x  {picks:>10}")


if __name__ == "__main__":
    main()
