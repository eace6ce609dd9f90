"""Compiled hybrid kernels are safe without debug: bounds proofs, checked fallbacks, allocation sizes.

Every case runs the real compiler. The crash cases (an out-of-bounds write, an impossible or negative
allocate) also run in a child process, which must survive and print the Python error.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mskernel.hybrid import HybridError, HybridKernel
from mskernel.hybrid.bounds import prove
from mskernel.hybrid.check import Signature, specialize
from mskernel.hybrid.parse import parse
from mskernel.hybrid.source import KernelSource


def kernel(text: str, debug: bool = False) -> HybridKernel:
    return HybridKernel.from_source(textwrap.dedent(text), debug=debug)


def proof_of(text: str, dtypes: tuple[str, ...], ranks: tuple[int, ...], stmt: int = -1):
    typed = specialize(parse(KernelSource.from_text(textwrap.dedent(text))), Signature(dtypes, ranks))
    body = [s for s in typed.kernel.body if type(s).__name__ != "Alloc"]
    declared = set(typed.kernel.params) | set(typed.kernel.returns)
    return prove(typed, body[stmt], lambda e: "<e>", lambda n: n, declared)


# ---------------------------------------------------------------- out of bounds without debug
def test_out_of_bounds_read_raises_without_debug():
    hk = kernel("""
        def shift(x):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0]):
                y[i] = x[i + 1]
            return y
    """)
    assert hk.debug is False
    with pytest.raises(IndexError, match=r"index \(5,\) is out of bounds for tensor x with shape \(5,\) at <string>:5"):
        hk.run([np.arange(5.0)])


def test_out_of_bounds_write_in_a_parallel_loop_raises():
    hk = kernel("""
        def spill(x):
            y = output_tensor(x.shape, x.dtype)
            for i in parallel(x.shape[0]):
                y[i + 1] = x[i]
            return y
    """)
    with pytest.raises(IndexError, match=r"index \(100000,\) is out of bounds for tensor y"):
        hk.run([np.zeros(100_000)])


def test_first_element_of_an_empty_input_raises():
    hk = kernel("""
        def first(x):
            y = output_tensor((1,), x.dtype)
            y[0] = x[0]
            return y
    """)
    np.testing.assert_array_equal(hk.run([np.array([7.0])])[0], [7.0])
    with pytest.raises(IndexError, match=r"index \(0,\) is out of bounds for tensor x with shape \(0,\)"):
        hk.run([np.zeros(0)])


def test_data_dependent_index_is_checked_per_access_in_parallel_loops():
    src = """
        def gather(x, idx):
            y = output_tensor(idx.shape, x.dtype)
            for i in parallel(idx.shape[0]):
                y[i] = x[idx[i]]
            return y
    """
    p = proof_of(src, ("float64", "int64"), (1, 1))
    assert [n.tensor for n in p.unproved] == ["x"] and len(p.proved) == 2
    hk = kernel(src)
    x, idx = np.arange(50_000.0), np.arange(50_000)[::-1].copy()
    np.testing.assert_array_equal(hk.run([x, idx])[0], x[idx])
    idx[31_337] = -1
    with pytest.raises(IndexError, match=r"index \(-1,\) is out of bounds for tensor x .* at <string>:5"):
        hk.run([x, idx])


def test_guarded_stencil_is_proved_and_correct():
    src = """
        def lap(x):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0]):
                if i > 0 and i < x.shape[0] - 1:
                    y[i] = x[i - 1] - 2.0 * x[i] + x[i + 1]
                else:
                    y[i] = x[i + 1] if i == 0 else x[i - 1]
            return y
    """
    p = proof_of(src, ("float64",), (1,))
    assert p.unproved == [] and len(p.proved) == 7 and p.condition == "bnd_ok"
    hk = kernel(src)
    x = np.arange(6.0) ** 2
    np.testing.assert_allclose(hk.run([x])[0], hk.run_python([x])[0])
    assert "mskh::at<" not in hk.source([x]).split("some access may be out of bounds")[0]  # fast version: no checks


def test_a_false_alarm_runs_the_checked_version_and_gives_the_right_answer():
    # the guard is data-dependent, so the proof cannot use it: x[i + 1] might be out of bounds and the nest runs
    # checked -- yet no access actually is, so the result is the emulation's and nothing is raised
    hk = kernel("""
        def guarded(x, keep):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0]):
                if keep[i] > 0:
                    y[i] = x[i + 1]
            return y
    """)
    x, keep = np.arange(5.0), np.array([1, 1, 0, 1, 0])
    np.testing.assert_array_equal(hk.run([x, keep])[0], hk.run_python([x, keep])[0])
    keep[4] = 1
    with pytest.raises(IndexError, match=r"index \(5,\)"):
        hk.run([x, keep])


def test_scalars_assigned_in_the_nest_and_triangular_loops_are_proved():
    src = """
        def tri(a):
            b = output_tensor(a.shape, a.dtype)
            for i in range(a.shape[0]):
                for j in range(i + 1):
                    k = i - j
                    b[i, j] = a[k, j] + a[j, k]
            return b
    """
    p = proof_of(src, ("float64", ), (2,))
    assert p.unproved == [] and len(p.proved) == 3
    hk = kernel(src)
    a = np.arange(16.0).reshape(4, 4)
    np.testing.assert_array_equal(hk.run([a])[0], hk.run_python([a])[0])
    with pytest.raises(IndexError, match="tensor a"):
        hk.run([np.zeros((4, 2))])  # j runs to 3 but a has 2 columns


def test_a_self_dependent_scalar_index_is_unproved_and_checked():
    src = """
        def walk(x):
            y = output_tensor(x.shape, x.dtype)
            k = 0
            for i in range(x.shape[0]):
                k = k + 2
                y[i] = x[k]
            return y
    """
    p = proof_of(src, ("float64",), (1,))
    assert [n.tensor for n in p.unproved] == ["x"]
    with pytest.raises(IndexError, match=r"index \(6,\) is out of bounds for tensor x with shape \(6,\)"):
        kernel(src).run([np.arange(6.0)])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.integers(-2, 2), stop_off=st.integers(-3, 2), step=st.sampled_from([1, 2, -1]),
       scale=st.sampled_from([1, 2, -1]), off=st.integers(-3, 3), guard=st.booleans(), n=st.integers(0, 6))
def test_safe_kernels_behave_exactly_like_debug_kernels(start, stop_off, step, scale, off, guard, n):
    """The proof only picks the fast version when it is exact: results and errors equal debug mode's."""
    lo, hi = (start, f"x.shape[0] + {stop_off}") if step > 0 else (f"x.shape[0] + {stop_off}", start)
    cond = "i >= 0 and i < x.shape[0]" if guard else "True"
    src = f"""
        def prop(x):
            y = output_tensor((x.shape[0] + 8,), x.dtype)
            for i in range({lo}, {hi}, {step}):
                if {cond}:
                    y[i + 4] = x[i * {scale} + {off}]
            return y
    """
    x = np.arange(float(n))
    results = []
    for debug in (False, True):
        try:
            results.append(kernel(src, debug).run([x])[0])
        except IndexError as exc:
            results.append(str(exc))
    if isinstance(results[0], str) or isinstance(results[1], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_array_equal(results[0], results[1])


# ---------------------------------------------------------------- allocation sizes
ALLOC = """
    def buf(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            t = allocate((2, {size}), x.dtype)
            t[0, 0] = x[i]
            y[i] = t[0, 0]
        return y
"""


@pytest.mark.parametrize("debug", [False, True])
def test_negative_allocate_is_a_value_error_at_its_line(debug):
    with pytest.raises(ValueError, match=r"allocate\(\) of t with shape \(2, -3\): negative dimensions are not "
                                         r"allowed at <string>:5"):
        kernel(ALLOC.format(size="x.shape[0] - 6"), debug).run([np.arange(3.0)])


@pytest.mark.parametrize("debug", [False, True])
def test_impossible_allocate_is_a_memory_error_at_its_line(debug):
    with pytest.raises(MemoryError, match=r"cannot allocate t with shape \(2, 3000000000000000\) and dtype float64 "
                                          r"\(4.8e\+16 bytes\) at <string>:5"):
        kernel(ALLOC.format(size="x.shape[0] * 1000000000000000"), debug).run([np.arange(3.0)])


def test_allocate_in_a_parallel_loop_fails_cleanly():
    hk = kernel("""
        def par(x):
            y = output_tensor(x.shape, x.dtype)
            for i in parallel(x.shape[0]):
                t = allocate((x.shape[0] - 100000 - 1,), x.dtype)
                y[i] = x[i]
            return y
    """)
    with pytest.raises(ValueError, match=r"allocate\(\) of t with shape \(-1,\)"):
        hk.run([np.zeros(100_000)])


def test_emulation_rejects_negative_sizes_too():
    hk = kernel(ALLOC.format(size="x.shape[0] - 6"))
    with pytest.raises(ValueError, match=r"allocate\(\): negative dimensions are not allowed, got shape \(2, -3\)"):
        hk.run_python([np.arange(3.0)])


def test_negative_output_tensor_names_the_kernel_output_and_line():
    hk = kernel("""
        def short(x):
            y = output_tensor((x.shape[0] - 5,), x.dtype)
            return y
    """)
    msg = r"hybrid kernel 'short': output_tensor y has shape \(-2,\): negative dimensions are not allowed at <string>:3"
    with pytest.raises(ValueError, match=msg):
        hk.run([np.arange(3.0)])
    with pytest.raises(ValueError, match=msg):
        hk.infer([(3,)], ["float64"])
    with pytest.raises(ValueError, match=r"output_tensor\(\): negative dimensions"):
        hk.run_python([np.arange(3.0)])


def test_crash_cases_leave_the_process_alive():
    script = textwrap.dedent(f"""
        import numpy as np
        from mskernel.hybrid import HybridKernel
        cases = {{
            "write": "def w(x):\\n    y = output_tensor(x.shape, x.dtype)\\n    for i in range(x.shape[0]):\\n"
                     "        y[i * 1000] = x[i]\\n    return y\\n",
            "negative": {textwrap.dedent(ALLOC.format(size='x.shape[0] - 9'))!r},
            "huge": {textwrap.dedent(ALLOC.format(size='x.shape[0] << 60'))!r},
        }}
        for name, src in cases.items():
            try:
                HybridKernel.from_source(src).run([np.arange(5.0)])
            except (IndexError, ValueError, MemoryError) as exc:
                print(name, type(exc).__name__)
        print("alive")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["write", "IndexError", "negative", "ValueError", "huge", "MemoryError", "alive"]


# ---------------------------------------------------------------- names the DSL cannot read
SCALE = 3


def test_a_global_name_says_why_it_cannot_be_compiled():
    def scaled(x):
        y = output_tensor(x.shape, x.dtype)  # noqa: F821
        for i in range(x.shape[0]):
            y[i] = x[i] * SCALE
        return y
    with pytest.raises(HybridError) as info:
        HybridKernel.from_function(scaled)
    msg = str(info.value)
    assert "SCALE is not defined in the kernel (SCALE = 3 outside the kernel" in msg
    assert "Pass it as a scalar attribute" in msg and "y[i] = x[i] * SCALE" in msg


# ---------------------------------------------------------------- the proofs hold for the kernels people write
FAST_CASES = {
    "conv": ("""
        def conv(x, w):
            y = output_tensor((x.shape[0] - w.shape[0] + 1,), x.dtype)
            for i in range(y.shape[0]):
                for j in range(w.shape[0]):
                    y[i] = y[i] + x[i + j] * w[j]
            return y
    """, [np.arange(10.0), np.ones(3)], ()),
    "grid": ("""
        def twice(x):
            y = output_tensor(x.shape, x.dtype)
            for arg in grid(x.shape):
                y[arg] = x[arg] * 2.0
            return y
    """, [np.ones((3, 4))], ()),
    "buffer_in_loop": ("""
        def rowsum(x):
            y = output_tensor((x.shape[0],), x.dtype)
            for i in range(x.shape[0]):
                acc = allocate((x.shape[1],), x.dtype)
                for j in range(x.shape[1]):
                    acc[j] = x[i, j] * 2.0
                s = 0.0
                for j in range(acc.shape[0]):
                    s = s + acc[j]
                y[i] = s
            return y
    """, [np.ones((3, 4))], ()),
    "strided_attr": ("""
        def every(x, step):
            y = output_tensor((x.shape[0] // step,), x.dtype)
            for i in range(y.shape[0]):
                y[i] = x[i * step]
            return y
    """, [np.arange(10.0)], (3,)),
    "reversed": ("""
        def rev(x):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0] - 1, -1, -1):
                y[x.shape[0] - 1 - i] = x[i]
            return y
    """, [np.arange(5.0)], ()),
    "stencil_parallel": ("""
        def lap(x):
            y = output_tensor(x.shape, x.dtype)
            for i in parallel(x.shape[0]):
                for j in range(x.shape[1]):
                    y[i, j] = x[i, j - 1] + x[i, j + 1] if j > 0 and j < x.shape[1] - 1 else x[i, j]
            return y
    """, [np.arange(12.0).reshape(3, 4)], ()),
}


@pytest.mark.parametrize("name", sorted(FAST_CASES))
def test_common_kernels_run_the_unchecked_version(name):
    """The checked copy is replaced by 'return 99': a proof that fails at run time would show as code 99."""
    import ctypes

    from mskernel.hybrid.codegen import generate
    from mskernel.hybrid.compiler import _HERE, COMPILE_FLAGS, _spec, dispatcher
    from mskernel.hybrid.shapes import make_alloc
    from mskernel.toolchain import Source, build, load_library

    src, arrays, attrs = FAST_CASES[name]
    hk = kernel(src)
    typed = hk.specialize(hk.signature([a.dtype for a in arrays], [a.ndim for a in arrays], attrs))
    gen = generate(typed)
    marker = "} else {  // some access may be out of bounds: check each one, raise IndexError at the first"
    assert marker in gen.source
    probe = gen.source.replace(marker, "} else { return 99;")
    art = build(f"probe_{name}", [Source(f"probe_{name}.cpp", probe)], kind="plain", include_paths=[str(_HERE)],
                cflags=COMPILE_FLAGS, optimize="-O1")
    entry = ctypes.cast(load_library(art).mskh_kernel_contig, ctypes.c_void_p).value
    outs = make_alloc(typed)(arrays, attrs)
    assert dispatcher()(entry, entry, _spec(typed, gen.arrays), (*arrays, *outs), tuple(attrs)) is None
    np.testing.assert_allclose(outs[0], hk.run_python(arrays, attrs)[0])


def test_an_index_whose_bound_overflows_int64_is_not_proved_by_wrap_around():
    # 4 * 2**62 wraps to 0 in int64: a wrapping proof would call x[i * 2**62] in bounds for 5 elements
    hk = kernel("""
        def far(x):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0]):
                y[i] = x[i * 4611686018427387904]
            return y
    """)
    with pytest.raises(IndexError, match=r"index \(4611686018427387904,\) is out of bounds for tensor x"):
        hk.run([np.arange(5.0)])


def test_an_intermediate_overflow_hidden_by_min_is_not_proved():
    # i * 2**63 wraps to a negative number that min() keeps; a saturating proof would see min(huge, n - 1)
    hk = kernel("""
        def hidden(x):
            y = output_tensor(x.shape, x.dtype)
            for i in range(x.shape[0]):
                y[i] = x[min(i * 4611686018427387904 * 2, x.shape[0] - 1)]
            return y
    """)
    with pytest.raises(IndexError, match=r"index \(-9223372036854775808,\) is out of bounds for tensor x"):
        hk.run([np.arange(5.0)])
