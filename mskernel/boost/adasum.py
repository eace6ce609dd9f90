"""``AdaSum``: adaptive summation of the weight updates of groups of ranks (a power of two of them).

The ranks are split into ``group_number`` groups of ``device_number``; at each of ``log2(group_number)``
rounds every rank swaps half its update with its partner group's and combines the halves by the AdaSum
rule (``(1 - a.b / 2|a|^2) a + (1 - a.b / 2|b|^2) b``), then the halves are gathered back and each
parameter becomes ``old - combined update``. Building it creates the communication groups it exchanges in,
which needs an initialised multi-process run: as in the CPU wheel, constructing it before ``init()``
raises ``RuntimeError: Distributed Communication has not been inited...``, and after ``init()`` (one
process here) only ``device_number=1, group_number=1`` builds (its update is ``old - delta``).

Example:
    >>> import mskernel as ms
    >>> AdaSum(0, 8, 2, (ms.Parameter(ms.Tensor([1.0]), name="w"),))
    Traceback (most recent call last):
    ...
    RuntimeError: Distributed Communication has not been inited.You can't invoke this interface yet. Please call `init()` method first.
"""  # noqa: E501
from __future__ import annotations

import math
from typing import Any, Sequence, Tuple

from mskernel.common.parameter import Parameter
from mskernel.common.tensor import Tensor
from mskernel.communication import management
from mskernel.nn.cell import Cell

__all__ = ["AdaSum"]


class AdaSum(Cell):
    """AdaSum over ``group_number`` groups of ``device_number`` ranks (see the module docstring).

    Inputs: ``delta_weights``, ``parameters``, ``old_parameters`` (tuples). Output: the parameters,
    each set to ``old - combined delta``.

    Example:
        >>> import mskernel as ms
        >>> from mskernel.communication import init, release
        >>> init()
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w"); old = ms.Parameter(ms.Tensor([3.0]), name="old")
        >>> out = AdaSum(0, 1, 1, (w,))((ms.Tensor([0.5]),), (w,), (old,)); print(w.asnumpy())
        [2.5]
        >>> release()
    """

    def __init__(self, rank: int, device_number: int, group_number: int, parameter_tuple: Sequence[Parameter]
                 ) -> None:
        super().__init__()
        self.rank = rank
        self.device_number = device_number
        self.group_number = group_number
        self.parameter_tuple = parameter_tuple
        self._generate_communication_op()

    def _generate_communication_op(self) -> None:
        """Create the exchange groups (every round's pair of group halves, then this group's broadcast group)."""
        if not management.GlobalComm.INITED:
            raise RuntimeError("Distributed Communication has not been inited.You can't invoke this interface yet. "
                               "Please call `init()` method first.")
        self.calc_times = int(math.log(self.group_number, 2))
        for step in range(self.calc_times):
            neighbours = []
            node_rank = self.rank // self.device_number
            span = 2 ** (step + 1)
            for index in range(span):
                neighbours.append((node_rank // span * span + index) * self.device_number
                                  + self.rank % self.device_number)
            management.create_group(f"adasum_{step}_{sum(neighbours)}", neighbours)
        start = (self.rank // self.device_number) * self.device_number
        management.create_group(f"broadcast_group_{start}", list(range(start, start + self.device_number)))

    def construct(self, delta_weights: Tuple[Tensor, ...], parameters: Tuple[Parameter, ...],
                  old_parameters: Tuple[Any, ...]) -> Tuple[Parameter, ...]:
        # one process builds only the single-group case: no exchange rounds, the update is the local delta
        for delta, param, old in zip(delta_weights, parameters, old_parameters):
            param.set_data(Tensor(old.asnumpy() - delta.asnumpy().reshape(old.shape)))
        return tuple(parameters)
