"""The recurrent primitives against a float64 numpy recurrence written here: ops.LSTM with several layers and both
directions (the CPU wheel's oneDNN kernel runs only one layer, one direction)."""
import numpy as np
import pytest

import mskernel as ms
from mskernel import ops


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _lstm_ref(x, h0, c0, w, i_size, hidden, layers, bias, bidir):
    dirs = 2 if bidir else 1
    off, w_ih, w_hh, b = 0, [], [], []
    for layer in range(layers):
        ins = i_size if layer == 0 else hidden * dirs
        for _ in range(dirs):
            w_ih.append(w[off:off + 4 * hidden * ins].reshape(4 * hidden, ins))
            off += 4 * hidden * ins
    for _ in range(layers * dirs):
        w_hh.append(w[off:off + 4 * hidden * hidden].reshape(4 * hidden, hidden))
        off += 4 * hidden * hidden
    for _ in range(layers * dirs):
        b.append(w[off:off + 4 * hidden] if bias else np.zeros(4 * hidden))
        off += 4 * hidden if bias else 0
    assert off == w.size
    inp, hn, cn = x, [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            h, c = h0[k], c0[k]
            out = np.zeros(x.shape[:2] + (hidden,))
            for t in (range(x.shape[0]) if d == 0 else range(x.shape[0] - 1, -1, -1)):
                i, f, g, o = np.split(inp[t] @ w_ih[k].T + h @ w_hh[k].T + b[k], 4, -1)
                c = _sig(f) * c + _sig(i) * np.tanh(g)
                h = _sig(o) * np.tanh(c)
                out[t] = h
            outs.append(out)
            hn.append(h)
            cn.append(c)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(hn), np.stack(cn)


@pytest.mark.parametrize("layers, bias, bidir", [(2, True, True), (3, False, False), (1, True, True)])
def test_lstm_layers_and_directions(layers, bias, bidir):
    rng = np.random.default_rng(layers)
    i_size, hidden, dirs = 3, 4, 2 if bidir else 1
    n = sum(4 * hidden * ((i_size if k == 0 else hidden * dirs) + hidden + (1 if bias else 0)) * dirs
            for k in range(layers))
    x = rng.standard_normal((5, 2, i_size))
    h0, c0 = rng.standard_normal((2, layers * dirs, 2, hidden))
    w = rng.standard_normal(n) * 0.5
    out = ops.LSTM(i_size, hidden, layers, bias, bidir, 0.0)(ms.Tensor(x), ms.Tensor(h0), ms.Tensor(c0),
                                                              ms.Tensor(w.reshape(-1, 1, 1)))
    for got, want in zip(out[:3], _lstm_ref(x, h0, c0, w, i_size, hidden, layers, bias, bidir)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-12)


def test_lstm_too_few_weights():
    x = ms.Tensor(np.ones((2, 1, 3), np.float32))
    h = ms.Tensor(np.zeros((1, 1, 2), np.float32))
    with pytest.raises(ValueError, match="'w' must hold at least 48 elements"):
        ops.LSTM(3, 2, 1, True, False, 0.0)(x, h, h, ms.Tensor(np.ones((40, 1, 1), np.float32)))


# -- the NPU-form recurrences (no CPU kernel in the wheel): MindSpore's documented maths, gate columns i, j, f, o --
def _lstm_block(x, h, c, w, b, forget_bias):
    gates = np.concatenate([x, h], 1) @ w + b
    i, j, f, o = np.split(gates, 4, -1)
    i, j, f, o = _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)
    c = f * c + i * j
    return o * np.tanh(c), c, i, j, f, o, np.tanh(c)


def test_basic_lstm_cell():
    rng = np.random.default_rng(5)
    x, h, c = rng.standard_normal((3, 4)), rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    w, b = rng.standard_normal((6, 8)), rng.standard_normal(8)
    ct, ht, it, jt, ft, ot, tanhct = ops.BasicLSTMCell(forget_bias=0.5)(*(ms.Tensor(a) for a in (x, h, c, w, b)))
    h_ref, c_ref, i, j, f, o, tc = _lstm_block(x, h, c, w, b, 0.5)
    assert ht.dtype == ms.float16
    np.testing.assert_allclose(ht.asnumpy(), h_ref, rtol=1e-3, atol=1e-3)
    for got, want in zip((ct, it, jt, ft, ot, tanhct), (c_ref, i, j, f, o, tc)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)


def test_dynamic_rnn_and_its_gradient():
    rng = np.random.default_rng(6)
    x, w, b = rng.standard_normal((4, 2, 3)), rng.standard_normal((5, 8)) * 0.5, rng.standard_normal(8)
    h0, c0 = rng.standard_normal((1, 2, 2)), rng.standard_normal((1, 2, 2))
    outs = ops.DynamicRNN(forget_bias=1.0)(*(ms.Tensor(a) for a in (x, w, b)), None, ms.Tensor(h0), ms.Tensor(c0))
    h, c, ref = h0[0], c0[0], []
    for t in range(4):
        h, c, i, j, f, o, tc = _lstm_block(x[t], h, c, w, b, 1.0)
        ref.append((h, h, c, i, j, f, o, tc))
    for k, got in enumerate(outs):
        np.testing.assert_allclose(got.asnumpy(), np.stack([r[k] for r in ref]), rtol=1e-12)

    def loss(wv):
        h, c = h0[0], c0[0]
        for t in range(4):
            h, c, *_ = _lstm_block(x[t], h, c, wv, b, 1.0)
        return h.sum()

    g = ms.grad(lambda wt: ops.DynamicRNN(forget_bias=1.0)(ms.Tensor(x), wt, ms.Tensor(b), None, ms.Tensor(h0),
                                                           ms.Tensor(c0))[0][-1].sum())(ms.Tensor(w))
    eps, num = 1e-6, np.zeros_like(w)
    for idx in np.ndindex(w.shape):
        d = np.zeros_like(w)
        d[idx] = eps
        num[idx] = (loss(w + d) - loss(w - d)) / (2 * eps)
    np.testing.assert_allclose(g.asnumpy(), num, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("gate_order, reset_after", [("rzh", True), ("zrh", True), ("rzh", False)])
def test_dynamic_gru_v2(gate_order, reset_after):
    rng = np.random.default_rng(7)
    x, wi, wh = rng.standard_normal((3, 2, 4)), rng.standard_normal((4, 6)), rng.standard_normal((2, 6))
    bi, bh, h = rng.standard_normal(6), rng.standard_normal(6), rng.standard_normal((2, 2))
    outs = ops.DynamicGRUV2(gate_order=gate_order, reset_after=reset_after)(
        *(ms.Tensor(a) for a in (x, wi, wh, bi, bh)), None, ms.Tensor(h))
    first, second = (0, 1) if gate_order == "rzh" else (1, 0)
    blk = lambda a, k: a[..., 2 * k:2 * k + 2]  # noqa: E731
    ref = []
    for t in range(3):
        r = _sig(x[t] @ blk(wi, first) + blk(bi, first) + h @ blk(wh, first) + blk(bh, first))
        z = _sig(x[t] @ blk(wi, second) + blk(bi, second) + h @ blk(wh, second) + blk(bh, second))
        hn = h @ blk(wh, 2) + blk(bh, 2)
        inner = r * hn if reset_after else (r * h) @ blk(wh, 2) + blk(bh, 2)
        n = np.tanh(x[t] @ blk(wi, 2) + blk(bi, 2) + inner)
        h = (1 - z) * n + z * h
        ref.append((h, h, z, r, n, hn))
    for k, got in enumerate(outs):
        np.testing.assert_allclose(got.asnumpy(), np.stack([s[k] for s in ref]), rtol=1e-12)
