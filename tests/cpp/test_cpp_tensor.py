"""BaseTensor / ms::Tensor as zero-copy views, custom::CustomLaunchAclnn on the CPU, kernels.h helpers."""
import numpy as np
import pytest

import mskernel as ms


def test_views_report_shape_strides_offset_and_contiguity(pyb):
    x = ms.Tensor(np.zeros((10, 10, 10), np.int32))
    assert pyb.describe(x) == ([10, 10, 10], [100, 10, 1], 0, True, "kNumberTypeInt32", 1000, False)
    v = x[:4, 6:, 3:7]
    assert pyb.describe(v) == ([4, 4, 4], [100, 10, 1], 63, False, "kNumberTypeInt32", 64, False)
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
    assert pyb.describe(p)[-1] is True  # requires_grad comes from the Python tensor
    assert pyb.describe(ms.Tensor(np.zeros((2, 3), np.float16))[:, ::2])[1:5] == ([3, 2], 0, False, "kNumberTypeFloat16")  # noqa: E501 (test data)


def test_identity_returns_the_same_python_object(pyb):
    x = ms.Tensor([1.0, 2.0])
    assert pyb.identity(x) is x
    assert pyb.undefined_is_none(None) is True
    assert pyb.identity(None) is None


def test_in_place_write_through_a_strided_view(pyb):
    base = ms.Tensor(np.zeros((4, 6), np.float32))
    pyb.fill_(base[1:3, ::2], 7.0)
    expect = np.zeros((4, 6), np.float32)
    expect[1:3, ::2] = 7.0
    np.testing.assert_array_equal(base.asnumpy(), expect)


def test_tensor_created_in_cpp_is_returned_without_copy(pyb):
    z = pyb.make([2, 3])
    assert isinstance(z, ms.Tensor) and z.dtype == ms.float64 and z.shape == (2, 3)
    assert z.asnumpy().flags.owndata and z.asnumpy().flags.c_contiguous
    np.testing.assert_array_equal(z.asnumpy(), 0)


def test_ms_tensor_methods(pyb):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    cast, flat, flat1, chunks, rep, sel, inter, cont, ones, tvec, tint = pyb.methods(x)
    assert cast.dtype == ms.int32 and cast.asnumpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert flat.shape == (6,) and np.shares_memory(flat.asnumpy(), x.asnumpy())
    assert flat1.shape == (2, 3)
    assert [c.shape for c in chunks] == [(2, 2), (2, 1)] and np.shares_memory(chunks[1].asnumpy(), x.asnumpy())
    assert rep.shape == (4, 3)
    assert sel.asnumpy().tolist() == [[2.0, 0.0], [5.0, 3.0]]
    assert inter.asnumpy().tolist() == [[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]]
    assert cont is x  # already contiguous: the same tensor
    assert ones.dtype == ms.int8 and ones.asnumpy().tolist() == [1, 1]
    assert tvec.dtype == ms.float64 and tvec.asnumpy().tolist() == [1.5, 2.5]
    assert tint.dtype == ms.int64 and tint.shape == () and tint.item() == 7


def test_accessor_reads_strided_views(pyb):
    x = ms.Tensor(np.arange(20, dtype=np.float32).reshape(4, 5))[1:, ::2]
    np.testing.assert_array_equal(pyb.accessor_double(x).asnumpy(), 2 * x.asnumpy())
    with pytest.raises(RuntimeError, match="Expected dimension: 2, but got shape size: 1"):
        pyb.accessor_double(ms.Tensor([1.0]))


def test_custom_launch_aclnn_broadcasts_and_casts(pyb):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    out = ms.Tensor(np.empty((2, 3), np.float32))
    pyb.aclnn("aclnnMul", [x, y], [out])
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * y.asnumpy())
    mm = ms.Tensor(np.empty((2, 2), np.float32))
    pyb.aclnn("aclnnMatmul", [x, ms.Tensor(np.ones((3, 2), np.float32))], [mm])
    np.testing.assert_allclose(mm.asnumpy(), x.asnumpy() @ np.ones((3, 2)))
    view = ms.Tensor(np.zeros((2, 6), np.float32))[:, ::2]
    pyb.aclnn("aclnnInplaceCopy", [view, x], [])
    np.testing.assert_allclose(view.asnumpy(), x.asnumpy())
    ints = ms.Tensor(np.empty((2, 3), np.int32))
    pyb.aclnn("aclnnExp", [ms.Tensor(np.zeros((2, 3), np.float32))], [ints])
    assert ints.asnumpy().tolist() == [[1, 1, 1], [1, 1, 1]]


def test_unknown_aclnn_name_is_a_clear_error(pyb):
    with pytest.raises(RuntimeError, match=r"'aclnnFlashAttention' has no CPU implementation .*aclnnMul"):
        pyb.aclnn("aclnnFlashAttention", [ms.Tensor([1.0])], [ms.Tensor([1.0])])
    with pytest.raises(RuntimeError, match="aclnnMul.*input shapes"):
        pyb.aclnn("aclnnMul", [ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 2.0, 3.0])], [ms.Tensor([0.0, 0.0])])


def test_map_broadcasts_over_views_and_dtypes(pyb):
    x = ms.Tensor(np.arange(12, dtype=np.float64).reshape(3, 4))[:, 1:]
    y = ms.Tensor(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(pyb.axpy(x, y, 2.0).asnumpy(), 2.0 * x.asnumpy() + y.asnumpy())
    big = ms.Tensor(np.random.default_rng(0).standard_normal((300, 257)).astype(np.float32))
    np.testing.assert_allclose(pyb.axpy(big, ms.Tensor(np.float32(1.0)), -1.0).asnumpy(), 1.0 - big.asnumpy(),
                               rtol=1e-6)
    np.testing.assert_array_equal(pyb.negate(ms.Tensor(np.array([1, -2], np.int16))).asnumpy(), [-1, 2])
    with pytest.raises(ValueError, match="expected float32 or float64 data"):
        pyb.axpy(ms.Tensor([1, 2]), ms.Tensor([1, 2]), 1.0)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        pyb.axpy(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(2)), 1.0)


def test_parallel_for_covers_the_range_once_and_rethrows(pyb):
    total, once, threads = pyb.parallel_sum(100_000, 1000)
    assert total == sum(range(100_000)) and once and threads >= 1
    assert pyb.parallel_sum(10, 1000)[:2] == (45, True)
    assert pyb.parallel_sum(0, 1)[:2] == (0, True)
    if threads > 1:
        with pytest.raises(IndexError, match="worker failed"):
            pyb.parallel_throw(1000)
