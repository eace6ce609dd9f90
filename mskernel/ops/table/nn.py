"""Op table: nn ops.

Example:
    >>> from mskernel.ops.table import nn
    >>> isinstance(nn.OPS, list)
    True
"""
from __future__ import annotations

from typing import List

from mskernel.ops.opdef import Op

OPS: List[Op] = []
