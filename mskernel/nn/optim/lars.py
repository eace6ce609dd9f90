"""``nn.LARS(optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=...)``: layer-wise
adaptive rate scaling around another optimizer.

For each parameter the filter keeps (by default those whose name has no 'LayerNorm' or 'bias'), the gradient
becomes ``trust * (g + wd * w)`` with ``trust = coefficient * |w| / (|g| + wd * |w| + epsilon)`` (clipped to
``min(trust / lr, 1)`` with ``use_clip``), and the wrapped optimizer then steps without weight decay. The CPU
wheel cannot run MindSpore's LARS (no LARSUpdate kernel), so this follows MindSpore's documented formula.

Example:
    >>> import mskernel as ms
    >>> from mskernel import nn
    >>> w = ms.Parameter(ms.Tensor([3.0, 4.0]), name="w")
    >>> opt = nn.LARS(nn.SGD([w], 1.0), coefficient=0.1)
    >>> _ = opt((ms.Tensor([0.0, 10.0]),)); print(w.asnumpy())
    [3.        3.5000005]
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell

__all__ = ["LARS"]


def _default_filter(p: Parameter) -> bool:
    return "LayerNorm" not in p.name and "bias" not in p.name


class LARS(Cell):
    """Wraps ``optimizer`` (its parameters, learning rate and weight decay) with LARS scaling.

    Example:
        >>> import mskernel as ms
        >>> from mskernel import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> LARS(nn.Momentum([w], 0.1, 0.9)).parameters[0] is w
        True
    """

    def __init__(self, optimizer: Any, epsilon: float = 1e-05, coefficient: float = 0.001, use_clip: bool = False,
                 lars_filter: Callable[[Parameter], bool] = _default_filter) -> None:
        super().__init__(auto_prefix=False)
        if not hasattr(optimizer, "_parameters"):
            raise TypeError(f"For 'LARS', the 'optimizer' must be an Optimizer, but got {type(optimizer).__name__}.")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip, self.lars_filter = epsilon, coefficient, use_clip, lars_filter
        self.weight_decay = list(optimizer._group_wd)
        self.decay_flags = list(optimizer._decay)
        optimizer._group_wd = [0.0] * len(optimizer._group_wd)  # LARS applies the decay itself
        # MindSpore's order, which its checkpoints keep: global_step, two placeholders of LARS's own (its
        # 'learning_rate' is a Parameter named 'fake_lr', then 'fake_param', both 0), the parameters, then the
        # wrapped optimizer's own state
        self.global_step = optimizer.global_step
        self.learning_rate = Parameter(Tensor(np.float32(0.0)), name="fake_lr")
        self.fake_param = Parameter(Tensor(np.float32(0.0)), name="fake_param")
        self.parameters = optimizer.parameters

    def construct(self, gradients: Any) -> Any:
        grads = tuple(gradients)
        step = int(self.opt.global_step._data[0])
        lrs = [self.opt._rate(i, step) for i in range(len(self.opt._group_lr))]
        new = []
        for i, (p, g) in enumerate(zip(self.opt.parameters, grads)):
            if g is None or not self.lars_filter(p):
                new.append(g)
                continue
            garr = np.asarray(g._data if isinstance(g, Tensor) else g, p._data.dtype)
            wd = self.weight_decay[i] if self.decay_flags[i] else 0.0
            if isinstance(wd, Cell):  # a weight-decay schedule: its value at this step
                wd = float(np.asarray(wd(Tensor(np.array([step], np.int32)))._data).reshape(-1)[0])
            w_norm, g_norm = float(np.linalg.norm(p._data)), float(np.linalg.norm(garr))
            trust = self.coefficient * w_norm / (g_norm + wd * w_norm + self.epsilon) if w_norm and g_norm else 1.0
            if self.use_clip:
                trust = min(trust / lrs[i], 1.0)
            new.append(Tensor._wrap((trust * (garr + wd * p._data)).astype(p._data.dtype)))
        return self.opt(tuple(new))

    def get_lr(self) -> Tensor:
        """The wrapped optimizer's current learning rate.

        Example:
            >>> import mskernel as ms
            >>> from mskernel import nn
            >>> float(LARS(nn.SGD([ms.Parameter(ms.Tensor([1.0]), name="w")], 0.5)).get_lr().asnumpy())
            0.5
        """
        return self.opt.get_lr()
