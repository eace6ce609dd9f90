"""Op table: index ops.

Example:
    >>> from mskernel.ops.table import index
    >>> isinstance(index.OPS, list)
    True
"""
from __future__ import annotations

from typing import List

from mskernel.ops import math as M
from mskernel.ops.opdef import Op

OPS: List[Op] = [
    Op("where", "condition, input, other", fn=M.where, inputs=3, prim="Select", aliases=("select",)),
]
