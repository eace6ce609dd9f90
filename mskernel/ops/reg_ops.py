"""MindSpore's operator-information builders for its own kernel back ends (``TBERegOp``, ``AiCPURegOp``,
``CpuRegOp``, ``AkgAscendRegOp``, ``AkgGpuRegOp``) and ``op_info_register``.

They only describe a kernel (inputs, outputs, attributes, dtype/format rows); ``get_op_info`` gives the same
dict MindSpore's does, so registration code written for MindSpore imports and runs. Each builder is a table:
the positional fields of its ``input``/``output``/``attr`` and its own setters with the key each one sets.
mskernel compiles no TBE/AiCPU/akg kernel, so ``op_info_register`` records the information and returns the
function unchanged.

Example:
    >>> from mskernel.ops import CpuRegOp, DataType
    >>> info = CpuRegOp("Abs").input(0, "x", "required").output(0, "y", "required") \\
    ...     .dtype_format(DataType.F32_Default, DataType.F32_Default).get_op_info()
    >>> info["imply_type"], info["inputs"]
    ('CPU', [{'index': 0, 'name': 'x', 'paramType': 'required'}])
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from mskernel.ops.op_info import RegOp

__all__ = ["TableRegOp", "CpuRegOp", "AiCPURegOp", "TBERegOp", "AkgRegOp", "AkgAscendRegOp", "AkgGpuRegOp",
           "op_info_register", "REGISTERED"]

#: every op information ``op_info_register`` was given, in order
REGISTERED: List[Dict[str, Any]] = []


def _fields(keys: Tuple[str, ...], args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    out = {k: v for k, v in zip(keys, args) if v is not None}
    out.update({k: v for k, v in kwargs.items() if v is not None})
    return out


class TableRegOp(RegOp):
    """A builder described by tables: ``IMPLY`` (its ``imply_type``), the positional keys of ``input``,
    ``output`` and ``attr``, and ``SETTERS`` (method name -> (info key, default)).

    Example:
        >>> CpuRegOp("A").attr("k", "int").get_op_info()["attr"]
        [{'name': 'k', 'type': 'int'}]
    """

    IMPLY = ""
    INPUT: Tuple[str, ...] = ("index", "name", "paramType")
    OUTPUT: Tuple[str, ...] = ("index", "name", "paramType")
    ATTR: Tuple[str, ...] = ("name", "type", "value")
    SETTERS: Dict[str, Tuple[str, Any]] = {}
    EXTRA: Dict[str, Any] = {}

    def __init__(self, op_name: str) -> None:
        super().__init__(op_name)
        self._extra: Dict[str, Any] = dict(self.EXTRA)
        self._extra.update({key: (list(d) if isinstance(d, list) else d) for key, d in self.SETTERS.values()})

    def __getattr__(self, name: str) -> Callable[..., "TableRegOp"]:
        setters = type(self).SETTERS
        if name not in setters:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        key, default = setters[name]

        def setter(value: Any = default) -> "TableRegOp":
            self._extra[key] = value
            return self
        return setter

    def input(self, *args: Any, **kwargs: Any) -> "TableRegOp":
        """Describe one input (its index, name, ...)."""
        self.inputs.append(_fields(self.INPUT, args, kwargs))
        return self

    def output(self, *args: Any, **kwargs: Any) -> "TableRegOp":
        """Describe one output."""
        self.outputs.append(_fields(self.OUTPUT, args, kwargs))
        return self

    def attr(self, *args: Any, **kwargs: Any) -> "TableRegOp":
        """Describe one attribute."""
        self.attr_.append(_fields(self.ATTR, args, kwargs))
        return self

    def dtype_format(self, *args: Any) -> "TableRegOp":
        """Add one row of (dtype, format) pairs, one per input and output."""
        self.dtype_format_.append(tuple(args))
        return self

    def get_op_info(self) -> Dict[str, Any]:
        """The information as MindSpore's ``get_op_info`` gives it."""
        return {"op_name": self.op_name, "inputs": self.inputs, "outputs": self.outputs, "attr": self.attr_,
                "fusion_type": self.fusion_type_, "dtype_format": list(self.dtype_format_),
                "imply_type": self.IMPLY, **self._extra}


class CpuRegOp(TableRegOp):
    """Information of a MindSpore CPU kernel.

    Example:
        >>> CpuRegOp("Abs").get_op_info()["imply_type"]
        'CPU'
    """
    IMPLY = "CPU"


class AiCPURegOp(CpuRegOp):
    """Information of an Ascend AiCPU kernel.

    Example:
        >>> AiCPURegOp("Stack").input(0, "x", "dynamic").get_op_info()["inputs"]
        [{'index': 0, 'name': 'x', 'paramType': 'dynamic'}]
    """
    IMPLY = "AiCPU"


class TBERegOp(TableRegOp):
    """Information of an Ascend TBE kernel.

    Example:
        >>> info = TBERegOp("Abs").kernel_name("abs").output(0, "y", True, "required", "all").get_op_info()
        >>> info["kernel"], info["outputs"]
        ('abs', [{'index': 0, 'name': 'y', 'need_compile': True, 'paramType': 'required', 'shape': 'all'}])
    """
    IMPLY = "TBE"
    INPUT = ("index", "name", "need_compile", "paramType", "shape", "value_depend")
    OUTPUT = ("index", "name", "need_compile", "paramType", "shape")
    ATTR = ("name", "paramType", "type", "value", "default_value")
    SETTERS = {"async_flag": ("async_flag", False), "binfile_name": ("binfile", ""),
               "compute_cost": ("compute_cost", 10), "kernel_name": ("kernel", ""),
               "partial_flag": ("partial_flag", True), "reshape_type": ("reshape_type", ""),
               "dynamic_rank_support": ("dynamicRankSupport", False), "dynamic_shape": ("dynamicShapeSupport", False),
               "dynamic_compile_static": ("dynamicCompileStatic", False),
               "need_check_supported": ("needCheckSupport", False), "is_dynamic_format": ("dynamicFormat", False),
               "op_pattern": ("op_pattern", ""), "real_input_index": ("real_input_index", []),
               "input_to_attr_index": ("input_to_attr_index", []),
               "unknown_shape_formats": ("unknown_shape_formats", [])}


class AkgRegOp(TableRegOp):
    """Information of an akg kernel (base of the Ascend and GPU ones).

    Example:
        >>> AkgGpuRegOp("A").attr("a", "required", "int").get_op_info()["attr"]
        [{'name': 'a', 'paramType': 'required', 'type': 'int'}]
    """
    IMPLY = "AKG"
    OUTPUT = ("index", "name")
    INPUT = ("index", "name", "paramType")
    ATTR = ("name", "paramType", "type")


class AkgAscendRegOp(AkgRegOp):
    """Information of an akg kernel for Ascend.

    Example:
        >>> AkgAscendRegOp("A").get_op_info()["processor"]
        'AiCore'
    """
    EXTRA = {"processor": "AiCore"}


class AkgGpuRegOp(AkgRegOp):
    """Information of an akg kernel for GPU.

    Example:
        >>> AkgGpuRegOp("A").get_op_info()["processor"]
        'CUDA'
    """
    EXTRA = {"processor": "CUDA"}


def op_info_register(op_info: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator registering a kernel's information (``get_op_info()``'s dict); the function is returned
    unchanged (mskernel builds no TBE/AiCPU/akg kernel from it).

    Example:
        >>> @op_info_register(CpuRegOp("Abs").get_op_info())
        ... def _abs_cpu():
        ...     return
        >>> REGISTERED[-1]["op_name"], _abs_cpu() is None
        ('Abs', True)
    """
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTERED.append(op_info)
        return fn
    return register
