"""Parallel loops: a serial copy below PARALLEL_MIN_WORK (no OpenMP runtime call), the team above it."""
from __future__ import annotations

import numpy as np
import pytest

from mskernel.hybrid import HybridKernel
from mskernel.hybrid.codegen import PARALLEL_MIN_WORK

GATHER = ("def gather(x, idx):\n    y = output_tensor(idx.shape, x.dtype)\n    for i in parallel(idx.shape[0]):\n"
          "        y[i] = x[idx[i]] * 2.0\n    return y\n")


def test_parallel_loop_has_a_serial_copy_for_small_work():
    src = HybridKernel.from_source(GATHER).source(["float32", "int64"], [1, 1])
    assert f"if (idx_n0 >= {PARALLEL_MIN_WORK}) {{  // enough work to start the thread team" in src
    assert "} else {  // less: serial, without entering the OpenMP runtime" in src
    assert src.count("#pragma omp parallel for schedule(static)\n") == 1


@pytest.mark.parametrize("n", [PARALLEL_MIN_WORK - 1, PARALLEL_MIN_WORK])
def test_both_copies_compute_the_same_and_report_bad_indices(n):
    hk = HybridKernel.from_source(GATHER)
    x = np.arange(n, dtype=np.float32)
    idx = np.arange(n)[::-1].copy()
    np.testing.assert_array_equal(hk.run([x, idx])[0], x[idx] * 2)
    idx[n // 2] = n
    with pytest.raises(IndexError, match=rf"index \({n},\) is out of bounds for tensor x with shape \({n},\)"):
        hk.run([x, idx])
