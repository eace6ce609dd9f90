"""``nn.AdaFactor``: Adafactor (Shazeer & Stern, 2018) as MindSpore writes it: the second moment of a matrix kept
factored (a row and a column average), a relative step size ``min(1e-2, 1 / sqrt(step))`` unless a learning rate is
given, the update's RMS clipped to ``clip_threshold``, scaled by the parameter's RMS (``scale_parameter``), an
optional first moment (``beta1``) and weight decay. The gradients are used as given (no loss scale, no decay
filter), as MindSpore's AdaFactor does.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([[1.0, -2.0], [0.5, 3.0]]), name="w")
    >>> opt = nn.AdaFactor([w])
    >>> _ = opt((ms.Tensor([[0.5, -1.0], [2.0, 0.1]]),)); print(w.asnumpy(), opt.exp_avg_sq_row[0].name)
    [[ 0.99921066 -1.9967617 ]
     [ 0.4982372   2.9998193 ]] exp_avg_sq_row_w
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.nn.optim._checks import of_type
from mskernel.nn.optim.optimizer import Optimizer
from mskernel.ops.table import optim_fused as rules

__all__ = ["AdaFactor"]

_F = np.float32


def _non_negative(name: str, value: float) -> None:
    if value < 0:
        raise ValueError(f"For 'AdaFactor', the '{name}' must be float and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")


class AdaFactor(Optimizer):
    """``nn.AdaFactor(params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8, beta1=0.9,
    weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False, compression=False,
    loss_scale=1.0)``: arithmetic in float32, the parameter written back in its dtype.

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> opt = AdaFactor([w], learning_rate=0.1, relative_step=False, scale_parameter=False, beta1=0.0)
        >>> _ = opt((ms.Tensor([1.0, -1.0]),)); print(w.asnumpy())
        [0.9 2.1]
    """

    def __init__(self, params: Any, learning_rate: Any = None, eps: Sequence[float] = (1e-30, 1e-3),
                 clip_threshold: float = 1.0, decay_rate: float = 0.8, beta1: Any = 0.9, weight_decay: float = 0.0,
                 scale_parameter: bool = True, relative_step: bool = True, warmup_init: bool = False,
                 compression: bool = False, loss_scale: float = 1.0) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        self.scale_lr = learning_rate is None or isinstance(learning_rate, (float, int))
        super().__init__(0.0 if learning_rate is None else learning_rate, params, weight_decay, loss_scale)
        of_type("AdaFactor", "eps", eps, (list, tuple))
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, e in enumerate(eps):
            of_type("AdaFactor", f"eps{i}", e, (float,))
            _non_negative(f"eps{i}", e)
        of_type("AdaFactor", "clip_threshold", clip_threshold, (float,))
        _non_negative("clip_threshold", clip_threshold)
        of_type("AdaFactor", "decay_rate", decay_rate, (float,))
        if not 0 < decay_rate < 1:
            raise ValueError(f"For 'AdaFactor', the 'decay_rate' must be in range of (0, 1), but got {decay_rate} "
                             f"with type '{type(decay_rate).__name__}'.")
        if not 0 <= weight_decay < 1:
            raise ValueError(f"For 'AdaFactor', the 'weight_decay' must be in range of [0, 1), but got "
                             f"{weight_decay} with type '{type(weight_decay).__name__}'.")
        for name, v in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                        ("compression", compression)):
            of_type("AdaFactor", name, v, (bool,))
        beta1 = 0.0 if beta1 is None else beta1
        of_type("AdaFactor", "beta1", beta1, (int, float))
        _non_negative("beta1", float(beta1))
        self.eps, self.clip_threshold, self.decay_rate = (float(eps[0]), float(eps[1])), clip_threshold, decay_rate
        self.beta1, self.wd = float(beta1), float(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step, self.warmup_init, self.compression = relative_step, warmup_init, compression
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._state("exp_avg")
        rows, cols, sqs = [], [], []
        for p in self._parameters:
            dt, shape = p._data.dtype, tuple(p.shape)
            factored = len(shape) > 1
            rows.append(Parameter(Tensor(np.zeros(shape[:-1] if factored else (1,), dt)),
                                  name=f"exp_avg_sq_row_{p.name}"))
            cols.append(Parameter(Tensor(np.zeros(shape[:-2] + shape[-1:] if factored else (1,), dt)),
                                  name=f"exp_avg_sq_col_{p.name}"))
            sq_dt = np.float16 if compression and not factored else dt
            sqs.append(Parameter(Tensor(np.zeros((1,) if factored else shape, sq_dt)), name=f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row, self.exp_avg_sq_col = ParameterTuple(rows), ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(sqs)
        self.step = Parameter(Tensor(np.zeros(1, _F)), name="afactor_step")

    def begin_step(self, step: int) -> None:
        self.step._data[...] = self.step._data + _F(1)

    def apply(self, i: int, param: Parameter, grad: np.ndarray, lr: float) -> None:
        s = _F(self.step._data[0])
        if self.scale_lr and self.relative_step:
            lr = np.minimum(_F(1e-6) * s if self.warmup_init else _F(1e-2), _F(1.0) / np.sqrt(s))
        beta2t = _F(1.0) - np.power(s, _F(-self.decay_rate))
        rules.adafactor_step(param._data, self.exp_avg[i]._data if self.use_first_moment else None,
                             self.exp_avg_sq_row[i]._data, self.exp_avg_sq_col[i]._data, self.exp_avg_sq[i]._data,
                             np.asarray(grad), _F(lr), self.eps, self.clip_threshold, self.beta1, beta2t, self.wd,
                             self.scale_parameter)
