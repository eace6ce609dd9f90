"""``nn.LazyAdam`` and ``nn.AdamOffload``: MindSpore's Adam variants for sparse gradients and for keeping the
optimizer's state on the host. With dense gradients (all mskernel gives) both take :class:`~mskernel.nn.Adam`'s
step; LazyAdam's laziness (only the rows a sparse gradient names move) is the ``FusedSparseLazyAdam`` primitive.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, -1.0]), name="w")
    >>> opt = nn.LazyAdam([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5, -2.0]),)); print(w.asnumpy(), opt.beta1_power.shape)
    [ 0.90000075 -0.9000007 ] (1,)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.optim._checks import float_in, of_type, positive_float
from mskernel.nn.optim.adam import Adam

__all__ = ["LazyAdam", "AdamOffload"]


class _DenseAdam(Adam):
    """Adam's step under a variant's name and argument checks (beta powers of shape (1,), as these variants hold
    them)."""

    def __init__(self, params: Any, learning_rate: Any, beta1: float, beta2: float, eps: float, use_locking: bool,
                 use_nesterov: bool, weight_decay: Any, loss_scale: float) -> None:
        cls = type(self).__name__
        float_in(cls, "beta1", beta1)
        float_in(cls, "beta2", beta2)
        positive_float(cls, "eps", eps)
        of_type(cls, "use_locking", use_locking, (bool,))
        of_type(cls, "use_nesterov", use_nesterov, (bool,))
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
        self.beta1_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta2_power")


class LazyAdam(_DenseAdam):
    """``nn.LazyAdam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = LazyAdam([w], 0.01)((ms.Tensor([3.0]),)); print(w.asnumpy())
        [0.99000007]
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        of_type("LazyAdam", "weight_dacay", weight_decay, (float,))  # sic: MindSpore's text
        if weight_decay < 0:
            raise ValueError(f"For 'LazyAdam', the 'weight_decay' must be non-negative float, but got {weight_decay}.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)


class AdamOffload(_DenseAdam):
    """``nn.AdamOffload(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``: on a CPU the state is already on the host.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = AdamOffload([w], 0.01)((ms.Tensor([3.0]),)); print(w.asnumpy())
        [0.99000007]
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
