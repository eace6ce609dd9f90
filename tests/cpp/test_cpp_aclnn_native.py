"""custom::CustomLaunchAclnn's C++ path for aclnnAdd/Sub/Mul on dense float tensors of one shape and dtype
(issue [15]) must compute what the numpy path computes, and leave every other case to numpy."""
from pathlib import Path

import numpy as np
import pytest

import mskernel as ms

SRC = Path(__file__).parent / "src"

UFUNCS = {"aclnnAdd": np.add, "aclnnSub": np.subtract, "aclnnMul": np.multiply}


@pytest.fixture(scope="module")
def mod(build_ops):
    return build_ops("aclnn_native", SRC / "aclnn_native.cpp")


def pair(shape_x, shape_y, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape_x).astype(dtype), rng.standard_normal(shape_y).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(UFUNCS))
def test_dense_same_shape_floats_match_numpy(mod, name, dtype):
    a, b = pair((3, 5), (3, 5), dtype)
    out = mod.fresh(name, ms.Tensor(a), ms.Tensor(b))
    assert out.dtype == ms.Tensor(a).dtype
    np.testing.assert_array_equal(out.asnumpy(), UFUNCS[name](a, b))


@pytest.mark.parametrize("name", list(UFUNCS))
def test_a_broadcast_value_input_matches_numpy(mod, name):
    # all strides 0: one value seen at every position (what the gradient of a sum is)
    a, _ = pair((2, 3), (1,), np.float64)
    value = np.broadcast_to(np.float64(1.5), (2, 3))
    for x, y, expect in ((ms.Tensor(a), ms.Tensor._wrap(value), UFUNCS[name](a, 1.5)),
                         (ms.Tensor._wrap(value), ms.Tensor(a), UFUNCS[name](1.5, a))):
        np.testing.assert_array_equal(mod.fresh(name, x, y).asnumpy(), expect)


@pytest.mark.parametrize("case", ["broadcast", "int32", "mixed dtypes", "strided input"])
def test_other_cases_still_run_on_numpy(mod, case):
    if case == "broadcast":
        a, b = pair((3, 5), (5,), np.float32)
        x, y, out = ms.Tensor(a), ms.Tensor(b), ms.Tensor(np.empty((3, 5), np.float32))
    elif case == "int32":
        a, b = (np.arange(6, dtype=np.int32), np.arange(6, dtype=np.int32) + 2)
        x, y, out = ms.Tensor(a), ms.Tensor(b), ms.Tensor(np.empty(6, np.int32))
    elif case == "mixed dtypes":
        a, b = np.arange(4, dtype=np.float32), np.arange(4, dtype=np.float64)
        x, y, out = ms.Tensor(a), ms.Tensor(b), ms.Tensor(np.empty(4, np.float64))
    else:
        full, b = pair((8,), (4,), np.float64)
        a = full[::2]
        x, y, out = ms.Tensor(full)[::2], ms.Tensor(b), ms.Tensor(np.empty(4, np.float64))
    mod.launch("aclnnMul", x, y, out)
    np.testing.assert_allclose(out.asnumpy(), np.multiply(a, b), rtol=1e-15)


def test_in_place_and_overlapping_outputs(mod):
    a, b = pair((6,), (6,), np.float32)
    x = ms.Tensor(a.copy())
    mod.launch("aclnnAdd", x, ms.Tensor(b), x)  # out is x itself: elementwise in place
    np.testing.assert_array_equal(x.asnumpy(), a + b)
    buf = np.arange(8, dtype=np.float64)
    t = ms.Tensor(buf)
    # out overlaps x shifted by one element: numpy's buffered semantics, not a forward-running loop
    expect = buf[:6] + buf[:6]
    mod.launch("aclnnAdd", t[:6], t[:6].contiguous(), t[1:7])
    np.testing.assert_array_equal(t.asnumpy()[1:7], expect)


def test_a_read_only_output_is_refused_with_the_op_named(mod):
    a, b = pair((4,), (4,), np.float32)
    ro = np.empty(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(RuntimeError, match=r"CustomLaunchAclnn\('aclnnMul'\) failed"):
        mod.launch("aclnnMul", ms.Tensor(a), ms.Tensor(b), ms.Tensor._wrap(ro))  # shares ro (Tensor() copies)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(UFUNCS))
def test_every_length_in_place_and_broadcast_matches_numpy(mod, name, dtype):
    # the C++ loop runs in 16-byte vectors plus a scalar tail: every split of a length, an output that is one of
    # the inputs, and a broadcast value on either side must give numpy's values exactly
    for n in range(0, 41):
        a, b = pair((n,), (n,), dtype, seed=n)
        np.testing.assert_array_equal(mod.fresh(name, ms.Tensor(a), ms.Tensor(b)).asnumpy(), UFUNCS[name](a, b))
        for target in (0, 1):
            x, y = ms.Tensor(a.copy()), ms.Tensor(b.copy())
            mod.launch(name, x, y, (x, y)[target])
            np.testing.assert_array_equal((x, y)[target].asnumpy(), UFUNCS[name](a, b))
        value = np.broadcast_to(dtype(0.75), (n,))
        np.testing.assert_array_equal(mod.fresh(name, ms.Tensor(a), ms.Tensor._wrap(value)).asnumpy(),
                                      UFUNCS[name](a, value))
        np.testing.assert_array_equal(mod.fresh(name, ms.Tensor._wrap(value), ms.Tensor(a)).asnumpy(),
                                      UFUNCS[name](value, a))
