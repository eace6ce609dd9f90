"""Convolution, pooling, normalization and embedding: gradients against central differences in float64 (first
and second order), including the ops the CPU wheel cannot run (so no golden covers them), and error paths."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops

RNG = np.random.default_rng(3)


def t(*shape):
    return ms.Tensor(RNG.standard_normal(shape))


W2 = t(6, 2, 3, 2)
CASES = {
    "conv2d_groups_stride_dilation_pad": (lambda x, w: ops.conv2d(x, w, None, (2, 1), "pad", (1, 0), (1, 2), 2),
                                          (t(2, 4, 7, 6), W2)),
    "conv2d_same": (lambda x, w, b: ops.conv2d(x, w, b, 2, "same"), (t(1, 2, 5, 6), t(3, 2, 3, 3), t(3))),
    "conv1d": (lambda x, w: ops.conv1d(x, w, None, 2, "pad", 1), (t(2, 3, 9), t(4, 3, 3))),
    "conv_transpose2d": (lambda x, w: ops.conv_transpose2d(x, w, None, 2, 1, 1), (t(1, 3, 3, 4), t(3, 2, 3, 3))),
    "conv_transpose2d_groups": (lambda x, w: ops.conv_transpose2d(x, w, None, 1, 0, 0, 2), (t(1, 4, 3, 3),
                                                                                            t(4, 1, 2, 2))),
    "max_pool2d": (lambda x: ops.max_pool2d(x, 3, 2, 1), (t(2, 3, 7, 6),)),
    "avg_pool2d_ceil": (lambda x: ops.avg_pool2d(x, 2, 2, 0, True), (t(1, 2, 5, 5),)),
    "adaptive_avg_pool2d": (lambda x: ops.adaptive_avg_pool2d(x, (2, 4)), (t(1, 2, 5, 7),)),
    "adaptive_max_pool2d": (lambda x: ops.adaptive_max_pool2d(x, 2), (t(1, 2, 5, 7),)),
    "batch_norm_training": (lambda x, g, b: ops.batch_norm(x, ms.Tensor(np.zeros(3)), ms.Tensor(np.ones(3)), g, b,
                                                           True), (t(4, 3, 2, 2), t(3), t(3))),
    "layer_norm": (lambda x, g, b: ops.layer_norm(x, (2, 3), g, b), (t(4, 2, 3), t(2, 3), t(2, 3))),
    "group_norm": (lambda x, g: ops.group_norm(x, 2, g), (t(2, 4, 3), t(4))),
    "embedding": (lambda w: ops.embedding(ms.Tensor([[0, 2], [1, 2]]), w), (t(4, 3),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients(name):
    fn, inputs = CASES[name]
    assert ms.gradcheck(fn, inputs, raise_exception=False).passed
    assert ms.gradgradcheck(fn, inputs, raise_exception=False).passed


def test_embedding_padding_row_gets_no_gradient():
    w = ms.Tensor(np.ones((3, 2)))
    g = ms.grad(lambda a: ops.embedding(ms.Tensor([0, 1, 1]), a, padding_idx=1).sum())(w)
    assert g.asnumpy().tolist() == [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]


def test_max_pool_gradient_goes_to_the_chosen_element_only():
    x = ms.Tensor(np.array([[[[1.0, 9.0], [3.0, 4.0]]]]))
    assert ms.grad(lambda a: ops.max_pool2d(a, 2).sum())(x).asnumpy().ravel().tolist() == [0, 1, 0, 0]


def test_batch_norm_layer_trains_then_evaluates_with_its_moving_statistics():
    bn = nn.BatchNorm1d(2, momentum=0.5)
    bn.set_train(True)
    x = ms.Tensor(np.array([[1.0, 10.0], [3.0, 30.0]], np.float32))
    bn(x)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [1.0, 10.0])
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), [1.5, 100.5])
    bn.set_train(False)
    expect = (x.asnumpy() - bn.moving_mean.asnumpy()) / np.sqrt(bn.moving_variance.asnumpy() + 1e-5)
    np.testing.assert_allclose(bn(x).asnumpy(), expect, rtol=1e-6)


ERRORS = [
    (lambda: nn.Conv2d(3, 4, 3, group=2), ValueError, "must be divisible by 'group'"),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="bad"), ValueError,
     r"^For 'Conv2D', the 'pad_mode' must be str and must be in '\['valid', 'same', 'pad'\]', but got 'bad'\.$"),
    (lambda: nn.Conv1d(3, 4, 3, pad_mode="bad"), ValueError, r"^For 'Conv1d', the 'pad_mode' must be str"),
    (lambda: nn.Conv2d(3, 4, 3, padding=1), ValueError, "'padding' must be 0 when 'pad_mode' is not 'pad'"),
    (lambda: nn.Conv2d(3, 4, 0), ValueError, "'kernel_size' must be a positive int"),
    (lambda: ops.conv2d(ms.Tensor(np.ones((1, 3, 4, 4))), ms.Tensor(np.ones((2, 2, 3, 3)))), RuntimeError,
     "'C_in' of input 'x' shape divide by parameter 'group'"),
    (lambda: ops.conv2d(ms.Tensor(np.ones((1, 1, 2, 2))), ms.Tensor(np.ones((1, 1, 3, 3)))), ValueError,
     "larger than the padded input"),
    (lambda: ops.conv2d(ms.Tensor(np.ones((1, 4, 4))), ms.Tensor(np.ones((1, 1, 3, 3)))), ValueError, "must be 4-D"),
    (lambda: nn.Conv1d(2, 2, 3, weight_init=ms.Tensor(np.ones((2, 2, 1, 3)))), ValueError, "must = 3"),
    (lambda: ops.max_pool2d(ms.Tensor(np.ones((1, 4, 4))), 2), ValueError, "must be 4-D"),
    (lambda: nn.MaxPool2d(2, pad_mode="full"), ValueError, "'pad_mode' must be one of"),
    (lambda: nn.BatchNorm2d(0), ValueError, "'num_features' must be a positive int"),
    (lambda: nn.BatchNorm2d(2, momentum=2.0), ValueError, "'momentum' must be in range"),
    (lambda: nn.BatchNorm2d(2)(ms.Tensor(np.ones((2, 2)))), ValueError, "must be 4-D"),
    (lambda: nn.LayerNorm(4), TypeError, "'normalized_shape' must be tuple"),
    (lambda: ops.layer_norm(ms.Tensor(np.ones((2, 3))), (4,)), ValueError, "must match the last dimensions"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "must be divided by 'num_groups'"),
    (lambda: nn.Embedding(4, 2, padding_idx=4), ValueError, "'padding_idx' must be in range"),
    (lambda: ops.interpolate(ms.Tensor(np.ones((1, 1, 2))), size=3, scale_factor=2.0), ValueError,
     "cannot be set simultaneously"),
]


@pytest.mark.parametrize("call, exc, text", ERRORS, ids=[e[2][:30] for e in ERRORS])
def test_errors(call, exc, text):
    with pytest.raises(exc, match=text):
        call()


def test_reused_windows_are_not_stale_after_an_in_place_write():
    x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
    w = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
    first = ops.conv2d(x, w).asnumpy().copy()
    x[0, 0, 0, 0] = 5.0
    second = ops.conv2d(x, w).asnumpy()
    assert first[0, 0, 0, 0] == 4.0 and second[0, 0, 0, 0] == 8.0
    gw = ms.grad(lambda k: ops.conv2d(x, k).sum())(w)
    assert gw.asnumpy()[0, 0, 0, 0] == 13.0  # 9 windows, one of them holding the 5
