"""The step shared by the torch-style optimizers: per group, the gradients (negated with ``maximize``, plus
``weight_decay * param`` where the rule decays them that way), then the rule's per-parameter update in the
parameter's dtype. A rule is a subclass defining ``update``; its state lives in Parameters (``exp_avg.<name>``, ...)
so that ``parameters_and_names`` lists it, as MindSpore's does.

Example:
    >>> import mskernel as ms
    >>> class Halve(StepOptimizer):
    ...     def update(self, i, group, p, g, lr):
    ...         p[...] = p / 2
    >>> w = ms.Parameter(ms.Tensor([4.0]), name="w")
    >>> _ = Halve([w], {"lr": 1.0})((ms.Tensor([0.0]),)); print(w.asnumpy())
    [2.]
"""
from __future__ import annotations

from typing import Any, Dict, Sequence

import numpy as np

from mskernel.common.parameter import Parameter, ParameterTuple
from mskernel.common.tensor import Tensor
from mskernel.experimental.optim.optimizer import Optimizer

__all__ = ["StepOptimizer"]


class StepOptimizer(Optimizer):
    """An :class:`Optimizer` whose step is ``update(i, group, param_array, grad_array, lr)`` per parameter.

    Class options: ``step_name`` (a step counter Parameter counted before the groups, or after them with
    ``count_after``), ``decay_grad`` (add ``weight_decay * param`` to the gradient), ``negate`` (``maximize``).

    Example:
        >>> import mskernel as ms
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> StepOptimizer([w], {"lr": 0.1}).slots("m")[0].name
        'm.w'
    """
    step_name = ""
    count_after = False
    decay_grad = True
    negate = True

    def __init__(self, params: Any, defaults: Dict[str, Any]) -> None:
        super().__init__(params, defaults)
        if self.step_name:
            setattr(self, self.step_name, Parameter(Tensor(np.int32(0)), name=self.step_name))

    def slots(self, prefix: str, init: Any = "zeros") -> ParameterTuple:
        """One state Parameter per parameter, named ``prefix.<name>``."""
        return self.parameters.clone(prefix=prefix, init=init)

    def scalar_slots(self, prefix: str, value: float) -> list:
        """One float32 scalar Parameter per parameter, named ``prefix_<name>``."""
        return [Parameter(Tensor(np.float32(value)), name=f"{prefix}_{p.name}") for p in self.parameters]

    @property
    def step_count(self) -> int:
        return int(getattr(self, self.step_name)._data) if self.step_name else 0

    def _count(self) -> None:
        counter = getattr(self, self.step_name)._data
        counter[...] = counter + np.int32(1)

    def construct(self, gradients: Sequence[Any]) -> bool:
        if self.step_name and not self.count_after:
            self._count()
        for gid, group in enumerate(self.param_groups):
            lr = np.float32(self.lrs[gid]._data)
            for i in self.group_slice(gid):
                param = self.parameters[i]
                p = param._data
                grad = gradients[i]
                g = np.array(grad.asnumpy() if isinstance(grad, Tensor) else grad, dtype=p.dtype)
                if self.negate and group.get("maximize"):
                    g = -g
                wd = group.get("weight_decay", 0.0)
                if self.decay_grad and wd != 0.0:
                    g = p * p.dtype.type(wd) + g
                self.update(i, group, p, g, lr)
        if self.step_name and self.count_after:
            self._count()
        return True

    def update(self, i: int, group: Dict[str, Any], p: np.ndarray, g: np.ndarray, lr: np.float32) -> None:
        raise NotImplementedError
