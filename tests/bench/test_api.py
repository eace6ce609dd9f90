"""ms.benchmark: the result carries its method and environment, sweeps have one row per size, hybrid kernels
are counted and placed on the roofline -- and a point above the roof is refused, not drawn."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from mskernel.bench import BenchResult, DisagreementError, Sweep
from mskernel.bench.roofline import _cache_file
from mskernel.ops import kernel

FAST = dict(warmup=0.0, min_rounds=3, max_rounds=3, flush_bytes=1 << 16)


@kernel
def bench_sq(x):
    y = output_tensor(x.shape, x.dtype)  # noqa: F821 - a DSL name
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i]
    return y


SQ_OP = ops.Custom(bench_sq, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="hybrid")


@kernel
def bench_psq(x):
    y = output_tensor(x.shape, x.dtype)  # noqa: F821 - a DSL name
    for i in parallel(x.shape[0]):  # noqa: F821
        y[i] = x[i] * x[i]
    return y


PSQ_OP = ops.Custom(bench_psq, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="hybrid")


def x32(n=64):
    return ms.Tensor(np.linspace(-1, 1, n).astype(np.float32))


def test_the_result_states_its_method_and_environment():
    r = ms.benchmark({"mul": lambda a: a * a, "square": ops.square}, x32(), roofline=False, **FAST)
    assert isinstance(r, BenchResult)
    assert r.names == ["mul", "square"] and r.inputs == "(float32[64])"
    assert set(r.warm) == set(r.flushed) == {"mul", "square"}
    assert r.method.warmup == 0.0 and r.method.flush_bytes == 1 << 16
    assert {"cpu", "cores_allowed", "numpy", "mskernel", "threads", "llc_bytes"} <= set(r.env)
    assert r.agreement.grads_compared == ["mul", "square"]
    rows = r.rows()
    assert [(row["name"], row["mode"]) for row in rows] == [("mul", "warm"), ("square", "warm"),
                                                           ("mul", "flushed"), ("square", "flushed")]
    assert all(row["q_lo"] <= row["median"] <= row["q_hi"] and row["samples"] == 3 for row in rows)
    text = r.text()
    for part in [r.method.describe().splitlines()[0], "warm median [q10, q90]", "flushed median [q10, q90]",
                 "agreement: square match mul on values and gradients", "stopping: warm", "environment: ",
                 r.env["cpu"], "1.00x"]:
        assert part in text


def test_disagreeing_implementations_are_refused_before_timing():
    calls = []

    def off(a):
        calls.append(1)
        return a * a + 1

    with pytest.raises(DisagreementError, match="'off' differs from 'mul' in output 0"):
        ms.benchmark({"mul": lambda a: a * a, "off": off}, x32(), **FAST)
    assert len(calls) == 1  # called once by the check, never timed


def test_a_sweep_has_one_row_per_size():
    sizes = [4, 32, 256]
    s = ms.benchmark([np.negative, lambda a: -a], sizes=sizes, inputs=lambda n: np.ones(n), param="n",
                     flush=False, **FAST)
    assert isinstance(s, Sweep) and s.sizes == sizes and len(s.results) == 3
    assert [row["n"] for row in s.rows()] == sizes
    assert set(s.rows()[0]) == {"n", "negative", "<lambda>"}
    lines = s.text().splitlines()
    assert lines[0] == "sweep negative/<lambda> over n: median time per call"
    assert [ln.split()[0] for ln in lines[2:5]] == ["4", "32", "256"]
    assert any(ln.startswith("method: ") for ln in lines)
    ax = s.figure().axes[0]
    assert len(ax.get_lines()) == 2 and ax.get_xlabel() == "n"


def test_a_hybrid_kernel_is_counted_and_placed():
    r = ms.benchmark({"mul": lambda a: a * a, "hybrid": SQ_OP}, x32(1000), **FAST)
    c = r.counts["hybrid"]
    assert (c.loads, c.stores, c.flops, c.compulsory_bytes) == (1000, 1000, 1000, 8000)
    assert "counts bench_sq: 1000 loads, 1000 stores" in r.text()
    assert set(r.roofline) | set(r.roofline_errors) == {"hybrid"}
    assert r.peaks is not None and r.peaks.bandwidth > 0
    if r.roofline:
        p = r.roofline["hybrid"]
        assert p.intensity == 1 / 8 and p.bound == "memory" and p.gflops <= 1.25 * p.roof_gflops
    assert r._repr_png_()[:4] == b"\x89PNG"


def test_a_point_above_the_roof_is_reported_not_drawn(tmp_path, monkeypatch):
    SQ_OP(x32(1000))  # compiled (and kept in this process) before the cache directory moves
    monkeypatch.setenv("MSKERNEL_CACHE_DIR", str(tmp_path))
    path = _cache_file()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"bandwidth": 1.0, "flops": {"float32": 1.0, "float64": 1.0}}))  # 1 B/s
    r = ms.benchmark({"hybrid": SQ_OP}, x32(1000), grads=False, **FAST)
    assert r.peaks.source == "cached" and r.roofline == {}
    assert "counting error, not drawn" in r.roofline_errors["hybrid"]
    assert "roofline hybrid: roofline: bench_sq above the roof" in r.text()
    fig = r.figure()
    assert len(fig.axes) == 1  # no roofline panel without a placed point


def test_argument_errors():
    with pytest.raises(TypeError, match="inputs= makes the inputs of a sweep: give sizes= too"):
        ms.benchmark(np.negative, inputs=lambda n: np.ones(n))
    with pytest.raises(TypeError, match="a sweep takes sizes= and inputs="):
        ms.benchmark(np.negative, np.ones(3), sizes=[1], inputs=lambda n: np.ones(n))
    with pytest.raises(ValueError, match="sizes= is empty"):
        ms.benchmark(np.negative, sizes=[], inputs=lambda n: np.ones(n))
    with pytest.raises(TypeError, match="implementation 'x' is not callable"):
        ms.benchmark({"x": 3}, np.ones(3))
    with pytest.raises(ValueError, match="roofline=True needs a hybrid kernel"):
        ms.benchmark(np.negative, np.ones(3), roofline=True, **FAST)
    with pytest.raises(TypeError, match="either method= or method options"):
        ms.benchmark(np.negative, np.ones(3), method=ms.bench.Method(), warmup=0.0)
    with pytest.raises(ValueError, match="no 'flushed' timings"):
        ms.benchmark(np.negative, np.ones(3), flush=False, **FAST).timings("flushed")


def test_warm_only_runs_place_no_roofline_point():
    # warm data in cache moves faster than memory bandwidth: placing warm timings on the roofline would
    # report a counting error that is not one
    op = ops.Custom(bench_sq, func_type="hybrid")
    r = ms.benchmark({"hybrid": op, "square": ops.square}, x32(1 << 14), flush=False, **FAST)
    assert r.flushed is None and r.roofline == {} and r.roofline_errors == {}
    assert "flushed" not in r.text().split("method:")[1].split("environment:")[0]
    assert "roofline: not placed: warm-cache runs only (flush=False)" in r.text()
    with pytest.raises(ValueError, match=r"roofline=True needs the cache-flushed runs \(flush=True\)"):
        ms.benchmark({"hybrid": op}, x32(), flush=False, roofline=True, **FAST)
    placed = ms.benchmark({"hybrid": op}, x32(), **FAST)  # flushed runs: placed
    assert set(placed.roofline) | set(placed.roofline_errors) == {"hybrid"}
    assert "flushed: one call after writing" in placed.text()


def test_the_result_records_the_vector_math_setting(monkeypatch):
    from mskernel.hybrid.vector_math import vector_math_setting

    monkeypatch.setenv("MSKERNEL_VECTOR_MATH", "off")
    r = ms.benchmark({"hybrid": SQ_OP}, x32(), roofline=False, check=False, **FAST)
    assert r.env["vector_math"] == "vector math off (MSKERNEL_VECTOR_MATH)"
    assert r.text().splitlines()[-1].endswith("; vector math off (MSKERNEL_VECTOR_MATH)")
    monkeypatch.delenv("MSKERNEL_VECTOR_MATH")
    r = ms.benchmark({"hybrid": SQ_OP}, x32(), roofline=False, check=False, **FAST)
    assert r.env["vector_math"] == vector_math_setting().describe()
    assert "(default)" in r.env["vector_math"]


def test_the_result_records_the_thread_policy_and_what_the_pool_did():
    from mskernel.hybrid.codegen import PARALLEL_MIN_WORK
    from mskernel.hybrid.threads import POLICY

    x = x32(PARALLEL_MIN_WORK // 4 + 64)  # 4 operations per iteration: enough work for the pool
    try:
        ms.set_context(runtime_num_threads=2)
        r = ms.benchmark({"hybrid": PSQ_OP}, x, roofline=False, check=False, **FAST)
        assert r.env["parallel"] == {"threads": 2, "set_by": "set_context(runtime_num_threads=2)", "policy": POLICY}
        assert r.parallel["threads"] == 2 and r.parallel["policy"] == POLICY and r.parallel["loops"] >= 6
        assert 0 <= r.parallel["joined"] <= r.parallel["loops"]  # (how many a worker joined depends on the load)
        text = r.text()
        assert f"parallel loops: 2 threads (set_context(runtime_num_threads=2)), {POLICY}; " in text
        assert "loops ran on the pool during the timing" in text
        assert "parallel loops: 2 threads (set_context(runtime_num_threads=2))" in text.splitlines()[-1]
        ms.set_context(runtime_num_threads=1)
        r = ms.benchmark({"hybrid": PSQ_OP}, x, roofline=False, check=False, **FAST)
        assert r.parallel["threads"] == 1 and r.parallel["loops"] == 0
        assert "1 thread (set_context(runtime_num_threads=1))" in r.text()
        assert "no loop ran on the pool during the timing" in r.text()
    finally:
        ms.set_context(runtime_num_threads=0)
