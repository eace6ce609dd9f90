"""``reshard`` and ``Reshard``: ask for a tensor to be laid out over the devices as a ``Layout`` says.

MindSpore's auto-parallel compiler moves the tensor's slices between devices; over a group of one device (mskernel
runs one process) there is nothing to move, and MindSpore returns the tensor itself: ``reshard(tensor, layout)``
when the world group has one device, and ``Reshard``'s call always (its layouts are read by the compiler only).

Example:
    >>> import mskernel as ms
    >>> from mskernel.parallel import Layout
    >>> x = ms.Tensor([1.0, 2.0])
    >>> reshard(x, Layout((1,), ("dp",))("dp")) is x
    True
"""
from __future__ import annotations

from typing import Any, Tuple

from mskernel.common.tensor import Tensor
from mskernel.communication import management as _m
from mskernel.ops.primitive import Primitive
from mskernel.parallel import Layout

__all__ = ["reshard", "Reshard"]


def reshard(tensor: Tensor, layout: Layout) -> Tensor:
    """``tensor`` laid out as ``layout`` says; over one device, ``tensor`` itself.

    Example:
        >>> import mskernel as ms
        >>> print(reshard(ms.Tensor([3]), None))
        [3]
    """
    if _m.get_group_size() == 1:
        return tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Reshard takes in Tensor type as the first input param, but got: {type(tensor)}.")
    if not isinstance(layout, Layout):
        raise TypeError(f"Reshard only support type mindspore.parallel.Layout, but got: {type(layout)}.")
    raise RuntimeError("For 'reshard', a group of more than one device needs MindSpore's auto-parallel compiler; "
                       "mskernel runs one process")


def _strategy(strategy: Any, what: str) -> Tuple[Any, ...]:
    if not isinstance(strategy, tuple):
        raise TypeError(f"{what} must be tuple type, but got:{type(strategy)}")
    for each in strategy:
        if not isinstance(each, (tuple, Layout)):
            raise TypeError(f"The element of strategy must be tuple/Layout type, but got:{type(each)}")
    return tuple(each.to_dict() if isinstance(each, Layout) else each for each in strategy)


class Reshard(Primitive):
    """The primitive of :func:`reshard`: its call returns the tensor itself (the layouts are for a compiler).

    Example:
        >>> import mskernel as ms
        >>> from mskernel.parallel import Layout
        >>> lay = Layout((1,), ("dp",))("dp")
        >>> x = ms.Tensor([1.0]); Reshard((lay,), (lay,), ((1,),))(x) is x
        True
    """

    def __init__(self, in_layout: Tuple[Any, ...], out_layout: Tuple[Any, ...], in_strategy: Any) -> None:
        super().__init__("Reshard")
        self.add_prim_attr("in_layout", _strategy(in_layout, "in_strategy"))
        self.add_prim_attr("out_layout", _strategy(out_layout, "out_strategy"))
        self.in_layout, self.out_layout, self.in_strategy = in_layout, out_layout, in_strategy

    def __call__(self, tensor: Tensor) -> Tensor:
        return tensor
