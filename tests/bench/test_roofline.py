"""Roofs measured once and cached on disk; placement under them; points above them refused."""
from __future__ import annotations

import numpy as np
import pytest

from mskernel.bench import Counts, Peaks, RooflineError, machine_peaks, place
from mskernel.bench.roofline import _cache_file, measure_peaks

PEAKS = Peaks(bandwidth=10e9, flops={"float32": 100e9, "float64": 50e9}, source="given")


def counts(flops, nbytes):
    return Counts("k", loads=1, stores=1, load_bytes=nbytes // 2, store_bytes=nbytes // 2, flops=flops,
                  compulsory_bytes=nbytes)


def test_memory_and_compute_bound_points():
    mem = place(counts(1000, 8000), 1e-6, PEAKS)  # 8 GB/s of 10: 80% of the memory roof
    assert mem.bound == "memory" and mem.roof_gflops == pytest.approx(1.25) and mem.fraction == pytest.approx(0.8)
    comp = place(counts(10**6, 8000), 2e-5, PEAKS, dtype="float64")  # 50 GFLOP/s of 50
    assert comp.bound == "compute" and comp.roof_gflops == pytest.approx(50) and comp.fraction == pytest.approx(1)


def test_an_impossible_point_is_a_counting_error():
    with pytest.raises(RooflineError, match="moves 80 GB/s, 8x the machine's 10 GB/s bandwidth"):
        place(counts(1000, 8000), 1e-7, PEAKS)
    with pytest.raises(RooflineError, match="200 GFLOP/s, 4x the machine's 50 GFLOP/s float64 peak"):
        place(counts(10**6, 8), 5e-6, PEAKS, dtype="float64")
    with pytest.raises(ValueError, match="the time must be > 0"):
        place(counts(1, 8), 0.0, PEAKS)


def test_slack_tolerates_noise_only():
    place(counts(1000, 8000), 0.9e-6, PEAKS)  # 8.9 GB/s: under the roof
    place(counts(1000, 8000), 0.7e-6, PEAKS)  # 11.4 GB/s: within the 1.25 slack
    with pytest.raises(RooflineError):
        place(counts(1000, 8000), 0.7e-6, PEAKS, slack=1.0)


def test_peaks_are_measured_once_then_read_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(tmp_path))
    first = machine_peaks()
    assert first.source == "measured" and first.bandwidth > 0 and set(first.flops) == {"float32", "float64"}
    path = _cache_file()
    assert path.is_file() and path.parent == tmp_path / "bench"
    again = machine_peaks()
    assert again.source == "cached" and again.bandwidth == first.bandwidth and again.flops == first.flops
    path.write_text("not json")  # unreadable: measured again and replaced
    assert machine_peaks().source == "measured" and machine_peaks().source == "cached"


def test_measure_peaks_states_its_method():
    p = measure_peaks(copy_bytes=1 << 20, matmul_n=32, repeats=1)
    assert "numpy.copyto (one thread)" in p.method and "copies of 1 MiB" in p.method and "matmul 32x32" in p.method
    assert "by a hybrid parallel copy kernel on every core" in p.method
    assert p.peak("float16") == p.flops["float32"]


def test_the_bandwidth_roof_is_the_faster_copy_and_its_kernel_copies():
    """The roof is the faster of the two copies the method names (the kernel's: every core, streaming stores on
    a buffer this large), and the kernel it times is a correct copy."""
    import re

    from mskernel.bench.roofline import COPY_KERNEL, _kernel_copy
    from mskernel.hybrid import HybridKernel
    from mskernel.hybrid.stream import stream_min_footprint

    nbytes = stream_min_footprint()  # two arrays of it: a footprint the rule streams
    p = measure_peaks(copy_bytes=nbytes, matmul_n=32, repeats=2)
    numpy_gbps, kernel_gbps = (float(v) for v in re.findall(r"([0-9.]+) GB/s by", p.method))
    assert p.bandwidth / 1e9 == pytest.approx(max(numpy_gbps, kernel_gbps), rel=6e-3)  # (printed to 3 digits)
    src = np.arange(nbytes // 8, dtype=np.float64)
    dst = np.full_like(src, np.nan)
    call, why = _kernel_copy(src, dst)
    assert why == "" and call is not None
    call()
    np.testing.assert_array_equal(dst, src)
    assert "mskh::stream(" in HybridKernel.from_source(COPY_KERNEL).source([src])
