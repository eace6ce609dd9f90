"""``nn.LearningRateSchedule``: a Cell mapping ``global_step`` to a learning rate (the base; schedules derive).

Example:
    >>> import mskernel as ms
    >>> class Half(LearningRateSchedule):
    ...     def construct(self, global_step):
    ...         return 0.5 / (global_step + 1.0)
    >>> print(Half()(ms.Tensor([1.0])))
    [0.25]
"""
from __future__ import annotations

from mskernel.nn.cell import Cell

__all__ = ["LearningRateSchedule"]


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns the rate.

    Example:
        >>> isinstance(LearningRateSchedule(), Cell)
        True
    """
