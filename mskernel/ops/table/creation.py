"""Op table: tensors made from shapes and values (no gradient flows into them) — zeros, ones, fill, full,
arange, linspace, eye and their primitives.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.zeros((2,)), ops.ones_like(ms.Tensor([[1, 2]])), ops.fill(ms.float32, (2,), 3))
    [0. 0.] [[1 1]] [3. 3.]
    >>> print(ops.arange(5), ops.arange(0, 1, 0.25), ops.linspace(0, 1, 3), ops.eye(2, 3, ms.int32)[1])
    [0 1 2 3 4] [0.   0.25 0.5  0.75] [0.  0.5 1. ] [0 1 0]
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops import shape as S
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op


def _scalar(v: Any) -> Any:
    return v._data.item() if isinstance(v, Tensor) else v


def _value_dtype(v: Any) -> np.dtype:
    """The dtype MindSpore gives a tensor made from the Python value ``v``."""
    if isinstance(v, Tensor):
        return v._data.dtype
    if isinstance(v, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(v, (int, np.integer)):
        return np.dtype(np.int64)
    return np.dtype(np.float32)


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    """Values from ``start`` up to (not including) ``end`` by ``step``; Int64 for integers, Float32 otherwise.

    Example:
        >>> print(arange(5, 0, -2), arange(1, 6, 2, dtype=mstype.float32))
        [5 3 1] [1. 3. 5.]
    """
    if end is None:
        start, end = 0, start
    values = [_scalar(v) for v in (start, end, step)]
    if values[2] == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if dtype is not None:
        dt = mstype.to_dtype(dtype).np
    elif all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        dt = np.dtype(np.int64)
    else:
        dt = np.dtype(np.float32)
    return Tensor._wrap(np.arange(*values).astype(dt))


def linspace(start: Any, end: Any, steps: int) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (Float32).

    Example:
        >>> print(linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    steps = int(_scalar(steps))
    if steps < 1:
        raise ValueError(f"For 'LinSpace', 'steps' must be positive, but got {steps}.")
    return Tensor._wrap(np.linspace(float(_scalar(start)), float(_scalar(end)), steps).astype(np.float32))


def eye(n: int, m: Optional[int] = None, dtype: Any = None) -> Tensor:
    """An ``n`` x ``m`` matrix with ones on the diagonal (Float32 by default).

    Example:
        >>> print(eye(2))
        [[1. 0.]
         [0. 1.]]
    """
    return Tensor._wrap(np.eye(int(n), None if m is None else int(m),
                               dtype=mstype.to_dtype(dtype or mstype.float32).np))


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value``, of ``dtype``; without one it is Int64 whatever the value
    (MindSpore 2.10's rule: a float or bool value is truncated to an integer).

    Example:
        >>> print(full((2,), 3), full((2,), 1.7), full((1,), 1.7, dtype=mstype.float32))
        [3 3] [1 1] [1.7]
    """
    dt = mstype.to_dtype(dtype).np if dtype is not None else np.dtype(np.int64)
    return Tensor._wrap(np.full(S._shape_arg(size, "FillV2"), _scalar(fill_value), dt))


def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:
    """A tensor shaped like ``input`` (and of its dtype unless ``dtype``) filled with ``fill_value``.

    Example:
        >>> print(full_like(Tensor([1, 2]), 3.7))
        [3 3]
    """
    x = check_tensor(input, "full_like", "input")
    dt = mstype.to_dtype(dtype).np if dtype is not None else x._data.dtype
    return Tensor._wrap(np.full(x.shape, _scalar(fill_value)).astype(dt))


def _range(start: Any, limit: Any, delta: Any, maxlen: int = 1000000) -> Tensor:
    values = [_scalar(v) for v in (start, limit, delta)]
    if values[2] == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    dt = start._data.dtype if isinstance(start, Tensor) else _value_dtype(values[0])
    out = np.arange(*values).astype(dt)
    if out.size > maxlen:
        raise ValueError(f"For 'Range', the number of elements {out.size} exceeds 'maxlen' {maxlen}.")
    return Tensor._wrap(out)


OPS: List[Op] = [
    Op("zeros", "size, dtype=None", fn=S.zeros, inputs=0, prim="Zeros()(size, dtype) -> size, dtype"),
    Op("ones", "shape, dtype=None", fn=S.ones, inputs=0, prim="Ones()(shape, dtype) -> shape, dtype"),
    Op("zeros_like", "input, *, dtype=None", fn=S.zeros_like, prim="ZerosLike"),
    Op("ones_like", "input, *, dtype=None", fn=S.ones_like, prim="OnesLike"),
    Op("fill", "type, shape, value", fn=S.fill, inputs=0, prim="Fill"),
    Op("full", "size, fill_value, *, dtype=None", fn=full, inputs=0),
    Op("full_like", "input, fill_value, *, dtype=None", fn=full_like),
    Op("arange", "start=0, end=None, step=1, *, dtype=None", fn=arange, inputs=0),
    Op("_range", "start, limit, delta, maxlen=1000000", fn=_range, inputs=0,
       prim="Range(maxlen=1000000)(start, limit, delta) -> start, limit, delta, maxlen"),
    Op("linspace", "start, end, steps", fn=linspace, inputs=0, prim="LinSpace()(start, stop, num) -> start, stop, num"),
    Op("eye", "n, m=None, dtype=None", fn=eye, inputs=0, prim="Eye()(n, m, t) -> n, m, t"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "Zeros": ("ops.Zeros()((2, 2), ms.int32)", "[[0 0]\n [0 0]]"),
    "Ones": ("ops.Ones()((3,), ms.float32)", "[1. 1. 1.]"),
    "ZerosLike": ("ops.ZerosLike()(ms.Tensor([[1.0, 2.0]]))", "[[0. 0.]]"),
    "OnesLike": ("ops.OnesLike()(ms.Tensor([[1, 2]]))", "[[1 1]]"),
    "Fill": ("ops.Fill()(ms.float32, (2,), 7.0)", "[7. 7.]"),
    "Range": ("ops.Range()(ms.Tensor(0.0), ms.Tensor(1.0), ms.Tensor(0.25))", "[0.   0.25 0.5  0.75]"),
    "LinSpace": ("ops.LinSpace()(ms.Tensor(0.0), ms.Tensor(1.0), 5)", "[0.   0.25 0.5  0.75 1.  ]"),
    "Eye": ("ops.Eye()(2, 3, ms.int32)", "[[1 0 0]\n [0 1 0]]"),
}
