"""The thin names of ``ops`` whose answer the CPU wheel cannot give (no kernel, or random): each against numpy."""
from __future__ import annotations

import os

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops


def test_dropout_gen_mask_layout_and_rate():
    np.random.seed(0)
    mask = ops.DropoutGenMask()((10, 20), ms.Tensor(0.3)).asnumpy()
    assert mask.dtype == np.uint8 and mask.shape == (256 // 8,)  # 200 bits padded to 256
    bits = np.unpackbits(mask, bitorder="little")
    assert not bits[200:].any()
    assert abs(bits[:200].mean() - 0.3) < 0.1
    full = np.unpackbits(ops.DropoutGenMask()((3, 5), ms.Tensor(1.0)).asnumpy(), bitorder="little")
    assert full[:15].all() and not full[15:].any()


def test_dropout_gen_mask_seeded_is_repeatable():
    a = ops.DropoutGenMask(1, 2)((4, 4), ms.Tensor(0.5)).asnumpy()
    b = ops.DropoutGenMask(1, 2)((4, 4), ms.Tensor(0.5)).asnumpy()
    assert (a == b).all()


def test_dropout_do_mask_matches_numpy_and_differentiates():
    x = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4)
    mask = np.array([0b10110101, 0b1001] + [0] * 14, np.uint8)
    bits = np.unpackbits(mask, bitorder="little")[:12].reshape(3, 4).astype(np.float64)
    got = ops.DropoutDoMask()(ms.Tensor(x), ms.Tensor(mask), ms.Tensor(0.8, ms.float32))
    np.testing.assert_allclose(got.asnumpy(), x * bits / 0.8, rtol=1e-6)
    g = ms.grad(lambda t: ops.DropoutDoMask()(t, ms.Tensor(mask), ms.Tensor(0.8, ms.float32)).sum())(ms.Tensor(x))
    np.testing.assert_allclose(g.asnumpy(), bits / 0.8, rtol=1e-6)


def test_confusion_matrix_matches_numpy():
    rng = np.random.default_rng(1)
    lab, pre, w = rng.integers(0, 5, 40), rng.integers(0, 5, 40), rng.random(40)
    want = np.zeros((5, 5))
    for a, b, v in zip(lab, pre, w):
        want[a, b] += v
    got = ops.ConfusionMatrix(5, "float64")(ms.Tensor(lab.astype(np.int32)), ms.Tensor(pre.astype(np.int32)),
                                            ms.Tensor(w))
    np.testing.assert_allclose(got.asnumpy(), want)
    with pytest.raises(ValueError, match="ConfusionMatrix"):
        ops.ConfusionMatrix(2)(ms.Tensor([0, 3]), ms.Tensor([0, 1]))


def test_float_status():
    assert ops.FloatStatus()(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [0.0]
    assert ops.FloatStatus()(ms.Tensor([1.0, -np.inf])).asnumpy().tolist() == [1.0]


def test_split_v_and_log_softmax_ext_match_numpy():
    x = np.random.default_rng(2).standard_normal((3, 7)).astype(np.float32)
    parts = ops.SplitV([2, -1, 1], 1, 3)(ms.Tensor(x))
    for got, want in zip(parts, np.split(x, [2, 6], axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    with pytest.raises(ValueError, match="SplitV"):
        ops.SplitV([2, 2], 1, 2)(ms.Tensor(x))
    x64 = x.astype(np.float64)
    want = x64 - np.log(np.exp(x64).sum(1, keepdims=True))
    np.testing.assert_allclose(ops.LogSoftmaxExt()(ms.Tensor(x)).asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_tensor_dump_writes_numbered_files(tmp_path):
    a = ms.Tensor([[1.0, 2.0]])
    ops.tensordump(str(tmp_path / "t"), a)
    ops.TensorDump()(str(tmp_path / "u"), ms.Tensor([3], ms.int32))
    names = sorted(os.listdir(tmp_path))
    assert [n.rsplit("_", 1)[0] for n in names] == ["t_float32", "u_int32"]
    ids = [int(n.rsplit("_", 1)[1][:-4]) for n in names]
    assert ids[1] == ids[0] + 1
    np.testing.assert_array_equal(np.load(tmp_path / names[0]), a.asnumpy())


def test_dump_gradient_saves_the_gradient(tmp_path):
    path = str(tmp_path / "g.npy")
    x = ms.Tensor([1.0, 2.0, 3.0])
    g = ms.grad(lambda t: (ops.DumpGradient()(path, t * 2, "in") * t).sum())(x)
    np.testing.assert_allclose(np.load(path), x.asnumpy())  # d/d(t*2) of (t*2)*t is t
    np.testing.assert_allclose(g.asnumpy(), 4 * x.asnumpy())


def test_in_place_functions_write_their_input():
    x = ms.Tensor([-2.0, 0.0, 3.0])
    assert ops.clamp_(x, -1.0, 1.0) is x and x.asnumpy().tolist() == [-1.0, 0.0, 1.0]
    y = ms.Tensor([0.0, 1.0])
    ops.inplace_sigmoid(y)
    np.testing.assert_allclose(y.asnumpy(), 1 / (1 + np.exp(-np.array([0.0, 1.0]))), rtol=1e-6)
    assert ops.zero_(y).asnumpy().tolist() == [0.0, 0.0]


def test_py_func_and_ms_pyfunc():
    out = ops.PyFunc(lambda a: (a + 1, a * 2), [ms.float32], [(2,)], [ms.float32, ms.float32], [(2,), (2,)])(
        ms.Tensor([1.0, 2.0]))
    assert [o.asnumpy().tolist() for o in out] == [[2.0, 3.0], [2.0, 4.0]]

    @ops._ms_pyfunc(lambda x: x)
    def neg(x: float) -> float:
        return -x
    assert neg(2.0) == -2.0
