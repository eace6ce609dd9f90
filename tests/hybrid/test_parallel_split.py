"""Parallel loops: on the calling thread below PARALLEL_MIN_WORK (the loop body called inline, no pool),
on the thread pool above it; both compute the same and report bad indices the same way."""
from __future__ import annotations

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid.codegen import PARALLEL_MIN_WORK

GATHER = ("def gather(x, idx):\n    y = output_tensor(idx.shape, x.dtype)\n    for i in parallel(idx.shape[0]):\n"
          "        y[i] = x[idx[i]] * 2.0\n    return y\n")


def test_parallel_loop_goes_to_the_pool_only_with_enough_work():
    src = HybridKernel.from_source(GATHER).source(["float32", "int64"], [1, 1])
    assert f"mskh::parallel_for(idx_n0 >= {PARALLEL_MIN_WORK}, idx_n0, [&](int64_t i_lo, int64_t i_hi) {{" in src
    assert "for (int64_t i = i_lo; i < i_hi; ++i) {" in src
    assert "#pragma omp parallel" not in src  # no OpenMP runtime: the pool is mskernel's own


@pytest.mark.parametrize("n", [PARALLEL_MIN_WORK - 1, PARALLEL_MIN_WORK])
def test_both_paths_compute_the_same_and_report_bad_indices(n):
    hk = HybridKernel.from_source(GATHER)
    x = np.arange(n, dtype=np.float32)
    idx = np.arange(n)[::-1].copy()
    np.testing.assert_array_equal(hk.run([x, idx])[0], x[idx] * 2)
    idx[n // 2] = n
    with pytest.raises(IndexError, match=rf"index \({n},\) is out of bounds for tensor x with shape \({n},\)"):
        hk.run([x, idx])
