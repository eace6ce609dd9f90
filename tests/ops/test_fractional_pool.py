"""Fractional pooling where the CPU wheel gives no answer: the gradients (its grad kernels fail on the CPU), the
NDHWC layout and integer inputs with negative values, against numpy written here."""
import numpy as np

import mskernel as ms
from mskernel import ops


def _starts(u, n_in, n_out, k):
    if n_out == 1:
        return [n_in - k]
    a = (n_in - k) / (n_out - 1)
    return [int(np.floor((i + u) * a) - np.floor(u * a)) for i in range(n_out - 1)] + [n_in - k]


def _pool2d(x, u, k, o):
    n, c, h, w = x.shape
    y = np.zeros((n, c) + o, x.dtype)
    grad_of_sum_w = np.zeros_like(x, dtype=np.float64)
    weights = np.arange(1, n * c * o[0] * o[1] + 1, dtype=np.float64).reshape(y.shape)
    for b in range(n):
        for ch in range(c):
            for i, r in enumerate(_starts(u[b, ch, 1], h, o[0], k[0])):
                for j, q in enumerate(_starts(u[b, ch, 0], w, o[1], k[1])):
                    win = x[b, ch, r:r + k[0], q:q + k[1]]
                    a = np.unravel_index(np.argmax(win), win.shape)
                    y[b, ch, i, j] = win[a]
                    grad_of_sum_w[b, ch, r + a[0], q + a[1]] += weights[b, ch, i, j]
    return y, weights, grad_of_sum_w


def test_fixed_ksize_gradient_scatters_to_the_maxima():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 9, 8))
    u = rng.random((2, 3, 2))
    y_ref, weights, g_ref = _pool2d(x, u, (2, 3), (4, 3))
    pool = ops.FractionalMaxPoolWithFixedKsize((2, 3), (4, 3))
    xt, ut, wt = ms.Tensor(x), ms.Tensor(u), ms.Tensor(weights)
    np.testing.assert_array_equal(pool(xt, ut)[0].asnumpy(), y_ref)
    g = ms.grad(lambda a: (pool(a, ut)[0] * wt).sum())(xt)
    np.testing.assert_allclose(g.asnumpy(), g_ref)


def test_functional_and_cell_gradients_match_the_primitive():
    rng = np.random.default_rng(2)
    x = ms.Tensor(rng.standard_normal((1, 2, 7, 7)).astype(np.float32))
    u = ms.Tensor(rng.random((1, 2, 2)).astype(np.float32))
    _, weights, g_ref = _pool2d(x.asnumpy(), u.asnumpy(), (2, 2), (3, 3))
    cell = ms.nn.FractionalMaxPool2d(2, output_size=3, _random_samples=u)
    g = ms.grad(lambda a: (cell(a) * ms.Tensor(weights.astype(np.float32))).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), g_ref, rtol=1e-6)


def test_3d_gradient_and_ndhwc():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 5, 5, 6))  # ksize + output_shape <= the input's size (the 3-d bound)
    u = rng.random((1, 2, 3))
    k, o = (2, 2, 3), (3, 2, 2)
    y = np.zeros((1, 2) + o)
    g_ref = np.zeros_like(x)
    for ch in range(2):
        ds, hs, ws = (_starts(u[0, ch, a], x.shape[2 + a], o[a], k[a]) for a in range(3))
        for i, d in enumerate(ds):
            for j, h in enumerate(hs):
                for m, w in enumerate(ws):
                    win = x[0, ch, d:d + 2, h:h + 2, w:w + 3]
                    a = np.unravel_index(np.argmax(win), win.shape)
                    y[0, ch, i, j, m] = win[a]
                    g_ref[0, ch, d + a[0], h + a[1], w + a[2]] += 1
    pool = ops.FractionalMaxPool3DWithFixedKsize(k, o)
    out, _ = pool(ms.Tensor(x), ms.Tensor(u))
    np.testing.assert_array_equal(out.asnumpy(), y)
    np.testing.assert_allclose(ms.grad(lambda a: pool(a, ms.Tensor(u))[0].sum())(ms.Tensor(x)).asnumpy(), g_ref)
    channels_last = ops.FractionalMaxPool3DWithFixedKsize(k, o, "NDHWC")(ms.Tensor(x.transpose(0, 2, 3, 4, 1)),
                                                                          ms.Tensor(u))[0]
    np.testing.assert_array_equal(channels_last.asnumpy(), y.transpose(0, 2, 3, 4, 1))


def test_negative_integers_pool_to_their_maximum():
    x = -np.arange(1, 37, dtype=np.int32).reshape(1, 1, 6, 6)
    y, idx = ops.FractionalMaxPoolWithFixedKsize(2, 3)(ms.Tensor(x), ms.Tensor(np.zeros((1, 1, 2), np.float32)))
    ref, _, _ = _pool2d(x, np.zeros((1, 1, 2)), (2, 2), (3, 3))
    np.testing.assert_array_equal(y.asnumpy(), ref)


def test_region_max_pool_gradient():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 6, 9, 3))
    y, rows, cols = ops.FractionalMaxPool([1.0, 1.5, 2.0, 1.0], overlapping=True, deterministic=True, seed=5)(
        ms.Tensor(x))
    r, c = rows.asnumpy(), cols.asnumpy()
    g_ref = np.zeros_like(x)
    for i in range(len(r) - 1):
        for j in range(len(c) - 1):
            win = x[:, r[i]:min(r[i + 1] + 1, 6), c[j]:min(c[j + 1] + 1, 9)]
            for b in range(2):
                for ch in range(3):
                    a = np.unravel_index(np.argmax(win[b, :, :, ch]), win.shape[1:3])
                    assert y.asnumpy()[b, i, j, ch] == win[b, a[0], a[1], ch]
                    g_ref[b, r[i] + a[0], c[j] + a[1], ch] += 1
    op = ops.FractionalMaxPool([1.0, 1.5, 2.0, 1.0], overlapping=True, deterministic=True, seed=5)
    np.testing.assert_allclose(ms.grad(lambda a: op(a)[0].sum())(ms.Tensor(x)).asnumpy(), g_ref)


def test_seeded_sequences_repeat():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 10, 10, 1)).astype(np.float32))
    op = ops.FractionalAvgPool([1.0, 1.6, 1.3, 1.0], deterministic=True, seed=2, seed2=3)
    a, b = op(x), op(x)
    for s, t in zip(a, b):
        np.testing.assert_array_equal(s.asnumpy(), t.asnumpy())
