"""``mint.optim.SGD``: torch's SGD, which is :class:`mskernel.nn.SGD`'s rule under torch's arguments.

Example:
    >>> import mskernel as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> opt = SGD([w], lr=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt((ms.Tensor([1.0]),))
    >>> print(w.asnumpy())
    [0.71]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.nn.optim.sgd import SGD as _NNSGD

__all__ = ["SGD"]

_GROUP_KEYS = {"params", "lr", "weight_decay"}


class SGD(_NNSGD):
    """``mint.optim.SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False)``:
    ``nn.SGD``'s step (momentum buffer the first gradient, then ``momentum * buf + (1 - dampening) * grad``;
    ``nesterov`` adds ``momentum * buf`` to the gradient) with torch's arguments: ``lr``, weight decay on every
    parameter (torch decays biases and norm weights too), ``maximize`` ascends. ``params`` is a list of
    Parameters or of groups (dicts with ``params`` and optionally ``lr`` and ``weight_decay``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> opt = SGD([w], lr=0.5, maximize=True)
        >>> _ = opt((ms.Tensor([1.0]),))
        >>> print(w.asnumpy())
        [1.5]
    """

    def __init__(self, params: Any, lr: float, momentum: float = 0, dampening: float = 0, weight_decay: float = 0,
                 nesterov: bool = False, *, maximize: bool = False) -> None:
        if not isinstance(lr, (int, float)) or isinstance(lr, bool) or lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        items = list(params)
        for group in items:
            if isinstance(group, dict) and set(group) - _GROUP_KEYS:
                raise ValueError(f"For 'SGD', mskernel's parameter groups take {sorted(_GROUP_KEYS)}, but a group "
                                 f"has {sorted(set(group) - _GROUP_KEYS)}.")
        super().__init__(items, float(lr), float(momentum), float(dampening), float(weight_decay), nesterov)
        self._decay = [True] * len(self._decay)
        self.maximize = maximize

    def prepare_grad(self, i: int, grad: np.ndarray, param: Parameter, decay_in_rule: bool = False) -> np.ndarray:
        return super().prepare_grad(i, -np.asarray(grad) if self.maximize else grad, param, decay_in_rule)
