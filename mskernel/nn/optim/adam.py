"""``nn.Adam``: MindSpore's Adam (its ``ApplyAdam`` kernel's update, bias corrections in the step size).

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, -1.0]), name="w")
    >>> opt = nn.Adam([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5, -2.0]),)); print(w.asnumpy(), opt.moment1[0].name)
    [ 0.90000075 -0.9000007 ] moment1.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    """``nn.Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False)``.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Adam([w], 0.01)((ms.Tensor([3.0]),)); print(w.asnumpy())
        [0.99000007]
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if set(kwargs) - {"use_lazy", "use_offload"}:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        for name, v, lo, hi in (("beta1", beta1, 0.0, 1.0), ("beta2", beta2, 0.0, 1.0)):
            if not lo < v < hi:
                raise ValueError(f"For 'Adam', the argument '{name}' must be in range (0.0, 1.0), but got {v}.")
        if eps <= 0:
            raise ValueError(f"For 'Adam', the argument 'eps' must be greater than 0.0, but got {eps}.")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.use_nesterov, self.use_amsgrad = use_nesterov, use_amsgrad
        # MindSpore's order (its checkpoints keep it): the beta powers, then the moments
        self.beta1_power = Parameter(Tensor(np.float32(1.0)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.float32(1.0)), name="beta2_power")
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        if use_amsgrad:
            self.vhat = self._state("vhat")

    def begin_step(self, step: int) -> None:
        self.beta1_power._data[...] = self.beta1_power._data * np.float32(self.beta1)
        self.beta2_power._data[...] = self.beta2_power._data * np.float32(self.beta2)

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param)
        t = param._data.dtype.type
        b1p, b2p = float(self.beta1_power._data.reshape(-1)[0]), float(self.beta2_power._data.reshape(-1)[0])
        lr_t = t(lr * np.sqrt(1 - b2p) / (1 - b1p))
        m, v = self.moment1[i]._data, self.moment2[i]._data
        m[...] = m + (g - m) * t(1 - self.beta1)
        v[...] = v + (g * g - v) * t(1 - self.beta2)
        denom_v = v
        if self.use_amsgrad:
            vh = self.vhat[i]._data
            vh[...] = np.maximum(vh, v)
            denom_v = vh
        if self.use_nesterov:
            upd = (m * t(self.beta1) + g * t(1 - self.beta1)) / (np.sqrt(denom_v) + t(self.eps))
        else:
            upd = m / (np.sqrt(denom_v) + t(self.eps))
        param._data[...] = param._data - lr_t * upd
