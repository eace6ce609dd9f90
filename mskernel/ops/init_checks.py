"""The checks MindSpore's primitive classes make of their constructor's arguments, as one table.

MindSpore checks a primitive's arguments when it is built (``ops.Pack(1.5)`` raises at once), with a
handful of message shapes from its validators. :data:`INIT_CHECKS` holds, per primitive name, the checks of
its arguments, in the order of its constructor's parameters; each check is one of the *kinds* below (a
callable ``check(prim, arg, value, args)`` that raises or returns ``None``; ``args`` are all the bound
arguments, for the few checks that name another one). A table entry is one check or a tuple of checks made in
turn. A primitive without an entry is built unchecked, as is an argument without a check: the table lists
only what the MindSpore 2.10 CPU wheel was measured to refuse at construction
(``tests/golden/cases/prim_init_checks.py``).

:func:`install` is called by :class:`~mskernel.ops.primitive.Primitive` for each subclass mskernel defines: a
class named in the table has its ``__init__`` wrapped to check first (a class without an entry costs one
dictionary look-up, once, when it is defined).

Example:
    >>> from mskernel import ops
    >>> ops.Pack(1.5)
    Traceback (most recent call last):
    ...
    TypeError: For 'Pack', the type of 'axis' should be 'int', but got type 'float'.
    >>> check_args("TopK", {"sorted": "a"})
    Traceback (most recent call last):
    ...
    TypeError: For 'TopK', the type of 'sorted' should be 'bool', but got type 'str'.
    >>> check_args("Conv2D", {"out_channel": 4, "kernel_size": 3, "data_format": "NCHW"}) is None
    True
"""
from __future__ import annotations

import functools
import inspect
import math
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

__all__ = ["INIT_CHECKS", "check_args", "install", "Type", "Arg", "Int", "Range", "Bool", "StrIn", "StrInput",
           "MustStr", "IsDtype", "DtypeIn", "TypeName", "IsNumber", "Argument", "Compare", "ToPair", "Size2D",
           "Size3D", "PadZero", "Enum", "ENUM_NAMES"]

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


# ---- one-off checks (one primitive's own message) ----------------------------------------------------------------

def _group_name(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    """A communication group's name (the message of the group-size query the constructor makes)."""
    if not isinstance(value, str):
        raise TypeError(f"For 'get_group_size', the argument '{arg}' must be type of string, "
                        f"but got '{arg}' type : {type(value)}.")


def _int_or_axes(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    """An int (one axis), or a list or tuple of them (the message names only the sequences)."""
    if not isinstance(value, int):
        Type("list", "tuple")(prim, arg, value, args)


def _seed(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value != -1 and value < 0:
        raise ValueError(f"Seed must be -1 or a non-negative integer, but got {value}.")


def _positive_int_attr(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, int):  # a bool passes, and so does a negative int (measured)
        raise ValueError(f"For '{prim}', attr '{arg}' must be an positive int number")


_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]


def _custom_func_type(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in _FUNC_TYPES:
        raise ValueError(f"For '{prim}', 'func_type': {value}, 'func': {args.get('func')}, 'func_type' must be one "
                         f"of {_FUNC_TYPES}, but got {value}")


def _equation(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, str):
        raise TypeError("the equation must be str!")


def _hook_fn(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not callable(value):
        raise TypeError(f"Expected a callable hook function, but got {type(value).__name__}.")


def _iou_mode(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in ("iou", "iof"):
        raise KeyError(f"For '{prim}', only 'iou' or 'iof' are supported, but got '{arg}': {value}.")


def _prim_name(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if not isinstance(value, str):
        raise TypeError("__init__(): incompatible constructor arguments. The following argument types are "
                        f"supported:\n    1. (name: str)\n\nInvoked with: {value!r}")


def _renorm_p(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value <= 0:
        raise ValueError(f"Renorm op don't support non-positive-norm, but got{value}")


def _space_to_batch_paddings(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    import numpy as np

    shape = np.array(value).shape
    if shape != (2, 2):
        raise ValueError(f"For '{prim}', the paddings shape should be = {prim}: (2, 2), but got {shape}.")


def _dump_side(prim: str, arg: str, value: Any, args: Mapping[str, Any]) -> None:
    if value not in ("in", "out"):
        raise ValueError(f"The '{arg}' argument should be one of ['in', 'out'], but got: {value}")


Entry = Union[Check, Tuple[Check, ...]]
_B, _I, _F, _S, _T = Type("bool"), Type("int"), Type("float"), Type("str"), Type("tuple")
_I_NN = Int(">=", 0)
_I_POS = Int(">", 0)
_ALIGN = StrIn("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")

#: primitive name -> {argument: check or checks}, in the order of the constructor's parameters
INIT_CHECKS: Dict[str, Dict[str, Entry]] = {
    "Adam": {"use_locking": _B, "use_nesterov": _B},
    "AdamNoUpdateParam": {"use_locking": _B, "use_nesterov": _B},
    "AdaptiveAvgPool2D": {"output_size": (Type("int", "tuple"), Argument(">=", 0, each=True))},
    "AdaptiveAvgPool3D": {"output_size": (Type("int", "tuple"), Argument(">=", 0, each=True))},
    "AdaptiveMaxPool2D": {"output_size": Arg("list of int", "tuple of int")},
    "AffineGrid": {"align_corners": _B},
    "AllGather": {"group": _S},
    "AllGatherV": {"group": _S},
    "AllReduce": {"op": MustStr(), "group": MustStr()},
    "AlltoAll": {"split_count": IsNumber(int, label="<class 'int'>", prim=False),
        "split_dim": IsNumber(int, label="<class 'int'>", prim=False),
        "concat_dim": IsNumber(int, label="<class 'int'>", prim=False), "group": _S},
    "AlltoAllV": {"group": _group_name, "block_size": _I},
    "AlltoAllVC": {"group": _group_name, "block_size": _I},
    "ApplyAdagrad": {"update_slots": _B},
    "ApplyAdagradDA": {"use_locking": _B},
    "ApplyAdagradV2": {"epsilon": _F, "update_slots": _B},
    "ApplyAdamWithAmsgrad": {"beta1": _F, "beta2": _F, "epsilon": _F, "use_locking": _B},
    "ApplyAdamWithAmsgradV2": {"use_locking": _B},
    "ApplyCenteredRMSProp": {"use_locking": _B},
    "ApplyFtrl": {"use_locking": _B},
    "ApplyKerasMomentum": {"use_locking": _B, "use_nesterov": _B},
    "ApplyMomentum": {"use_nesterov": Bool(), "use_locking": Bool(), "gradient_scale": _F},
    "ApplyProximalAdagrad": {"use_locking": _B},
    "ApplyRMSProp": {"use_locking": _B},
    "ApproximateEqual": {"tolerance": _F},
    "Argmax": {"output_type": IsDtype()},
    "Argmin": {"output_type": IsDtype()},
    "Assert": {"summarize": _I},
    "AvgPool": {"kernel_size": ToPair(), "strides": ToPair(), "pad_mode": Enum(), "data_format": Enum()},
    "AvgPool3D": {"kernel_size": Size3D(five=True), "strides": Size3D(five=True),
        "pad_mode": (_S, StrIn("VALID", "SAME", "PAD", case="upper")),
        "pad": (Type("int", "tuple", "list"), PadZero(6, "PAD")), "ceil_mode": _B, "count_include_pad": _B,
        "divisor_override": _I_NN, "data_format": StrIn("NCDHW", label="format")},
    "BCEWithLogitsLoss": {"reduction": Enum()},
    "BartlettWindow": {"periodic": _B, "dtype": Type("Type")},
    "BasicLSTMCell": {"keep_prob": _F, "forget_bias": _F, "state_is_tuple": _B, "activation": StrIn("tanh")},
    "BatchNorm": {"data_format": Enum()},
    "BatchToSpace": {"block_size": (_I, Compare(">=", 2)), "crops": Type("list", "tuple", label="crops type")},
    "BatchToSpaceND": {"block_shape": Type("list", "tuple", label="block_shape type"),
        "crops": Type("list", "tuple", label="crops type")},
    "Bernoulli": {"seed": (_I, _seed)},
    "BiasAdd": {"data_format": Enum()},
    "BinaryCrossEntropy": {"reduction": Enum()},
    "BlackmanWindow": {"periodic": _B, "dtype": Type("Type")},
    "BoundingBoxDecode": {"max_shape": _T, "means": _T, "stds": _T, "wh_ratio_clip": _F},
    "BoundingBoxEncode": {"means": _T, "stds": _T},
    "Broadcast": {"root_rank": _I, "group": _S},
    "BroadcastTo": {"shape": Arg("list of int", "Tensor", "tuple of int")},
    "Bucketize": {"boundaries": Type("list")},
    "CTCGreedyDecoder": {"merge_repeated": _B},
    "CTCLoss": {"preprocess_collapse_repeated": _B, "ctc_merge_repeated": _B, "ignore_longer_outputs_than_inputs": _B},
    "CTCLossV2": {"blank": _I, "reduction": (_S, StrIn("none", case="lower")), "zero_infinity": _B},
    "Cauchy": {"size": Type("list"), "median": _F, "sigma": _F},
    "ChannelShuffle": {"group": _positive_int_attr},
    "CholeskySolve": {"upper": _B},
    "Col2Im": {"kernel_size": (Type("int", "list", "tuple"), Int(">", 0, each=True)),
        "dilation": (Type("int", "list", "tuple"), Int(">", 0, each=True)),
        "padding": (Type("int", "list", "tuple"), Int(">=", 0, each=True)),
        "stride": (Type("int", "list", "tuple"), Int(">", 0, each=True))},
    "CollectiveGather": {"group": _S},
    "CollectiveScatter": {"group": _S},
    "CombinedNonMaxSuppression": {"pad_per_class": _B, "clip_boxes": _B},
    "ComputeAccidentalHits": {"num_true": (_I, Argument(">=", 1))},
    "ConfusionMatrix": {"num_classes": _I, "dtype": _S},
    "Conv2D": {"out_channel": _I_POS, "kernel_size": Size2D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad")), "pad": (Type("int", "tuple"), PadZero(0)),
        "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv2DBackpropInput": {"out_channel": _I_POS, "kernel_size": Size2D(),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(4)),
        "mode": Int("==", 1), "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv2DTranspose": {"out_channel": _I_POS, "kernel_size": Size2D(),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(4)),
        "mode": Int("==", 1), "stride": Size2D(four=True), "dilation": Size2D(four=True), "group": _I_POS,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "Conv3D": {"out_channel": _I_POS, "kernel_size": Size3D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(6)),
        "stride": Size3D(five=True), "dilation": Size3D(five=True), "group": (_I, Range(1, "out_channel", "[]")),
        "data_format": StrIn("NCDHW")},
    "Conv3DTranspose": {"in_channel": _I_POS, "out_channel": _I_POS, "kernel_size": Size3D(), "mode": Int("==", 1),
        "pad_mode": (_S, StrIn("valid", "same", "pad", case="lower")), "pad": (Type("int", "tuple"), PadZero(6)),
        "stride": Size3D(five=True), "dilation": Size3D(five=True), "group": (_I, Range(1, "out_channel", "[]")),
        "output_padding": Size3D(five=True, pad=0, zero=True), "data_format": StrIn("NCDHW", label="format")},
    "CropAndResize": {"method": _S, "extrapolation_value": _F},
    "CumulativeLogsumexp": {"exclusive": Bool(), "reverse": Bool()},
    "Custom": {"func_type": _custom_func_type},  # checked first, as MindSpore's; the rest by Custom itself
    "DataFormatDimMap": {"src_format": StrIn("NHWC", "NCHW"), "dst_format": StrIn("NHWC", "NCHW")},
    "DataFormatVecPermute": {"src_format": StrIn("NHWC", "NCHW"), "dst_format": StrIn("NHWC", "NCHW")},
    "DeformableOffsets": {"strides": _T, "pads": _T, "ksize": Type("tuple", label="kernel_size"), "dilations": _T,
        "data_format": StrIn("NCHW", "NHWC"), "deformable_groups": _I_POS, "modulated": Bool()},
    "DepthToSpace": {"block_size": (_I, Compare(">=", 2))},
    "DepthwiseConv2dNative": {"channel_multiplier": _I_POS, "kernel_size": Size2D(), "mode": Int("==", 3),
        "pad_mode": _S, "pad": (Type("int", "tuple"), PadZero(4)), "stride": Size2D(), "dilation": Size2D(),
        "group": _I_POS},
    "Dilation2D": {"stride": Type("int", "tuple"), "dilation": Type("int", "tuple"),
        "pad_mode": StrIn("VALID", "SAME", "valid", "same"), "data_format": StrIn("NCHW", "NHWC")},
    "Dropout2D": {"keep_prob": _F},
    "Dropout3D": {"keep_prob": _F},
    "DropoutGenMask": {"Seed0": _I, "Seed1": _I},
    "DynamicGRUV2": {"direction": StrIn("UNIDIRECTIONAL"), "cell_depth": _I, "keep_prob": _F, "cell_clip": _F,
        "num_proj": _I_NN, "time_major": _B, "activation": StrIn("tanh"), "gate_order": StrIn("zrh", "rzh"),
        "reset_after": _B, "is_training": _B},
    "DynamicRNN": {"cell_type": (_S, StrIn("LSTM")), "direction": (_S, StrIn("UNIDIRECTIONAL")), "cell_depth": _I,
        "use_peephole": _B, "keep_prob": _F, "cell_clip": _F, "num_proj": _I_NN, "time_major": _B,
        "activation": (_S, StrIn("tanh")), "forget_bias": _F, "is_training": _B},
    "EditDistance": {"normalize": _B},
    "Einsum": {"equation": _equation},
    "EuclideanNorm": {"keep_dims": _B},
    "ExtractGlimpse": {"centered": _B, "normalized": _B, "uniform_noise": _B,
        "noise": (_S, StrIn("uniform", "gaussian", "zero"))},
    "ExtractImagePatches": {"ksizes": Arg("list of int", "tuple of int"), "strides": Arg("list of int", "tuple of int"),
        "rates": Arg("list of int", "tuple of int"), "padding": Enum()},
    "ExtractVolumePatches": {"kernel_size": Type("int", "list", "tuple"), "strides": Type("int", "list", "tuple"),
        "padding": Type("str", label="padding_dtype")},
    "FFTWithSize": {"norm": Enum()},
    "FillDiagonal": {"fill_value": _F, "wrap": _B},
    "FractionalAvgPool": {"pooling_ratio": Type("list"), "pseudo_random": _B, "overlapping": _B, "deterministic": _B,
        "seed": _I, "seed2": _I},
    "FractionalMaxPool": {"pooling_ratio": Type("list"), "pseudo_random": _B, "overlapping": _B, "deterministic": _B,
        "seed": _I, "seed2": _I},
    "FractionalMaxPool3DWithFixedKsize": {"ksize": Type("int", "tuple"), "output_shape": Type("int", "tuple"),
        "data_format": StrIn("NCDHW", "NDHWC")},
    "FractionalMaxPoolWithFixedKsize": {"ksize": Type("int", "tuple"), "output_shape": Type("int", "tuple"),
        "data_format": StrIn("NCHW")},
    "FusedAdaFactor": {"enable_scale_parameter": _B, "enable_first_moment": _B, "enable_weight_decay": _B},
    "FusedAdaFactorWithGlobalNorm": {"enable_scale_parameter": _B, "enable_first_moment": _B,
        "enable_weight_decay": _B},
    "FusedCastAdamWeightDecay": {"use_locking": _B},
    "FusedSparseAdam": {"use_locking": _B, "use_nesterov": _B},
    "FusedSparseFtrl": {"lr": _F, "l1": _F, "l2": _F, "lr_power": _F, "use_locking": _B},
    "FusedSparseLazyAdam": {"use_locking": _B, "use_nesterov": _B},
    "FusedSparseProximalAdagrad": {"use_locking": _B},
    "Gamma": {"seed": _I_NN, "seed2": _I_NN},
    "GridSampler2D": {"interpolation_mode": Enum(), "padding_mode": Enum()},
    "GridSampler3D": {"interpolation_mode": Enum(), "padding_mode": Enum()},
    "HShrink": {"lambd": Arg("bool", "int", "float")},
    "HammingWindow": {"periodic": _B, "alpha": _F, "beta": _F, "dtype": Type("Type")},
    "Histogram": {"bins": (_I, _I_POS), "min": _F, "max": _F},
    "HistogramFixedWidth": {"nbins": (_I, Int(">=", 1)), "dtype": StrIn("int32")},
    "HookBackward": {"hook_fn": _hook_fn},
    "IOU": {"mode": _iou_mode},
    "Im2Col": {"ksizes": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "strides": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "dilations": (Type("int", "tuple", "list"), Int(">", 0, each=True)),
        "pads": (Type("int", "tuple", "list"), Int(">=", 0, each=True))},
    "InTopK": {"k": _I},
    "IndexAdd": {"axis": _I},
    "IndexPut": {"accumulate": _I},
    "InplaceAdd": {"indices": Type("tuple", "int")},
    "InplaceIndexAdd": {"axis": _I},
    "InplaceSub": {"indices": Type("tuple", "int")},
    "InplaceUpdate": {"indices": Type("int", "tuple")},
    "IsClose": {"rtol": Arg("bool", "int", "float"), "atol": Arg("bool", "int", "float")},
    "KLDivLoss": {"reduction": StrIn("none", "mean", "batchmean", "sum")},
    "L2Normalize": {"axis": _int_or_axes, "epsilon": Type("int", "float")},
    "LARSUpdate": {"epsilon": _F, "hyperpara": _F, "use_clip": _B},
    "LRN": {"depth_radius": (_I, _I_NN), "bias": _F, "alpha": _F, "beta": _F,
        "norm_region": (_S, StrIn("ACROSS_CHANNELS"))},
    "LSTM": {"input_size": _I_POS, "hidden_size": _I_POS, "num_layers": _I_POS, "has_bias": _B, "bidirectional": _B,
        "dropout": _F, "proj_size": Range(0, "hidden_size", "[)")},
    "ListDiff": {"out_idx": Type("Type")},
    "LogNormalReverse": {"mean": _F, "std": _F},
    "LogSpace": {"steps": (_I, _I_NN), "base": (_I, _I_NN), "dtype": Type("Type")},
    "LogUniformCandidateSampler": {"num_true": (_I, Argument(">=", 1)), "num_sampled": (_I, Argument(">=", 1)),
        "unique": _B, "range_max": (_I, Argument(">=", 1)), "seed": (_I, Argument(">=", 0))},
    "LowerBound": {"out_type": DtypeIn("int32", "int64")},
    "LpNorm": {"axis": Type("int", "tuple", "list"), "p": (_I, _I_NN), "keep_dims": _B, "epsilon": _F},
    "Lstsq": {"fast": TypeName(True), "l2_regularizer": TypeName(0.0)},
    "LuUnpack": {"unpack_data": _B, "unpack_pivots": _B},
    "MatrixDiagPartV3": {"align": (_S, _ALIGN)},
    "MatrixDiagV3": {"align": (_S, _ALIGN)},
    "MatrixInverse": {"adjoint": _B},
    "MatrixPower": {"n": _I},
    "MatrixSetDiagV3": {"align": (_S, _ALIGN)},
    "MatrixSolve": {"adjoint": _B},
    "MatrixSolveLs": {"fast": _B},
    "MatrixTriangularSolve": {"lower": _B, "adjoint": _B},
    "MaxPool": {"kernel_size": Size2D(), "strides": Size2D(), "pad_mode": (_S, StrIn("VALID", "SAME", case="upper")),
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "MaxPool3D": {"kernel_size": Size3D(five=True), "strides": Size3D(five=True),
        "pad_mode": (_S, StrIn("VALID", "SAME", "PAD", case="upper")), "pad_list": (Type("int", "tuple"), PadZero(6)),
        "data_format": StrIn("NCDHW")},
    "MaxPool3DWithArgmax": {"ksize": Size3D(), "strides": Size3D(), "pads": Size3D(zero=True),
        "dilation": Type("int", "tuple"), "ceil_mode": _B, "data_format": (_S, StrIn("NCDHW")),
        "argmax_type": Type("Type")},
    "MaxPoolWithArgmax": {"kernel_size": Size2D(), "strides": Size2D(), "pad_mode": _S,
        "data_format": StrIn("NCHW", "NHWC", label="format")},
    "MaxPoolWithArgmaxV2": {"kernel_size": Size2D(), "pads": Size2D(zero=True), "dilation": Type("int", "tuple"),
        "ceil_mode": _B, "argmax_type": Type("Type")},
    "MaxUnpool2D": {"ksize": Size2D(), "strides": Size2D(zero=True), "pads": Size2D(zero=True), "output_shape": _T,
        "data_format": StrIn("NCHW", "NHWC")},
    "MaxUnpool3D": {"ksize": Size3D(five=True), "strides": Size3D(five=True, zero=True),
        "pads": Size3D(five=True, zero=True), "output_shape": _T, "data_format": StrIn("NCDHW", "NDHWC")},
    "Median": {"global_median": _B, "axis": _I, "keep_dims": _B, "ignore_nan": _B},
    "Meshgrid": {"indexing": Enum()},
    "MirrorPad": {"mode": StrIn("REFLECT", "SYMMETRIC")},
    "MultiMarginLoss": {"p": (_I, Int("in", {1, 2})), "margin": _F, "reduction": StrIn("none", "sum", "mean")},
    "MultilabelMarginLoss": {"reduction": StrIn("none", "sum", "mean")},
    "Multinomial": {"seed": _I_NN, "seed2": _I_NN, "dtype": Type("Type")},
    "MultinomialWithReplacement": {"numsamples": _I_NN, "replacement": _B},
    "Mvlgamma": {"p": (_I, _I_POS)},
    "NLLLoss": {"reduction": Enum()},
    "NMSWithMask": {"iou_threshold": _F},
    "NoRepeatNGram": {"ngram_size": (_I, Int(">=", 1))},
    "NonDeterministicInts": {"dtype": DtypeIn("int32", "int64", "uint32", "uint64")},
    "NthElement": {"reverse": _B},
    "NuclearNorm": {"keepdim": _B},
    "Ormqr": {"left": _B, "transpose": _B},
    "Pack": {"axis": _I},
    "Pad": {"paddings": _T},
    "PadV3": {"mode": StrIn("constant", "reflect", "edge", "circular"), "paddings_contiguous": Bool()},
    "Padding": {"pad_dim_size": (_I, _I_POS)},
    "ParameterizedTruncatedNormal": {"seed": _I, "seed2": _I},
    "Pdist": {"p": _F},
    "Poisson": {"seed": _I_NN, "seed2": _I_NN},
    "Primitive": {"name": _prim_name},  # its subclasses (PrimitiveWithInfer, ...) check by its constructor
    "PyFunc": {"in_shapes": Type("list", "tuple"), "out_shapes": Type("list", "tuple")},
    "Quantile": {"keep_dims": _B, "ignore_nan": _B},
    "RNNTLoss": {"blank_label": _I},
    "ROIAlign": {"pooled_height": _I, "pooled_width": _I, "spatial_scale": _F, "sample_num": _I,
        "roi_end_mode": (_I, Range(0, 1, "[]"))},
    "RandomCategorical": {"dtype": DtypeIn("int32", "int16", "int64")},
    "RandomChoiceWithMask": {"count": (_I, _I_POS), "seed": _I, "seed2": _I},
    "RandomGamma": {"seed": _I_NN, "seed2": _I_NN},
    "RandomPoisson": {"seed": _I, "seed2": _I, "dtype": DtypeIn("int64", "int32", "float16", "float32", "float64")},
    "RandomShuffle": {"seed": _I_NN, "seed2": _I_NN},
    "Randperm": {"max_length": (_I, Int(">=", 1)), "pad": _I,
        "dtype": DtypeIn("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                         "float32", "float64")},
    "RandpermV2": {"seed": Arg("Tensor", "int"), "offset": Arg("Tensor", "int"), "dtype": IsDtype()},
    "Reduce": {"op": _S, "group": _S},
    "ReduceScatter": {"op": _S, "group": _S},
    "ReduceScatterV": {"op": _S, "group": _S},
    "ReduceStd": {"axis": Arg("list of int", "int", "Tensor", "tuple of int")},
    "Renorm": {"p": (_I, _renorm_p), "dim": _I, "maxnorm": _F},
    "ResizeArea": {"align_corners": _B},
    "ResizeLinear1D": {"coordinate_transformation_mode": Enum()},
    "ResizeNearestNeighbor": {"size": Arg("list of int", "tuple of int")},
    "ReverseSequence": {"seq_dim": _I, "batch_dim": _I},
    "ReverseV2": {"axis": Arg("list of int", "tuple of int")},
    "Roll": {"shifts": Arg("list of int", "int", "tuple of int")},
    "SGD": {"nesterov": _B},
    "STFT": {"n_fft": _I, "hop_length": _I, "win_length": _I, "normalized": _B, "onesided": _B, "return_complex": _B},
    "SampleDistortedBoundingBoxV2": {"seed": IsNumber(int), "seed2": IsNumber(int),
        "aspect_ratio_range": Type("list", "tuple"), "area_range": Type("list", "tuple"), "max_attempts": _I_POS,
        "use_image_if_no_bounding_boxes": Bool()},
    "ScaleAndTranslate": {"kernel_type": _S, "antialias": _B},
    "ScatterAdd": {"use_locking": _B},
    "ScatterAddWithAxis": {"axis": _I},
    "ScatterDiv": {"use_locking": _B},
    "ScatterMax": {"use_locking": _B},
    "ScatterMin": {"use_locking": _B},
    "ScatterMul": {"use_locking": _B},
    "ScatterNdAdd": {"use_locking": _B},
    "ScatterNdDiv": {"use_locking": _B},
    "ScatterNdMax": {"use_locking": _B},
    "ScatterNdMin": {"use_locking": _B},
    "ScatterNdMul": {"use_locking": _B},
    "ScatterNdSub": {"use_locking": _B},
    "ScatterNdUpdate": {"use_locking": _B},
    "ScatterSub": {"use_locking": _B},
    "ScatterUpdate": {"use_locking": _B},
    "SearchSorted": {"dtype": IsDtype()},
    "SmoothL1Loss": {"beta": Arg("bool", "int", "float"), "reduction": Enum()},
    "SoftMarginLoss": {"reduction": Enum()},
    "SoftShrink": {"lambd": Arg("bool", "int", "float")},
    "Softmax": {"axis": Arg("int", "tuple of int")},
    "Sort": {"axis": _I, "descending": _B},
    "SpaceToBatch": {"block_size": (_I, Compare(">=", 2, value_name="SpaceToBatch")),
        "paddings": _space_to_batch_paddings},
    "SpaceToBatchND": {"block_shape": Type("list", "tuple", label="block_shape type"),
        "paddings": Type("list", "tuple", label="paddings type")},
    "SpaceToDepth": {"block_size": (_I, Compare(">=", 2, value_name="SpaceToDepth", prim=False))},
    "SparseApplyAdadelta": {"epsilon": _F, "use_locking": _B},
    "SparseApplyAdagrad": {"lr": IsNumber(float), "update_slots": _B, "use_locking": _B},
    "SparseApplyAdagradV2": {"lr": _F, "epsilon": _F, "use_locking": _B, "update_slots": _B},
    "SparseApplyFtrl": {"lr": _F, "l1": _F, "l2": _F, "lr_power": _F, "use_locking": _B},
    "SparseApplyFtrlV2": {"lr": _F, "l1": _F, "l2": _F, "l2_shrinkage": _F, "lr_power": _F, "use_locking": _B},
    "SparseApplyProximalAdagrad": {"use_locking": _B},
    "SparseApplyRMSProp": {"rho": _F, "momentum": _F, "epsilon": _F, "use_locking": _B},
    "SparseSoftmaxCrossEntropyWithLogits": {"is_grad": _B},
    "SparseTensorDenseMatmul": {"adjoint_st": _B, "adjoint_dt": _B},
    "SplitV": {"size_splits": Type("tuple", "list"), "split_dim": _I, "num_split": (_I, _I_POS)},
    "Squeeze": {"axis": Arg("list of int", "int", "tuple of int")},
    "Stack": {"axis": _I},
    "StandardLaplace": {"seed": _I_NN, "seed2": _I_NN},
    "StandardNormal": {"seed": _I_NN, "seed2": _I_NN},
    "TensorDump": {"input_output": _dump_side},
    "TensorScatterElements": {"axis": Arg("Tensor", "int"),
        "reduction": Enum("none", "add", "update", "multiply", label="reduce")},
    "TopK": {"sorted": _B},
    "Tril": {"diagonal": _I},
    "TrilIndices": {"row": _I_NN, "col": _I_NN, "offset": _I, "dtype": DtypeIn("int32", "int64")},
    "TripletMarginLoss": {"p": _I, "swap": _B, "eps": _F, "reduction": StrIn("none", "sum", "mean")},
    "Triu": {"diagonal": Arg("Tensor", "int")},
    "TriuIndices": {"row": _I_NN, "col": _I_NN, "offset": _I, "dtype": DtypeIn("int32", "int64")},
    "TruncatedNormal": {"dtype": DtypeIn("float16", "float32", "float64"), "seed": _I, "seed2": _I},
    "UniformCandidateSampler": {"num_true": (_I, Compare(">", 0, label="value of num_true")),
        "num_sampled": (_I, Compare(">", 0, label="value of num_sampled")), "unique": _B,
        "range_max": (_I, Compare(">", 0, label="value of range_max")),
        "seed": (_I, Compare(">=", 0, label="value of seed")), "remove_accidental_hits": _B},
    "UniformInt": {"seed": _I_NN, "seed2": _I_NN},
    "UniformReal": {"seed": _I_NN, "seed2": _I_NN},
    "Unpack": {"axis": _I},
    "Unstack": {"axis": _I},
    "UpperBound": {"out_type": DtypeIn("int32", "int64")},
    "_AllSwap": {"group": _S},
}


def check_args(prim: str, args: Mapping[str, Any]) -> None:
    """Check the arguments ``args`` (name -> value) of primitive ``prim`` as its constructor does; arguments
    missing from ``args`` are not checked.

    Example:
        >>> check_args("Softmax", {"axis": 1.5})
        Traceback (most recent call last):
        ...
        TypeError: For 'Softmax', the type of 'axis' should be one of '[int, tuple of int]', but got <class 'float'>.
    """
    for arg, entry in INIT_CHECKS.get(prim, {}).items():
        if arg in args:
            for check in entry if isinstance(entry, tuple) else (entry,):
                check(prim, arg, args[arg], args)


def _binder(init: Callable) -> Optional[Callable[..., Dict[str, Any]]]:
    """A fast ``(args, kwargs) -> {name: value}`` for ``init``'s parameters after ``self`` (defaults filled in);
    None when its signature cannot be read."""
    try:
        params = list(inspect.signature(init).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    defaults = {p.name: p.default for p in params if p.default is not p.empty and p.kind is not p.VAR_KEYWORD}

    def bind(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
        bound = dict(defaults)
        bound.update(zip(names, args))
        bound.update(kwargs)
        return bound

    return bind


def install(cls: type) -> None:
    """Wrap the ``__init__`` of ``cls`` (a primitive class mskernel defines) to check its arguments first, when
    :data:`INIT_CHECKS` has an entry under its name and the class defines its own ``__init__``.

    Example:
        >>> from mskernel.ops.primitive import Primitive
        >>> class Pack(Primitive):  # defining the class installs the check (by its name)
        ...     def __init__(self, axis=0):
        ...         super().__init__("Pack")
        >>> Pack(axis="a")
        Traceback (most recent call last):
        ...
        TypeError: For 'Pack', the type of 'axis' should be 'int', but got type 'str'.
    """
    name = cls.__name__
    init = cls.__dict__.get("__init__")
    if name not in INIT_CHECKS or init is None or getattr(init, "_init_checked", False):
        return
    bind = _binder(init)
    if bind is None:
        return

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        check_args(name, bind(args, kwargs))
        init(self, *args, **kwargs)

    __init__._init_checked = True  # type: ignore[attr-defined]
    cls.__init__ = __init__  # type: ignore[misc]
