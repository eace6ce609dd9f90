"""The defaults of primitives' arguments and their labels, as MindSpore's generated module
``ops.cpp_create_prim_instance_helper`` lists them for creating primitives from C++: ``op_args_default_value``
(primitive name → argument → default) and ``op_labels`` (primitive name → label → value; ``side_effect_mem`` marks
a primitive that writes one of its inputs).

mskernel derives both from its own op table: the defaults are those of each primitive's constructor and call
signature, and an in-place primitive (``Inplace*``) is labelled ``side_effect_mem``.

Example:
    >>> from mskernel.ops import cpp_create_prim_instance_helper as h
    >>> h.op_args_default_value["ReduceSum"]["keep_dims"], h.op_labels["InplaceAdd"]
    (False, {'side_effect_mem': True})
"""
from __future__ import annotations

import inspect
from typing import Any, Dict

__all__ = ["op_args_default_value", "op_labels"]


def _defaults() -> Dict[str, Dict[str, Any]]:
    from mskernel.ops.registry import PRIMITIVES
    out: Dict[str, Dict[str, Any]] = {}
    for name, cls in sorted(PRIMITIVES.items()):
        found: Dict[str, Any] = {}
        for fn in (cls.__init__, cls.__call__):
            try:
                params = inspect.signature(fn).parameters.values()
            except (TypeError, ValueError):
                continue
            found.update({p.name: p.default for p in params if p.default is not inspect.Parameter.empty})
        if found:
            out[name] = found
    return out


def _labels() -> Dict[str, Dict[str, Any]]:
    from mskernel.ops.registry import PRIMITIVES
    return {name: {"side_effect_mem": True} for name in sorted(PRIMITIVES) if name.startswith("Inplace")}


#: primitive name -> argument name -> default value
op_args_default_value: Dict[str, Dict[str, Any]] = _defaults()
#: primitive name -> label -> value
op_labels: Dict[str, Dict[str, Any]] = _labels()
