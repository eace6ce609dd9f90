"""The C++ call path's fast paths (issue [15]) behave as the paths they shortcut.

Tensor arguments are read through the C array helpers (``mskernel.cpp.array_api``) when the array is a
plain one, else through the buffer protocol: both must see what the buffer protocol reports (``memoryview``),
with its errors and warnings. Tensors made in C++ are ``numpy.empty`` arrays. ``Function::Apply`` without
anything to record runs without a graph node but checks Forward's outputs and answers NeedsInputGrad as
the recording path does. Without the helpers (they fail to build) everything gives the same results.
The ops are in src/call_path.cpp.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms
from mskernel.autograd import STATE
from mskernel.cpp import array_api, wrap

SRC = Path(__file__).parent / "src" / "call_path.cpp"

NAMES = {np.bool_: "Bool", np.int8: "Int8", np.int16: "Int16", np.int32: "Int32", np.int64: "Int64",
         np.uint8: "UInt8", np.uint16: "UInt16", np.uint32: "UInt32", np.uint64: "UInt64", np.float16: "Float16",
         np.float32: "Float32", np.float64: "Float64", np.complex64: "Complex64", np.complex128: "Complex128"}


@pytest.fixture(scope="module")
def cp(build_ops):
    return build_ops("call_path", SRC)


def arrays() -> dict:
    """Arrays of every layout a tensor argument may have (each shared by the Tensor, not copied)."""
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    ro = base.copy()
    ro.flags.writeable = False
    out = {f"dense {np.dtype(t).name}": np.ones((2, 3), t) for t in NAMES}
    out.update({
        "strided view": base[1:, ::2], "transposed": base.T, "negative strides": base[::-1, ::-3],
        "0-d": np.array(2.5, np.float32), "empty": np.zeros((0, 3), np.float32), "read-only": ro,
        "broadcast (strides 0)": np.broadcast_to(np.float32(1.5), (2, 3)),
        "big-endian": np.arange(4, dtype=">f4"), "unaligned": np.frombuffer(b"\0" * 17, np.float32, 4, 1),
        "contiguous, odd stride on a size-1 dimension": np.lib.stride_tricks.as_strided(base, (1, 4), (100, 4)),
        "size-1 dimensions": base[1:2, 2:3],
    })
    return out


def expected_view(arr: np.ndarray) -> list:
    """What the buffer protocol says of arr, as ``view`` returns it."""
    mv = memoryview(arr)
    name = "kNumberType" + next(v for t, v in NAMES.items() if np.dtype(t).kind == arr.dtype.kind
                                and np.dtype(t).itemsize == arr.dtype.itemsize)
    return [list(mv.shape), [s // mv.itemsize for s in mv.strides], name, mv.readonly,
            arr.__array_interface__["data"][0], False]


@pytest.mark.parametrize("case", list(arrays()))
def test_a_tensor_argument_is_seen_as_the_buffer_protocol_describes_it(cp, case):
    arr = arrays()[case]
    assert [list(v) if isinstance(v, (list, tuple)) else v for v in cp.view(wrap(arr))] == expected_view(arr)


def test_an_array_numpy_marks_warn_on_write_reads_as_read_only_as_through_memoryview(cp):
    a, _ = np.broadcast_arrays(np.zeros(3, np.float32), np.zeros((2, 3), np.float32))
    with warnings.catch_warnings(record=True) as seen_mv:
        warnings.simplefilter("always")
        readonly = memoryview(a).readonly
    with warnings.catch_warnings(record=True) as seen_op:
        warnings.simplefilter("always")
        got = cp.view(wrap(a))
    assert got[3] is readonly is True
    assert [w.category for w in seen_op] == [w.category for w in seen_mv]


def test_parameters_and_tensors_that_require_grad(cp):
    p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="p")  # a Tensor subclass
    assert cp.view(p)[0] == [3] and cp.view(p)[5] is True
    t = ms.Tensor(np.ones(2, np.float32))
    t.requires_grad = True
    assert cp.view(t)[5] is True


def test_a_tensor_field_that_is_unset_raises_what_getattr_raises(cp, grad_on):
    """The engine core reads a Tensor's fields in place; an unset one is left to getattr, for its error."""
    from mskernel.common.tensor import Tensor
    x = ms.Tensor(np.ones(2, np.float32))
    no_data = Tensor.__new__(Tensor)
    no_rg = ms.Tensor(np.ones(2, np.float32))
    del no_rg._rg
    for t, field in ((no_data, "_data"), (no_rg, "_rg")):
        with pytest.raises(AttributeError) as expected:
            getattr(t, field)
        for call in (lambda: cp.view(t), lambda: cp.forward_probe(x, -1, t)):
            with pytest.raises(AttributeError) as got:
                call()
            assert str(got.value) == str(expected.value)
        assert STATE.enabled


@pytest.mark.parametrize("arr", [np.zeros(2, np.longdouble), np.zeros(2, "datetime64[s]"),
                                 np.zeros(2, [("a", np.float32), ("b", np.int8)])], ids=["longdouble", "datetime",
                                                                                       "structured"])
def test_arrays_no_tensor_can_view_raise_the_errors_they_raised_before(cp, arr):
    try:
        memoryview(arr)
        fmt = memoryview(arr).format.lstrip("<>=@!")
        expect = (ValueError, f"mskernel cannot view a numpy buffer of format '{fmt}' as a tensor")
    except Exception as e:  # numpy refuses the buffer itself (datetime)
        expect = (type(e), str(e))
    with pytest.raises(expect[0]) as info:
        cp.view(wrap(arr))
    assert str(info.value) == expect[1]


@pytest.mark.parametrize("bad", [None, 3, np.zeros(2, np.float32), [1.0]])
def test_a_tensor_argument_of_the_wrong_type_is_refused_by_the_signature(cp, bad):
    with pytest.raises(TypeError, match=r"view\(\): incompatible function arguments"):
        cp.view(bad)


def test_tensors_made_in_cpp_are_numpy_empty_arrays(cp):
    for shape in ([2, 3], [], [0, 4], [1] * 32):
        a = cp.empty(shape).asnumpy()
        assert a.shape == tuple(shape) and a.dtype == np.float32
        assert a.flags.c_contiguous and a.flags.owndata and a.flags.writeable and type(a) is np.ndarray
    with pytest.raises(ValueError, match="BaseTensor: shape dimensions must be >= 0"):
        cp.empty([2, -1])
    too_many = [1] * 65  # more dimensions than the C helpers take: numpy.empty's own error
    with pytest.raises(ValueError) as ours:
        cp.empty(too_many)
    with pytest.raises(ValueError) as numpys:
        np.empty(too_many, np.float32)
    assert str(ours.value) == str(numpys.value)


BAD_OUTPUTS = {"null_output": "Function[NullOutput]: Forward returned a null tensor as output 0",
               "no_outputs": "Function[NoOutputs]: Forward must return at least one tensor"}


@pytest.mark.parametrize("fn", list(BAD_OUTPUTS))
def test_bad_forward_outputs_are_errors_whether_or_not_a_node_is_recorded(cp, grad_on, fn):
    plain = ms.Tensor(np.ones(2, np.float32))
    tracked = ms.Tensor(np.ones(2, np.float32))
    tracked.requires_grad = True
    for x, grad_mode in ((plain, True), (tracked, True), (tracked, False)):
        STATE.enabled = grad_mode
        with pytest.raises(RuntimeError) as info:
            getattr(cp, fn)(x)
        assert str(info.value) == BAD_OUTPUTS[fn] and STATE.enabled is grad_mode


def test_forward_sees_the_same_context_with_and_without_a_node(cp, grad_on):
    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 4.0], np.float32))
    out = cp.forward_probe(x, -1, y)  # nothing tracked: no node
    assert cp.probe() == [False, False, False, False, False] and out.grad_fn is None
    np.testing.assert_array_equal(out.asnumpy(), [3.0, 8.0])
    gx = ms.grad(lambda a: cp.forward_probe(a, -1, y).sum())(x)  # x tracked: a node
    assert cp.probe() == [False, True, False, True, False]
    np.testing.assert_array_equal(gx.asnumpy(), [3.0, 4.0])
    for call in (lambda: cp.forward_probe(x, 2, y), lambda: ms.grad(lambda a: cp.forward_probe(a, 2, y).sum())(x)):
        with pytest.raises(IndexError, match=r"NeedsInputGrad: tensor index 2 is out of range \(Forward has 2 tensor "
                                             r"arguments\)"):
            call()
        assert STATE.enabled  # restored after the failed Forward


def test_each_thread_has_its_own_grad_mode(cp, grad_on):
    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 4.0], np.float32))
    x.requires_grad = True
    recorded = {}

    def call(key):
        recorded[key] = cp.forward_probe(x, -1, y).grad_fn is not None

    def in_thread(fn):
        t = threading.Thread(target=fn)
        t.start()
        t.join()

    with ms.no_grad():
        in_thread(lambda: call("fresh thread"))  # a new thread starts with grad mode on
        call("main, no_grad")
    def worker():
        with ms.no_grad():
            call("thread, no_grad")
    in_thread(worker)
    call("main")
    assert recorded == {"fresh thread": True, "main, no_grad": False, "thread, no_grad": False, "main": True}
    # a thread Python did not start, entering twice: a new thread state each time (grad mode on again)
    assert cp.grad_mode_in_c_thread() == [1, 0, 1, 0]
    assert STATE.enabled


def test_without_the_c_helpers_the_results_are_the_same(cp, tmp_path):
    """The helpers fail to build (no working C compiler): numpy is used through Python, with the same results."""
    assert array_api() is not None  # this process uses them
    cases = {k: v for k, v in arrays().items() if k in ("dense float32", "strided view", "read-only", "big-endian")}
    code = textwrap.dedent(f"""
        import importlib.util, json, numpy as np, mskernel as ms
        from mskernel.cpp import array_api, wrap
        spec = importlib.util.spec_from_file_location({cp.__name__!r}, {cp.__file__!r})
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        base = np.arange(24, dtype=np.float32).reshape(4, 6)
        ro = base.copy(); ro.flags.writeable = False
        arrays = {{"dense float32": np.ones((2, 3), np.float32), "strided view": base[1:, ::2], "read-only": ro,
                   "big-endian": np.arange(4, dtype=">f4")}}
        views = {{k: [list(v) if isinstance(v, (list, tuple)) else v for v in m.view(wrap(a))][:4]
                 for k, a in arrays.items()}}
        e = m.empty([2, 3]).asnumpy()
        x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 4.0], np.float32))
        out = m.forward_probe(x, -1, y).asnumpy().tolist()
        print(json.dumps({{"api": array_api() is None, "views": views, "empty": [e.shape, e.flags.owndata],
                          "out": out}}))
    """)
    env = dict(os.environ, CC="/bin/false", MSKERNEL_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["api"] is True  # the helpers were not available there, and the log said why (once)
    assert proc.stderr.count("the C array helpers of the C++ headers could not be built") == 1, proc.stderr[-2000:]
    assert got["views"] == {k: expected_view(a)[:4] for k, a in cases.items()}
    assert got["empty"] == [[2, 3], True] and got["out"] == [3.0, 8.0]
