"""Op table: ops that change a Parameter or Tensor in place (``assign``, ``assign_add``, ``assign_sub``).

They write the value into the variable's own buffer (views and references see it) and return the new
value as a Tensor; no gradient flows through them, as in MindSpore's PyNative mode.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
    >>> print(ops.assign(p, ms.Tensor([3.0, 4.0])), ops.AssignAdd()(p, ms.Tensor([1.0, 1.0])), p.asnumpy())
    [3. 4.] [4. 5.] [4. 5.]
"""
from __future__ import annotations

from typing import Any, Callable, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op


def _writer(op: str, combine: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable:
    def write(variable: Any, value: Any) -> Tensor:
        var = check_tensor(variable, op, "variable")
        val = value._data if isinstance(value, Tensor) else np.asarray(value)
        if val.shape != var._data.shape and val.size != 1:
            raise ValueError(f"For '{op}','value' must have the same shape as 'variable'. But got 'value' shape: "
                             f"({', '.join(map(str, val.shape))}), 'variable' shape: "
                             f"({', '.join(map(str, var._data.shape))}).")
        var._data[...] = combine(var._data, val)
        var._version += 1
        return Tensor._wrap(var._data.copy())
    write.__name__ = op.lower()
    write.__doc__ = f"MindSpore's ``ops.{op}``: write into ``variable`` in place; returns the new value."
    return write


OPS: List[Op] = [
    Op("assign", "variable, value", fn=_writer("Assign", lambda a, b: b), inputs=2, prim="Assign"),
    Op("assign_add", "variable, value", fn=_writer("AssignAdd", lambda a, b: a + b), inputs=2, prim="AssignAdd"),
    Op("assign_sub", "variable, value", fn=_writer("AssignSub", lambda a, b: a - b), inputs=2, prim="AssignSub"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "assign": ("p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')",
               "ops.assign(p, ms.Tensor([5.0, 6.0])), p.asnumpy()",
               "[5. 6.] [5. 6.]"),
    "assign_add": ("p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')",
                   "ops.assign_add(p, ms.Tensor([5.0, 6.0])), p.asnumpy()",
                   "[6. 8.] [6. 8.]"),
    "assign_sub": ("p = ms.Parameter(ms.Tensor([1.0, 2.0]), name='p')",
                   "ops.assign_sub(p, ms.Tensor([5.0, 6.0])), p.asnumpy()",
                   "[-4. -4.] [-4. -4.]"),
}
