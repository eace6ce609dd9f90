"""``mindspore.ops.operations._inner_ops``: MindSpore's internal primitives.

Real files import a few of these; the ones that are ordinary ops here resolve to the op table's
primitives, the others (communication, graph-mode and device internals) raise an AttributeError
that names the primitive and says why it is not provided.

Example:
    >>> from mskernel.ops.operations import _inner_ops
    >>> _inner_ops.Receive
    Traceback (most recent call last):
    ...
    AttributeError: mindspore.ops.operations._inner_ops.Receive is a MindSpore-internal primitive (graph mode, ...
"""
from __future__ import annotations

from typing import Any

from mskernel.ops.registry import PRIMITIVES


def __getattr__(name: str) -> Any:
    if name in PRIMITIVES:
        return PRIMITIVES[name]
    raise AttributeError(f"mindspore.ops.operations._inner_ops.{name} is a MindSpore-internal primitive (graph mode, "
                         f"devices or communication); mskernel runs one process eagerly on the CPU and does not "
                         f"provide it.")
