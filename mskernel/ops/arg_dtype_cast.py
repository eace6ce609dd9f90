"""MindSpore's argument casts of generated primitives (``mindspore.ops.arg_dtype_cast``): the conversions between
Python sequences, numbers and Tensors a primitive's arguments go through before its kernel sees them
(``tuple_to_tensor``, ``tensor_to_tuple``, ``scalar_to_tensor``, ``normalize_int_sequence``, ...), the dtype
predicates they use, and the primitives ``DtypeToEnum``, ``TupleToList``, ``ListToTuple``.

Example:
    >>> import mskernel as ms
    >>> from mskernel.ops import arg_dtype_cast as c
    >>> print(c.tuple_to_tensor((1, 2)), c.tensor_to_tuple(ms.Tensor([3, 4])), c.list_to_tuple([5]))
    [1 2] (3, 4) (5,)
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops.graph_syntax import GraphHelper
from mskernel.ops.operations import DtypeToEnum

__all__ = ["TupleToList", "ListToTuple", "IsDimUnKnown", "DtypeToEnum", "tuple_to_list", "list_to_tuple",
           "is_sequence_shape_unknown", "int_to_float", "scalar_to_tuple", "tensor_to_tuple", "scalar_to_tensor",
           "tuple_to_tensor", "list_to_tensor", "is_integral_mstype", "is_floating_point_mstype",
           "normalize_int_sequence", "dtype_to_string"]


class TupleToList(GraphHelper):
    """``TupleToList()(t)``: the elements of a tuple as a list.

    Example:
        >>> TupleToList()((1, 2, 3))
        [1, 2, 3]
    """

    def __init__(self) -> None:
        super().__init__("TupleToList", list)


class ListToTuple(GraphHelper):
    """``ListToTuple()(l)``: the elements of a list as a tuple.

    Example:
        >>> ListToTuple()([1, 2, 3])
        (1, 2, 3)
    """

    def __init__(self) -> None:
        super().__init__("ListToTuple", tuple)


class IsDimUnKnown(GraphHelper):
    """``IsDimUnKnown()(shape)``: whether a shape's rank is unknown; in mskernel every shape is known (False).

    Example:
        >>> IsDimUnKnown()((2, 3))
        False
    """

    def __init__(self) -> None:
        super().__init__("IsDimUnKnown", lambda data: False)


tuple_to_list = TupleToList()
list_to_tuple = ListToTuple()
is_sequence_shape_unknown = IsDimUnKnown()


def int_to_float(data: int) -> float:
    """An int as a float.

    Example:
        >>> int_to_float(3)
        3.0
    """
    return float(data)


def scalar_to_tuple(data: Any) -> Tuple[Any]:
    """A scalar as a one-element tuple.

    Example:
        >>> scalar_to_tuple(2)
        (2,)
    """
    return (data,)


def tensor_to_tuple(data: Any) -> Any:
    """A 1-d Tensor's elements as a tuple of Python numbers (anything else as it is).

    Example:
        >>> import mskernel as ms
        >>> tensor_to_tuple(ms.Tensor([1.5, 2.0]))
        (1.5, 2.0)
    """
    if isinstance(data, Tensor):
        if data.ndim != 1:
            raise ValueError(f"For 'TensorToTuple', the input must be a 1-D Tensor, but got {data.ndim}-D.")
        return tuple(data.asnumpy().tolist())
    return data


def scalar_to_tensor(data: Any) -> Any:
    """A Python number as a 0-d Tensor (int64 for an int, float32 for a float, bool for a bool).

    Example:
        >>> scalar_to_tensor(2).dtype, scalar_to_tensor(2.0).dtype
        (mindspore.int64, mindspore.float32)
    """
    if isinstance(data, bool):
        return Tensor(np.asarray(data))
    if isinstance(data, int):
        return Tensor(np.asarray(data, np.int64))
    if isinstance(data, float):
        return Tensor(np.asarray(data, np.float32))
    return data


def tuple_to_tensor(data: Sequence[Any]) -> Tensor:
    """A tuple of numbers as a 1-d Tensor (int64 for ints, float32 once a float is among them).

    Example:
        >>> print(tuple_to_tensor((1, 2.5)))
        [1.  2.5]
    """
    return Tensor(list(data))


def list_to_tensor(data: Sequence[Any]) -> Tensor:
    """A list of numbers as a 1-d Tensor (see :func:`tuple_to_tensor`)."""
    return Tensor(list(data))


def is_integral_mstype(dtype: Any) -> bool:
    """Whether ``dtype`` is an integer (or bool) dtype.

    Example:
        >>> import mskernel as ms
        >>> is_integral_mstype(ms.int32), is_integral_mstype(ms.float32)
        (True, False)
    """
    return str(dtype) in ("Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64")


def is_floating_point_mstype(dtype: Any) -> bool:
    """Whether ``dtype`` is a floating dtype.

    Example:
        >>> import mskernel as ms
        >>> is_floating_point_mstype(ms.float16)
        True
    """
    return str(dtype) in ("Float16", "Float32", "Float64", "BFloat16")


def normalize_int_sequence(op_name: str, arg_name: str, data: Sequence[Any], to_tuple: bool = True) -> Any:
    """A sequence whose elements are ints or 0-d integer Tensors as ints (a tuple, or a list).

    Example:
        >>> import mskernel as ms
        >>> normalize_int_sequence('Reshape', 'shape', [2, ms.Tensor(3)])
        (2, 3)
    """
    out = []
    for v in data:
        if isinstance(v, Tensor):
            if v.ndim != 0 or not is_integral_mstype(v.dtype):
                raise TypeError(f"For '{op_name}', each element of '{arg_name}' must be an int or a 0-D integer "
                                f"Tensor, but got {v!r}.")
            out.append(int(v.asnumpy()))
        elif isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
        else:
            raise TypeError(f"For '{op_name}', each element of '{arg_name}' must be an int or a 0-D integer "
                            f"Tensor, but got {type(v).__name__}.")
    return tuple(out) if to_tuple else out


def dtype_to_string(dtype: Any) -> str:
    """The lower-case name of a dtype.

    Example:
        >>> import mskernel as ms
        >>> dtype_to_string(ms.float32)
        'float32'
    """
    return str(dtype).lower()
