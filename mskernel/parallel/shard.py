"""``shard`` and ``parameter_broadcast`` for one process: a group of one device has nothing to split or send.

MindSpore's ``shard(fn, in_strategy, ...)`` gives back ``fn`` itself when the world group has one device (and
otherwise a function its auto-parallel compiler splits over the devices); ``parameter_broadcast(net, layout)``
returns at once for a group of one (otherwise it all-reduces the redundant parameter copies from one rank). mskernel
runs one process, rank 0 of a group of 1, so both do what MindSpore does there.

Example:
    >>> import mskernel as ms
    >>> f = lambda x: x * 2
    >>> shard(f, in_strategy=((2, 1),)) is f
    True
"""
from __future__ import annotations

from typing import Any, Callable

from mskernel.communication import management as _m

__all__ = ["shard", "parameter_broadcast"]


def shard(fn: Callable, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> Callable:
    """``fn`` split over the devices by ``in_strategy``: over one device, ``fn`` itself.

    Example:
        >>> import mskernel as ms
        >>> print(shard(lambda x: x + 1, ((1,),))(ms.Tensor([1.0])))
        [2.]
    """
    if _m.get_group_size() == 1:
        return fn
    raise RuntimeError("For 'shard', a group of more than one device needs MindSpore's auto-parallel compiler; "
                       "mskernel runs one process")


def parameter_broadcast(net: Any, layout: Any, cur_rank: int = 0, initial_rank: int = 0) -> None:
    """Make every rank's redundant copies of ``net``'s parameters equal to one rank's: over one rank, nothing to do.

    Example:
        >>> from mskernel import nn
        >>> parameter_broadcast(nn.Dense(2, 2), {"weight": None}) is None
        True
    """
    if not layout or _m.get_group_size() <= 1:
        return None
    raise RuntimeError("For 'parameter_broadcast', a group of more than one rank needs peer processes; mskernel "
                       "runs one process")
