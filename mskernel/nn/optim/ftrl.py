"""``nn.FTRL``: follow-the-regularized-leader, the update of the ``ApplyFtrl`` primitive
(:mod:`mskernel.ops.table.optim_apply`) as MindSpore's CPU kernel computes it, one step per call; state Parameters
``moments.<name>`` (starting at ``initial_accum``) and ``linear.<name>``. Every parameter is decayed (MindSpore's
FTRL does not filter out ``beta``/``gamma``).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    >>> opt = nn.FTRL([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5, -1.0]),)); print(w.asnumpy(), opt.moments[0].name)
    [ 0.3809621 -1.301631 ] moments.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.nn.optim._checks import at_least, of_type, positive_float
from mskernel.nn.optim.optimizer import Optimizer
from mskernel.ops.table import optim_apply as rules

__all__ = ["FTRL"]


class FTRL(Optimizer):
    """``nn.FTRL(params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0, use_locking=False,
    loss_scale=1.0, weight_decay=0.0)``: the learning rate is one positive float (no schedule, no group rates).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = FTRL([w], learning_rate=0.5, l2=0.1)((ms.Tensor([1.0]),)); print(w.asnumpy())
        [0.20245406]
    """

    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: Any = 0.001, lr_power: float = -0.5,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        group_lr = any(g is not None for g in self._group_lr)
        if self._lr_kind != "fixed" or group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not supported "
                             f"in FTRL, they should all be false, but got dynamic learning rate "
                             f"{self._lr_kind != 'fixed'} and group learning rate {group_lr}.")
        at_least("FTRL", "initial_accum", initial_accum, 0.0)
        of_type("FTRL", "learning_rate", learning_rate, (float,))
        positive_float("FTRL", "learning_rate", learning_rate)
        of_type("FTRL", "lr_power", lr_power, (float,))
        if not lr_power <= 0.0:
            raise ValueError(f"For 'FTRL', the argument 'lr_power' must <= 0.0, but got {lr_power}.")
        self.l1 = at_least("FTRL", "l1", l1, 0.0)
        self.l2 = at_least("FTRL", "l2", l2, 0.0)
        of_type("FTRL", "use_locking", use_locking, (bool,))
        self.lr, self.lr_power, self.use_locking = float(learning_rate), float(lr_power), use_locking
        if not self.is_group:
            self._decay = [True] * len(self._decay)
        self.moments = self._state("moments", initial_accum)
        self.linear = self._state("linear")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        new = rules._ftrl_rule(param._data, self.moments[i]._data, self.linear[i]._data, g, t(lr), t(self.l1),
                               t(self.l2), t(self.lr_power), dense=True)
        self.moments[i]._data[...] = new["accum"]
        self.linear[i]._data[...] = new["linear"]
        param._data[...] = new["var"]
