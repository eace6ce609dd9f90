"""Op table: random ops.

Example:
    >>> from mskernel.ops.table import random
    >>> isinstance(random.OPS, list)
    True
"""
from __future__ import annotations

from typing import List

from mskernel.ops.opdef import Op

OPS: List[Op] = []
