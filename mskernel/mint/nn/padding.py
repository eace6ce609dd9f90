"""``mindspore.mint.nn``'s padding layers (torch's): ``ConstantPad1d/2d/3d``, ``ZeroPad1d/2d/3d``,
``ReflectionPad1d/2d/3d`` and ``ReplicationPad1d/2d/3d``; ``padding`` is an int for every side or exactly
(left, right[, top, bottom[, front, back]]).

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> print(mint.nn.ZeroPad1d((1, 2))(ms.Tensor([[1.0, 2.0]])), mint.nn.ReflectionPad1d(1)(ms.Tensor([[1.0, 2.0]])))
    [[0. 1. 2. 0. 0.]] [[2. 1. 2. 1.]]
"""
from __future__ import annotations

from typing import Any, Tuple

from mskernel.common.tensor import Tensor
from mskernel.nn.cell import Cell
from mskernel.nn.layer.padding import _pairs, index_pad
from mskernel.ops._core import check_tensor

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d"]


def _padding(padding: Any, n: int, name: str) -> Tuple[int, ...]:
    if isinstance(padding, int) and not isinstance(padding, bool):
        return (padding,) * (2 * n)
    if isinstance(padding, (tuple, list)) and all(isinstance(p, int) for p in padding):
        if len(padding) != 2 * n:
            raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type must equal to {2 * n}, "
                             f"but got {len(padding)}.")
        return tuple(padding)
    raise ValueError(f"For '{name}', 'padding' must be integer or tuple/list of {2 * n} integers, but got {padding}.")


class _Pad(Cell):
    """Pads the last ``_N`` axes in numpy's ``_MODE`` (with ``value`` when constant)."""

    _N = 1
    _MODE = "constant"

    def __init__(self, padding: Any, value: Any = 0) -> None:
        super().__init__()
        self.padding = _padding(padding, self._N, type(self).__name__)
        if self._MODE == "constant":
            self.value = value

    def construct(self, input: Tensor) -> Tensor:
        x = check_tensor(input, type(self).__name__, "input")
        if x.ndim < self._N:
            raise ValueError(f"For '{type(self).__name__}', the input must have at least {self._N} dimensions, but "
                             f"got {x.ndim}.")
        return index_pad(x, _pairs(self.padding), self._MODE, getattr(self, "value", 0))


def _layer(name: str, n: int, mode: str, what: str, example: str, out: str, zero: bool = False) -> type:
    doc = (f"``mint.nn.{name}(padding{'' if zero or mode != 'constant' else ', value'})``: {what}.\n\n"
           f"Example:\n    >>> import mskernel as ms\n    >>> from mskernel import mint\n"
           f"    >>> print(mint.nn.{name}({example}))\n    {out}\n")
    body = {"_N": n, "_MODE": mode, "__doc__": doc, "__module__": __name__}
    if zero:
        body["__init__"] = lambda self, padding: _Pad.__init__(self, padding, 0)
    return type(name, (_Pad,), body)


_ROW = "ms.Tensor([[[1.0, 2.0]]])"
ConstantPad1d = _layer("ConstantPad1d", 1, "constant", "the last axis padded with ``value``",
                       f"(1, 0), 5.0)({_ROW}", "[[[5. 1. 2.]]]")
ConstantPad2d = _layer("ConstantPad2d", 2, "constant", "the last two axes padded with ``value``",
                       f"(1, 0, 0, 1), 5.0)({_ROW}", "[[[5. 1. 2.]\n      [5. 5. 5.]]]")
ConstantPad3d = _layer("ConstantPad3d", 3, "constant", "the last three axes padded with ``value``",
                       f"(0, 1, 0, 0, 0, 0), 5.0)({_ROW}", "[[[1. 2. 5.]]]")
ZeroPad1d = _layer("ZeroPad1d", 1, "constant", "the last axis padded with zeros", f"1)({_ROW}", "[[[0. 1. 2. 0.]]]",
                   zero=True)
ZeroPad2d = _layer("ZeroPad2d", 2, "constant", "the last two axes padded with zeros", f"(1, 0, 0, 0))({_ROW}",
                   "[[[0. 1. 2.]]]", zero=True)
ZeroPad3d = _layer("ZeroPad3d", 3, "constant", "the last three axes padded with zeros",
                   f"(1, 0, 0, 0, 0, 0))({_ROW}", "[[[0. 1. 2.]]]", zero=True)
ReflectionPad1d = _layer("ReflectionPad1d", 1, "reflect", "the last axis padded by its reflection",
                         f"1)({_ROW}", "[[[2. 1. 2. 1.]]]")
ReflectionPad2d = _layer("ReflectionPad2d", 2, "reflect", "the last two axes padded by their reflection",
                         f"(1, 1, 0, 0))({_ROW}", "[[[2. 1. 2. 1.]]]")
ReflectionPad3d = _layer("ReflectionPad3d", 3, "reflect", "the last three axes padded by their reflection",
                         f"(1, 0, 0, 0, 0, 0))({_ROW}", "[[[2. 1. 2.]]]")
ReplicationPad1d = _layer("ReplicationPad1d", 1, "edge", "the last axis padded by repeating its edges",
                          f"(2, 0))({_ROW}", "[[[1. 1. 1. 2.]]]")
ReplicationPad2d = _layer("ReplicationPad2d", 2, "edge", "the last two axes padded by repeating their edges",
                          f"(0, 1, 1, 0))({_ROW}", "[[[1. 2. 2.]\n      [1. 2. 2.]]]")
ReplicationPad3d = _layer("ReplicationPad3d", 3, "edge", "the last three axes padded by repeating their edges",
                          f"(0, 1, 0, 0, 0, 0))({_ROW}", "[[[1. 2. 2.]]]")
