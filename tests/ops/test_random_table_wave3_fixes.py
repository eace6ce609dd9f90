"""Float64 numpy oracles for what the third wave of random table programs (tests/golden/cases/random_table_wave3.py)
turned up when its templates were measured against MindSpore 2.10 on inputs holding inf and NaN: ScaleAndTranslate
and FractionalAvgPool spread one NaN or inf through the whole image (a matrix product multiplies it by every zero
weight), where the wheel, and the definitions, confine it to the outputs whose kernel or region holds it; and
DeformableOffsets (so deformable_conv2d) interpolated as a + (b - a) * t, which makes NaN of an infinite neighbour
where the weighted sum of the neighbours (the wheel's, the definition) gives the infinity. The oracles below are the
definitions written out in loops (sharing no code with mskernel); gradients against float64 central differences of
the same loops."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from central_differences import gradient

_R = np.random.default_rng(2112)


def _triangle_weights(n_in: int, n_out: int, scale: float, shift: float) -> np.ndarray:
    """ScaleAndTranslate along one axis, triangle kernel without antialiasing: output centre i + 0.5 samples the
    input at (i + 0.5 - shift) / scale; the weights of the input centres j + 0.5 within 1 of it, normalised."""
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        c = (i + 0.5 - shift) / scale
        if not 0 <= c <= n_in:
            continue
        for j in range(n_in):
            w[i, j] = max(0.0, 1.0 - abs(j + 0.5 - c))
        if w[i].sum() > 0:
            w[i] /= w[i].sum()
    return w


def _scale_translate_oracle(x: np.ndarray, size: tuple, scale: tuple, shift: tuple) -> np.ndarray:
    """(H, W) image: each output the sum over the inputs it weighs (a zero weight reads nothing)."""
    wy = _triangle_weights(x.shape[0], size[0], scale[0], shift[0])
    wx = _triangle_weights(x.shape[1], size[1], scale[1], shift[1])
    out = np.zeros(size)
    for i in range(size[0]):
        for k in range(size[1]):
            out[i, k] = sum(wy[i, j] * wx[k, q] * x[j, q] for j in range(x.shape[0]) for q in range(x.shape[1])
                            if wy[i, j] != 0 and wx[k, q] != 0)
    return out


def _sat(x: np.ndarray, size: tuple, scale: tuple, shift: tuple, dtype=np.float32):
    op = ops.ScaleAndTranslate("triangle", antialias=False)
    return op(ms.Tensor(x.astype(dtype).reshape((1,) + x.shape + (1,))), ms.Tensor(np.array(size), ms.int32),
              ms.Tensor(np.array(scale), ms.float32), ms.Tensor(np.array(shift), ms.float32))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [(2, 2), (0, 3), (1, 0)])
def test_scale_and_translate_keeps_an_inf_or_nan_where_its_kernel_reaches(bad, where):
    x = _R.uniform(-1.5, 1.5, (3, 4))
    x[where] = bad
    size, scale, shift = (4, 6), (1.2, 1.4), (0.0, 0.5)
    want = _scale_translate_oracle(x.astype(np.float32).astype(np.float64), size, scale, shift)
    got = _sat(x, size, scale, shift).asnumpy().reshape(size)
    assert np.isfinite(want).any() and not np.isfinite(want).all()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)  # NaN and inf at the same places


def test_scale_and_translate_gradient_on_the_definition():
    x = _R.uniform(-1.5, 1.5, (3, 4))
    size, scale, shift = (4, 6), (1.2, 1.4), (0.0, 0.5)
    wts = _R.uniform(-1.0, 1.0, size)
    want = gradient(lambda p: float((_scale_translate_oracle(p["x"], size, scale, shift) * wts).sum()), {"x": x})["x"]
    got = ms.grad(lambda a: (ops.ScaleAndTranslate("triangle", antialias=False)(
        a, ms.Tensor(np.array(size), ms.int32), ms.Tensor(np.array(scale), ms.float32),
        ms.Tensor(np.array(shift), ms.float32)).reshape(size) * ms.Tensor(wts.astype(np.float32))).sum())(
        ms.Tensor(x.astype(np.float32).reshape(1, 3, 4, 1)))
    np.testing.assert_allclose(got.asnumpy().reshape(3, 4), want, rtol=1e-4, atol=1e-5)


def _avg_pool_oracle(x: np.ndarray, rh: int, rw: int, overlapping: bool) -> np.ndarray:
    """NHWC average pooling over the regions of integer ratios (rh, rw): region i spans [i * r, (i + 1) * r), one
    more element when overlapping (within the input); each output the mean of its region."""
    n, h, w, c = x.shape
    oh, ow, extra = h // rh, w // rw, int(overlapping)
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            region = x[:, i * rh:min((i + 1) * rh + extra, h), j * rw:min((j + 1) * rw + extra, w), :]
            out[:, i, j, :] = region.mean(axis=(1, 2))
    return out


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("shape, ratio, overlapping", [((1, 4, 6, 1), (2, 3), False), ((2, 3, 4, 1), (1, 2), True),
                                                       ((1, 6, 6, 2), (2, 2), True)])
def test_fractional_avg_pool_keeps_an_inf_or_nan_in_its_regions(bad, shape, ratio, overlapping):
    x = _R.uniform(-1.5, 1.5, shape)
    x.flat[_R.integers(x.size)] = bad
    want = _avg_pool_oracle(x.astype(np.float32).astype(np.float64), *ratio, overlapping)
    got = ops.FractionalAvgPool([1.0, float(ratio[0]), float(ratio[1]), 1.0], overlapping=overlapping)(
        ms.Tensor(x.astype(np.float32)))[0].asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_fractional_avg_pool_gradient_on_the_definition():
    x = _R.uniform(-1.5, 1.5, (2, 3, 4, 1))
    wts = _R.uniform(-1.0, 1.0, (2, 3, 2, 1))
    want = gradient(lambda p: float((_avg_pool_oracle(p["x"], 1, 2, True) * wts).sum()), {"x": x})["x"]
    pool = ops.FractionalAvgPool([1.0, 1.0, 2.0, 1.0], overlapping=True)
    got = ms.grad(lambda a: (pool(a)[0] * ms.Tensor(wts)).sum())(ms.Tensor(x))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-8)


def _deformable_oracle(x: np.ndarray, off: np.ndarray, k: tuple) -> np.ndarray:
    """DeformableOffsets, stride 1, no padding, one group, (C, H, W) input: tap (i, j) of output (y, x) reads the
    bilinear sample at (y + i + dy, x + j + dx) (dx, dy, mask: the offsets' three blocks), each neighbour outside
    the image reading 0 and a sample at or beyond one pixel outside reading 0, times its mask."""
    c, h, w = x.shape
    kh, kw = k
    oh, ow = h - kh + 1, w - kw + 1
    blocks = off.reshape(3, kh, kw, oh, ow)
    out = np.zeros((c, oh * kh, ow * kw))
    for y in range(oh):
        for xx in range(ow):
            for i in range(kh):
                for j in range(kw):
                    py, px = y + i + blocks[1, i, j, y, xx], xx + j + blocks[0, i, j, y, xx]
                    if not (-1 < py < h and -1 < px < w):
                        continue
                    y0, x0 = int(np.floor(py)), int(np.floor(px))
                    total = np.zeros(c)
                    for yy, wy in ((y0, 1 - (py - y0)), (y0 + 1, py - y0)):
                        for xq, wx in ((x0, 1 - (px - x0)), (x0 + 1, px - x0)):
                            if 0 <= yy < h and 0 <= xq < w:
                                total = total + wy * wx * x[:, yy, xq]
                    out[:, y * kh + i, xx * kw + j] = total * blocks[2, i, j, y, xx]
    return out


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_deformable_offsets_keep_an_infinite_neighbour_infinite(bad):
    x = _R.uniform(-1.5, 1.5, (2, 3, 4))
    x[1, 2, 1] = bad
    off = _R.uniform(-0.75, 0.75, (12, 2, 3))
    want = _deformable_oracle(x.astype(np.float32).astype(np.float64), off.astype(np.float32).astype(np.float64),
                              (2, 2))
    got = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(ms.Tensor(x[None].astype(np.float32)),
                                                                    ms.Tensor(off[None].astype(np.float32)))
    assert not np.isfinite(want).all()
    np.testing.assert_allclose(got.asnumpy()[0], want, rtol=1e-5, atol=1e-6)


def test_deformable_offsets_gradients_on_the_definition():
    x = _R.uniform(-1.5, 1.5, (2, 3, 4))
    off = _R.uniform(-0.75, 0.75, (12, 2, 3))
    wts = _R.uniform(-1.0, 1.0, (2, 4, 6))
    want = gradient(lambda p: float((_deformable_oracle(p["x"], p["off"], (2, 2)) * wts).sum()), {"x": x, "off": off})
    got = ms.grad(lambda a, o: (ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(a, o)[0] * ms.Tensor(wts))
                  .sum(), (0, 1))(ms.Tensor(x[None]), ms.Tensor(off[None]))
    np.testing.assert_allclose(got[0].asnumpy()[0], want["x"], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(got[1].asnumpy()[0], want["off"], rtol=1e-5, atol=1e-7)
