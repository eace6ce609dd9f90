"""``ConvertNetUtils``, ``ConvertModelUtils`` and ``ModelThor``: turning a network and a Model into THOR ones.

``ConvertNetUtils().convert_to_thor_net(net)`` replaces, in place, each trainable ``nn.Dense``, ``nn.Conv2d``,
``nn.Embedding`` and ``nn.EmbeddingLookup`` of ``net`` (not those under a name containing "wide" or
"rpn_with_loss.rpn_convs_list.") by its THOR layer, keeping the weights and the parameter names.
``ConvertModelUtils.convert_to_thor_model(model, network, ...)`` returns a :class:`ModelThor` when ``optimizer``
is a THOR optimizer, else ``model`` unchanged. ``ModelThor`` trains in cycles of ``frequency`` steps: one step
that refreshes the THOR statistics and inverses, then ``frequency - 1`` that reuse them.

Example:
    >>> import mskernel as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(3, 2), ms.nn.ReLU()])
    >>> ConvertNetUtils().convert_to_thor_net(net)
    >>> type(net[0]).__name__, net[0].weight.name
    ('DenseThor', '0.weight')
"""
from __future__ import annotations

from typing import Any

from mskernel import nn
from mskernel.nn.layer import thor_layer as tl
from mskernel.train.model import Model

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]

_THOR = (tl.DenseThor, tl.Conv2dThor, tl.EmbeddingThor, tl.EmbeddingLookupThor)
_KEEP = (nn.Conv2dTranspose, nn.Conv1d, nn.Conv1dTranspose, nn.BatchNorm1d, nn.GroupNorm, nn.LayerNorm,
         nn.BatchNorm2d, nn.MaxPool2d)


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
        self._convert_method_map = {nn.Dense: _convert_dense, nn.Embedding: _convert_embedding,
                                    nn.Conv2d: _convert_conv2d, nn.EmbeddingLookup: _convert_embedding_lookup}

    @staticmethod
    def _need_change(cell: Any, prefix: str) -> bool:
        if isinstance(cell, (nn.Dense, nn.Conv2d)) and cell.weight.requires_grad:
            low = prefix.lower()
            return "rpn_with_loss.rpn_convs_list." not in low and "wide" not in low
        return isinstance(cell, (nn.Embedding, nn.EmbeddingLookup)) and cell.embedding_table.requires_grad

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


class ModelThor(Model):
    """A :class:`~mskernel.train.Model` whose training alternates one THOR step with ``frequency - 1`` steps
    reusing its inverses (the optimizer's ``get_frequency()``)."""

    def __init__(self, network: Any, loss_fn: Any = None, optimizer: Any = None, metrics: Any = None,
                 eval_network: Any = None, eval_indexes: Any = None, amp_level: str = "O0", **kwargs: Any) -> None:
        super().__init__(network, loss_fn, optimizer, metrics, eval_network, eval_indexes, amp_level, **kwargs)
        opt = network.optimizer if isinstance(network, nn.TrainOneStepCell) else optimizer
        self._thor_opt = opt
        self._frequency = opt.get_frequency()
        self._thor_step = 0

    def _train_step(self, *args: Any, **kwargs: Any) -> None:
        flag = self._thor_step % self._frequency == 0
        self._thor_step += 1
        for cell in [self._thor_opt, *self._thor_opt.net.cells_and_names()]:
            cell = cell[1] if isinstance(cell, tuple) else cell
            if hasattr(cell, "thor"):
                cell.thor = flag
        super()._train_step(*args, **kwargs)


class ConvertModelUtils:
    """Convert a Model into a THOR Model."""

    @staticmethod
    def convert_to_thor_model(model: Any, network: Any, loss_fn: Any = None, optimizer: Any = None,
                              metrics: Any = None, amp_level: str = "O0", loss_scale_manager: Any = None,
                              keep_batchnorm_fp32: bool = False) -> Any:
        """A :class:`ModelThor` for ``network`` when ``optimizer`` is THOR's, else ``model``.

        Example:
            >>> import mskernel as ms
            >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 2)])
            >>> opt = ms.nn.thor(net, ms.Tensor([0.1]), ms.Tensor([0.1]), 0.9, frequency=2)
            >>> loss = ms.nn.MSELoss()
            >>> model = ms.Model(net, loss_fn=loss, optimizer=opt)
            >>> type(ConvertModelUtils.convert_to_thor_model(model, net, loss, opt)).__name__
            'ModelThor'
        """
        if type(optimizer).__name__ in ("ThorAscend", "ThorGpu"):
            if isinstance(network, nn.TrainOneStepCell):
                return ModelThor(network=network)
            return ModelThor(network=network, loss_fn=loss_fn, optimizer=optimizer, amp_level=amp_level,
                             loss_scale_manager=loss_scale_manager, keep_batchnorm_fp32=keep_batchnorm_fp32,
                             metrics=metrics)
        return model
