"""HybridKernel behaviour: caching per signature, debug mode, infer, source, decorator."""
from __future__ import annotations

import inspect
import sys
import warnings

import numpy as np
import pytest

import mskernel.hybrid as hybrid
from mskernel.hybrid import HybridError, HybridKernel, is_kernel, kernel, ms_kernel

from .corpus import CASES


def shift_left(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i + 1]  # reads one past the end on the last iteration
    return y


def doubles_its_output(x):  # a plain function (no @kernel): `output_tensor` is not defined in this module
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = y[i] + y[i]  # reads its own output, which starts as zeros
    return y


class FakeTensor:
    """Anything with .asnumpy() is accepted as a tensor."""

    def __init__(self, array: np.ndarray):
        self._array = array

    def asnumpy(self) -> np.ndarray:
        return self._array


def test_new_shape_same_signature_does_not_recompile():
    hk = HybridKernel.from_function(CASES["fused"].func)
    x, y = np.ones((3, 4)), np.ones((3, 4))
    hk.run([x, y])
    assert hk.compile_count == 1
    for shape in [(1, 1), (7, 3), (64, 65)]:
        a, b = np.random.rand(*shape), np.random.rand(*shape)
        np.testing.assert_allclose(hk.run([a, b])[0], a * b * 0.5 + 3 * a - 1)
    assert hk.compile_count == 1
    hk.run([x.astype(np.float32), y.astype(np.float32)])  # a new dtype is a new signature
    assert hk.compile_count == 2


def test_second_kernel_object_loads_from_the_build_cache():
    first = HybridKernel.from_function(CASES["relu"].func)
    first.run([np.ones((2, 2), np.float32)])
    from mskernel.hybrid.compiler import clear_memory_cache
    clear_memory_cache()
    second = HybridKernel.from_function(CASES["relu"].func)
    ck = second.compile([np.float32], [2])
    assert ck.cached  # same source and flags: the build layer did not call the compiler
    assert ck.artifact.path == first.compile([np.float32], [2]).artifact.path


def test_debug_mode_reports_out_of_bounds_access():
    hk = HybridKernel.from_function(shift_left, debug=True)
    with pytest.raises(IndexError) as info:
        hk.run([np.arange(5, dtype=np.float32)])
    lines, start = inspect.getsourcelines(shift_left)
    line = start + next(i for i, t in enumerate(lines) if "x[i + 1]" in t)
    msg = str(info.value)
    assert "shift_left" in msg and "tensor x" in msg
    assert "index (5,)" in msg and "shape (5,)" in msg
    assert f"{__file__}:{line}:" in msg
    assert "y[i] = x[i + 1]" in msg


def test_same_kernel_without_debug_runs_correct_inputs():
    def shift_safe(x):
        y = output_tensor((x.shape[0] - 1,), x.dtype)
        for i in range(x.shape[0] - 1):
            y[i] = x[i + 1]
        return y
    for debug in (False, True):
        hk = HybridKernel.from_function(shift_safe, debug=debug)
        np.testing.assert_array_equal(hk.run([np.arange(5.0)])[0], [1, 2, 3, 4])
        src = hk.source([np.arange(5.0)])
        fast = src.split("if (__builtin_expect(bnd_ok, 1)) {")[1].split("} else {")[0] if not debug else src
        assert ("mskh::at<" in fast) == debug  # without debug the proved loop has no per-access check


def test_debug_catches_out_of_bounds_write_and_2d_index():
    def write_past(x):
        y = output_tensor(x.shape, x.dtype)
        for i in range(x.shape[0]):
            for j in range(x.shape[1] + 1):
                y[i, j] = x[i, 0]
        return y
    hk = HybridKernel.from_function(write_past, debug=True)
    with pytest.raises(IndexError, match=r"index \(0, 3\) is out of bounds for tensor y with shape \(2, 3\)"):
        hk.run([np.ones((2, 3))])


def test_global_debug_switch(monkeypatch):
    hk = HybridKernel.from_function(shift_left)
    try:
        hybrid.set_debug(True)
        assert hk.debug
        with pytest.raises(IndexError):
            hk.run([np.arange(3.0)])
    finally:
        hybrid.set_debug(None)
    monkeypatch.setenv("MSKERNEL_HYBRID_DEBUG", "1")
    assert HybridKernel.from_function(shift_left).debug
    monkeypatch.setenv("MSKERNEL_HYBRID_DEBUG", "0")
    assert not HybridKernel.from_function(shift_left).debug


def test_infer_shapes_and_dtypes_without_compiling():
    hk = HybridKernel.from_function(CASES["matmul"].func)
    assert hk.infer([(2, 3), (3, 5)], [np.float32, np.float32]) == [((2, 5), np.dtype("float32"))]
    hk2 = HybridKernel.from_function(CASES["casts"].func)
    got = hk2.infer([(4,)], ["int32"])
    assert [d.name for _, d in got] == ["float32", "int8", "int16", "int64", "float64", "float16"]
    hk3 = HybridKernel.from_function(CASES["arange_attr"].func)
    assert hk3.infer([(1,)], [np.float32], [6]) == [((6,), np.dtype("float32"))]
    hk4 = HybridKernel.from_function(CASES["conv2d"].func)
    assert hk4.infer([(10, 8), (3, 3)], ["float64", "float64"])[0][0] == (8, 6)
    assert hk.compile_count == hk2.compile_count == hk3.compile_count == hk4.compile_count == 0


def test_kernel_description():
    hk = HybridKernel.from_function(CASES["inplace_and_output"].func)
    assert (hk.name, hk.num_inputs, hk.output_count, hk.inplace_map) == ("inplace_and_output", 2, 2, {1: 0})
    assert hk.input_names == ["a", "b"] and hk.output_names == ["d", "a"]
    assert HybridKernel.from_function(CASES["axpy"].func).num_inputs == 3


def test_generated_source_is_readable():
    hk = HybridKernel.from_function(CASES["softmax"].func)
    src = hk.source([np.float32, ], [2])
    lines, start = inspect.getsourcelines(CASES["softmax"].func)
    for offset, text in enumerate(lines):
        if text.strip() and not text.strip().startswith(("return", "def ", "@", "lambda")):
            assert f"// line {start + offset}: {text.strip()}" in src
    assert "float m = 0;" in src and "for (int64_t j = 1; j < x_n1; ++j) {" in src
    assert src == hk.compile(["float32"], [2]).source
    assert hk.source([np.zeros((2, 2), np.float32)]) == src  # from example inputs


def test_parallel_pragmas_only_when_safe():
    src = HybridKernel.from_function(CASES["conv2d"].func).source(["float32", "float32"], [2, 2])
    assert "mskh::parallel_for(" in src
    src = HybridKernel.from_function(CASES["fused"].func).source(["float32", "float32"], [2, 2])
    assert "mskh::parallel_for(" in src and "#pragma omp simd" in src

    def racy(x):
        y = output_tensor((1,), x.dtype)
        for i in parallel(x.shape[0]):
            y[0] = y[0] + x[i]
        return y
    hk = HybridKernel.from_function(racy)
    assert "mskh::parallel_for(" not in hk.source(["float64"], [1])
    assert "serial because the write to y" in hk.source(["float64"], [1])
    x = np.random.rand(100000)
    np.testing.assert_allclose(hk.run([x])[0], [x.sum()], rtol=1e-9)


def test_parallel_loops_give_the_same_results_on_large_inputs():
    hk = HybridKernel.from_function(CASES["conv2d"].func)
    x, w = np.random.rand(300, 260).astype(np.float32), np.random.rand(3, 3).astype(np.float32)
    expected = sum(x[p:p + 298, q:q + 258] * w[p, q] for p in range(3) for q in range(3))
    np.testing.assert_allclose(hk.run([x, w])[0], expected, rtol=1e-5)


def test_undecorated_function_with_unbound_output_tensor():
    assert "output_tensor" not in globals()
    hk = HybridKernel.from_function(doubles_its_output)
    x = np.array([1.0, 4.0, 9.0], np.float32)
    np.testing.assert_array_equal(hk.run([x])[0], [0, 0, 0])  # reads its zero-filled output
    np.testing.assert_array_equal(hk.run_python([x])[0], [0, 0, 0])
    assert "output_tensor" not in globals()  # the overlay did not pollute this module


def test_decorator_attributes_and_checks():
    @kernel(reg_info={"op_name": "k"}, compile_attrs={"a": 1})
    def ident(x):
        return x
    assert ident.ms_kernel_flag and is_kernel(ident)
    assert ident.compile_attrs == '{"a": 1}' and ident.reg_info == {"op_name": "k"}
    assert ident.__wrapped__.__name__ == "ident"
    assert HybridKernel.from_function(ident).inplace_map == {0: 0}
    with pytest.raises(TypeError, match=r"@kernel\(compile_attrs=...\) must be a dict with str keys, not a list"):
        kernel(compile_attrs=[1])
    with pytest.raises(TypeError, match=r"must have str keys, but the key 1 has type int"):
        kernel(compile_attrs={1: 2})
    with pytest.raises(TypeError, match=r"@kernel\(reg_info=...\) must be a str \(JSON\), a dict or a tuple"):
        kernel(reg_info=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        legacy = ms_kernel(lambda a: a)
    assert legacy.ms_kernel_flag and caught[0].category is DeprecationWarning
    assert not is_kernel(doubles_its_output)


def test_decorated_call_runs_python_and_accepts_tensor_likes():
    add = CASES["add"].func
    a, b = np.ones((2, 2), np.float32), np.full((2, 2), 2, np.float32)
    np.testing.assert_array_equal(add(FakeTensor(a), FakeTensor(b)), a + b)
    module = sys.modules[CASES["add"].func.__module__]
    assert "output_tensor" in vars(module)       # MindSpore-style injection of DSL-only names...
    assert "abs" not in vars(module) and "round" not in vars(module)  # ...but never over builtins


def test_run_accepts_tensor_likes_and_numpy_scalar_attrs():
    hk = HybridKernel.from_function(CASES["axpy"].func)
    x, y = np.arange(3.0), np.ones(3)
    out = hk.run([FakeTensor(x), FakeTensor(y)], [np.float64(2.0)])[0]
    np.testing.assert_array_equal(out, 2 * x + 1)
    np.testing.assert_array_equal(hk(x, y, 3.0), 3 * x + 1)  # __call__ splits tensors and attrs
    hk_int = HybridKernel.from_function(CASES["scale_int"].func)
    np.testing.assert_array_equal(hk_int.run([np.ones((2, 2), np.int64)], [np.int32(4)])[0], np.full((2, 2), 5))


def test_attr_types_are_part_of_the_signature():
    hk = HybridKernel.from_function(CASES["axpy"].func)
    x = np.arange(3.0)
    np.testing.assert_array_equal(hk.run([x, x], [2])[0], 3 * x)      # int attribute
    np.testing.assert_array_equal(hk.run([x, x], [2.5])[0], 3.5 * x)  # float attribute
    assert hk.compile_count == 2


def test_unusual_arrays_are_handled():
    hk = HybridKernel.from_function(CASES["relu"].func)
    big_endian = np.array([[-1, 2], [3, -4]], dtype=">f4")
    np.testing.assert_array_equal(hk.run([big_endian])[0], [[0, 2], [3, 0]])
    longlong = np.array([[-1, 2]], dtype=np.longlong)
    np.testing.assert_array_equal(HybridKernel.from_function(CASES["scale_int"].func).run([longlong], [2])[0], [[-1, 5]])  # noqa: E501 (test data)
    read_only = np.ones(3)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writes its input x in place, but that array is read-only"):
        HybridKernel.from_function(CASES["inplace_double"].func).run([read_only])


def test_inplace_input_aliasing_another_input_is_copied():
    hk = HybridKernel.from_function(CASES["inplace_and_output"].func)
    a = np.arange(4.0).reshape(2, 2)
    d, a_out = hk.run([a, a])  # b is the same memory as the in-place a
    np.testing.assert_array_equal(d, np.zeros((2, 2)))
    np.testing.assert_array_equal(a_out, 2 * np.arange(4.0).reshape(2, 2))
    assert a_out is a


def test_zero_runtime_step_raises():
    def stepper(x, s):
        y = output_tensor(x.shape, x.dtype)
        for i in range(0, x.shape[0], s):
            y[i] = x[i]
        return y
    with pytest.raises(ValueError, match="must not be zero"):
        HybridKernel.from_function(stepper).run([np.ones(3)], [0])
    np.testing.assert_array_equal(HybridKernel.from_function(stepper).run([np.ones(3)], [2])[0], [1, 0, 1])


def test_wrong_input_count_is_a_type_error():
    with pytest.raises(TypeError, match="takes 2 inputs"):
        HybridKernel.from_function(CASES["add"].func).run([np.ones((1, 1))])


def test_from_source_runs_as_python_with_given_globals():
    text = "def f(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n" \
           "        y[i] = x[i] * SCALE\n    return y\n"
    with pytest.raises(HybridError, match="SCALE is not defined in the kernel"):
        HybridKernel.from_source(text, globals={"SCALE": 2})  # globals are not DSL constants
    text = text.replace("SCALE", "2")
    hk = HybridKernel.from_source(text, globals={})
    np.testing.assert_array_equal(hk.run_python([np.arange(3.0)])[0], [0, 2, 4])


def test_a_repeated_call_runs_one_generated_python_function():
    """After the first call, a call with the same signature is run() plus the generated allocate-and-dispatch
    function (shapes.make_call): no re-specialization, no checked path. (Its time: benchmarks/call_path.py.)"""
    hk = HybridKernel.from_function(CASES["fused"].func)
    x = np.ones((2, 4), np.float32)
    inputs = [x, x]
    first = hk.run(inputs)[0]
    builds = hk.compile_count
    frames: list[str] = []

    def profile(frame, event, arg):
        if event == "call":
            frames.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        for _ in range(3):
            again = hk.run(inputs)[0]
    finally:
        sys.setprofile(None)
    assert frames == ["run", "call"] * 3
    assert hk.compile_count == builds
    np.testing.assert_array_equal(again, first)


def two_outputs(x, y):
    s = output_tensor(x.shape, x.dtype)
    d = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        s[i] = x[i] + y[i] * 2.0
        d[i] = -x[i] / y[i]
    return s, d


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_streaming_stores_on_large_misaligned_inputs(dtype, offset):
    hk = HybridKernel.from_function(two_outputs)
    assert "mskh::stream(" in hk.source([dtype, dtype], [1, 1])
    from mskernel.hybrid.stream import stream_min_footprint
    # x, y, s and d over n items: above the streaming threshold, not a multiple of 8
    n = stream_min_footprint() // (4 * np.dtype(dtype).itemsize) + 13
    x = np.random.rand(n + offset).astype(dtype)[offset:]  # contiguous but not 32-byte aligned
    y = (np.random.rand(n + offset) + 0.5).astype(dtype)[offset:]
    s, d = hk.run([x, y])
    np.testing.assert_array_equal(s, x + y * 2.0)
    np.testing.assert_array_equal(d, -x / y)
    fused = HybridKernel.from_function(CASES["fused"].func)
    a, b = x.reshape(1, -1), y.reshape(1, -1)
    np.testing.assert_array_equal(fused.run([a, b])[0], a * b * 0.5 + 3 * a - 1)


@pytest.mark.parametrize("func, arrays", [("square", 2), ("two_outputs", 4), ("muladd", 4)])
def test_streaming_starts_where_the_loops_arrays_fill_three_quarters_of_the_cache(func, arrays):
    """The threshold is on the loop's footprint (every array it reads or writes), not on the output alone:
    a*b + c streams from a quarter of the output x*x needs (see mskernel/hybrid/stream.py)."""
    from mskernel.hybrid.stream import stream_min_footprint
    kernels = {"square": "def square(x):\n    y = output_tensor(x.shape, x.dtype)\n"
                         "    for i in range(x.shape[0]):\n        y[i] = x[i] * x[i]\n    return y\n",
               "muladd": "def muladd(a, b, c):\n    y = output_tensor(a.shape, a.dtype)\n"
                         "    for i in range(a.shape[0]):\n        y[i] = a[i] * b[i] + c[i]\n    return y\n"}
    hk = HybridKernel.from_function(two_outputs) if func == "two_outputs" else HybridKernel.from_source(kernels[func])
    inputs = 2 if func == "two_outputs" else arrays - 1
    src = hk.source(["float32"] * inputs, [1] * inputs)
    assert f"* {4 * arrays} >= {stream_min_footprint()})" in src, src


def test_run_into_preallocated_outputs():
    hk = HybridKernel.from_function(two_outputs)
    x, y = np.arange(1.0, 5.0), np.full(4, 2.0)
    s, d = np.full(4, np.nan), np.full(4, np.nan)
    got = hk.run([x, y], out=[s, d])
    assert got[0] is s and got[1] is d
    np.testing.assert_array_equal(s, x + 4.0)
    np.testing.assert_array_equal(d, -x / 2)
    # again, now through the remembered call (shapes.make_call(into=True)), into fresh and strided arrays
    s2, wide = np.full(4, np.nan), np.full(8, np.nan)
    got = hk.run([x, y], out=[s2, wide[::2]])
    assert got[0] is s2 and np.shares_memory(got[1], wide)
    np.testing.assert_array_equal(s2, x + 4.0)
    np.testing.assert_array_equal(wide[::2], -x / 2)
    assert np.isnan(wide[1::2]).all()
    with pytest.raises(ValueError, match=r"out\[1\] must be a float64 array of shape \(4,\)"):
        hk.run([x, y], out=[s, np.zeros(3)])
    with pytest.raises(ValueError, match=r"out\[0\] must be a float64 array of shape \(4,\), not \(4,\) float32"):
        hk.run([x, y], out=[np.zeros(4, np.float32), d])
    with pytest.raises(ValueError, match="2 output"):
        hk.run([x, y], out=[s])
    with pytest.raises(ValueError, match=r"out\[1\] must be a float64 array of shape \(4,\), not list"):
        hk.run([x, y], out=[s, [0.0] * 4])


def misc_features(x, n):
    rows = output_tensor((x.shape[0],), "int64")
    last = output_tensor((x.shape[-1],), x.dtype)
    grid_out = output_tensor((n, 2), "int32")
    for i in range(x.shape[0]):
        tmp = allocate((x.shape[1],), x.dtype)  # a temporary per iteration
        for j in range(x.shape[1]):
            tmp[j] = x[i, j] * len(x.shape)
        rows[i] = int64(tmp[x.shape[1] - 1]) + i
    for j in range(x.shape[-1]):
        last[j] = x[x.shape[0] - 1, j]
    for a, b in grid((n, 2)):
        grid_out[a, b] = a * 10 + b
    return rows, last, grid_out


def test_rank_negative_shape_index_loop_temporaries_and_tuple_grid():
    hk = HybridKernel.from_function(misc_features)
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = hk.run([x], [3])
    expected = hk.run_python([x], [3])
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    np.testing.assert_array_equal(got[0], [6, 15, 24])  # 2 * x[i, 3] + i
    np.testing.assert_array_equal(got[2], [[0, 1], [10, 11], [20, 21]])


def test_attach_links_a_function_of_the_kernels_own_source_back_to_it():
    hk = HybridKernel.from_source("def f(x):\n    return x\n")

    def g(x):
        return x
    with pytest.raises(ValueError, match="attach: the function 'g' is not the kernel 'f'"):
        hk.attach(g)

    def f(x):
        return x
    hk.attach(kernel(f))  # through the @kernel wrapper too
    assert HybridKernel.from_function(f) is hk and HybridKernel.from_function(kernel(f)) is hk
    assert HybridKernel.from_function(f, akg=True) is hk  # the stricter parse holds for akg
    assert HybridKernel.from_function(f, debug=True) is not hk  # another debug setting: a kernel of its own
    assert HybridKernel.from_function(hk.python_function()) is hk


def test_rebuild_bypasses_the_process_and_disk_caches():
    from mskernel.hybrid.compiler import clear_memory_cache

    src = ("def rebuilt_once(x):\n    y = output_tensor(x.shape, x.dtype)\n    for i in range(x.shape[0]):\n"
           "        y[i] = x[i] + 7\n    return y\n")
    x = np.arange(3, dtype=np.float32)
    HybridKernel.from_source(src).compile([x])  # now in the disk cache
    clear_memory_cache()
    assert HybridKernel.from_source(src).compile([x]).cached  # a new kernel loads it from the disk cache
    hk = HybridKernel.from_source(src)
    hk.rebuild = True
    ck = hk.compile([x])
    assert not ck.cached and hk.compile_count == 1  # built again, although both caches had it
    assert hk.compile([x]) is ck  # then reused, like any compiled signature
    np.testing.assert_array_equal(hk.run([x])[0], x + 7)
