"""ms::pynative::PyboostRunner on the CPU: MindSpore's CPU custom-op example and test, ported.

(MindSpore: tests/st/ops/cpu/custom_op/test_custom_pyboost_cpu.py with pyboost_cpu_add.cpp and
pyboost_cpu_swap.cpp; here both live in src/pyboost_cpu_add.cpp.)
"""
import numpy as np
import pytest

import mskernel as ms


def test_pyboost_cpu_add(pyb):
    rng = np.random.default_rng(1)
    x = rng.integers(0, 100, size=(10, 10, 10)).astype(np.int32)
    y = rng.integers(0, 100, size=(9, 9, 9)).astype(np.int32)
    expect = x[:4, 6:, 3:7] + y[5:, :4, 4:8]  # the sliced shape is [4, 4, 4]

    x1 = ms.Tensor(x)[:4, 6:, 3:7]
    y1 = ms.Tensor(y)[5:, :4, 4:8]
    out1 = pyb.add_uncontiguous(x1, y1)
    out2 = pyb.add_contiguous(x1.contiguous(), y1.contiguous())
    np.testing.assert_array_equal(out1.asnumpy(), expect)
    np.testing.assert_array_equal(out2.asnumpy(), expect)
    assert out1.dtype == ms.int32 and out1.shape == (4, 4, 4)


def test_tutorial_add3_with_workspace(pyb):
    x, y, z = (np.array(v, dtype=np.int32) for v in ([1, 2], [3, 4], [5, 6]))
    out = pyb.add3(ms.Tensor(x), ms.Tensor(y), ms.Tensor(z))
    assert str(out) == "[ 9 12]"
    out = pyb.add4(ms.Tensor(x), ms.Tensor(y), [ms.Tensor(z)])
    np.testing.assert_array_equal(out.asnumpy(), x + y + z)
    dst = ms.Tensor(np.zeros(2, np.int32))
    assert pyb.add6(ms.Tensor(x), ms.Tensor(y), ms.Tensor(z), [dst]) is None
    np.testing.assert_array_equal(dst.asnumpy(), x + y + z)


def test_pyboost_caller_checks_the_argument_count(pyb):
    with pytest.raises(RuntimeError, match="Argument count mismatch: expected 3, got 2"):
        pyb.add3(ms.Tensor([1]), ms.Tensor([2]))


def test_pyboost_cpu_swap_in_place(pyb):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 100, (10, 10, 10)).astype(np.int32)
    y = rng.integers(0, 100, (10, 10, 10)).astype(np.int32)
    x_tensor, y_tensor = ms.Tensor(x), ms.Tensor(y)
    ret = pyb.swap(x_tensor, y_tensor)
    assert ret is None
    np.testing.assert_array_equal(x_tensor.asnumpy(), y)
    np.testing.assert_array_equal(y_tensor.asnumpy(), x)


def test_swap_of_strided_views_writes_back_into_the_views(pyb):
    base = ms.Tensor(np.arange(24, dtype=np.int32).reshape(4, 6))
    a, b = base[:, ::2], base[:, 1::2]  # interleaved columns: both strided
    before = base.asnumpy().copy()
    pyb.swap(a, b)
    np.testing.assert_array_equal(base.asnumpy()[:, ::2], before[:, 1::2])
    np.testing.assert_array_equal(base.asnumpy()[:, 1::2], before[:, ::2])


def test_strided_inputs_are_made_contiguous_unless_told_otherwise(pyb):
    x = ms.Tensor(np.arange(12, dtype=np.int32).reshape(3, 4))[:, 1:3]
    y = ms.Tensor(np.ones((3, 2), np.int32))
    base = ms.Tensor(np.zeros((3, 4), np.int32))
    out_view = base[:, ::2]
    res = pyb.add_any(x, y, out_view)
    assert pyb.last_kernel_saw_contiguous()  # the kernel got contiguous copies ...
    np.testing.assert_array_equal(base.asnumpy()[:, ::2], x.asnumpy() + 1)  # ... and the result came back
    np.testing.assert_array_equal(base.asnumpy()[:, 1::2], 0)
    assert res is out_view


def test_add_uncontiguous_rejects_contiguous_inputs(pyb):
    with pytest.raises(ValueError, match="the inputs should be uncontiguous tensor"):
        pyb.add_uncontiguous(ms.Tensor(np.zeros((2, 2, 2), np.int32)), ms.Tensor(np.zeros((2, 2, 2), np.int32)))


def test_call_with_several_outputs(pyb):
    a, b = pyb.add_sub(ms.Tensor([5.0, 7.0]), ms.Tensor([1.0, 2.0]))
    np.testing.assert_allclose(a.asnumpy(), [6.0, 9.0])
    np.testing.assert_allclose(b.asnumpy(), [4.0, 5.0])
    with pytest.raises(RuntimeError, match="the output size should be equal to 3, but got 2"):
        pyb.add_sub_wrong(ms.Tensor([1.0]), ms.Tensor([1.0]))
