"""``nn.Lamb``: layer-wise adaptive moments (You et al., 2019), as MindSpore documents it: Adam's bias-corrected
direction ``r = m_hat / (sqrt(v_hat) + eps)`` plus ``weight_decay * w``, scaled per parameter by the trust ratio
``||w|| / ||r + weight_decay * w||`` (1 where either norm is 0). MindSpore 2.10's CPU wheel has no kernel for its
``Lamb`` primitive ("Unsupported op [Lamb] on CPU"); this is the documented maths, in the parameter's dtype.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([3.0, -4.0]), name="w")
    >>> opt = nn.Lamb([w], learning_rate=0.1)
    >>> _ = opt((ms.Tensor([0.5, 1.0]),)); print(w.asnumpy(), opt.moments1[0].name)
    [ 2.6464467 -4.353554 ] lamb_m.w
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.nn.optim._checks import float_in, positive_float
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """``nn.Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``; weight decay applies
    to the parameters whose name has neither 'beta' nor 'gamma' (every parameter of a group with decay).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 0.0]), name="w")
        >>> _ = Lamb([w], 0.5, weight_decay=0.1)((ms.Tensor([2.0, 2.0]),)); print(w.asnumpy())
        [ 0.6300299 -0.3363364]
    """

    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-6,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = float_in("Lamb", "beta1", beta1)
        self.beta2 = float_in("Lamb", "beta2", beta2)
        self.eps = positive_float("Lamb", "eps", eps)
        self.moments1 = self._state("lamb_m")
        self.moments2 = self._state("lamb_v")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g = self.prepare_grad(i, grad, param, decay_in_rule=True)
        t = param._data.dtype.type
        step = t(self._step + 1)
        b1, b2 = t(self.beta1), t(self.beta2)
        m, v = self.moments1[i]._data, self.moments2[i]._data
        m[...] = b1 * m + (t(1) - b1) * g
        v[...] = b2 * v + (t(1) - b2) * g * g
        m_hat = m / (t(1) - np.power(b1, step))
        v_hat = v / (t(1) - np.power(b2, step))
        update = m_hat / (np.sqrt(v_hat) + t(self.eps))
        wd = self._decay_at(i, self._step)
        if wd is not None:
            update = update + wd.astype(t) * param._data
        w_norm = np.sqrt(np.sum(param._data * param._data))
        u_norm = np.sqrt(np.sum(update * update))
        ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else t(1)
        param._data[...] = param._data - t(lr) * t(ratio) * update
