"""MindSpore-compatible dtype objects and the type-promotion rules.

``mskernel.float32`` prints as ``Float32`` and reprs as ``mindspore.float32``, exactly as
MindSpore's do; each carries the numpy dtype that stores it.

Example:
    >>> import mskernel as ms
    >>> str(ms.float32), repr(ms.int64)
    ('Float32', 'mindspore.int64')
    >>> ms.dtype.promote(ms.int32, ms.float16)
    mindspore.float16
"""
from __future__ import annotations

import enum
from typing import Any, Dict, Union

import ml_dtypes
import numpy as np

__all__ = [
    "Type", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "half", "single", "double", "float_",
    "to_dtype", "dtype_to_nptype", "pytype_to_dtype", "dtype_to_pytype", "promote", "is_float",
    "number_type", "float_type", "int_type", "uint_type", "all_types",
    "bfloat16", "float8_e4m3fn", "float8_e5m2", "hifloat8", "qint4x2", "QuantDtype", "_NullType", "_null",
]


class Type:
    """A MindSpore dtype: ``str`` gives its name (``Float32``), ``repr`` its import path.

    Example:
        >>> from mskernel import float32
        >>> float32.np
        dtype('float32')
        >>> float32 == Type.of(np.float32)
        True
    """

    __slots__ = ("name", "attr", "np", "kind", "rank")

    _by_np: Dict[np.dtype, "Type"] = {}

    def __init__(self, name: str, attr: str, np_dtype: Any, kind: str, rank: int) -> None:
        self.name = name
        self.attr = attr
        self.np = np.dtype(np_dtype)
        self.kind = kind  # 'b' bool, 'i' signed int, 'u' unsigned, 'f' float, 'c' complex
        self.rank = rank  # promotion order inside MindSpore's lattice
        Type._by_np[self.np] = self

    @staticmethod
    def of(np_dtype: Any) -> "Type":
        """The mskernel dtype for a numpy dtype (or anything ``np.dtype`` accepts).

        Example:
            >>> Type.of("float64")
            mindspore.float64
        """
        try:
            return Type._by_np[np.dtype(np_dtype)]
        except (KeyError, TypeError):
            raise TypeError(f"mskernel has no dtype for numpy dtype {np_dtype!r}") from None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"mindspore.{self.attr}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and other.np == self.np

    def __hash__(self) -> int:
        return hash(self.np)

    def __reduce__(self):
        return (to_dtype, (self.attr,))

    @property
    def is_floating(self) -> bool:
        """True for float16/32/64.

        Example:
            >>> from mskernel import int32
            >>> int32.is_floating
            False
        """
        return self.kind == "f"

    @property
    def itemsize(self) -> int:
        """Bytes per element.

        Example:
            >>> from mskernel import float16
            >>> float16.itemsize
            2
        """
        return self.np.itemsize


bool_ = Type("Bool", "bool_", np.bool_, "b", 0)
int8 = Type("Int8", "int8", np.int8, "i", 1)
uint8 = Type("UInt8", "uint8", np.uint8, "u", 1)
int16 = Type("Int16", "int16", np.int16, "i", 2)
uint16 = Type("UInt16", "uint16", np.uint16, "u", 2)
int32 = Type("Int32", "int32", np.int32, "i", 3)
uint32 = Type("UInt32", "uint32", np.uint32, "u", 3)
int64 = Type("Int64", "int64", np.int64, "i", 4)
uint64 = Type("UInt64", "uint64", np.uint64, "u", 4)
float16 = Type("Float16", "float16", np.float16, "f", 5)
float32 = Type("Float32", "float32", np.float32, "f", 6)
float64 = Type("Float64", "float64", np.float64, "f", 7)
complex64 = Type("Complex64", "complex64", np.complex64, "c", 8)
complex128 = Type("Complex128", "complex128", np.complex128, "c", 9)
# the low-precision floats, stored in ml_dtypes' numpy dtypes (JAX's); two of the same rank that differ promote
# to float32 (MindSpore 2.10 measured: bfloat16 + float16 is Float32)
bfloat16 = Type("BFloat16", "bfloat16", ml_dtypes.bfloat16, "f", 5)
float8_e4m3fn = Type("Float8E4M3FN", "float8_e4m3fn", ml_dtypes.float8_e4m3fn, "f", 5)
float8_e5m2 = Type("Float8E5M2", "float8_e5m2", ml_dtypes.float8_e5m2, "f", 5)
# MindSpore's qint4x2 is its 4-bit signed integer (it prints as Int4 and reprs as mindspore.int4)
qint4x2 = Type("Int4", "int4", ml_dtypes.int4, "i", 1)
half = float16
single = float32
double = float64
float_ = float32

all_types = (bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
             float16, float32, float64, complex64, complex128)
float_type = (float16, float32, float64, bfloat16)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
number_type = int_type + uint_type + float_type + (complex64, complex128)

_by_attr = {t.attr: t for t in all_types + (bfloat16, float8_e4m3fn, float8_e5m2, qint4x2)}
_by_attr.update({"bool": bool_, "half": float16, "single": float32, "double": float64, "float": float32})

DTypeLike = Union[Type, str, np.dtype, type]


def to_dtype(dtype: DTypeLike) -> Type:
    """Normalise a dtype given as an mskernel Type, a name (``"float32"``) or a numpy dtype.

    Example:
        >>> to_dtype("float32"), to_dtype(np.int64)
        (mindspore.float32, mindspore.int64)
    """
    if isinstance(dtype, Type):
        return dtype
    if isinstance(dtype, str) and dtype in _by_attr:
        return _by_attr[dtype]
    if dtype is float:
        return float32
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    try:
        return Type.of(dtype)
    except TypeError:
        raise TypeError(f"expected a mskernel dtype (e.g. mskernel.float32), a dtype name or a numpy dtype, "
                        f"but got {dtype!r}") from None


def dtype_to_nptype(dtype: DTypeLike) -> type:
    """The numpy scalar type of a dtype (MindSpore's ``dtype_to_nptype``).

    Example:
        >>> dtype_to_nptype(float32)
        <class 'numpy.float32'>
    """
    return to_dtype(dtype).np.type


def pytype_to_dtype(obj: type) -> Type:
    """The dtype of a Python or numpy scalar type (``float`` → float32, ``int`` → int64).

    Example:
        >>> pytype_to_dtype(bool)
        mindspore.bool_
    """
    return to_dtype(obj)


def dtype_to_pytype(dtype: DTypeLike) -> type:
    """The Python type matching a dtype (``Float32`` → ``float``).

    Example:
        >>> dtype_to_pytype(int32)
        <class 'int'>
    """
    t = to_dtype(dtype)
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[t.kind]


def is_float(dtype: Type) -> bool:
    """True when gradients can flow through values of this dtype.

    Example:
        >>> is_float(float16), is_float(int8)
        (True, False)
    """
    return dtype.kind == "f" or dtype.kind == "c"


def _promote_int(a: Type, b: Type) -> Type:
    # numpy's rules for mixed signed/unsigned integers (MindSpore follows them).
    return Type.of(np.promote_types(a.np, b.np)) if a.kind != b.kind else (a if a.rank >= b.rank else b)


def promote(a: Type, b: Type) -> Type:
    """MindSpore's implicit type promotion for two tensor operands.

    Bool yields to anything; integers promote as in numpy; any float wins over any integer;
    between floats (or complex) the wider wins.

    Example:
        >>> promote(int64, float16), promote(uint8, int8), promote(bool_, int32)
        (mindspore.float16, mindspore.int16, mindspore.int32)
    """
    if a is b or a == b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    a_float, b_float = a.kind in "fc", b.kind in "fc"
    if a_float and b_float:
        if a.rank == b.rank and a.kind == b.kind:
            return float32  # two different 16/8-bit floats
        return a if a.rank >= b.rank else b
    if a_float:
        return a
    if b_float:
        return b
    return _promote_int(a, b)


def promote_scalar(t: Type, value: Any) -> Type:
    """The result dtype of a tensor of dtype ``t`` combined with a Python scalar.

    A Python float turns bool/int tensors into float32; a Python int turns bool into int64;
    otherwise the tensor's dtype wins (MindSpore's scalar-tensor rule).

    Example:
        >>> promote_scalar(int32, 2.5), promote_scalar(float16, 3), promote_scalar(bool_, 1)
        (mindspore.float32, mindspore.float16, mindspore.int64)
    """
    if isinstance(value, bool):
        return t
    if isinstance(value, int):
        return int64 if t.kind == "b" else t
    if isinstance(value, float):
        return float32 if t.kind in "biu" else t
    if isinstance(value, complex):
        return complex64 if t.kind != "c" else t
    return t


# numpy-style aliases MindSpore exports at its top level
byte, ubyte, short, ushort, intc, uintc = int8, uint8, int16, uint16, int32, uint32
long, intp, uintp, cfloat, cdouble = int64, int64, uint64, complex64, complex128


class AbstractType:
    """A MindSpore type that is not a tensor element type (``mindspore.number``, ``mindspore.list_``, ...):
    ``str`` gives its name, ``repr`` its import path.

    Example:
        >>> number, str(list_), type_none
        (mindspore.number, 'List', mindspore.type_none)
    """

    __slots__ = ("name", "attr")

    def __init__(self, name: str, attr: str) -> None:
        self.name = name
        self.attr = attr

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"mindspore.{self.attr}"


int_ = AbstractType("Int", "int")
uint = AbstractType("UInt", "uint")
number = AbstractType("Number", "number")
string = AbstractType("String", "string_")
list_ = AbstractType("List", "list_")
tuple_ = AbstractType("Tuple", "tuple_")
type_none = AbstractType("None", "type_none")
tensor_type = AbstractType("Tensor", "tensor")
type_type = AbstractType("TypeType", "type_type")


class TensorType:
    """The type of a Tensor with elements of ``element``: ``mindspore.tensor[float32]``.

    Example:
        >>> TensorType(float32), TensorType(float32) == TensorType(float32)
        (mindspore.tensor[float32], True)
    """

    def __init__(self, element: Any = None) -> None:
        self.element_type = None if element is None else to_dtype(element)

    def element_type_(self) -> Any:
        """The element dtype."""
        return self.element_type

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorType) and other.element_type == self.element_type

    def __hash__(self) -> int:
        return hash(("tensor", self.element_type))

    def __str__(self) -> str:
        return "Tensor" if self.element_type is None else f"Tensor[{self.element_type}]"

    def __repr__(self) -> str:
        return "mindspore.tensor" if self.element_type is None else f"mindspore.tensor[{self.element_type.attr}]"


class Int:
    """MindSpore's integer type by width: ``Int(32)`` is ``mindspore.int32``; ``Int()`` the abstract ``int``.

    Example:
        >>> Int(32), Int()
        (mindspore.int32, mindspore.int)
    """

    def __new__(cls, nbits: Any = None) -> Any:  # type: ignore[misc]
        widths = {8: int8, 16: int16, 32: int32, 64: int64}
        if nbits is None:
            return int_
        if nbits not in widths:
            raise TypeError(f"Wrong number of bits {nbits}, it should be one of 8, 16, 32 or 64.")
        return widths[nbits]



#: Huawei's HiFloat8 (HiF8): a dtype name only; mskernel has no storage for its tapered 8-bit encoding, so a
#: Tensor cannot be made in it (its own byte layout: one ``uint8`` per element, kept distinct from uint8)
hifloat8 = Type("HiFloat8", "hifloat8", np.dtype([("hifloat8", "u1")]), "f", 5)
_by_attr["hifloat8"] = hifloat8


class QuantDtype(enum.Enum):
    """MindSpore's quantisation datatypes: ``INT1`` ... ``INT16`` (values 0-15), ``UINT1`` ... ``UINT16``
    (100-115); ``str`` gives the name and ``value()`` the number.

    Example:
        >>> print(QuantDtype.INT8, QuantDtype.INT8.value(), QuantDtype.UINT16.value())
        INT8 7 115
    """

    locals().update({f"INT{i}": i - 1 for i in range(1, 17)})
    locals().update({f"UINT{i}": 99 + i for i in range(1, 17)})

    def __str__(self) -> str:
        return self.name

    def value(self) -> int:  # type: ignore[override]
        """The enum's number (MindSpore serialises a QuantDtype by it)."""
        return self._value_


class _NullType:
    """The type of MindSpore's ``_null`` (a missing value that is not ``None``); it prints as ``Null``.

    Example:
        >>> print(_null)
        Null
        >>> _null == _NullType(), repr(_null)
        (True, 'mindspore.Null')
    """

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _NullType)

    def __hash__(self) -> int:
        return hash(_NullType)

    def __str__(self) -> str:
        return "Null"

    def __repr__(self) -> str:
        return "mindspore.Null"


_null = _NullType()
