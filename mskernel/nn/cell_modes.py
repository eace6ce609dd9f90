"""The modes a Cell runs in, set on it and its sub-cells: training or prediction, gradients, precision, flags.

This module owns the keys of those modes: ``training`` and ``_phase`` (:meth:`~CellModesMixin.set_train`),
``requires_grad`` (:meth:`~CellModesMixin.set_grad`), ``mixed_precision_type`` (:meth:`~CellModesMixin.to_float`)
and ``_flags`` (:meth:`~CellModesMixin.add_flags`). ``training`` and ``mixed_precision_type`` are public
attributes: layers read ``self.training`` (dropout, batch norm) and a Cell's call reads
``mixed_precision_type`` to cast its inputs and outputs (:mod:`mskernel.nn.cell`). The recursive setters
reach the sub-cells through the tree's ``cells_and_names`` (:mod:`mskernel.nn.cell_tree`).

Example:
    >>> import mskernel as ms
    >>> net = ms.nn.Cell(); net.body = ms.nn.Cell()
    >>> net.set_train().body.training, net.phase, net.set_train(False).phase
    (True, 'train', 'predict')
"""
from __future__ import annotations

from typing import Any, Dict

from mskernel import dtype as mstype

__all__ = ["CellModesMixin"]


class CellModesMixin:
    """``set_train``, ``set_grad``, ``to_float`` and the flags of :class:`mskernel.nn.Cell`.

    Example:
        >>> import mskernel as ms
        >>> isinstance(ms.nn.Cell(), CellModesMixin)
        True
    """

    def _init_modes(self) -> None:
        """The defaults: not training, phase 'train', no gradients asked, the stored precision, no flags."""
        setup = object.__setattr__
        setup(self, "training", False)
        setup(self, "requires_grad", False)
        setup(self, "_phase", "train")
        setup(self, "mixed_precision_type", None)
        setup(self, "_flags", {})

    def add_flags(self, **flags: Any) -> "CellModesMixin":
        """Set attributes given as keyword flags on this cell.

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell().add_flags(my_flag=True).get_flags()
            {'my_flag': True}
        """
        self.__dict__["_flags"].update(flags)
        for key, value in flags.items():
            object.__setattr__(self, key, value)
        return self

    def add_flags_recursive(self, **flags: Any) -> "CellModesMixin":
        """:meth:`add_flags` on this cell and all sub-cells.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); c.add_flags_recursive(x=1).a.get_flags()
            {'x': 1}
        """
        for _, cell in self.cells_and_names():  # type: ignore[attr-defined]  # the tree's walk
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> Dict[str, Any]:
        """The flags set by :meth:`add_flags`.

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell().get_flags()
            {}
        """
        return self.__dict__["_flags"]

    @property
    def phase(self) -> str:
        """``'train'`` or ``'predict'`` (set by :meth:`set_train` on this cell only).

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell().set_train(False).phase
            'predict'
        """
        return self.__dict__["_phase"]

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the type of 'phase' must be str, but got {type(value).__name__}.")
        self.__dict__["_phase"] = value

    def set_train(self, mode: bool = True) -> "CellModesMixin":
        """Set ``training`` on this cell and its sub-cells; ``phase`` becomes 'train' or 'predict'.

        Example:
            >>> import mskernel as ms
            >>> c = ms.nn.Cell(); c.a = ms.nn.Cell(); c.set_train().a.training
            True
        """
        self.__dict__["_phase"] = "train" if mode else "predict"
        for _, cell in self.cells_and_names():  # type: ignore[attr-defined]
            object.__setattr__(cell, "training", mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> "CellModesMixin":
        """Set ``requires_grad`` of this cell (gradients are always available here).

        Example:
            >>> import mskernel as ms
            >>> ms.nn.Cell().set_grad().requires_grad
            True
        """
        object.__setattr__(self, "requires_grad", requires_grad)
        return self

    def to_float(self, dst_type: mstype.Type) -> "CellModesMixin":
        """Run this cell and its sub-cells in ``dst_type`` (float16, float32 or bfloat16): each call casts the
        cell's float Tensor inputs and outputs to it, and inside ``construct`` its float parameters read as
        ``dst_type`` (a differentiable cast; the parameters keep their dtype and get gradients in it).

        Example:
            >>> import mskernel as ms
            >>> class Id(ms.nn.Cell):
            ...     def construct(self, x):
            ...         return x
            >>> Id().to_float(ms.float16)(ms.Tensor([1.0])).dtype
            mindspore.float16
        """
        allowed = tuple(t for t in (mstype.float16, mstype.float32, getattr(mstype, "bfloat16", None)) if t)
        if dst_type not in allowed:
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        for _, cell in self.cells_and_names():  # type: ignore[attr-defined]
            object.__setattr__(cell, "mixed_precision_type", dst_type)
        return self
