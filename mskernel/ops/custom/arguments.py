"""Argument splitting of ``ops.Custom``: a call's Tensors are the inputs, the rest are attribute values.

The attributes of the operator information (:mod:`~mskernel.ops.custom.registration`) are filled in
their order: a value fixed in the information (``value=``), else the next non-Tensor argument of the
call, else the declared default (``default_value=``, parsed by its type), else None for an optional one;
a required attribute without a value, or more non-Tensor arguments than attributes, is an error. An op
without declared attributes passes its non-Tensor arguments on as they are.

Example:
    >>> import mskernel as ms
    >>> specs = [{"name": "k", "paramType": "required", "type": "float"},
    ...          {"name": "bias", "paramType": "optional", "type": "float", "defaultValue": "0.5"}]
    >>> tensors, attrs = split_args((ms.Tensor([1.0]), 2.0), specs, "For 'Custom'")
    >>> len(tensors), attrs
    (1, [2.0, 0.5])
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from mskernel.common.tensor import Tensor
from mskernel.ops.op_info import parse_attr_value

__all__ = ["split_args"]

_MISSING = object()


def split_args(args: tuple, attr_specs: Sequence[Dict[str, Any]], prefix: str) -> Tuple[List[Tensor], List[Any]]:
    """The Tensor inputs of a call, and its attribute values in registration order."""
    tensors = [a for a in args if isinstance(a, Tensor)]
    extra = [a for a in args if not isinstance(a, Tensor)]
    if not attr_specs:
        return tensors, extra
    calltime = iter(extra)
    attrs = []
    for spec in attr_specs:
        name = spec.get("name")
        if "value" in spec and spec["value"] is not None:
            attrs.append(spec["value"])
            continue
        v = next(calltime, _MISSING)
        if v is _MISSING:
            if "defaultValue" in spec:
                v = parse_attr_value(spec.get("type"), spec["defaultValue"], prefix, name)
            elif spec.get("paramType") == "optional":
                v = None
            else:
                raise ValueError(f"{prefix}, the required attribute '{name}' was not given: pass it as an input after "
                                 f"the tensors, or set value=/default_value= in CustomRegOp.attr.")
        attrs.append(v)
    left = list(calltime)
    if left:
        raise TypeError(f"{prefix}, got {len(left)} more non-tensor inputs than the attributes declared in the "
                        f"registration information ({[s.get('name') for s in attr_specs]}).")
    return tensors, attrs
