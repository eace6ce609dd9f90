"""``nn.Rprop``: resilient backpropagation, as MindSpore's: each element's step size grows by ``etaplus`` while
its gradient keeps its sign and shrinks by ``etaminus`` when it flips (that element then rests one step),
clipped to ``step_sizes``; the parameter moves by the step size against the gradient's sign.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([1.0, -2.0]), name="w")
    >>> opt = nn.Rprop([w], learning_rate=0.1)
    >>> for g in ([0.5, -1.0], [0.5, 1.0]):
    ...     _ = opt((ms.Tensor(g),))
    >>> print(w.asnumpy(), opt.step_size[0].asnumpy())
    [ 0.78 -1.9 ] [0.12 0.05]
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.nn.optim._checks import float_in, of_type
from mskernel.nn.optim.optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """``nn.Rprop(params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.), weight_decay=0.)``; the
    step sizes start at the learning rate (float32 arithmetic, float16 for a float16 parameter).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> _ = Rprop([w], learning_rate=0.25)((ms.Tensor([-3.0]),)); print(w.asnumpy())
        [1.25]
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: Tuple[float, float] = (0.5, 1.2),
                 step_sizes: Tuple[float, float] = (1e-6, 50.), weight_decay: Any = 0.) -> None:
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got {len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal step size, but got "
                             f"{step_sizes[0]} > {step_sizes[1]}.")
        float_in("Rprop", "etaminus", etas[0])
        of_type("Rprop", "etaplus", etas[1], (float,))
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        of_type("Rprop", "min_step_sizes", step_sizes[0], (float,))
        of_type("Rprop", "max_step_sizes", step_sizes[1], (float,))
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._state("prev")
        self.step_size = self._state("step_size")

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        g0 = self.prepare_grad(i, grad, param)
        ct = param._data.dtype.type if param._data.dtype == np.float16 else np.float32
        prev, size = self.prev[i]._data, self.step_size[i]._data
        ss = np.full(size.shape, ct(lr), ct) if self._step == 0 else size.astype(ct)
        g = g0.astype(ct)
        sign = np.sign(g * prev.astype(ct))
        sign = np.where(sign > 0, ct(self.etaplus), sign)
        sign = np.where(sign < 0, ct(self.etaminus), sign)
        sign = np.where(sign == 0, ct(1.0), sign).astype(ct)
        ss = np.clip(ss * sign, ct(self.step_size_min), ct(self.step_size_max)).astype(ct)
        update = np.where(sign == ct(self.etaminus), ct(0.0), g).astype(ct)
        param._data[...] = (param._data.astype(ct) - np.sign(update) * ss).astype(param._data.dtype)
        prev[...] = update
        size[...] = ss
