"""What ``ms.check_kernel`` costs: a checked run of a hybrid kernel against the same kernel run normally.

Run: ``python benchmarks/kernel_check.py``. One process, builds warmed first, interleaved best-of rounds;
quote ratios. The checked run is the whole ``ms.check_kernel(hk, *inputs)`` call: contiguous copies of the
inputs, poisoned outputs, the shadow arrays, the serial checked kernel (a shadow read and write per tracked
access, a task per parallel iteration) and the report read back. The normal run is ``hk.run(inputs)`` (the
compiled kernel: on one thread, and with the default thread team), and numpy's own computation for scale.

1. a map ``y[i] = x[i] * x[i]`` over 1M float32 elements in a ``parallel`` loop;
2. a row softmax over 1000 x 1000 float32 (rows ``parallel``; ``kernel_bandwidth.py``'s kernel).

Goal: the checked run within 5x the unchecked kernel on both, the kernel on one thread
(``ms.set_context(runtime_num_threads=1)``): the checked kernel runs serially by design (it orders the
parallel iterations to find races), so against the default team the ratio grows with the cores -- that
column (*default threads*) is shown too, without a goal. The checked build reduces and vectorizes the loops it
has nothing to check in as the kernel does (SIMD sums, glibc's SIMD ``expf``): its outputs are the
kernel's, bit for bit (asserted). Neither needs a shadow: each iteration writes its
own elements, indexed by the loop variable, and each output is provably written in full -- the checked build
tracks only what cannot be settled before the run. For what tracking costs, a third row (no goal):

3. a scatter ``y[idx[i]] = x[i]`` over 1M float32 with a permutation ``idx``: ``y`` is followed element by
   element (its writer, for races through the data; whether it was written at all).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import mskernel as ms
from mskernel.hybrid import HybridKernel

sys.path.insert(0, str(Path(__file__).parent))
from engine_overhead import fmt_time, interleaved_best  # noqa: E402
from kernel_bandwidth import SOFTMAX  # noqa: E402  (the same row softmax kernel_bandwidth times)

MAP = """
def square(x):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[i] = x[i] * x[i]
    return y
"""

SCATTER = """
def scatter(x, idx):
    y = output_tensor(x.shape, x.dtype)
    for i in parallel(x.shape[0]):
        y[idx[i]] = x[i]
    return y
"""



def numpy_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main() -> None:
    rng = np.random.default_rng(0)
    cases = [("map, 1M float32", HybridKernel.from_source(MAP, "square"),
              rng.standard_normal(1 << 20).astype(np.float32), lambda x: x * x),
             ("row softmax, 1000x1000 float32", HybridKernel.from_source(SOFTMAX, "softmax"),
              rng.standard_normal((1000, 1000)).astype(np.float32), numpy_softmax)]
    x = rng.standard_normal(1 << 20).astype(np.float32)
    idx = rng.permutation(1 << 20)

    def numpy_scatter(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
        y = np.empty_like(x)
        y[idx] = x
        return y

    tracked = ("scatter, 1M float32 (tracked)", HybridKernel.from_source(SCATTER, "scatter"), (x, idx), numpy_scatter)
    print(f"{'':<32}{'numpy':>12}{'kernel':>12}{'checked':>12}{'checked/kernel':>16}{'default threads':>17}")
    worst = 0.0
    for label, hk, args, ref in [(lbl, h, (a,), r) for lbl, h, a, r in cases] + [tracked]:
        check = ms.check_kernel(hk, *args)  # builds both versions before timing
        assert check.ok, str(check)
        np.testing.assert_array_equal(check.outputs[0], hk.run(list(args))[0])

        def one_thread() -> object:
            ms.set_context(runtime_num_threads=1)
            try:
                return hk.run(list(args))
            finally:
                ms.set_context(runtime_num_threads=0)
        best = interleaved_best({"numpy": lambda: ref(*args), "kernel": one_thread,
                                 "default": lambda: hk.run(list(args)),
                                 "checked": lambda: ms.check_kernel(hk, *args)}, rounds=7, min_time=0.1)
        ratio = best["checked"] / best["kernel"]
        if hk.name != "scatter":
            worst = max(worst, ratio)
        print(f"{label:<32}{fmt_time(best['numpy']):>12}{fmt_time(best['kernel']):>12}"
              f"{fmt_time(best['checked']):>12}{ratio:>15.2f}x{best['checked'] / best['default']:>16.2f}x")
    print(f"goal: the checked run within 5x the unchecked kernel on one thread: {'met' if worst <= 5 else 'NOT met'} "
          f"(worst {worst:.2f}x)")


if __name__ == "__main__":
    main()
