"""``ConvertModelUtils`` and ``ModelThor``: a Model that trains with THOR (``mindspore.ConvertModelUtils``).

``ConvertModelUtils.convert_to_thor_model(model, network, ...)`` returns a ``ModelThor`` when ``optimizer``
is a THOR optimizer (:func:`mskernel.nn.thor`), else ``model`` unchanged. ``ModelThor`` trains in cycles of
``frequency`` steps: one step that refreshes the THOR statistics and inverses, then ``frequency - 1`` that
reuse them. ``ConvertNetUtils`` (:mod:`mskernel.nn.layer.thor_convert`) is re-exported here, as MindSpore's
``mindspore.train`` has it.

Example:
    >>> import mskernel as ms
    >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 2)])
    >>> opt = ms.nn.thor(net, ms.Tensor([0.1]), ms.Tensor([0.1]), 0.9, frequency=2)
    >>> model = ms.ConvertModelUtils.convert_to_thor_model(ms.Model(net), net, ms.nn.MSELoss(), opt)
    >>> type(model).__name__, model._frequency
    ('ModelThor', 2)
"""
from __future__ import annotations

from typing import Any

from mskernel import nn
from mskernel.nn.layer.thor_convert import ConvertNetUtils
from mskernel.train.model import Model

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]


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
    """Convert a Model into a THOR Model (:meth:`convert_to_thor_model`).

    Example:
        >>> import mskernel as ms
        >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 2)])
        >>> model = ms.Model(net, loss_fn=ms.nn.MSELoss(), optimizer=ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
        >>> ConvertModelUtils.convert_to_thor_model(model, net) is model  # not a THOR optimizer: unchanged
        True
    """

    @staticmethod
    def convert_to_thor_model(model: Any, network: Any, loss_fn: Any = None, optimizer: Any = None,
                              metrics: Any = None, amp_level: str = "O0", loss_scale_manager: Any = None,
                              keep_batchnorm_fp32: bool = False) -> Any:
        """A ``ModelThor`` for ``network`` when ``optimizer`` is THOR's, else ``model``.

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
