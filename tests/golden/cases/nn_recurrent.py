"""Recurrent layers and cells: nn.RNN, nn.GRU, nn.LSTM (layers, directions, batch_first, seq_length, initial
states) and nn.RNNCell, nn.GRUCell, nn.LSTMCell, with weights set from seeded random arrays: outputs, final
states, the gradients of the input, the initial state and every parameter, parameter names and shapes, reprs
and argument errors."""
# weights: every parameter set from the seeded generator in parameters_and_names order, so both sides agree
_SET = ("def load(net, scale=0.4):\n"
        "    np.random.seed(1)  # the same draws whatever building the net took from the generator\n"
        "    for _, p in net.parameters_and_names():\n"
        "        p.set_data(Tensor((np.random.randn(*p.shape) * scale).astype(np.float32)))\n"
        "    return net\n"
        "def names(net):\n"
        "    return [(n, tuple(p.shape)) for n, p in net.parameters_and_names()]\n")
_X = "x = Tensor(np.random.randn(5, 2, 3).astype(np.float32))\n"


def _layer(cls: str, kwargs: str, call: str, states: str, x: str = _X) -> str:
    """Run a layer; result: its outputs, then the gradients of a weighted sum of them with respect to the input,
    the initial state(s) given and every parameter."""
    return _SET + x + states + (
        f"net = load(nn.{cls}(3, 4{kwargs}))\n"
        f"run = lambda *a: {call}\n"
        "out = run(x, *hs)\n"
        "flat = lambda o: [t for t in (o if isinstance(o, (tuple, list)) else (o,)) for t in "
        "(t if isinstance(t, (tuple, list)) else (t,))]\n"
        "ws = [Tensor(np.random.randn(*t.shape).astype(np.float32)) for t in flat(out)]\n"
        "loss = lambda *a: sum((t * w).sum() for t, w in zip(flat(run(*a)), ws))\n"
        "grads = ms.grad(loss, tuple(range(1 + len(hs))), net.trainable_params())(x, *hs)\n"
        "result = (out, grads, names(net))")


_H1 = "hs = (Tensor(np.random.randn(1, 2, 4).astype(np.float32)),)\n"
_HC1 = ("hs = (Tensor(np.random.randn(1, 2, 4).astype(np.float32)), "
        "Tensor(np.random.randn(1, 2, 4).astype(np.float32)))\n")
_HC4 = ("hs = (Tensor(np.random.randn(4, 2, 4).astype(np.float32)), "
        "Tensor(np.random.randn(4, 2, 4).astype(np.float32)))\n")
_H4 = "hs = (Tensor(np.random.randn(4, 2, 4).astype(np.float32)),)\n"
_LEN = "n = Tensor(np.array([5, 3], np.int32))\n"
_BF = "x = Tensor(np.random.randn(2, 5, 3).astype(np.float32))\n"

CASES = {
    "lstm": _layer("LSTM", "", "net(a[0], (a[1], a[2]))", _HC1),
    "lstm_zero_state": _layer("LSTM", "", "net(a[0])", "hs = ()\n"),
    "lstm_two_layers_bidirectional": _layer("LSTM", ", num_layers=2, bidirectional=True",
                                            "net(a[0], (a[1], a[2]))", _HC4),
    "lstm_batch_first": _layer("LSTM", ", batch_first=True", "net(a[0])", "hs = ()\n", _BF),
    "lstm_seq_length": _layer("LSTM", "", "net(a[0], (a[1], a[2]), n)", _HC1 + _LEN),
    "lstm_seq_length_bidirectional": _layer("LSTM", ", num_layers=2, bidirectional=True",
                                            "net(a[0], (a[1], a[2]), n)", _HC4 + _LEN),
    "lstm_no_bias": _layer("LSTM", ", has_bias=False", "net(a[0], (a[1], a[2]))", _HC1),
    "gru": _layer("GRU", "", "net(a[0], a[1])", _H1),
    "gru_two_layers_bidirectional_seq_length": _layer("GRU", ", num_layers=2, bidirectional=True",
                                                      "net(a[0], a[1], n)", _H4 + _LEN),
    "rnn_tanh": _layer("RNN", "", "net(a[0], a[1])", _H1),
    "rnn_relu_two_layers": _layer("RNN", ", num_layers=2, nonlinearity='relu'", "net(a[0], a[1])",
                                  "hs = (Tensor(np.random.randn(2, 2, 4).astype(np.float32)),)\n"),
    "rnn_bidirectional_seq_length": _layer("RNN", ", bidirectional=True", "net(a[0], a[1], n)",
                                           "hs = (Tensor(np.random.randn(2, 2, 4).astype(np.float32)),)\n" + _LEN),
    "lstm_dropout_eval": _SET + _X + ("net = load(nn.LSTM(3, 4, num_layers=2, dropout=0.5))\nnet.set_train(False)\n"
                                      "ref = nn.LSTM(3, 4, num_layers=2)\n"
                                      "for (_, p), (_, q) in zip(net.parameters_and_names(), ref.parameters_and_names()):\n"
                                      "    q.set_data(p)\n"
                                      "result = (net(x), ref(x))"),
    "rnn_cell_tanh": _SET + _X + ("cell = load(nn.RNNCell(3, 4))\nh = Tensor(np.random.randn(2, 4).astype(np.float32))\n"
                                  "f = lambda a, b: (cell(a, b) ** 2).sum()\n"
                                  "result = (cell(x[0], h), ms.grad(f, (0, 1), cell.trainable_params())(x[0], h), names(cell))"),
    "rnn_cell_relu": _SET + _X + ("cell = load(nn.RNNCell(3, 4, nonlinearity='relu'))\n"
                                  "h = Tensor(np.random.randn(2, 4).astype(np.float32))\n"
                                  "f = lambda a, b: (cell(a, b) ** 2).sum()\n"
                                  "result = (cell(x[0], h), ms.grad(f, (0, 1), cell.trainable_params())(x[0], h))"),
    "gru_cell": _SET + _X + ("cell = load(nn.GRUCell(3, 4))\nh = Tensor(np.random.randn(2, 4).astype(np.float32))\n"
                             "f = lambda a, b: (cell(a, b) ** 2).sum()\n"
                             "result = (cell(x[0], h), ms.grad(f, (0, 1), cell.trainable_params())(x[0], h), names(cell))"),
    "lstm_cell": _SET + _X + ("cell = load(nn.LSTMCell(3, 4))\nh = Tensor(np.random.randn(2, 4).astype(np.float32))\n"
                              "c = Tensor(np.random.randn(2, 4).astype(np.float32))\n"
                              "f = lambda a, b, d: sum((t * t).sum() for t in cell(a, (b, d)))\n"
                              "result = (cell(x[0], (h, c)), ms.grad(f, (0, 1, 2), cell.trainable_params())(x[0], h, c),"
                              " names(cell))"),
    "cell_no_bias": _SET + "result = [names(c) for c in (nn.RNNCell(3, 4, has_bias=False), nn.GRUCell(3, 4, "
                           "has_bias=False), nn.LSTMCell(3, 4, has_bias=False))]",
    "layer_names": _SET + "result = [names(nn.GRU(3, 4, num_layers=2, bidirectional=True)), names(nn.RNN(2, 3, has_bias=False))]",
    "reprs": ("for c in (nn.LSTM(3, 4), nn.GRU(3, 4, num_layers=2), nn.RNN(3, 4, nonlinearity='relu'), nn.RNNCell(3, 4), "
              "nn.GRUCell(3, 4), nn.LSTMCell(3, 4)):\n    print(c)\nresult = None"),
    "init_range": ("net = nn.LSTM(3, 25)\n"
                   "result = [bool(np.abs(p.asnumpy()).max() <= 0.2) for _, p in net.parameters_and_names()]"),
    "lstm_2d_input": _X + "result = nn.LSTM(3, 4)(x[0])",
    "gru_2d_input": _X + "result = nn.GRU(3, 4)(x[0])",
    "rnn_cell_bad_nonlinearity": "result = nn.RNNCell(3, 4, nonlinearity='gelu')",
    "rnn_bad_nonlinearity": "result = nn.RNN(3, 4, nonlinearity='gelu')",
    "lstm_bad_dropout": "result = nn.LSTM(3, 4, dropout=1.5)",
    "lstm_bad_hidden": "result = nn.LSTM(3, 0)",
}

OPTIONS = {name: {"rtol": 1e-4, "atol": 1e-5} for name in CASES}
for _name in ("rnn_cell_bad_nonlinearity", "rnn_bad_nonlinearity", "lstm_bad_dropout", "lstm_bad_hidden"):
    OPTIONS[_name]["message"] = True
OPTIONS["lstm_2d_input"]["message"] = True
OPTIONS["gru_2d_input"].update(message_parts=["MatMul inputs should have the same dimension size and equal to 2."],
                               why="the wheel's text comes from the MatMul inside its GRU, with its C++ call stack")
