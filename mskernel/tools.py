"""``mindspore.tools``: ``set_dump`` marks a Cell (with its sub-cells and their primitives) or a Primitive for
MindSpore's data dump, which only Ascend devices carry out; as the CPU wheel does, mskernel sets the marks and
warns that the current device does not dump.

Example:
    >>> import warnings
    >>> from mskernel import nn
    >>> net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     set_dump(net)
    >>> net[0].get_flags()["dump"]
    True
"""
from __future__ import annotations

import warnings
from typing import Any

from mskernel.context import get_context
from mskernel.nn.cell import Cell
from mskernel.ops.primitive import Primitive

__all__ = ["set_dump"]


def set_dump(target: Any, enabled: bool = True) -> None:
    """Mark ``target`` (a Cell, recursively, or a Primitive) to be dumped (``enabled``) or not. Only Ascend dumps:
    on another device_target this warns (once per cell marked), as MindSpore does, and keeps the marks in case
    the target changes.

    Example:
        >>> set_dump(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: The "target" parameter must be an instance of Cell or Primitive, but got an instance of <class...
    """
    if not isinstance(target, (Cell, Primitive)):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, but got an instance "
                         f"of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    current = get_context("device_target")
    if current != "Ascend":
        warnings.warn(f"Current device_target is {current}, which is not supported by set_dump. Only Ascend device "
                      f"target is supported currently. If you have Ascend device, consider set device_target to "
                      f"Ascend before calling set_dump.", stacklevel=2)
    if isinstance(target, Primitive):
        target.add_prim_attr("dump", "true" if enabled else "false")
        return
    target.add_flags(dump=enabled)
    for cell in target.cells():  # each sub-cell is set (and warned about) in turn, as MindSpore does
        set_dump(cell, enabled)
    for value in vars(target).values():
        if isinstance(value, Primitive) and "dump" in getattr(value, "attrs", {}):
            set_dump(value, enabled)
