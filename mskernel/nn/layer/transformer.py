"""Attention and transformer layers: ``nn.MultiheadAttention``, ``nn.TransformerEncoderLayer``,
``nn.TransformerDecoderLayer``, ``nn.TransformerEncoder``, ``nn.TransformerDecoder`` and ``nn.Transformer``, as
MindSpore 2.10 has them, written with ops (the engine differentiates them).

Multi-head attention projects the query, key and value (one stacked ``in_proj_weight``, or ``q_proj_weight``,
``k_proj_weight``, ``v_proj_weight`` when ``kdim``/``vdim`` differ from ``embed_dim``), splits them into
``num_heads`` heads, scores ``q k^T / sqrt(head_dim)`` plus the masks, and mixes the values by the softmax of the
scores. A boolean mask hides the positions where it is True; a float mask is added to the scores.
``key_padding_mask`` is ``(batch, source)``; ``attn_mask`` is ``(target, source)`` or
``(batch * num_heads, target, source)``. ``add_bias_kv`` appends learned ``bias_k``/``bias_v`` to the keys and
values, ``add_zero_attn`` a zero key and value (the masks widen with them). The layer returns the output and
the attention weights, averaged over the heads unless ``average_attn_weights=False``; with
``need_weights=False`` it returns the 1-tuple ``(output,)``, as MindSpore 2.10 does.

The transformer layers are a self-attention block and a feed-forward block (and, in a decoder, an attention
block over the encoder's output), each added to its input, with LayerNorm after each block, or before it
(``norm_first``); dropout applies while training.

Example:
    >>> import numpy as np
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> attn = nn.MultiheadAttention(8, 2)
    >>> x = ms.Tensor(np.ones((5, 2, 8), np.float32))
    >>> out, weights = attn(x, x, x)
    >>> out.shape, weights.shape
    ((5, 2, 8), (2, 5, 5))
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable, Optional, Tuple, Union

from mskernel import dtype as mstype
from mskernel.common.initializer import XavierNormal, XavierUniform, initializer
from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.container import CellList
from mskernel.nn.layer.basic import Dense, Dropout
from mskernel.nn.layer.normalization import LayerNorm
from mskernel.ops import functional as F

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]


def _additive(mask: Optional[Tensor], dtype: Any) -> Optional[Tensor]:
    """A mask as a term added to the scores: booleans become ``-inf`` where True, floats stay as they are."""
    if mask is None:
        return None
    if mask.dtype == mstype.bool_:
        return F.masked_fill(F.zeros(mask.shape, dtype), mask, float("-inf"))
    return F.cast(mask, dtype)


def _pad_column(mask: Optional[Tensor]) -> Optional[Tensor]:
    """The mask with one more (unmasked) source position at the end."""
    if mask is None:
        return None
    return F.concat([mask, F.zeros(tuple(mask.shape[:-1]) + (1,), mask.dtype)], -1)


class MultiheadAttention(Cell):
    """``nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
    add_zero_attn=False, kdim=None, vdim=None, batch_first=False, dtype=mindspore.float32)``;
    ``attn(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True)`` returns ``(output, weights)``, or ``(output,)`` without the weights (see the
    module docstring).

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> attn = MultiheadAttention(4, 2, kdim=3, vdim=3, batch_first=True)
        >>> q, kv = ms.Tensor(np.ones((2, 5, 4), np.float32)), ms.Tensor(np.ones((2, 7, 3), np.float32))
        >>> (out,) = attn(q, kv, kv, need_weights=False)
        >>> out.shape
        (2, 5, 4)
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: Optional[int] = None,
                 vdim: Optional[int] = None, batch_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        self.dropout, self.batch_first, self.add_zero_attn = dropout, batch_first, add_zero_attn
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            name="in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            for name, width in (("q_proj_weight", embed_dim), ("k_proj_weight", self.kdim),
                                ("v_proj_weight", self.vdim)):
                setattr(self, name, Parameter(initializer(XavierUniform(), (embed_dim, width), dtype), name=name))
            self.in_proj_weight = None
        self.in_proj_bias = (Parameter(initializer("zeros", (3 * embed_dim,), dtype), name="in_proj_bias")
                             if has_bias else None)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), name="bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)

    def _project(self, x: Tensor, index: int) -> Tensor:
        e = self.embed_dim
        if self.in_proj_weight is not None:
            w = self.in_proj_weight[index * e:(index + 1) * e]
        else:
            w = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)[index]
        out = F.matmul(x, F.transpose(w, (1, 0)))
        return out if self.in_proj_bias is None else out + self.in_proj_bias[index * e:(index + 1) * e]

    def _heads(self, x: Tensor, batch: int) -> Tensor:
        """``(length, batch, embed)`` -> ``(batch * heads, length, head_dim)``."""
        return F.transpose(F.reshape(x, (x.shape[0], batch * self.num_heads, self.head_dim)), (1, 0, 2))

    def construct(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Optional[Tensor] = None,
                  need_weights: bool = True, attn_mask: Optional[Tensor] = None,
                  average_attn_weights: bool = True) -> Tuple[Tensor, ...]:
        if self.batch_first:
            query, key, value = (F.transpose(t, (1, 0, 2)) for t in (query, key, value))
        target, batch = query.shape[0], query.shape[1]
        q, k, v = self._project(query, 0), self._project(key, 1), self._project(value, 2)
        dtype = q.dtype
        attn_mask, key_padding_mask = _additive(attn_mask, dtype), _additive(key_padding_mask, dtype)
        if self.bias_k is not None:
            k = F.concat([k, F.tile(self.bias_k, (1, batch, 1))], 0)
            v = F.concat([v, F.tile(self.bias_v, (1, batch, 1))], 0)
            attn_mask, key_padding_mask = _pad_column(attn_mask), _pad_column(key_padding_mask)
        q, k, v = self._heads(q, batch), self._heads(k, batch), self._heads(v, batch)
        if self.add_zero_attn:
            zeros = F.zeros((batch * self.num_heads, 1, self.head_dim), dtype)
            k, v = F.concat([k, zeros], 1), F.concat([v, zeros], 1)
            attn_mask, key_padding_mask = _pad_column(attn_mask), _pad_column(key_padding_mask)
        source = k.shape[1]
        scores = F.matmul(q / math.sqrt(self.head_dim), F.transpose(k, (0, 2, 1)))
        if attn_mask is not None:
            scores = scores + (attn_mask if attn_mask.ndim == 3 else F.expand_dims(attn_mask, 0))
        if key_padding_mask is not None:
            scores = F.reshape(F.reshape(scores, (batch, self.num_heads, target, source))
                               + F.reshape(key_padding_mask, (batch, 1, 1, source)),
                               (batch * self.num_heads, target, source))
        weights = F.softmax(scores, -1)
        if self.training and self.dropout > 0:
            weights = F.dropout(weights, self.dropout, True)
        out = F.matmul(weights, v)  # (batch * heads, target, head_dim)
        out = F.reshape(F.transpose(out, (1, 0, 2)), (target, batch, self.embed_dim))
        out = self.out_proj(out)
        if self.batch_first:
            out = F.transpose(out, (1, 0, 2))
        if not need_weights:
            return (out,)  # as the wheel: a 1-tuple
        weights = F.reshape(weights, (batch, self.num_heads, target, source))
        return out, (F.mean(weights, 1) if average_attn_weights else weights)


ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu}


def _activation(activation: Union[str, Cell, Callable[..., Any]]) -> Callable[..., Any]:
    if isinstance(activation, str):
        if activation not in ACTIVATIONS:
            raise ValueError(f"The activation must be relu/gelu, but get {activation}")
        return ACTIVATIONS[activation]
    return activation


class _LayerBase(Cell):
    """The feed-forward block and the attention blocks shared by the encoder and decoder layers."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float,
                 activation: Union[str, Cell, Callable[..., Any]], layer_norm_eps: float, batch_first: bool,
                 norm_first: bool, dtype: Any, cross: bool) -> None:
        super().__init__()
        act = _activation(activation)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        if cross:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                     dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.norm_first = norm_first
        for i in range(1, 4 if cross else 3):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, 4 if cross else 3):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation = act

    def _attend(self, attn: MultiheadAttention, x: Tensor, memory: Tensor, mask: Optional[Tensor],
                padding: Optional[Tensor], drop: Dropout) -> Tensor:
        return drop(attn(x, memory, memory, key_padding_mask=padding, need_weights=False, attn_mask=mask)[0])

    def _feed_forward(self, x: Tensor, drop: Dropout) -> Tensor:
        return drop(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def _residual(self, x: Tensor, norm: LayerNorm, block: Callable[[Tensor], Tensor]) -> Tensor:
        return x + block(norm(x)) if self.norm_first else norm(x + block(x))


class TransformerEncoderLayer(_LayerBase):
    """``nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
    layer_norm_eps=1e-05, batch_first=False, norm_first=False, dtype=mindspore.float32)``;
    ``layer(src, src_mask=None, src_key_padding_mask=None)``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> TransformerEncoderLayer(8, 2, 16)(ms.Tensor(np.ones((5, 2, 8), np.float32))).shape
        (5, 2, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable[..., Any]] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, dtype, cross=False)

    def construct(self, src: Tensor, src_mask: Optional[Tensor] = None,
                  src_key_padding_mask: Optional[Tensor] = None) -> Tensor:
        x = self._residual(src, self.norm1, lambda h: self._attend(self.self_attn, h, h, src_mask,
                                                                   src_key_padding_mask, self.dropout1))
        return self._residual(x, self.norm2, lambda h: self._feed_forward(h, self.dropout2))


class TransformerDecoderLayer(_LayerBase):
    """``nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation='relu',
    layer_norm_eps=1e-05, batch_first=False, norm_first=False, dtype=mindspore.float32)``;
    ``layer(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)``.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> tgt, memory = ms.Tensor(np.ones((5, 2, 8), np.float32)), ms.Tensor(np.ones((7, 2, 8), np.float32))
        >>> TransformerDecoderLayer(8, 2, 16)(tgt, memory).shape
        (5, 2, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable[..., Any]] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, dtype, cross=True)

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                  memory_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                  memory_key_padding_mask: Optional[Tensor] = None) -> Tensor:
        x = self._residual(tgt, self.norm1, lambda h: self._attend(self.self_attn, h, h, tgt_mask,
                                                                   tgt_key_padding_mask, self.dropout1))
        x = self._residual(x, self.norm2, lambda h: self._attend(self.multihead_attn, h, memory, memory_mask,
                                                                 memory_key_padding_mask, self.dropout2))
        return self._residual(x, self.norm3, lambda h: self._feed_forward(h, self.dropout3))


class TransformerEncoder(Cell):
    """``nn.TransformerEncoder(encoder_layer, num_layers, norm=None)``: ``num_layers`` copies of the layer (each
    with its own parameters, named ``layers.N...``), then ``norm`` if given.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> enc = TransformerEncoder(TransformerEncoderLayer(8, 2, 16), 2)
        >>> enc(ms.Tensor(np.ones((5, 2, 8), np.float32))).shape, len(enc.trainable_params())
        ((5, 2, 8), 24)
    """

    def __init__(self, encoder_layer: Cell, num_layers: int, norm: Optional[Cell] = None) -> None:
        super().__init__()
        self.layers = CellList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def construct(self, src: Tensor, src_mask: Optional[Tensor] = None,
                  src_key_padding_mask: Optional[Tensor] = None) -> Tensor:
        out = src
        for layer in self.layers:
            out = layer(out, src_mask, src_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class TransformerDecoder(Cell):
    """``nn.TransformerDecoder(decoder_layer, num_layers, norm=None)``: ``num_layers`` copies of the layer, each
    attending to the same ``memory``, then ``norm`` if given.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> dec = TransformerDecoder(TransformerDecoderLayer(8, 2, 16), 2)
        >>> dec(ms.Tensor(np.ones((5, 2, 8), np.float32)), ms.Tensor(np.ones((7, 2, 8), np.float32))).shape
        (5, 2, 8)
    """

    def __init__(self, decoder_layer: Cell, num_layers: int, norm: Optional[Cell] = None) -> None:
        super().__init__()
        self.layers = CellList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt: Tensor, memory: Tensor, tgt_mask: Optional[Tensor] = None,
                  memory_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                  memory_key_padding_mask: Optional[Tensor] = None) -> Tensor:
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class Transformer(Cell):
    """``nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
    dropout=0.1, activation='relu', custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-05,
    batch_first=False, norm_first=False, dtype=mindspore.float32)``; ``net(src, tgt, src_mask=None,
    tgt_mask=None, memory_mask=None, src_key_padding_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None)`` encodes ``src`` and decodes ``tgt`` against it.

    Example:
        >>> import numpy as np
        >>> import mskernel as ms
        >>> net = Transformer(8, 2, 1, 1, 16)
        >>> net(ms.Tensor(np.ones((7, 2, 8), np.float32)), ms.Tensor(np.ones((5, 2, 8), np.float32))).shape
        (5, 2, 8)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable[..., Any]] = "relu", custom_encoder: Optional[Cell] = None,
                 custom_decoder: Optional[Cell] = None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        shared = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                  dtype)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*shared), num_encoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                                            dtype=dtype))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*shared), num_decoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                                            dtype=dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src: Tensor, tgt: Tensor, src_mask: Optional[Tensor] = None,
                  tgt_mask: Optional[Tensor] = None, memory_mask: Optional[Tensor] = None,
                  src_key_padding_mask: Optional[Tensor] = None, tgt_key_padding_mask: Optional[Tensor] = None,
                  memory_key_padding_mask: Optional[Tensor] = None) -> Tensor:
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
