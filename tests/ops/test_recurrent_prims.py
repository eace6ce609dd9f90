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
