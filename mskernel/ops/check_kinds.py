"""The kinds of check MindSpore's primitive constructors make of an argument, each with its validator's message.

A kind is a callable ``check(prim, arg, value, args)`` that raises (the wheel's exception type and text, word for
word) or returns ``None``; ``args`` are all the constructor's bound arguments, for the few checks that compare
with another one. Its ``repr`` is how the table (:mod:`mskernel.ops.init_checks`) writes it. The message shapes
are those of MindSpore 2.10's validators, measured on its CPU wheel (``tests/golden/cases/prim_init_checks.py``).

Example:
    >>> Type("int")("Pack", "axis", 1.5, {})
    Traceback (most recent call last):
    ...
    TypeError: For 'Pack', the type of 'axis' should be 'int', but got type 'float'.
    >>> Int(">", 0)("TopK", "k", 3, {}) is None
    True
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

__all__ = ["Check", "Type", "Arg", "Int", "Range", "Bool", "StrIn", "StrInput", "MustStr", "IsDtype", "DtypeIn",
           "TypeName", "IsNumber", "Argument", "Compare", "ToPair", "Size2D", "Size3D", "PadZero", "Enum",
           "ENUM_NAMES"]

Check = Callable[[str, str, Any, Mapping[str, Any]], None]
_RELS: Dict[str, Callable[[Any, Any], bool]] = {
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b, "in": lambda a, b: a in b}
_REL_TEXT = {">": ">", ">=": ">=", "<": "<", "<=": "<=", "==": "=", "in": "in"}
_TYPES: Dict[str, type] = {"bool": bool, "int": int, "float": float, "str": str, "tuple": tuple, "list": list,
                           "dict": dict}  # and "Type": a dtype


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _lead(prim: Optional[str]) -> str:
    return f"For '{prim}', the" if prim else "The"


class _Kind:
    """A check kind: its ``repr`` is the table's text for it."""

    _fields: Tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(getattr(self, f)) for f in self._fields)})"


class Type(_Kind):
    """The value is an instance of one of the named Python types (a bool is an int only where ``'bool'`` is
    named); ``label`` replaces the argument's name in the message.

    Example:
        >>> Type("int", "tuple")("P", "axis", 1.5, {})
        Traceback (most recent call last):
        ...
        TypeError: For 'P', the type of 'axis' should be one of '['int', 'tuple']', but got type 'float'.
    """

    _fields = ("names",)

    def __init__(self, *names: str, label: Optional[str] = None) -> None:
        self.names, self.label = names, label
        self._types: Optional[Tuple[type, ...]] = None if "Type" in names else tuple(_TYPES[n] for n in names)

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if self._types is None:  # "Type" (a dtype) is looked up when first needed: dtypes import after this module
            self._types = tuple(_dtype_type() if n == "Type" else _TYPES[n] for n in self.names)
        if (isinstance(value, bool) and bool not in self._types) or not isinstance(value, self._types):
            shown = f"one of '{list(self.names)}'" if len(self.names) > 1 else f"'{self.names[0]}'"
            raise TypeError(f"For '{prim}', the type of '{self.label or arg}' should be {shown}, "
                            f"but got type '{type(value).__name__}'.")


def _arg_ok(value: Any, descr: str) -> bool:
    """Whether ``value`` is what an op definition's argument text (``"int"``, ``"tuple of int"``, ...) says."""
    from mskernel.common.tensor import Tensor

    if descr == "Tensor":
        return isinstance(value, Tensor)
    if descr == "bool":
        return isinstance(value, bool)
    if descr == "int":  # a bool is an int here (measured)
        return isinstance(value, int)
    if descr == "float":
        return isinstance(value, float)
    seq = descr.partition(" of ")[0]  # the items are not looked at when the primitive is built (measured)
    return seq in ("tuple", "list") and isinstance(value, _TYPES[seq])


class Arg(_Kind):
    """The value is one of the op definition's argument types (``"int"``, ``"tuple of int"``, ``"Tensor"``...).

    Example:
        >>> Arg("int", "tuple of int")("Softmax", "axis", (1, -1), {}) is None
        True
        >>> Arg("int", "tuple of int")("Softmax", "axis", 1.5, {})
        Traceback (most recent call last):
        ...
        TypeError: For 'Softmax', the type of 'axis' should be one of '[int, tuple of int]', but got <class 'float'>.
    """

    _fields = ("descrs",)

    def __init__(self, *descrs: str) -> None:
        self.descrs = descrs

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not any(_arg_ok(value, d) for d in self.descrs):
            raise TypeError(f"For '{prim}', the type of '{arg}' should be one of '[{', '.join(self.descrs)}]', "
                            f"but got {type(value)}.")


def _number(prim: Optional[str], label: str, value: Any, rel: str, bound: Any, kind: type) -> None:
    lead = f"For '{prim}', the '{label}'" if prim else f"The '{label}'"
    if not isinstance(value, kind):
        raise TypeError(f"{lead} must be {kind.__name__}, but got '{type(value).__name__}'")
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        raise ValueError(f"{lead} must be a legal value, but got '{value}'.")
    if isinstance(value, bool) or not _RELS[rel](value, bound):
        shown = "{" + ", ".join(str(b) for b in sorted(bound)) + "}" if rel == "in" else bound
        text = (f"{lead} must be {kind.__name__} and must {_REL_TEXT[rel]} {shown}, "
                f"but got '{value}' with type '{type(value).__name__}'.")
        raise (TypeError if isinstance(value, bool) else ValueError)(text)


class Int(_Kind):
    """An int (``kind=float``: a float) in relation ``rel`` to ``bound``; ``each``: an int or each item of a
    sequence (an int stands for a pair), named ``arg[i]``.

    Example:
        >>> Int(">", 0)("Conv2D", "out_channel", -2, {})
        Traceback (most recent call last):
        ...
        ValueError: For 'Conv2D', the 'out_channel' must be int and must > 0, but got '-2' with type 'int'.
        >>> Int(">=", 0, each=True)("Col2Im", "padding", (1, -1), {})
        Traceback (most recent call last):
        ...
        ValueError: For 'Col2Im', the 'padding[1]' must be int and must >= 0, but got '-1' with type 'int'.
    """

    _fields = ("rel", "bound")

    def __init__(self, rel: str, bound: Any, each: bool = False, kind: type = int) -> None:
        self.rel, self.bound, self.each, self.kind = rel, bound, each, kind

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not self.each:
            _number(prim, arg, value, self.rel, self.bound, self.kind)
            return
        items = (value, value) if _is_int(value) else value
        for i, v in enumerate(items):
            _number(prim, f"{arg}[{i}]", v, self.rel, self.bound, self.kind)


class Range(_Kind):
    """An int (``kind=float``: a float) within ``[lo, hi]``; ``ends`` says which ends are included (``"[]"``,
    ``"[)"``, ``"(]"``, ``"()"``); ``hi`` may name another argument.

    Example:
        >>> Range(0, "hidden_size", "[)")("LSTM", "proj_size", 3, {"hidden_size": 3})
        Traceback (most recent call last):
        ...
        ValueError: For 'LSTM', the 'proj_size' must be in range of [0, 3), but got 3 with type 'int'.
    """

    _fields = ("lo", "hi", "ends")

    def __init__(self, lo: Any, hi: Any, ends: str = "[]", kind: type = int) -> None:
        self.lo, self.hi, self.ends, self.kind = lo, hi, ends, kind

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        import numpy as np

        if isinstance(value, bool) or not isinstance(value, (np.ndarray, np.generic, self.kind)):
            raise TypeError(f"For '{prim}', the '{arg}' must be '{self.kind.__name__}',  "
                            f"but got '{type(value).__name__}'.")
        hi = args[self.hi] if isinstance(self.hi, str) else self.hi
        above = value >= self.lo if self.ends[0] == "[" else value > self.lo
        below = value <= hi if self.ends[1] == "]" else value < hi
        if not (above and below):
            raise ValueError(f"For '{prim}', the '{arg}' must be in range of {self.ends[0]}{self.lo}, {hi}"
                             f"{self.ends[1]}, but got {value} with type '{type(value).__name__}'.")


class Bool(_Kind):
    """A bool (the wheel's other bool message).

    Example:
        >>> Bool()("ApplyMomentum", "use_locking", "a", {})
        Traceback (most recent call last):
        ...
        TypeError: For 'ApplyMomentum', the 'use_locking' must be a bool, but got str.
    """

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For '{prim}', the '{arg}' must be a bool, but got {type(value).__name__}.")


class StrIn(_Kind):
    """A str among ``values``; ``label`` replaces the argument's name in the message; ``case="upper"`` or
    ``"lower"``: the value is compared (and shown) in that case.

    Example:
        >>> StrIn("NCHW", "NHWC", label="format")("Conv2D", "data_format", 1, {})
        Traceback (most recent call last):
        ...
        ValueError: For 'Conv2D', the 'format' must be str and must be in '['NCHW', 'NHWC']', but got '1'.
    """

    _fields = ("values",)

    def __init__(self, *values: str, label: Optional[str] = None, case: Optional[str] = None) -> None:
        self.values, self.label, self.case = values, label, case

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if isinstance(value, str) and self.case:  # the primitive upper- or lower-cases it first
            value = value.upper() if self.case == "upper" else value.lower()
        if not (isinstance(value, str) and value in self.values):
            raise ValueError(f"For '{prim}', the '{self.label or arg}' must be str and must be in "
                             f"'{list(self.values)}', but got '{value}'.")


class StrInput(_Kind):
    """A str (an op definition's string argument, later turned into an enum).

    Example:
        >>> StrInput()("AvgPool", "pad_mode", 1, {})
        Traceback (most recent call last):
        ...
        TypeError: For 'AvgPool', the input 'pad_mode' should be a str, but got <class 'int'>.
    """

    def __init__(self, label: Optional[str] = None) -> None:
        self.label = label

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For '{prim}', the input '{self.label or arg}' should be a str, but got {type(value)}.")


#: the names an op definition's string argument may take (any case), whatever the op: MindSpore converts such a
#: string to its enum when the primitive is built, and only a name it does not know at all fails there
#: (measured on the 2.10 wheel, every upper-case word of its libraries tried)
ENUM_NAMES = frozenset({"ABS", "ADD", "ALIGN_CORNERS", "ASYMMETRIC", "BACKWARD", "BICUBIC2D", "BILINEAR", "BNSD",
    "BNSD_BSND", "BN_WEIGHT", "BORDER", "BSH", "BSND", "C1HWNC0", "C1HWNCOC0", "CEIL", "CHWK", "CHWN", "CKHW", "CN",
    "CONSTANT", "CROP_AND_RESIZE", "DEFAULT", "DEFAULT_FORMAT", "DHWCN", "DHWNC", "ELU", "EQ", "FASTGELU",
    "FILTER_HWCK", "FLOOR", "FORWARD", "FRACTAL_DECONV", "FRACTAL_DECONV_SP_STRIDE8_TRANS",
    "FRACTAL_DECONV_SP_STRIDE_TRANS", "FRACTAL_DECONV_TRANSPOSE", "FRACTAL_NZ", "FRACTAL_Z", "FRACTAL_ZN_LSTM",
    "FRACTAL_ZN_RNN", "FRACTAL_ZZ", "FRACTAL_Z_3D", "FRACTAL_Z_3D_TRANSPOSE", "FRACTAL_Z_C04", "FRACTAL_Z_G",
    "FSR_NCHW", "FULL", "GEGLU", "GELS", "GELSD", "GELSS", "GELSY", "GELU", "GLU", "GT", "HALF_PIXEL", "HARD_TANH",
    "HSIGMOID", "HSWISH", "HW", "HWCK", "HWCN", "HWKC", "IJ", "KCHW", "KHWC", "LEAKY_RELU", "LEFT", "LINEAR",
    "LOOKUP_HITS", "LOOKUP_KEYS", "LOOKUP_LOOKUPS", "LOOKUP_OUTPUT", "LOOKUP_VALUE", "LSTM", "LT", "MASK_ALIBI",
    "MASK_DEFAULT", "MASK_FREE", "MASK_NONE", "MASK_NORM", "MASK_SPEC", "MD", "MEAN", "MODE_RESERVED", "NC",
    "NC1C0HWPAD", "NC1HWC0", "NC1HWC0_C04", "NC1KHKWHWC0", "NC4", "NC4HW4", "NC8HW8", "NCDHW", "NCHW", "NCL", "NCW",
    "ND", "NDC1HWC0", "NDHWC", "ND_RNN_BIAS", "NEAREST", "NHWC", "NHWC1C0", "NHWC4", "NONE", "NO_ACTIVATION", "NSD",
    "NWC", "NYUV", "NYUV_A", "ORTHO", "PAD", "PA_BSND", "PERTOKEN", "REFLECT", "REFLECTION", "REGLU", "RELU", "RELU1",
    "RELU6", "RIGHT", "ROUND", "RZH", "SAME", "SBH", "SELU", "SET", "SH", "SIGMOID", "SIGN", "SILU", "SOFTPLUS",
    "SOFTSIGN", "SUM", "SWIGLU", "SYMMETRIC", "SYNC_BN_GROUP0", "TANH", "TH", "THRESHOLDRELU", "TND", "TRAPEZOIDAL",
    "TRUNC", "UNIDIRECTIONAL", "UNKNOWN", "UPDATE", "VALID", "XY", "ZEROS", "ZRH"})


class Enum(StrInput):
    """A str naming one of MindSpore's enum values (:data:`ENUM_NAMES`, any case; ``only``: just these, for
    the few arguments with an enum of their own); ``label`` replaces the argument's name in the messages.

    Example:
        >>> Enum()("AvgPool", "pad_mode", "same", {}) is None
        True
        >>> Enum()("AvgPool", "pad_mode", "zz", {})
        Traceback (most recent call last):
        ...
        ValueError: Failed to convert the value "zz" of input 'pad_mode' of 'AvgPool' to enum.
    """

    _fields = ("only",)

    def __init__(self, *only: str, label: Optional[str] = None) -> None:
        super().__init__(label)
        self.only = only
        self.known = frozenset(n.upper() for n in only) or ENUM_NAMES

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        super().__call__(prim, arg, value, args)
        if value.upper() not in self.known:
            raise ValueError(f"Failed to convert the value \"{value}\" of input '{self.label or arg}' of '{prim}' "
                             "to enum.")


class MustStr(_Kind):
    """A str (the collective primitives' message).

    Example:
        >>> MustStr()("AllReduce", "op", 1, {})
        Traceback (most recent call last):
        ...
        TypeError: For 'AllReduce', the 'op' must be str, but got int.
    """

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For '{prim}', the '{arg}' must be str, but got {type(value).__name__}.")


def _dtype_type() -> type:
    from mskernel.dtype import Type as DType

    return DType


class IsDtype(_Kind):
    """A dtype (``mindspore.int32``, ...).

    Example:
        >>> IsDtype()("Argmax", "output_type", "a", {})
        Traceback (most recent call last):
        ...
        TypeError: For 'Argmax', the input 'output_type' should be mindspore dtype, but got a.
    """

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not isinstance(value, _dtype_type()):
            raise TypeError(f"For '{prim}', the input '{arg}' should be mindspore dtype, but got {value}.")


class TypeName(_Kind):
    """The value is one of ``valid`` (compared with ``==``; MindSpore's check of a type among types, which some
    primitives use on plain values).

    Example:
        >>> TypeName(True)("Lstsq", "fast", "a", {})
        Traceback (most recent call last):
        ...
        TypeError: For 'Lstsq', the 'fast' should be True, but got ''a''.
    """

    _fields = ("valid",)

    def __init__(self, *valid: Any) -> None:
        self.valid = valid

    def _valid(self) -> Sequence[Any]:
        return self.valid

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        valid = self._valid()
        if isinstance(value, _dtype_type()) and hasattr(value, "element_type"):  # a tensor type: its element
            value = value.element_type()
        if not any(value == v and type(value) is not bool or value is v for v in valid):
            names = [getattr(v, "__name__", v) for v in valid]
            shown = f"one of {names}" if len(names) > 1 else f"{names[0]}"
            got = getattr(value, "__name__", None) or repr(value)
            raise TypeError(f"For '{prim}', the '{arg}' should be {shown}, but got '{got}'.")


class DtypeIn(TypeName):
    """A dtype among the named ones (``DtypeIn("int32", "int64")``).

    Example:
        >>> import mskernel as ms
        >>> DtypeIn("int32", "int64")("LowerBound", "out_type", ms.int64, {}) is None
        True
        >>> DtypeIn("int32", "int64")("LowerBound", "out_type", "a", {})
        Traceback (most recent call last):
        ...
        TypeError: For 'LowerBound', the 'out_type' should be one of [mindspore.int32, mindspore.int64], but got ''a''.
    """

    def _valid(self) -> Sequence[Any]:
        import mskernel.dtype as mdt

        return [getattr(mdt, n) for n in self.valid]


class IsNumber(_Kind):
    """An int (``kind=float``: a float), not a bool; ``label`` replaces the argument's name, ``prim=False`` leaves
    the primitive's name out.

    Example:
        >>> IsNumber(float)("SparseApplyAdagrad", "lr", "a", {})
        Traceback (most recent call last):
        ...
        TypeError: For 'SparseApplyAdagrad', the type of 'lr' must be 'float', but got 'str'.
    """

    _fields = ("kind",)

    def __init__(self, kind: type = int, label: Optional[str] = None, prim: bool = True) -> None:
        self.kind, self.label, self.prim = kind, label, prim

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        lead = _lead(prim if self.prim else None)
        label = self.label or arg
        if isinstance(value, bool) or not isinstance(value, self.kind):
            raise TypeError(f"{lead} type of '{label}' must be '{self.kind.__name__}', "
                            f"but got '{type(value).__name__}'.")
        if math.isinf(value) or math.isnan(value):
            raise ValueError(f"{lead} '{label}' must be a legal float, but got '{value}'.")


class Argument(_Kind):
    """A number in relation ``rel`` to ``bound`` (no type check); ``each``: every item that is not None of a
    sequence (an int stands for itself), named ``arg[i]``.

    Example:
        >>> Argument(">=", 1)("ComputeAccidentalHits", "num_true", -2, {})
        Traceback (most recent call last):
        ...
        ValueError: For 'ComputeAccidentalHits', the argument 'num_true' must >= 1, but got -2.
    """

    _fields = ("rel", "bound")

    def __init__(self, rel: str, bound: Any, each: bool = False) -> None:
        self.rel, self.bound, self.each = rel, bound, each

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not self.each:
            items: Sequence[Tuple[str, Any]] = [(arg, value)]
        else:
            seq = (value,) if _is_int(value) else value
            items = [(f"{arg}[{i}]", v) for i, v in enumerate(seq) if v is not None]
        for label, v in items:
            if not _RELS[self.rel](v, self.bound):
                raise ValueError(f"For '{prim}', the argument '{label}' must {_REL_TEXT[self.rel]} {self.bound}, "
                                 f"but got {v}.")


class Compare(_Kind):
    """A number in relation ``rel`` to ``bound``, the message naming the bound ``value_name: bound``; ``label``
    replaces the argument's name (quoted unless it has a space), ``prim=False`` leaves the primitive out.

    Example:
        >>> Compare(">=", 2, value_name="SpaceToDepth", prim=False)("SpaceToDepth", "block_size", 1, {})
        Traceback (most recent call last):
        ...
        ValueError: The 'block_size' should be >= SpaceToDepth: 2, but got 1.
    """

    _fields = ("rel", "bound")

    def __init__(self, rel: str, bound: Any, value_name: str = "", label: Optional[str] = None,
                 prim: bool = True) -> None:
        self.rel, self.bound, self.value_name, self.label, self.prim = rel, bound, value_name, label, prim

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not _RELS[self.rel](value, self.bound):
            label = self.label or arg
            subject = f"{_lead(prim if self.prim else None)} {label if ' ' in label else repr(label)}"
            raise ValueError(f"{subject} should be {_REL_TEXT[self.rel]} {self.value_name}: {self.bound}, "
                             f"but got {value}.")


class ToPair(_Kind):
    """An int or a tuple/list (a pair or a 4-tuple): an op definition's size argument.

    Example:
        >>> ToPair()("AvgPool", "kernel_size", 1.5, {})
        Traceback (most recent call last):
        ...
        ValueError: For 'AvgPool', the value of 'kernel_size' is invalid: '1.5'.
    """

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        if not (isinstance(value, (int, tuple, list))):
            raise ValueError(f"For '{prim}', the value of '{arg}' is invalid: '{value}'.")


_INT_OR_TUPLE = Type("int", "tuple")


class Size2D(_Kind):
    """A positive int, or a tuple of two (``four``: or four) positive ints; ``zero``: 0 is allowed too.

    Example:
        >>> Size2D()("MaxPool", "kernel_size", (2, 0), {})
        Traceback (most recent call last):
        ...
        ValueError: For 'MaxPool' attr 'kernel_size' must be an positive int number or a tuple of two positive int numbers, but got (2, 0)
    """  # noqa: E501

    _fields = ("four",)

    def __init__(self, four: bool = False, zero: bool = False) -> None:
        self.four, self.zero = four, zero

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        _INT_OR_TUPLE(prim, arg, value, args)
        items: Sequence[Any] = (value,) if isinstance(value, int) else value
        if not (len(items) in (1, 2) or (len(items) == 4 and self.four)) or \
                not all(_is_int(v) and (v > 0 or (self.zero and v == 0)) for v in items):
            raise ValueError(f"For '{prim}' attr '{arg}' must be an positive int number or a tuple of two "
                             f"{'or four ' if self.four else ''}positive int numbers, but got {value}")


class Size3D(_Kind):
    """A positive int, or a tuple of three positive ints (MindSpore's 3-D size check); ``five``: the message
    shows the value as the five-element form ``(pad, pad, d, h, w)``; ``zero``: 0 is allowed too.

    Example:
        >>> Size3D()("Conv3D", "kernel_size", -2, {})
        Traceback (most recent call last):
        ...
        ValueError: For 'Conv3D', the parameter 'kernel_size' must be an positive integer or a tuple of three positive integer, but got (-2, -2, -2)
    """  # noqa: E501

    _fields = ("five",)

    def __init__(self, five: bool = False, zero: bool = False, pad: int = 1) -> None:
        self.five, self.zero, self.pad = five, zero, pad

    def _bad(self, prim: str, arg: str, shown: Any) -> ValueError:
        return ValueError(f"For '{prim}', the parameter '{arg}' must be an positive integer or a tuple of three "
                          f"positive integer, but got {shown}")

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        _INT_OR_TUPLE(prim, arg, value, args)
        if isinstance(value, int):
            items: Tuple[Any, ...] = (value,)
        elif len(value) == 3:
            items = tuple(value)
        else:
            raise self._bad(prim, arg, value)
        if not all(_is_int(v) and (v > 0 or (self.zero and v == 0)) for v in items):
            full = items * 3 if len(items) == 1 else items
            raise self._bad(prim, arg, (self.pad, self.pad) + full if self.five else full)


class PadZero(_Kind):
    """The padding is zero unless ``pad_mode`` is ``"pad"``: ``n`` = 0 for the 2-D message that knows only
    zero, 4 or 6 for the ones that accept a tuple of zeros too (``mode_text``: how that message spells pad).

    Example:
        >>> PadZero(0)("Conv2D", "pad", -2, {"pad_mode": "valid"})
        Traceback (most recent call last):
        ...
        ValueError: For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': -2 and 'pad_mode': valid.
    """  # noqa: E501

    _fields = ("n",)

    def __init__(self, n: int, mode_text: str = "pad") -> None:
        self.n, self.mode_text = n, mode_text

    def __call__(self, prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
        mode = args.get("pad_mode")
        if isinstance(mode, str) and mode.lower() == "pad":
            return
        zeros = (0,) * self.n
        if value == 0 or (self.n and tuple(value) == zeros if isinstance(value, (tuple, list)) else False):
            return
        if self.n == 0:
            raise ValueError(f"For '{prim}', the '{arg}' must be zero when 'pad_mode' is not 'pad', "
                             f"but got '{arg}': {value} and 'pad_mode': {mode}.")
        raise ValueError(f"For '{prim}', the '{arg}' must be zero or {zeros} when 'pad_mode' is not "
                         f"\"{self.mode_text}\", but got '{arg}' is {value} and 'pad_mode' is {mode}.")
