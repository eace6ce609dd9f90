"""The operator information of ``ops.Custom``: what ``reg_info`` registers, by target, checked against the function.

``reg_info`` (a ``CustomRegOp(...).get_op_info()`` dict, its JSON, or a list of them, given to ``Custom``
or attached to the function by ``custom_info_register``) is kept once per target, the first one winning;
a pyfunc's information without a target is the CPU's. The information the op uses is the current
device's, else the CPU's, else the first: its inputs' names, its attributes (in order: the values a call
passes after its Tensors, :mod:`~mskernel.ops.custom.arguments`) and its dtype rows (what
:mod:`~mskernel.ops.custom.selection` matches a call against). Every target must declare the same
attribute names, and the numbers of inputs, attributes and outputs must match the function's parameters
and ``out_dtype``.

Example:
    >>> from mskernel.ops import CustomRegOp, DataType
    >>> info = (CustomRegOp().input(0, "x").output(0, "y").attr("k", "required", "float")
    ...         .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())
    >>> reg = Registration(info, "pyfunc", "For 'Custom'", n_params=2, n_outputs=1)
    >>> reg.input_names, [a["name"] for a in reg.attr_specs], reg.rows
    (['x'], ['k'], [(('float32',), ('float32',))])
"""
from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Tuple

from mskernel import context
from mskernel.ops.op_info import normalize_reg_info

__all__ = ["Registration", "TARGETS", "parameter_count"]

TARGETS = ["Ascend", "GPU", "CPU"]


def parameter_count(func: Any) -> Optional[int]:
    """How many parameters ``func`` takes (None: not a function, or it takes ``*args``/``**kwargs``).

    Example:
        >>> parameter_count(lambda x, k: x), parameter_count(lambda *a: a), parameter_count("lib.so:f")
        (2, None, None)
    """
    if not callable(func):
        return None
    try:
        params = inspect.signature(getattr(func, "__wrapped__", func)).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return None
    return len(params)


class Registration:
    """The operator information of one op: ``by_target`` (one dict per target), ``chosen`` (the one in use, or
    None), its ``input_names``, ``attr_specs`` and dtype ``rows`` ((input dtypes), (output dtypes)).

    ``n_params`` and ``n_outputs`` are what the function takes and ``out_dtype`` describes (None: unknown);
    ``fake_output`` (a pyfunc op with no output) skips the output count.

    Example:
        >>> reg = Registration(None, "pyfunc", "For 'Custom'")
        >>> reg.chosen is None, reg.attr_specs, reg.describe()
        (True, [], None)
    """

    def __init__(self, reg_info: Any, func_type: str, prefix: str, n_params: Optional[int] = None,
                 n_outputs: Optional[int] = None, fake_output: bool = False) -> None:
        by_target: Dict[str, Dict[str, Any]] = {}
        for info in normalize_reg_info(reg_info, prefix):
            target = info.get("target")
            if target in (None, "UnKnown") and func_type == "pyfunc":
                target = "CPU"
            if target not in TARGETS:
                raise ValueError(f"{prefix}, target set in registration information must be one of {TARGETS}, but "
                                 f"got {target}")
            by_target.setdefault(target, info)  # registered once per target: the first one wins
        self.by_target = by_target
        device = context.get_current_device().device_target
        self.chosen: Optional[Dict[str, Any]] = (by_target.get(device) or by_target.get("CPU")
                                                 or next(iter(by_target.values()), None))
        self.attr_specs: List[Dict[str, Any]] = []
        self.input_names: List[str] = []
        self.rows: List[Tuple[Tuple[str, ...], Tuple[str, ...]]] = []
        if self.chosen is None:
            return
        info = self.chosen
        inputs, outputs = info.get("inputs", []), info.get("outputs", [])
        self.attr_specs = list(info.get("attr", []) or [])
        self.input_names = [i.get("name", f"input{k}") for k, i in enumerate(inputs)]
        names = [a.get("name") for a in self.attr_specs]
        for target, other in by_target.items():
            if [a.get("name") for a in other.get("attr", []) or []] != names:
                raise ValueError(f"{prefix}, attr names set in registration information must be the same for every "
                                 f"target, but {target} declares different ones.")
        if n_params is not None and inputs and len(inputs) + len(self.attr_specs) != n_params:
            raise ValueError(f"{prefix}, the registration information declares {len(inputs)} inputs and "
                             f"{len(self.attr_specs)} attributes, but the function takes {n_params} parameters; the "
                             f"numbers and order of inputs must match the function's.")
        if n_outputs is not None and outputs and not fake_output and len(outputs) != n_outputs:
            raise ValueError(f"{prefix}, the registration information declares {len(outputs)} outputs, but "
                             f"out_shape/out_dtype describe {n_outputs}.")
        for row in info.get("dtype_format", []):
            dts = tuple(item[0] for item in row)
            self.rows.append((dts[:len(inputs)], dts[len(inputs):]))

    def describe(self) -> Optional[str]:
        """The information in use in one line (what a graph node of the op shows), or None without any.

        Example:
            >>> from mskernel.ops import CustomRegOp, DataType
            >>> info = (CustomRegOp().input(0, "x").output(0, "y")
            ...         .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())
            >>> Registration(info, "pyfunc", "For 'Custom'").describe()
            "target CPU; inputs ['x']; attrs []; dtypes (float32) -> (float32)"
        """
        if self.chosen is None:
            return None
        target = next(t for t, r in self.by_target.items() if r is self.chosen)
        rows = "; ".join(f"({', '.join(i)}) -> ({', '.join(o)})" for i, o in self.rows) or "any"
        return (f"target {target}; inputs {self.input_names}; attrs {[a.get('name') for a in self.attr_specs]}; "
                f"dtypes {rows}")

