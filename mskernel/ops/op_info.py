"""Operator information: ``CustomRegOp``, ``DataType``, ``custom_info_register`` (MindSpore's names).

Operator information declares a Custom op's inputs, outputs, attributes, supported dtype
combinations and target. ``ops.Custom`` uses it to select a dtype row at call time and to map
attribute values onto the kernel's trailing arguments.

Example:
    >>> from mskernel.ops import CustomRegOp, DataType
    >>> info = (CustomRegOp("add_cpu").input(0, "x").input(1, "y").output(0, "z")
    ...         .dtype_format(DataType.F32_Default, DataType.F32_Default, DataType.F32_Default)
    ...         .target("CPU").get_op_info())
    >>> info["target"], info["dtype_format"]
    ('CPU', [[['float32', 'DefaultFormat'], ['float32', 'DefaultFormat'], ['float32', 'DefaultFormat']]])
"""
from __future__ import annotations

import functools
import json
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["CustomRegOp", "DataType", "custom_info_register", "RegOp", "normalize_reg_info", "parse_attr_value"]


class RegOp:
    """Base of operator-information builders (MindSpore's ``RegOp``).

    Example:
        >>> RegOp("x").fusion_type("OPAQUE").fusion_type_
        'OPAQUE'
    """

    def __init__(self, op_name: str = "") -> None:
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs: List[Dict[str, Any]] = []
        self.outputs: List[Dict[str, Any]] = []
        self.attr_: List[Dict[str, Any]] = []
        self.fusion_type_ = ""
        self.dtype_format_: List[Tuple] = []

    @staticmethod
    def _is_int(value: Any, name: str) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} value must be int")

    @staticmethod
    def _is_string(value: Any, name: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"{name} value must be str")

    def fusion_type(self, fusion_type: str) -> "RegOp":
        """Set the fusion type (kept for compatibility; unused on the CPU)."""
        self._is_string(fusion_type, "fusion_type")
        self.fusion_type_ = fusion_type
        return self

    def get_op_info(self) -> Dict[str, Any]:
        """The information as a dict (trailing underscores stripped from field names).

        Example:
            >>> sorted(CustomRegOp("a").get_op_info())
            ['attr', 'dtype_format', 'fusion_type', 'inputs', 'op_name', 'outputs', 'target']
        """
        out = {}
        for k, v in self.__dict__.items():
            key = k[:-1] if k.endswith("_") else k
            if key == "dtype_format":
                v = [[list(item) for item in row] for row in v]
            out[key] = v
        return out


class CustomRegOp(RegOp):
    """Builder of a Custom op's information: ``input``, ``output``, ``attr``, ``dtype_format``,
    ``target``, ``fusion_type``, ``get_op_info``.

    Example:
        >>> info = (CustomRegOp("scale").input(0, "x").output(0, "y").attr("s", "required", "float")
        ...         .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info())
        >>> info["attr"]
        [{'name': 's', 'paramType': 'required', 'type': 'float'}]
    """

    def __init__(self, op_name: str = "Custom") -> None:
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def _io(self, kind: str, index: Optional[int], name: Optional[str], param_type: Optional[str],
            kwargs: Dict[str, Any]) -> Dict[str, Any]:
        entry: Dict[str, Any] = {}
        if index is not None:
            self._is_int(index, f"{kind} index")
            entry["index"] = index
        if name is not None:
            self._is_string(name, f"{kind} name")
            entry["name"] = name
        if param_type is not None:
            self._is_string(param_type, f"{kind} param_type")
            if param_type not in ("required", "dynamic", "optional"):
                raise ValueError(f"CustomRegOp {kind} '{name}': param_type must be 'required', 'dynamic' or "
                                 f"'optional', but got '{param_type}'.")
            entry["paramType"] = param_type
        entry.update(kwargs)
        return entry

    def input(self, index: Optional[int] = None, name: Optional[str] = None, param_type: str = "required",
              **kwargs: Any) -> "CustomRegOp":
        """Declare an input (``index``, ``name``, ``param_type`` in required/dynamic/optional)."""
        self.inputs.append(self._io("input", index, name, param_type, kwargs))
        return self

    def output(self, index: Optional[int] = None, name: Optional[str] = None, param_type: str = "required",
               **kwargs: Any) -> "CustomRegOp":
        """Declare an output."""
        self.outputs.append(self._io("output", index, name, param_type, kwargs))
        return self

    def dtype_format(self, *args: Tuple[str, ...]) -> "CustomRegOp":
        """Add one supported combination: one ``(dtype, format)`` per input then output.

        Example:
            >>> CustomRegOp().input(0, "x").output(0, "y").dtype_format(DataType.F32_Default)
            Traceback (most recent call last):
            ...
            ValueError: The size of 'args' must be equal to the sum of input tensors and output tensors, but got 1 vs 2
        """
        tensors = len(self.inputs) + len(self.outputs)
        if len(args) != tensors:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and output tensors, but "
                             f"got {len(args)} vs {tensors}")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for item in arg:
                self._is_string(item, "dtype and format")
        self.dtype_format_.append(tuple(args))
        return self

    def attr(self, name: Optional[str] = None, param_type: Optional[str] = None, value_type: Optional[str] = None,
             default_value: Optional[str] = None, **kwargs: Any) -> "CustomRegOp":
        """Declare an attribute: name, ``"required"``/``"optional"``, value type (``"int"``, ``"float"``,
        ``"bool"``, ``"str"``, ``"listInt"``, ..., ``"all"``), default value as a string; ``value=`` gives
        the value itself."""
        entry: Dict[str, Any] = {}
        for key, val in (("name", name), ("paramType", param_type), ("type", value_type),
                         ("defaultValue", default_value)):
            if val is not None:
                self._is_string(val, f"attr {key}")
                entry[key] = val
        entry.update(kwargs)
        self.attr_.append(entry)
        return self

    def target(self, target: Optional[str] = None) -> "CustomRegOp":
        """Set the target (``"CPU"``, ``"GPU"``, ``"Ascend"``)."""
        if target is not None:
            self._is_string(target, "target")
        self.target_ = target
        return self


_DTYPES = {"None": "", "BOOL": "bool", "I8": "int8", "U8": "uint8", "I16": "int16", "U16": "uint16",
           "I32": "int32", "U32": "uint32", "I64": "int64", "U64": "uint64", "F16": "float16", "F32": "float32",
           "F64": "float64", "BF16": "bfloat16", "C64": "complex64", "C128": "complex128"}
_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z",
            "FracNZ": "FRACTAL_NZ", "C1HWNCoC0": "C1HWNCoC0", "NCHW": "NCHW", "NHWC": "NHWC", "HWCN": "HWCN",
            "NDHWC": "NDHWC", "NCDHW": "NCDHW", "DHWCN": "DHWCN", "NDC1HWC0": "NDC1HWC0",
            "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FracZNLSTM": "FRACTAL_ZN_LSTM", "FracZNRNN": "FRACTAL_ZN_RNN",
            "ND_RNNBIAS": "ND_RNN_BIAS", "ChannelLast": "ChannelLast", "NC1HWC0": "NC1HWC0"}
_BASE_FORMATS = ["None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN", "NDHWC",
                 "ChannelLast"]
_EXTRA = {"I8": ["NCDHW", "NDC1HWC0", "NC1HWC0"], "U8": ["NCDHW", "NDC1HWC0", "NC1HWC0"],
          "I32": ["NDC1HWC0", "NCDHW"]}
for _f in ("F16", "F32", "BF16"):
    _EXTRA[_f] = ["NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM", "FracZNRNN", "ND_RNNBIAS"]


class DataType:
    """MindSpore's dtype/format constants for ``dtype_format``: ``DataType.F32_Default`` is
    ``("float32", "DefaultFormat")``; ``None`` parts are wildcards.

    Example:
        >>> DataType.F32_Default, DataType.None_None, DataType.I32_Default_Tuple
        (('float32', 'DefaultFormat'), ('', ''), ('int32', 'DefaultFormat', 'tuple'))
    """

    None_None = ("", "")
    None_Default = ("", "DefaultFormat")


for _d, _dn in _DTYPES.items():
    if _d in ("None", "C64", "C128"):
        continue
    for _f in _BASE_FORMATS + _EXTRA.get(_d, []):
        setattr(DataType, f"{_d}_{_f}", (_dn, _FORMATS[_f]))
    setattr(DataType, f"{_d}_Default_Tuple", (_dn, "DefaultFormat", "tuple"))
    setattr(DataType, f"{_d}_Default_List", (_dn, "DefaultFormat", "list"))
for _d in ("C64", "C128"):
    setattr(DataType, f"{_d}_Default", (_DTYPES[_d], "DefaultFormat"))
    setattr(DataType, f"{_d}_Default_Tuple", (_DTYPES[_d], "DefaultFormat", "tuple"))


def custom_info_register(*reg_info: Any) -> Callable:
    """Decorator binding operator information to a kernel function (``func.reg_info``).

    ``ops.Custom(reg_info=...)`` takes priority over it (no merging).

    Example:
        >>> info = CustomRegOp("f").input(0, "x").output(0, "y").target("CPU").get_op_info()
        >>> @custom_info_register(info)
        ... def f(x):
        ...     return x
        >>> f.reg_info[0]["op_name"]
        'f'
    """
    def decorator(func: Callable) -> Callable:
        setattr(func, "reg_info", reg_info)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)
        return wrapper
    return decorator


def normalize_reg_info(reg_info: Any, prefix: str) -> List[Dict[str, Any]]:
    """Flatten reg info (dicts, JSON strings, nested lists/tuples) into a list of dicts.

    Example:
        >>> normalize_reg_info(('{"op_name": "a"}', [{"op_name": "b"}]), "p")[1]["op_name"]
        'b'
    """
    out: List[Dict[str, Any]] = []

    def walk(item: Any) -> None:
        if isinstance(item, (list, tuple)):
            for sub in item:
                walk(sub)
        elif isinstance(item, str):
            try:
                parsed = json.loads(item)
            except json.JSONDecodeError as e:
                raise TypeError(f"{prefix}, the registration information must be of type dict, but got a string "
                                f"that is not valid JSON ({e}). Use 'CustomRegOp' to generate the registration "
                                f"information.") from None
            if not isinstance(parsed, dict):
                raise TypeError(f"{prefix}, the registration information must be of type dict, but got {parsed} with "
                                f"type {type(parsed)}. Use 'CustomRegOp' to generate the registration information.")
            out.append(parsed)
        elif isinstance(item, dict):
            out.append(item)
        elif item is not None:
            raise TypeError(f"{prefix}, the registration information must be of type dict, str or a list/tuple of "
                            f"them, but got {type(item).__name__}. Use 'CustomRegOp' to generate it.")
    walk(reg_info)
    return out


def parse_attr_value(value_type: Optional[str], text: str, prefix: str, name: str) -> Any:
    """An attribute's ``defaultValue`` string converted by its declared type.

    Example:
        >>> parse_attr_value("listInt", "1,2,3", "p", "a"), parse_attr_value("bool", "true", "p", "b")
        ([1, 2, 3], True)
    """
    t = value_type or "str"
    try:
        if t == "int":
            return int(text)
        if t == "float":
            return float(text)
        if t == "bool":
            return str(text).strip().lower() in ("true", "1")
        if t == "str" or t == "all":
            return text
        if t.startswith("list"):
            items = [s.strip() for s in str(text).split(",") if s.strip()]
            elem = t[4:].lower()
            return [parse_attr_value(elem, s, prefix, name) for s in items]
    except ValueError:
        raise ValueError(f"{prefix}, the default value {text!r} of attribute '{name}' is not a valid {t}.") from None
    raise ValueError(f"{prefix}, Unsupported attr type: {t} (attribute '{name}').")
