"""Declared reductions (``reduce`` loops, mskernel/hybrid/reduction.py): what is reassociated, and by how much.

Oracles share no code with the compiler: a ``range`` loop's float sum is compared bit for bit with numpy's
sequential ``cumsum`` (the serial chain); a ``reduce`` loop's float sum with ``math.fsum`` of the terms in
float64, within the bound any order of summation satisfies, ``|err| <= gamma(n) * sum(|terms|)`` with
``gamma(k) = k*u / (1 - k*u)``; products with the exact product (``fractions``); integer reductions with
Python integers wrapped to the dtype; max/min with ``functools.reduce`` over Python's own ``max``/``min``
(the DSL's semantics: MindSpore's emulation calls them), NaN and signed zeros included, bit for bit.
Data come from numpy generators seeded by (derandomized) hypothesis draws.
"""
from __future__ import annotations

import functools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mskernel.cells import CellOptions, run_cell
from mskernel.hybrid import HybridKernel
from mskernel.hybrid.checked_codegen import generate_checked

PROFILE = settings(derandomize=True, database=None, max_examples=25, deadline=None,
                   suppress_health_check=list(HealthCheck))

SUM = """def total(x):
    y = output_tensor((1,), x.dtype)
    s = 0.0
    for i in {kind}(x.shape[0]):
        s = s + x[i]
    y[0] = s
    return y
"""

ROWSUM = """def rowsum(x):
    y = output_tensor((x.shape[0],), x.dtype)
    for i in range(x.shape[0]):
        y[i] = 0.0
        for j in reduce(x.shape[1]):
            y[i] += x[i, j]
    return y
"""

PROD = """def prod(x):
    y = output_tensor((1,), x.dtype)
    p = 1.0
    for i in reduce(x.shape[0]):
        p *= x[i]
    y[0] = p
    return y
"""

MINMAX = """def extremes(x):
    y = output_tensor((2,), x.dtype)
    m = x[0]
    n = x[0]
    for i in reduce(1, x.shape[0]):
        m = max(m, x[i])
        n = min(n, x[i])
    y[0] = m
    y[1] = n
    return y
"""

INTS = """def ints(x):
    y = output_tensor((4,), x.dtype)
    s = x[0] - x[0]
    p = s + 1
    m = x[0]
    n = x[0]
    for i in reduce(x.shape[0]):
        s = s + x[i]
        p = p * x[i]
        m = max(m, x[i])
        n = min(n, x[i])
    y[0] = s
    y[1] = p
    y[2] = m
    y[3] = n
    return y
"""

_KERNELS: dict[str, HybridKernel] = {}


def kernel(src: str) -> HybridKernel:
    if src not in _KERNELS:
        _KERNELS[src] = HybridKernel.from_source(src)
    return _KERNELS[src]


def gamma(k: int, dtype) -> float:
    u = float(np.finfo(dtype).eps) / 2
    return k * u / (1 - k * u)


def data(seed: int, n: int, dtype, kind: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "positive":
        x = rng.random(n)
    elif kind == "mixed":
        x = rng.standard_normal(n)
    else:  # magnitudes over 20 binades, both signs: cancellation
        x = rng.standard_normal(n) * np.exp2(rng.integers(-10, 10, n))
    return x.astype(dtype)


def bit_equal(a, b) -> bool:
    return np.asarray(a).tobytes() == np.asarray(b).tobytes()


# ---------------------------------------------------------------------- range: the serial order, bit for bit
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@PROFILE
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 5000), kind=st.sampled_from(["positive", "mixed", "wide"]))
def test_a_range_loop_sums_in_order_bit_for_bit(dtype, seed, n, kind):
    x = data(seed, n, dtype, kind)
    serial = np.cumsum(np.concatenate([np.zeros(1, dtype), x]), dtype=dtype)[-1]  # add.accumulate: in order
    assert bit_equal(kernel(SUM.format(kind="range")).run([x])[0][0], serial)


@pytest.mark.parametrize("n", [0, 1, 5, 31])
def test_a_reduce_loop_of_few_iterations_runs_in_order(n):
    x = data(n, n, np.float32, "wide")
    serial = np.cumsum(np.concatenate([np.zeros(1, np.float32), x]), dtype=np.float32)[-1]
    assert bit_equal(kernel(SUM.format(kind="reduce")).run([x])[0][0], serial)


def test_the_emulation_of_a_reduce_loop_stays_in_order():
    x = data(3, 3000, np.float32, "wide")
    serial = np.cumsum(np.concatenate([np.zeros(1, np.float32), x]), dtype=np.float32)[-1]
    assert bit_equal(kernel(SUM.format(kind="reduce")).run_python([x])[0][0], serial)


# ---------------------------------------------------------------------- reduce: within the reassociation bound
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@PROFILE
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 9000), kind=st.sampled_from(["positive", "mixed", "wide"]))
def test_a_reduce_loop_sum_is_within_the_bound_of_a_reassociated_sum(dtype, seed, n, kind):
    x = data(seed, n, dtype, kind)
    got = float(kernel(SUM.format(kind="reduce")).run([x])[0][0])
    exact = math.fsum(x.astype(np.float64))
    bound = gamma(n, dtype) * math.fsum(np.abs(x.astype(np.float64))) + abs(exact) * 2.0**-52
    assert abs(got - exact) <= bound


@PROFILE
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 5), cols=st.integers(0, 3000))
def test_an_element_accumulator_is_within_the_bound_per_row(seed, rows, cols):
    x = data(seed, rows * cols, np.float32, "mixed").reshape(rows, cols)
    got = kernel(ROWSUM).run([x])[0]
    for i in range(rows):
        exact = math.fsum(x[i].astype(np.float64))
        assert abs(float(got[i]) - exact) <= gamma(cols, np.float32) * math.fsum(np.abs(x[i].astype(np.float64)))


def test_strided_inputs_are_reduced_too():
    x = data(5, 2 * 7 * 2500, np.float32, "mixed").reshape(14, 2500)[::2, ::2]
    assert not x.flags.c_contiguous
    got = kernel(ROWSUM).run([x])[0]
    for i in range(x.shape[0]):
        exact = math.fsum(x[i].astype(np.float64))
        assert abs(float(got[i]) - exact) <= gamma(x.shape[1], np.float32) * math.fsum(np.abs(x[i].astype(np.float64)))


def test_blocked_pairwise_sums_keep_what_the_serial_chain_absorbs():
    # 1 + 2**-24 rounds back to 1 in float32: the serial chain loses every small term, the blocked sum keeps them
    x = np.full(1_000_001, 2.0**-24, np.float32)
    x[0] = 1.0
    exact = math.fsum(x.astype(np.float64))
    serial = float(kernel(SUM.format(kind="range")).run([x])[0][0])
    reduced = float(kernel(SUM.format(kind="reduce")).run([x])[0][0])
    assert serial == 1.0 and exact - serial > 0.059
    assert abs(reduced - exact) < 1e-4


@PROFILE
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 300))
def test_a_reduce_loop_product_is_within_the_relative_bound(seed, n):
    x = np.random.default_rng(seed).uniform(0.5, 2.0, n).astype(np.float64)
    got = Fraction(float(kernel(PROD).run([x])[0][0]))
    exact = functools.reduce(lambda a, b: a * Fraction(float(b)), x, Fraction(1))
    assert abs(got - exact) <= Fraction(gamma(n, np.float64)) * exact


# ---------------------------------------------------------------------- exact reductions
def _specials(seed: int, n: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * rng.choice([-1, 1])).astype(dtype)
    for value in (np.nan, 0.0, -0.0, np.inf, -np.inf):
        if n and rng.random() < 0.4:
            x[rng.integers(0, n, rng.integers(1, 4))] = value
    if n and rng.random() < 0.3:
        x[:] = -np.abs(x)  # a max of zero: the sign of zero the serial order picks
    if rng.random() < 0.3:  # many zeros of both signs in every SIMD lane
        x = rng.choice(np.array([-1.0, -0.0, 0.0, np.nan], dtype), n, p=[0.3, 0.3, 0.3, 0.1] if n % 2 else None)
        x[0] = -2.0 if rng.random() < 0.7 else x[0]
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(derandomize=True, database=None, max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3000))
def test_float_max_and_min_are_exact_nan_and_signed_zeros_included(dtype, seed, n):
    for x in (_specials(seed, n, dtype), -_specials(seed, n, dtype)):
        m = functools.reduce(max, list(x[1:]), x[0])  # Python's max(m, x[i]) in order: the DSL's semantics
        k = functools.reduce(min, list(x[1:]), x[0])
        got = kernel(MINMAX).run([x])[0]
        assert bit_equal(got, np.array([m, k], dtype)), (got, m, k)


@pytest.mark.parametrize("values", [[-1.0, -0.0, 0.0], [-1.0, 0.0, -0.0], [np.nan, 1.0, 2.0], [1.0, np.nan, 0.5],
                                    [-np.inf, np.nan, -np.inf], [0.0, -0.0], [-0.0, 0.0]])
def test_float_max_and_min_edge_cases(values):
    for dtype in (np.float32, np.float64):
        x = np.array(values * 40, dtype)[: 3 * 40]  # long enough for SIMD lanes
        x = np.concatenate([x[:1], np.full(50, -5.0, dtype), x[1:]])
        want = [functools.reduce(max, list(x[1:]), x[0]), functools.reduce(min, list(x[1:]), x[0])]
        assert bit_equal(kernel(MINMAX).run([x])[0], np.array(want, dtype))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32"])
@PROFILE
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4000))
def test_integer_reductions_are_exact_and_wrap(dtype, seed, n):
    info = np.iinfo(dtype)
    x = np.random.default_rng(seed).integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dtype)
    bits = info.bits

    def wrap(v: int) -> int:
        v %= 2**bits
        return v - 2**bits if info.min < 0 and v >= 2**(bits - 1) else v

    ints = [int(v) for v in x]
    want = [wrap(sum(ints)), wrap(functools.reduce(lambda a, b: a * b, ints, 1)), max(ints), min(ints)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = kernel(INTS).run([x])[0]
    assert [int(v) for v in got] == want


# ---------------------------------------------------------------------- what stays serial, and what the code says
def source_of(src: str, dtype: str = "float32", debug=None) -> str:
    return kernel(src).source([dtype], [1], debug=debug)


def test_the_generated_loop_says_what_it_did():
    text = source_of(SUM.format(kind="reduce"))
    assert "// reduce: #pragma omp simd reduction from 32 iterations (fewer run in order):\n" in text
    assert "//   s = s + ... reassociated: blocks of 1024 iterations in SIMD lanes, block sums added pairwise" in text
    assert "#pragma omp simd reduction(+:s_red)" in text and "mskh::PairwiseSum<float>" in text
    assert "reduction(" not in source_of(SUM.format(kind="range"))
    text = source_of(MINMAX)
    assert "m = max(m, ...) in SIMD lanes, exact (NaN, signed zero as in order)" in text
    assert "reduction(max:m_red) reduction(min:n_red)" in text
    assert "y[i] kept in a local" in kernel(ROWSUM).source(["float32"], [2])


@pytest.mark.parametrize("body, reason", [
    ("s = s + x[i]\n        y[i] = s", "because the loop reads its accumulator s outside the accumulation (line 6)"),
    ("s = max(x[i], s)", "max(..., s) puts the accumulator second (line 5)"),
    ("s = x[i] - s", "because it assigns s, declared outside the loop, other than by accumulating into it"),
    ("s = s + x[i]\n        s = s * 2.0", "because it accumulates into s with both + and * (line 6)"),
    ("y[i + 1] = y[i] + 1.0", "because it accumulates into nothing declared outside it"),
])
def test_other_reduce_loops_accumulate_in_order_and_say_why(body, reason):
    src = ("def k(x):\n    y = output_tensor((x.shape[0] + 1,), x.dtype)\n    s = 0.0\n"
           f"    for i in reduce(x.shape[0]):\n        {body}\n    y[0] = s\n    return y\n")
    text = source_of(src)
    assert "reduction(" not in text
    assert reason in text


def test_float16_accumulators_and_debug_builds_stay_serial():
    assert "because the float16 accumulator s is rounded to half precision" in source_of(SUM.format(kind="reduce"),
                                                                                         "float16")
    assert "reduction(" not in source_of(SUM.format(kind="reduce"), debug=True)
    x = data(1, 5000, np.float32, "wide")
    serial = np.cumsum(np.concatenate([np.zeros(1, np.float32), x]), dtype=np.float32)[-1]
    debug = HybridKernel.from_source(SUM.format(kind="reduce"), debug=True)
    assert bit_equal(debug.run([x])[0][0], serial)


def test_an_empty_reduce_loop_leaves_its_accumulator_element_alone():
    src = ("def k(x, n):\n    y = output_tensor((1,), x.dtype)\n    for j in reduce(n):\n"
           "        y[5] = y[5] + x[j]\n    return y\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hk = HybridKernel.from_source(src)
    assert hk.run([np.ones(3, np.float32)], [0])[0][0] == 0  # never touches y[5], which does not exist
    with pytest.raises(IndexError):
        hk.run([np.ones(3, np.float32)], [2])


def test_show_source_shows_the_reduction(tmp_path):
    ns = {"xe": np.ones(8, np.float32)}
    result = run_cell("total", SUM.format(kind="reduce"), CellOptions(show_source=True, example="(xe,)"), ns,
                      first_line=2)
    assert "// reduce: #pragma omp simd reduction from 32 iterations" in result.source
    assert "//   s = s + ... reassociated" in str(result) and "reduction(+:s_red)" in result._repr_html_()


def test_an_export_keeps_the_reduce_loop_as_written(tmp_path):
    import mskernel as ms
    from mskernel.mindspore_export import export_mindspore

    ns: dict = {}
    run_cell("total", SUM.format(kind="reduce"), CellOptions(), ns, first_line=2)
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(ns["total"](ms.Tensor(x)).asnumpy(), [10.0])
    text = export_mindspore(ns["total"], tmp_path, example=(x,)).read_text()
    assert "    for i in reduce(x.shape[0]):\n        s = s + x[i]\n" in text
    assert "pragma" not in text


SOFTMAX = """def softmax(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
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
"""


def test_a_reduce_loop_that_also_writes_and_declares_temporaries():
    # the row softmax of benchmarks/kernel_bandwidth.py: e private to the iteration, y[i, j] written at j, s summed
    text = kernel(SOFTMAX).source(["float32"], [2])
    assert "reduction(max:m_red)" in text and "reduction(+:s_red)" in text
    x = data(11, 7 * 2000, np.float32, "mixed").reshape(7, 2000)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(kernel(SOFTMAX).run([x])[0], e / e.sum(axis=1, keepdims=True), rtol=2e-6, atol=0)


def test_conditional_accumulation_negative_steps_and_several_accumulators():
    src = """def k(x):
    y = output_tensor((2,), x.dtype)
    s = 0.0
    q = 0.0
    for i in reduce(x.shape[0] - 1, -1, -3):
        if x[i] > 0.5:
            s = s + x[i]
        q -= x[i] * x[i]
    y[0] = s
    y[1] = q
    return y
"""
    assert "reduction(+:s_red, q_red)" in kernel(src).source(["float64"], [1])
    x = data(12, 10001, np.float64, "positive")
    v = x[::-1][::3]
    terms = [v[v > 0.5], -(v * v)]
    got = kernel(src).run([x])[0]
    for g, t in zip(got, terms):
        assert abs(g - math.fsum(t)) <= gamma(len(t), np.float64) * math.fsum(np.abs(t))


MATMUL = """def mm(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in {kind}(a.shape[1]):
                s = s + a[i, k] * b[k, j]
            c[i, j] = s
    return c
"""


@pytest.mark.parametrize("k", [3, 31, 32, 200])
def test_a_nest_of_short_reduce_loops_runs_as_written(k):
    # short reduce loops inside other loops: the whole nest in order (bit for bit the range loop's); long ones
    # reassociated, within the bound
    a, b = data(k, 9 * k, np.float32, "mixed").reshape(9, k), data(k + 1, k * 7, np.float32, "mixed").reshape(k, 7)
    text = kernel(MATMUL.format(kind="reduce")).source(["float32"] * 2, [2, 2])
    assert "if (a_n1 < 32) {  // every reduce loop in this nest is short: the nest as written, in order" in text
    got = kernel(MATMUL.format(kind="reduce")).run([a, b])[0]
    serial = kernel(MATMUL.format(kind="range")).run([a, b])[0]
    if k < 32:
        assert bit_equal(got, serial)
    terms = a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :]  # the products, exactly
    exact = np.array([[math.fsum(terms[i, :, j]) for j in range(7)] for i in range(9)])
    # a dot product in any order (each product rounded too): |err| <= gamma(k + 1) * sum |a_k b_k|
    assert np.all(np.abs(got - exact) <= gamma(k + 1, np.float32) * np.abs(terms).sum(axis=1))


def test_the_checked_build_reassociates_as_the_kernel_does_unless_it_checks_the_loop():
    """``ms.check_kernel``'s build reduces a loop it has nothing to check in (accesses proved in bounds, no
    tracked tensor) as the kernel does, so it computes the kernel's result bit for bit; a loop whose accesses
    it checks one by one stays in order."""
    import mskernel as ms

    hk = kernel(MATMUL.format(kind="reduce"))
    text = generate_checked(hk.specialize(hk.signature(["float32"] * 2, [2, 2]))).source
    assert "#pragma omp simd reduction(+:" in text
    a, b = data(1, 9 * 300, np.float32, "mixed").reshape(9, 300), data(2, 300 * 7, np.float32, "mixed").reshape(300, 7)
    check = ms.check_kernel(hk, a, b)
    assert check.ok, str(check)
    assert bit_equal(check.outputs[0], hk.run([a, b])[0])
    assert not bit_equal(check.outputs[0], kernel(MATMUL.format(kind="range")).run([a, b])[0])  # (not in order)
    gathered = kernel("def g(x, idx):\n    y = output_tensor((1,), x.dtype)\n    s = 0.0\n"
                      "    for k in reduce(idx.shape[0]):\n        s = s + x[idx[k]]\n    y[0] = s\n    return y\n")
    text = generate_checked(gathered.specialize(gathered.signature(["float32", "int64"], [1, 1]))).source
    assert "reduce: serial accumulation, because this copy of the loop checks its accesses one by one" in text


def _functions_with_gathers(path) -> set[str]:
    """The functions of a built library whose machine code gathers (``vgather*``/``vpgather*``)."""
    import subprocess

    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(path)], capture_output=True, text=True,
                          check=True).stdout
    found, current = set(), ""
    for line in text.splitlines():
        if line.endswith(">:"):
            current = line.split("<", 1)[1][:-2]
        elif "gather" in line:
            found.add(current)
    return found


@pytest.mark.skipif("avx2" not in open("/proc/cpuinfo").read(), reason="no gather instructions on this CPU")
def test_a_reduce_loop_inside_a_parallel_loop_loads_rows_contiguously():
    """The contiguous build of a row sum (a ``reduce`` loop in a ``parallel`` one) reads each row with vector
    loads: read through the parallel chunk's lambda capture, the row's pointer and strides were reloaded every
    iteration and the SIMD reduction became gathers (20x slower, no result changed). The strided build may
    gather: its strides are run-time values."""
    hk = HybridKernel.from_source(ROWSUM.replace("range(x.shape[0])", "parallel(x.shape[0])"))
    x = np.random.default_rng(5).random((64, 1000)).astype(np.float32)
    got = hk.run([x])[0]
    want = [math.fsum(row) for row in x.astype(np.float64)]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    gathering = _functions_with_gathers(hk.compile(["float32"], [2]).artifact.path)
    # rowsum_impl<true> (mangled ILb1E), its lambdas, and the entry it is inlined into
    contiguous = {f for f in gathering if "ILb1E" in f or f == "mskh_kernel_contig"}
    assert contiguous == set(), contiguous
