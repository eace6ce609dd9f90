"""The image primitives the CPU wheel cannot run, against numpy oracles written here (tests/golden holds the rest):
``Dilation2D`` (the wheel raises "Cast failed" for every pad_mode), ``NonMaxSuppressionV3``, ``ExtractImagePatches``
with rates, and ``rotated_iou`` (no CPU kernels), and ExtractGlimpse's gradient (the wheel defines none); values in
float64 loops, gradients against float64 central differences."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops
from central_differences import gradient

_R = np.random.default_rng(11)


def _dilation_oracle(x: np.ndarray, f: np.ndarray, stride: tuple, rate: tuple, same: bool) -> np.ndarray:
    n, c, h, w = x.shape
    _, kh, kw = f.shape
    eh, ew = (kh - 1) * rate[0] + 1, (kw - 1) * rate[1] + 1
    if same:
        oh, ow = -(-h // stride[0]), -(-w // stride[1])
        top = max((oh - 1) * stride[0] + eh - h, 0) // 2
        left = max((ow - 1) * stride[1] + ew - w, 0) // 2
    else:
        oh, ow = (h - eh) // stride[0] + 1, (w - ew) // stride[1] + 1
        top = left = 0
    out = np.full((n, c, oh, ow), -np.inf)
    for b, ch, y, xx, i, j in itertools.product(range(n), range(c), range(oh), range(ow), range(kh), range(kw)):
        yy, xj = y * stride[0] - top + i * rate[0], xx * stride[1] - left + j * rate[1]
        if 0 <= yy < h and 0 <= xj < w:
            out[b, ch, y, xx] = max(out[b, ch, y, xx], x[b, ch, yy, xj] + f[ch, i, j])
    return out


@pytest.mark.parametrize("stride, rate, pad_mode", [(1, 1, "VALID"), (1, 1, "SAME"), ((2, 1), (1, 2), "SAME"),
                                                    (2, 2, "valid")])
def test_dilation2d_values_and_gradients(stride: object, rate: object, pad_mode: str) -> None:
    # values spaced well apart, so a central-difference step never changes which element wins
    x = (_R.permutation(72).reshape(1, 2, 6, 6) * 0.1).astype(np.float64)
    f = (_R.permutation(12).reshape(2, 2, 3) * 0.037).astype(np.float64)
    s = (stride, stride) if isinstance(stride, int) else stride
    r = (rate, rate) if isinstance(rate, int) else rate
    same = pad_mode.upper() == "SAME"
    op = ops.Dilation2D(stride, rate, pad_mode)
    got = op(ms.Tensor(x), ms.Tensor(f))
    np.testing.assert_allclose(got.asnumpy(), _dilation_oracle(x, f, s, r, same), rtol=1e-12)
    weight = _R.standard_normal(got.shape)
    gx, gf = ms.grad(lambda a, b: (op(a, b) * ms.Tensor(weight)).sum(), (0, 1))(ms.Tensor(x), ms.Tensor(f))
    want = gradient(lambda p: float((_dilation_oracle(p["x"], p["f"], s, r, same) * weight).sum()), {"x": x, "f": f})
    np.testing.assert_allclose(gx.asnumpy(), want["x"], atol=1e-8)
    np.testing.assert_allclose(gf.asnumpy(), want["f"], atol=1e-8)


def _nms_oracle(boxes: np.ndarray, scores: np.ndarray, limit: int, iou_t: float, score_t: float) -> list:
    def iou(a: np.ndarray, b: np.ndarray) -> float:
        ya, xa = sorted((a[0], a[2])), sorted((a[1], a[3]))
        yb, xb = sorted((b[0], b[2])), sorted((b[1], b[3]))
        area_a, area_b = (ya[1] - ya[0]) * (xa[1] - xa[0]), (yb[1] - yb[0]) * (xb[1] - xb[0])
        if area_a <= 0 or area_b <= 0:
            return 0.0
        ih = max(min(ya[1], yb[1]) - max(ya[0], yb[0]), 0.0)
        iw = max(min(xa[1], xb[1]) - max(xa[0], xb[0]), 0.0)
        return ih * iw / (area_a + area_b - ih * iw)

    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    kept: list = []
    for i in order:
        if len(kept) == limit or scores[i] <= score_t:
            continue
        if all(iou(boxes[i], boxes[j]) <= iou_t for j in kept):
            kept.append(i)
    return kept


@pytest.mark.parametrize("limit, iou_t, score_t", [(5, 0.5, 0.0), (3, 0.2, 0.3), (10, 0.0, 0.0), (-1, 0.5, 0.0)])
def test_non_max_suppression_v3(limit: int, iou_t: float, score_t: float) -> None:
    corners = _R.uniform(0, 10, (12, 2, 2))
    boxes = np.concatenate([corners[:, 0], corners[:, 0] + _R.uniform(0.5, 4, (12, 2))], 1).astype(np.float32)
    boxes[3] = boxes[3][[2, 3, 0, 1]]  # opposite corners given the other way round
    scores = _R.uniform(0, 1, 12).astype(np.float32)
    got = ops.NonMaxSuppressionV3()(ms.Tensor(boxes), ms.Tensor(scores), ms.Tensor(limit, ms.int32),
                                    ms.Tensor(iou_t, ms.float32), ms.Tensor(score_t, ms.float32))
    assert got.dtype == ms.int32
    want = _nms_oracle(boxes.astype(np.float64), scores.astype(np.float64), max(limit, 0), iou_t, score_t)
    assert got.asnumpy().tolist() == want


def test_non_max_suppression_v3_docstring_example() -> None:
    boxes = ms.Tensor(np.array([[1, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4], [1, 1, 3, 4]]), ms.float32)
    scores = ms.Tensor(np.array([0.4, 0.5, 0.72, 0.9, 0.45]), ms.float32)
    out = ops.NonMaxSuppressionV3()(boxes, scores, ms.Tensor(5, ms.int32), ms.Tensor(0.5, ms.float32),
                                    ms.Tensor(0, ms.float32))
    assert out.asnumpy().tolist() == [3, 2, 0]


@pytest.mark.parametrize("k, s, r, pad", [((2, 2), (1, 1), (2, 2), "VALID"), ((3, 2), (2, 1), (1, 2), "SAME"),
                                          ((2, 3), (2, 2), (2, 1), "same")])
def test_extract_image_patches_with_rates(k: tuple, s: tuple, r: tuple, pad: str) -> None:
    x = _R.standard_normal((2, 3, 7, 6))
    n, c, h, w = x.shape
    eh, ew = (k[0] - 1) * r[0] + 1, (k[1] - 1) * r[1] + 1
    if pad.upper() == "SAME":
        oh, ow = -(-h // s[0]), -(-w // s[1])
        top, left = max((oh - 1) * s[0] + eh - h, 0) // 2, max((ow - 1) * s[1] + ew - w, 0) // 2
    else:
        oh, ow, top, left = (h - eh) // s[0] + 1, (w - ew) // s[1] + 1, 0, 0
    want = np.zeros((n, k[0] * k[1] * c, oh, ow))
    for b, y, xx, i, j, ch in itertools.product(range(n), range(oh), range(ow), range(k[0]), range(k[1]), range(c)):
        yy, xj = y * s[0] - top + i * r[0], xx * s[1] - left + j * r[1]
        if 0 <= yy < h and 0 <= xj < w:
            want[b, (i * k[1] + j) * c + ch, y, xx] = x[b, ch, yy, xj]
    got = ops.ExtractImagePatches((1, 1) + k, (1, 1) + s, (1, 1) + r, pad)(ms.Tensor(x))
    np.testing.assert_array_equal(got.asnumpy(), want)


def _polygon_area_by_sampling(a: np.ndarray, b: np.ndarray) -> tuple:
    """Areas of box a, box b and their intersection by a fine grid of points (an independent, approximate
    oracle: a point is inside a rotated box when its coordinates in the box's frame are within half the sides)."""
    def inside(box: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        t = np.deg2rad(box[4])
        dx, dy = px - box[0], py - box[1]
        u, v = dx * np.cos(t) + dy * np.sin(t), -dx * np.sin(t) + dy * np.cos(t)
        return (np.abs(u) <= box[2] / 2) & (np.abs(v) <= box[3] / 2)

    g = np.linspace(-6, 6, 1201)
    px, py = np.meshgrid(g, g)
    cell = (g[1] - g[0]) ** 2
    ia, ib = inside(a, px, py), inside(b, px, py)
    return ia.sum() * cell, ib.sum() * cell, (ia & ib).sum() * cell


@pytest.mark.parametrize("mode", [0, 1])
def test_rotated_iou_against_sampled_areas(mode: int) -> None:
    boxes = np.array([[[0.0, 0.0, 3.0, 2.0, 30.0], [1.0, -1.0, 2.0, 4.0, -70.0]]])
    query = np.array([[[0.5, 0.2, 2.0, 2.0, 0.0], [-1.0, 1.0, 4.0, 1.0, 45.0], [4.0, 4.0, 1.0, 1.0, 10.0]]])
    got = ops.rotated_iou(ms.Tensor(boxes.astype(np.float32)), ms.Tensor(query.astype(np.float32)), mode=mode)
    assert got.shape == (1, 2, 3) and got.dtype == ms.float32
    for n, k in itertools.product(range(2), range(3)):
        area_a, area_b, inter = _polygon_area_by_sampling(boxes[0, n], query[0, k])
        want = inter / area_a if mode == 1 else inter / (area_a + area_b - inter)
        assert abs(float(got.asnumpy()[0, n, k]) - want) < 0.01


def test_rotated_iou_corner_form_and_one_to_one() -> None:
    xywht = np.array([[[1.0, 2.0, 2.0, 4.0, 20.0], [0.0, 0.0, 1.0, 1.0, 0.0]]], np.float32)
    xyxyt = np.array([[[0.0, 0.0, 2.0, 4.0, 20.0], [-0.5, -0.5, 0.5, 0.5, 0.0]]], np.float32)
    a = ops.rotated_iou(ms.Tensor(xywht), ms.Tensor(xywht[:, ::-1].copy()), is_cross=False)
    b = ops.rotated_iou(ms.Tensor(xyxyt), ms.Tensor(xyxyt[:, ::-1].copy()), trans=True, is_cross=False)
    assert a.shape == (1, 2)
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="input boxes type is illegal."):
        ops.rotated_iou(ms.Tensor(np.zeros((1, 1, 5), np.int32)), ms.Tensor(xywht))


def test_depthwise_conv2d_native_against_numpy() -> None:
    x = _R.standard_normal((2, 3, 6, 5))
    w = _R.standard_normal((1, 3, 3, 2))
    got = ops.DepthwiseConv2dNative(1, (3, 2), pad_mode="pad", pad=(1, 0, 0, 1), stride=2)(ms.Tensor(x), ms.Tensor(w))
    xp = np.pad(x, ((0, 0), (0, 0), (1, 0), (0, 1)))
    oh, ow = (xp.shape[2] - 3) // 2 + 1, (xp.shape[3] - 2) // 2 + 1
    want = np.zeros((2, 3, oh, ow))
    for b, c, y, xx in itertools.product(range(2), range(3), range(oh), range(ow)):
        want[b, c, y, xx] = (xp[b, c, 2 * y:2 * y + 3, 2 * xx:2 * xx + 2] * w[0, c]).sum()
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    with pytest.raises(ValueError, match="holds one"):
        ops.DepthwiseConv2dNative(2, (3, 2))(ms.Tensor(x), ms.Tensor(w))


def _glimpse_oracle(x: np.ndarray, size: tuple, offsets: np.ndarray) -> np.ndarray:
    """ExtractGlimpse with centered=False, normalized=False, zero noise, in float64 loops: window pixel (a, b) of
    image i reads x[i, top + a, left + b] when that is inside the image, else 0."""
    n, h, w, c = x.shape
    out = np.zeros((n, size[0], size[1], c))
    for i in range(n):
        top, left = int(offsets[i, 0] - size[0] / 2.0), int(offsets[i, 1] - size[1] / 2.0)
        for a, b in itertools.product(range(size[0]), range(size[1])):
            if 0 <= top + a < h and 0 <= left + b < w:
                out[i, a, b] = x[i, top + a, left + b]
    return out


def test_extract_glimpse_values_and_gradient_against_numpy() -> None:
    """The wheel has no gradient for ExtractGlimpse ("bprop not defined"); mskernel's follows the window's pixels
    (held to float64 central differences of the loop oracle), and the noise outside the image carries none."""
    x = _R.standard_normal((2, 4, 5, 2))
    offsets = np.array([[1.0, 1.0], [3.5, 4.0]])  # the second window leaves the image
    weights = _R.standard_normal((2, 3, 3, 2))
    size, off = ms.Tensor([3, 3], ms.int32), ms.Tensor(offsets.astype(np.float32))
    glimpse = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=False, noise="zero")

    def loss(v: ms.Tensor) -> ms.Tensor:
        return (glimpse(v, size, off) * ms.Tensor(weights.astype(np.float32))).sum()

    xt = ms.Tensor(x.astype(np.float32))
    np.testing.assert_allclose(glimpse(xt, size, off).asnumpy(), _glimpse_oracle(x, (3, 3), offsets), rtol=1e-6)
    want = gradient(lambda p: float((_glimpse_oracle(p["x"], (3, 3), offsets) * weights).sum()), {"x": x})["x"]
    np.testing.assert_allclose(ms.grad(loss)(xt).asnumpy(), want, rtol=1e-5, atol=1e-6)
    noisy = ops.ExtractGlimpse(centered=False, normalized=False, uniform_noise=True, noise="uniform")
    g = ms.grad(lambda v: (noisy(v, size, off) * ms.Tensor(weights.astype(np.float32))).sum())(xt)
    np.testing.assert_allclose(g.asnumpy(), want, rtol=1e-5, atol=1e-6)
