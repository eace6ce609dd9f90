"""Attention and transformer layers: nn.MultiheadAttention (self and cross attention, other key/value widths,
masks, extra key/value biases and a zero attention slot, batch_first, the attention weights), the transformer
encoder and decoder layers (post- and pre-norm, relu and gelu) and their stacks, and nn.Transformer, with
weights set from seeded random arrays and dropout off: outputs, the gradients of the inputs and every
parameter, parameter names and shapes, reprs and argument errors."""
_SET = ("def load(net, scale=0.3):\n"
        "    np.random.seed(1)  # the same draws whatever building the net took from the generator\n"
        "    for _, p in net.parameters_and_names():\n"
        "        p.set_data(Tensor((np.random.randn(*p.shape) * scale).astype(np.float32)))\n"
        "    net.set_train(False)\n"
        "    return net\n"
        "def names(net):\n"
        "    return [(n, tuple(p.shape)) for n, p in net.parameters_and_names()]\n"
        "def flat(o):\n"
        "    return [t for t in (o if isinstance(o, (tuple, list)) else (o,)) if t is not None]\n"
        "def check(net, run, *inputs):\n"
        "    out = run(*inputs)\n"
        "    ws = [Tensor(np.random.randn(*t.shape).astype(np.float32)) for t in flat(out)]\n"
        "    loss = lambda *a: sum((t * w).sum() for t, w in zip(flat(run(*a)), ws))\n"
        "    return out, ms.grad(loss, tuple(range(len(inputs))), net.trainable_params())(*inputs), names(net)\n")
_Q = ("q = Tensor(np.random.randn(5, 2, 8).astype(np.float32))\n"
      "kv = Tensor(np.random.randn(7, 2, 8).astype(np.float32))\n")
_PAD = "pad = Tensor(np.array([[False] * 7, [False] * 4 + [True] * 3]))\n"
_CAUSAL = "causal = Tensor(np.triu(np.ones((5, 5), bool), 1))\n"


def _mha(kwargs: str, call: str, inputs: str, prelude: str = "") -> str:
    return _SET + _Q + prelude + f"net = load(nn.MultiheadAttention(8, 2{kwargs}))\nresult = check(net, lambda *a: {call}, {inputs})"


CASES = {
    "mha_self": _mha("", "net(a[0], a[0], a[0])", "q"),
    "mha_cross": _mha("", "net(a[0], a[1], a[1])", "q, kv"),
    "mha_key_padding_mask": _mha("", "net(a[0], a[1], a[1], key_padding_mask=pad)", "q, kv", _PAD),
    "mha_float_key_padding_mask": _mha("", "net(a[0], a[1], a[1], key_padding_mask=fpad)", "q, kv",
                                       "fpad = Tensor(np.random.randn(2, 7).astype(np.float32))\n"),
    "mha_causal_mask": _mha("", "net(a[0], a[0], a[0], attn_mask=causal)", "q", _CAUSAL),
    "mha_float_mask_3d": _mha("", "net(a[0], a[1], a[1], attn_mask=m3)", "q, kv",
                              "m3 = Tensor(np.random.randn(4, 5, 7).astype(np.float32))\n"),
    "mha_per_head_weights": _mha("", "net(a[0], a[1], a[1], average_attn_weights=False)", "q, kv"),
    "mha_no_weights": _mha("", "net(a[0], a[1], a[1], need_weights=False)", "q, kv"),
    "mha_kdim_vdim": _mha(", kdim=6, vdim=3", "net(a[0], a[1], a[2])", "q, k6, v3",
                          "k6 = Tensor(np.random.randn(7, 2, 6).astype(np.float32))\n"
                          "v3 = Tensor(np.random.randn(7, 2, 3).astype(np.float32))\n"),
    "mha_bias_kv_zero_attn": _mha(", add_bias_kv=True, add_zero_attn=True", "net(a[0], a[1], a[1], key_padding_mask=pad)",
                                  "q, kv", _PAD),
    "mha_no_bias_batch_first": _mha(", has_bias=False, batch_first=True", "net(a[0], a[1], a[1])", "qb, kb",
                                    "qb = Tensor(np.random.randn(2, 5, 8).astype(np.float32))\n"
                                    "kb = Tensor(np.random.randn(2, 7, 8).astype(np.float32))\n"),
    "encoder_layer": _SET + _Q + ("net = load(nn.TransformerEncoderLayer(8, 2, 16))\n"
                                  "result = check(net, lambda a: net(a), q)"),
    "encoder_layer_norm_first_gelu_masks": _SET + _Q + _CAUSAL + (
        "kp = Tensor(np.array([[False] * 5, [False] * 3 + [True] * 2]))\n"
        "net = load(nn.TransformerEncoderLayer(8, 2, 16, activation='gelu', norm_first=True))\n"
        "result = check(net, lambda a: net(a, src_mask=causal, src_key_padding_mask=kp), q)"),
    "encoder_stack": _SET + _Q + ("layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)\n"
                                  "net = load(nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm((8,))))\n"
                                  "result = check(net, lambda a: net(a), q)"),
    "decoder_layer": _SET + _Q + _CAUSAL + ("net = load(nn.TransformerDecoderLayer(8, 2, 16))\n"
                                            "result = check(net, lambda a, m: net(a, m, tgt_mask=causal), q, kv)"),
    "decoder_stack_norm_first": _SET + _Q + (
        "layer = nn.TransformerDecoderLayer(8, 2, 16, norm_first=True)\n"
        "net = load(nn.TransformerDecoder(layer, 2))\n"
        "result = check(net, lambda a, m: net(a, m), q, kv)"),
    "transformer": _SET + _Q + ("net = load(nn.Transformer(8, 2, 2, 1, 16))\n"
                                "result = check(net, lambda s, t: net(s, t), kv, q)"),
    "reprs": ("print(nn.MultiheadAttention(8, 2, kdim=6, vdim=3)); print(nn.TransformerEncoderLayer(8, 2, 16))\n"
              "print(nn.TransformerDecoderLayer(8, 2, 16, activation='gelu'))\n"
              "print(nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2))\nresult = None"),
    "names": _SET + ("result = [names(nn.MultiheadAttention(8, 2, add_bias_kv=True, kdim=6)), "
                     "names(nn.TransformerDecoderLayer(8, 2, 16)), names(nn.Transformer(8, 2, 1, 1, 16))]"),
    "mha_heads_do_not_divide": "result = nn.MultiheadAttention(8, 3)",
    "encoder_bad_activation": "result = nn.TransformerEncoderLayer(8, 2, 16, activation='swish')",
}

OPTIONS = {name: {"rtol": 1e-4, "atol": 1e-5} for name in CASES}
for _name in ("mha_heads_do_not_divide", "encoder_bad_activation"):
    OPTIONS[_name]["message"] = True
