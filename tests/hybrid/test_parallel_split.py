"""Parallel loops: on the calling thread below PARALLEL_MIN_WORK of estimated work (the loop body called
inline, no pool), on the thread pool from it; both compute the same and report bad indices the same way."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel.hybrid import HybridKernel, threads
from mskernel.hybrid.codegen import PARALLEL_MIN_WORK

GATHER = ("def gather(x, idx):\n    y = output_tensor(idx.shape, x.dtype)\n    for i in parallel(idx.shape[0]):\n"
          "        y[i] = x[idx[i]] * 2.0\n    return y\n")
PER_ITERATION = 4  # two loads, a multiplication and a store (mskernel.hybrid.work)


def test_parallel_loop_goes_to_the_pool_only_with_enough_work():
    src = HybridKernel.from_source(GATHER).source(["float32", "int64"], [1, 1])
    enough = f"idx_n0 * {PER_ITERATION}.0 >= {PARALLEL_MIN_WORK}"
    assert f"mskh::parallel_for({enough}, idx_n0, [&](int64_t i_lo, int64_t i_hi) {{" in src
    assert "for (int64_t i = i_lo; i < i_hi; ++i) {" in src
    assert "#pragma omp parallel" not in src  # no OpenMP runtime: the pool is mskernel's own


@pytest.mark.parametrize("n", [PARALLEL_MIN_WORK // PER_ITERATION - 1, PARALLEL_MIN_WORK // PER_ITERATION])
def test_both_paths_compute_the_same_and_report_bad_indices(n):
    ms.set_context(runtime_num_threads=2)
    hk = HybridKernel.from_source(GATHER)
    x = np.arange(n, dtype=np.float32)
    idx = np.arange(n)[::-1].copy()
    hk.run([x, idx])
    before = threads.pool_stats()
    np.testing.assert_array_equal(hk.run([x, idx])[0], x[idx] * 2)
    assert (threads.pool_stats() - before).loops == (n * PER_ITERATION >= PARALLEL_MIN_WORK)
    ms.set_context(runtime_num_threads=0)
    idx[n // 2] = n
    with pytest.raises(IndexError, match=rf"index \({n},\) is out of bounds for tensor x with shape \({n},\)"):
        hk.run([x, idx])


def test_the_work_estimate_counts_operations_and_inner_loops():
    src = ("def k(x, a):\n    y = output_tensor(x.shape, x.dtype)\n    for i in parallel(x.shape[0]):\n"
           "        for j in range(i):\n            y[i, j] = x[i, j]\n"          # bounds depend on i: once
           "        for j in range(x.shape[1]):\n            y[i, j] = exp(x[i, j]) / a\n"  # 1 + 16 + 1 + 4
           "        t = allocate((4,), x.dtype)\n        if a > 0.0:\n"             # 16, and the test 1
           "            t[0] = x[i, 0]\n    return y\n")
    text = HybridKernel.from_source(src).source(["float32"], [2], [float])
    assert f"mskh::parallel_for(x_n0 * (17.0 + 2.0 + x_n1 * 22.0 + 2.0) >= {PARALLEL_MIN_WORK}, x_n0," in text
