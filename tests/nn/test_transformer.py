"""Attention and transformer layers: multi-head attention against a numpy computation of its definition
(projections, heads, masks, weights), and gradients against float64 central differences (the wheel's values and
gradients are in tests/golden/cases/nn_attention.py)."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import nn
from layer_gradients import check_against_differences


def _load(net: nn.Cell, dtype=np.float64, seed: int = 0) -> nn.Cell:
    rng = np.random.default_rng(seed)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.3).astype(dtype)))
    net.set_train(False)
    return net


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_attention_is_its_definition_with_boolean_masks():
    net = _load(nn.MultiheadAttention(6, 3, dtype=ms.float64))
    rng = np.random.default_rng(1)
    q, kv = rng.standard_normal((4, 2, 6)), rng.standard_normal((5, 2, 6))
    causal = np.triu(np.ones((4, 5), bool), 2)
    pad = np.array([[False] * 5, [False] * 3 + [True] * 2])
    out, weights = net(ms.Tensor(q), ms.Tensor(kv), ms.Tensor(kv), key_padding_mask=ms.Tensor(pad),
                       attn_mask=ms.Tensor(causal), average_attn_weights=False)
    w, b = net.in_proj_weight.asnumpy(), net.in_proj_bias.asnumpy()
    proj = [x @ w[i * 6:(i + 1) * 6].T + b[i * 6:(i + 1) * 6] for i, x in enumerate((q, kv, kv))]
    heads = [p.reshape(p.shape[0], 2, 3, 2).transpose(1, 2, 0, 3) for p in proj]  # (batch, head, length, 2)
    scores = heads[0] @ heads[1].transpose(0, 1, 3, 2) / np.sqrt(2)
    scores = np.where(causal[None, None] | pad[:, None, None, :], -np.inf, scores)
    att = _softmax(scores)
    mixed = (att @ heads[2]).transpose(2, 0, 1, 3).reshape(4, 2, 6)
    want = mixed @ net.out_proj.weight.asnumpy().T + net.out_proj.bias.asnumpy()
    np.testing.assert_allclose(weights.asnumpy(), att, rtol=1e-12)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("make", [
    lambda: nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, kdim=3, vdim=3, dtype=ms.float64),
    lambda: nn.TransformerEncoderLayer(4, 2, 6, activation="gelu", norm_first=True, dtype=ms.float64),
    lambda: nn.TransformerDecoderLayer(4, 2, 6, dtype=ms.float64)], ids=["attention", "encoder_layer", "decoder_layer"])
def test_gradients_match_central_differences(make):
    net = _load(make())
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 2, 4))
    other = ms.Tensor(rng.standard_normal((5, 2, 3 if isinstance(net, nn.MultiheadAttention) else 4)))
    weight = ms.Tensor(rng.standard_normal((3, 2, 4)))
    pad = ms.Tensor(np.array([[False] * 5, [False] * 4 + [True]]))
    if isinstance(net, nn.MultiheadAttention):
        def loss(a):
            return (net(a, other, other, key_padding_mask=pad)[0] * weight).sum()
    elif isinstance(net, nn.TransformerDecoderLayer):
        def loss(a):
            return (net(a, other, memory_key_padding_mask=pad) * weight).sum()
    else:
        def loss(a):
            return (net(a, src_key_padding_mask=ms.Tensor(np.array([[False] * 3, [False, True, True]]))) * weight).sum()
    check_against_differences(net, x, loss)


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"'embed_dim' must be divisible by 'num_heads'"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(ValueError, match=r"The activation must be relu/gelu, but get tanh"):
        nn.TransformerDecoderLayer(4, 2, activation="tanh")
