"""The gradients of the piecewise activations, padding, shuffling and 3-D / adaptive / Lp pooling layers against
float64 central differences (tests/nn/layer_gradients.py): inputs are kept away from the kinks (the bounds of the
clamps and shrinks, ties inside a pooling window), so each stencil stays on one smooth piece."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn, ops
from layer_gradients import check_against_differences


def _spread(shape, seed: int = 0) -> np.ndarray:
    """Distinct values 0.137 apart, shuffled, centred on 0: no window holds a near tie and no value sits within
    0.01 of the kinks used below (0, +-0.5, +-1, 0.3)."""
    n = int(np.prod(shape))
    v = (np.random.default_rng(seed).permutation(n) - n / 2 + 0.41) * 0.137
    for kink in (0.0, 0.5, -0.5, 1.0, -1.0, 0.3, -0.3):
        near = np.abs(v - kink) < 0.01
        v[near] += 0.02
    return v.reshape(shape)


LAYERS = [
    (nn.CELU(1.5), (2, 7)),
    (nn.Hardtanh(-1.0, 1.0), (2, 7)),
    (nn.Threshold(0.3, 2.0), (2, 7)),
    (nn.Tanhshrink(), (2, 7)),
    (nn.FastGelu(), (2, 7)),
    (nn.GLU(), (3, 6)),
    (nn.Softmin(0), (3, 4)),
    (nn.Softmax2d(), (2, 3, 2, 2)),
    (nn.ConstantPad2d((1, 0, 2, 1), 1.5), (1, 2, 3, 4)),
    (nn.ReflectionPad2d((2, 1, 1, 1)), (1, 2, 3, 4)),
    (nn.ReplicationPad3d(1), (1, 2, 2, 3, 4)),
    (nn.Pad(((0, 0), (1, 0), (1, 2)), "SYMMETRIC"), (2, 3, 4)),
    (nn.PixelShuffle(2), (1, 8, 2, 3)),
    (nn.PixelUnshuffle(2), (1, 2, 4, 6)),
    (nn.ChannelShuffle(3), (2, 6, 2)),
    (nn.AvgPool3d(2, 1, "pad", 1, count_include_pad=False), (1, 2, 3, 4, 3)),
    (nn.AvgPool3d(2, 2, "same"), (1, 2, 3, 4, 3)),
    (nn.MaxPool3d(2, 1, "pad", 1), (1, 2, 3, 4, 3)),
    (nn.AdaptiveAvgPool3d((2, 3, 2)), (1, 2, 3, 4, 5)),
    (nn.AdaptiveMaxPool3d((2, 2, 3)), (1, 2, 3, 4, 5)),
    (nn.AdaptiveMaxPool1d(2), (2, 3, 6)),
    (nn.LPPool1d(2, 2), (2, 3, 6)),
    (nn.LPPool2d(3, 2, 1), (1, 2, 3, 4)),
]


@pytest.mark.parametrize("net, shape", LAYERS, ids=[type(n).__name__ + str(i) for i, (n, _) in enumerate(LAYERS)])
def test_input_gradients_match_central_differences(net, shape):
    x = _spread(shape)
    if isinstance(net, nn.LPPool2d):
        x = np.abs(x) + 0.5  # a fractional power of the window's sum: kept positive
    out_shape = net(ms.Tensor(x)).shape
    weights = ms.Tensor(np.linspace(-1.0, 1.0, int(np.prod(out_shape))).reshape(out_shape))

    def loss(t):
        y = net(t)
        return (y * y * weights).sum()
    check_against_differences(net, x, loss)


class _Fn(nn.Cell):
    """A parameterless cell over a function, for the functional forms."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn(x)


_IDX = ms.Tensor(np.array([[[[0, 3], [9, 14]], [[1, 2], [12, 15]]]], np.int64))
PARAMETERIZED = [
    (nn.Conv3d(4, 6, (2, 3, 2), stride=(1, 2, 1), pad_mode="pad", padding=(1, 0, 1, 1, 0, 1), group=2,
               has_bias=True, dtype=ms.float64), (2, 4, 3, 5, 3)),
    (nn.Conv3d(2, 3, 2, stride=2, pad_mode="same", dilation=(1, 2, 1), dtype=ms.float64), (1, 2, 3, 5, 4)),
    (nn.Conv3dTranspose(4, 2, (2, 3, 2), stride=2, pad_mode="pad", padding=1, output_padding=1, group=2,
                        has_bias=True, dtype=ms.float64), (1, 4, 2, 3, 2)),
    (nn.Conv3dTranspose(2, 3, 3, stride=(1, 2, 2), dtype=ms.float64), (1, 2, 2, 3, 2)),
    (nn.Conv1dTranspose(3, 2, 3, stride=2, pad_mode="valid", has_bias=True, dtype=ms.float64), (2, 3, 5)),
    (_Fn(lambda t: ops.unfold(t, (2, 3), (1, 2), 1, (2, 1))), (2, 3, 4, 5)),
    (_Fn(lambda t: ops.fold(t, ms.Tensor([4, 5], ms.int32), 2, 1, 1, (1, 2))), (1, 12, 15)),
    (_Fn(lambda t: ops.max_unpool2d(t, _IDX, 2)), (1, 2, 2, 2)),
    (nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "same"), (2, 3, 4, 5)),
]


@pytest.mark.parametrize("net, shape", PARAMETERIZED,
                         ids=[type(n).__name__ + str(i) for i, (n, _) in enumerate(PARAMETERIZED)])
def test_convolution_and_block_gradients_match_central_differences(net, shape):
    test_input_gradients_match_central_differences(net, shape)


_GRID = ms.Tensor(np.random.default_rng(1).uniform(-1.2, 1.2, (1, 3, 2, 2)))
SAMPLING = [
    (_Fn(lambda t, p=p, a=a: ops.grid_sample(t, _GRID, "bilinear", p, a)), (1, 2, 3, 4))
    for p in ("zeros", "border", "reflection") for a in (False, True)
] + [
    (_Fn(lambda t: ops.ResizeBilinearV2(False, True)(t, (4, 7))), (1, 2, 3, 5)),
    (_Fn(lambda t: ops.UpsampleTrilinear3D()(t, [3, 5, 6], None)), (1, 2, 2, 3, 4)),
]


@pytest.mark.parametrize("net, shape", SAMPLING, ids=[f"sampling{i}" for i in range(len(SAMPLING))])
def test_sampling_gradients_match_central_differences(net, shape):
    test_input_gradients_match_central_differences(net, shape)


def test_grid_sample_grid_gradient_matches_central_differences():
    from central_differences import gradient
    x = ms.Tensor(_spread((1, 2, 3, 4)))
    g0 = np.random.default_rng(2).uniform(-0.9, 0.9, (1, 3, 2, 2))
    for padding in ("zeros", "border", "reflection"):
        def loss(arrays):
            y = ops.grid_sample(x, ms.Tensor(arrays["g"]), "bilinear", padding, False)
            return float((y * y).sum().asnumpy())
        want = gradient(loss, {"g": g0})["g"]
        got = ms.grad(lambda g: (ops.grid_sample(x, g, "bilinear", padding, False) ** 2).sum())(ms.Tensor(g0))
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-8, err_msg=padding)
