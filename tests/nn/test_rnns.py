"""Recurrent layers' gradients against float64 central differences taken here by perturbing inputs and
parameters (the wheel's values and gradients are in tests/golden/cases/nn_recurrent.py; differences share no code
with the engine's backward), and ``seq_length``'s masking against a numpy recurrence."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from layer_gradients import check_against_differences

CASES = [(nn.LSTM, {}), (nn.GRU, {"bidirectional": True}), (nn.RNN, {"num_layers": 2, "nonlinearity": "relu"}),
         (nn.LSTM, {"num_layers": 2, "bidirectional": True, "batch_first": True})]


def _setup(cls, kwargs):
    rng = np.random.default_rng(0)
    net = cls(3, 4, dtype=ms.float64, **kwargs)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor(rng.standard_normal(p.shape) * 0.4))
    first = kwargs.get("batch_first")
    x = rng.standard_normal((2, 5, 3) if first else (5, 2, 3))
    width = 4 * (2 if kwargs.get("bidirectional") else 1)
    weight = ms.Tensor(rng.standard_normal((2, 5, width) if first else (5, 2, width)))
    lengths = ms.Tensor(np.array([5, 3], np.int32))
    return net, x, lambda a: (net(a, None, lengths)[0] * weight).sum()


@pytest.mark.parametrize("cls, kwargs", CASES, ids=lambda c: getattr(c, "__name__", str(c)))
def test_input_and_parameter_gradients_match_central_differences(cls, kwargs):
    net, x, loss = _setup(cls, kwargs)
    check_against_differences(net, x, loss)


def test_seq_length_stops_each_sequence_and_the_reverse_direction_starts_at_its_end():
    # numpy recurrence of a 1-unit tanh RNN with every weight 0.5 and no bias
    net = nn.RNN(1, 1, has_bias=False, bidirectional=True)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor(np.full(p.shape, 0.5, np.float32)))
    x = np.arange(1, 9, dtype=np.float32).reshape(4, 2, 1) / 8
    lengths = [4, 2]
    out, h = net(ms.Tensor(x), None, ms.Tensor(np.array(lengths, np.int32)))
    for b, n in enumerate(lengths):
        fwd, state = [], 0.0
        for t in range(n):
            state = np.tanh(0.5 * x[t, b, 0] + 0.5 * state)
            fwd.append(state)
        bwd, back = [0.0] * n, 0.0
        for t in reversed(range(n)):
            back = np.tanh(0.5 * x[t, b, 0] + 0.5 * back)
            bwd[t] = back
        want = np.zeros((4, 2))
        want[:n, 0], want[:n, 1] = fwd, bwd
        np.testing.assert_allclose(out.asnumpy()[:, b, :], want, rtol=1e-6)
        np.testing.assert_allclose(h.asnumpy()[:, b, 0], [fwd[-1], bwd[0]], rtol=1e-6)


def test_bad_arguments_name_the_layer_and_the_argument():
    with pytest.raises(ValueError, match=r"For 'GRU', the 'num_layers' must be int and must > 0, but got '0'"):
        nn.GRU(3, 4, num_layers=0)
    with pytest.raises(ValueError, match=r"For 'LSTMCell', the 'input_size' must be int and must > 0, but got '2.0'"):
        nn.LSTMCell(2.0, 4)
    with pytest.raises(TypeError, match=r"For 'RNN', it takes at most 9 arguments, but got 10"):
        nn.RNN(*range(1, 11))
