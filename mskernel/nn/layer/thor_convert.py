"""``ConvertNetUtils``: converting a network's layers into THOR layers (``mindspore.ConvertNetUtils``).

``ConvertNetUtils().convert_to_thor_net(net)`` replaces, in place, each trainable ``nn.Dense``, ``nn.Conv2d``,
``nn.Embedding`` and ``nn.EmbeddingLookup`` of ``net`` (not those under a name containing "wide" or
"rpn_with_loss.rpn_convs_list.") by its THOR layer (:mod:`mskernel.nn.layer.thor_layer`), keeping the weights
and the parameter names. A converted Dense computes in float32, as on GPU: the CPU wheel casts it to float16
(its choice off GPU), after which its forward raises (a float16 input meets the float32 weight).

Example:
    >>> import mskernel as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(3, 2), ms.nn.ReLU()])
    >>> ConvertNetUtils().convert_to_thor_net(net)
    >>> type(net[0]).__name__, net[0].weight.name
    ('DenseThor', '0.weight')
"""
from __future__ import annotations

from typing import Any

from mskernel.nn.layer import basic, conv, conv_nd, embedding, normalization, pooling
from mskernel.nn.layer import thor_layer as tl

__all__ = ["ConvertNetUtils"]

_THOR = (tl.DenseThor, tl.Conv2dThor, tl.EmbeddingThor, tl.EmbeddingLookupThor)
_KEEP = (conv.Conv2dTranspose, conv.Conv1d, conv_nd.Conv1dTranspose, normalization.BatchNorm1d,
         normalization.GroupNorm, normalization.LayerNorm, normalization.BatchNorm2d, pooling.MaxPool2d)


def _convert_dense(cell: Any) -> tl.DenseThor:
    act = None
    if cell.activation_flag:
        act = type(cell.activation).__name__.lower()
        act = "fast_gelu" if act == "fastgelu" else act
    new = tl.DenseThor(cell.in_channels, cell.out_channels, weight_init=cell.weight, has_bias=cell.has_bias,
                       bias_init="zeros", activation=act)
    if cell.has_bias:
        new.bias = cell.bias
    return new


def _convert_embedding(cell: Any) -> tl.EmbeddingThor:
    new = tl.EmbeddingThor(cell.vocab_size, cell.embedding_size, use_one_hot=False)
    new.embedding_table = cell.embedding_table
    return new


def _convert_embedding_lookup(cell: Any) -> tl.EmbeddingLookupThor:
    new = tl.EmbeddingLookupThor(cell.vocab_size, cell.embedding_size, target=cell.target, sparse=cell.sparse)
    new.embedding_table = cell.embedding_table
    return new


def _convert_conv2d(cell: Any) -> tl.Conv2dThor:
    return tl.Conv2dThor(cell.in_channels, cell.out_channels, kernel_size=cell.kernel_size[0], stride=cell.stride,
                         padding=cell.padding, pad_mode=cell.pad_mode, has_bias=cell.has_bias,
                         weight_init=cell.weight)


class ConvertNetUtils:
    """Convert a network's layers to THOR layers, which compute and keep the second-order statistics.

    Example:
        >>> import mskernel as ms
        >>> convert_net_utils = ms.train.ConvertNetUtils()
    """

    def __init__(self) -> None:
        #: the layer classes converted, each with its converter (an extension point)
        self._convert_method_map = {basic.Dense: _convert_dense, embedding.Embedding: _convert_embedding,
                                    conv.Conv2d: _convert_conv2d, embedding.EmbeddingLookup: _convert_embedding_lookup}

    @staticmethod
    def _need_change(cell: Any, prefix: str) -> bool:
        if isinstance(cell, (basic.Dense, conv.Conv2d)) and cell.weight.requires_grad:
            low = prefix.lower()
            return "rpn_with_loss.rpn_convs_list." not in low and "wide" not in low
        return isinstance(cell, (embedding.Embedding, embedding.EmbeddingLookup)) and cell.embedding_table.requires_grad

    def _convert(self, net: Any, prefix: str) -> None:
        changed = False
        for name, cell in list(net.name_cells().items()):
            path = f"{prefix}.{name}" if prefix else name
            if cell is net or isinstance(cell, _THOR + _KEEP):
                continue
            convert = self._convert_method_map.get(type(cell))
            if convert is not None:
                if self._need_change(cell, path):
                    new = convert(cell)
                    new.update_parameters_name(path + ".")
                    net._cells[name] = new
                    changed = True
            else:
                self._convert(cell, path)
        if changed and hasattr(net, "cell_list"):
            net.cell_list = list(net.cells())

    def convert_to_thor_net(self, net: Any) -> None:
        """Convert ``net`` in place (called by :func:`mskernel.nn.thor`).

        Example:
            >>> import mskernel as ms
            >>> net = ms.nn.SequentialCell([ms.nn.Embedding(5, 2)])
            >>> ConvertNetUtils().convert_to_thor_net(net); type(net[0]).__name__
            'EmbeddingThor'
        """
        self._convert(net, "")
