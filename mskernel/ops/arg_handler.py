"""MindSpore's argument handlers of generated primitives (``mindspore.ops.arg_handler``): each turns one
user-facing argument into the form the kernel takes — an int into a pair, an NCHW 4-tuple into its (H, W) part,
a 0-d Tensor into a Python number, a dtype into its type id.

Each takes ``(op_name, arg_name, value)`` and raises ValueError naming the op and argument for a value it cannot
convert.

Example:
    >>> from mskernel.ops import arg_handler
    >>> h = arg_handler
    >>> h.to_kernel_size('MaxPool', 'kernel_size', 3), h.to_strides('MaxPool', 'strides', (1, 1, 2, 2))
    ((3, 3), (2, 2))
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from mskernel.common.tensor import Tensor

__all__ = ["arg_invalid_info", "to_pair", "to_kernel_size", "to_strides", "to_rates", "to_dilations",
           "to_output_padding", "to_2d_paddings", "generator_handler", "dtype_to_type_id", "str_to_enum"]


def arg_invalid_info(op_name: str, arg_name: str, arg_val: Any) -> str:
    """The error text for an argument a handler cannot convert.

    Example:
        >>> arg_invalid_info('Conv2D', 'pad', 'x')
        "For 'Conv2D', the value of 'pad' is invalid: 'x'."
    """
    return f"For '{op_name}', the value of '{arg_name}' is invalid: '{arg_val}'."


def to_pair(op_name: str, arg_name: str, arg_val: Any) -> Any:
    """A number as a pair; a sequence as it is.

    Example:
        >>> to_pair('Op', 'a', 2.5)
        (2.5, 2.5)
    """
    if isinstance(arg_val, (int, float)):
        return (arg_val, arg_val)
    if isinstance(arg_val, (list, tuple)):
        return arg_val
    raise ValueError(arg_invalid_info(op_name, arg_name, arg_val))


def _spatial(op_name: str, arg_name: str, value: Any) -> Any:
    """An int as (v, v); an NCHW 4-sequence as its last two; another sequence as it is."""
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, (tuple, list)):
        return (value[2], value[3]) if len(value) == 4 else value
    raise ValueError(arg_invalid_info(op_name, arg_name, value))


def to_kernel_size(op_name: str, arg_name: str, kernel_size: Any) -> Any:
    """``kernel_size`` as (h, w) (see :func:`to_strides`)."""
    return _spatial(op_name, arg_name, kernel_size)


def to_strides(op_name: str, arg_name: str, stride: Any) -> Any:
    """An int as (s, s); a 4-sequence (N, C, H, W) as its (H, W); another sequence as it is.

    Example:
        >>> to_strides('Op', 'strides', [1, 1, 3, 4])
        (3, 4)
    """
    return _spatial(op_name, arg_name, stride)


def to_rates(op_name: str, arg_name: str, rates: Any) -> Any:
    """``rates`` as (h, w) (see :func:`to_strides`)."""
    return _spatial(op_name, arg_name, rates)


def to_dilations(op_name: str, arg_name: str, dilation: Any) -> Any:
    """``dilation`` as (h, w) (see :func:`to_strides`)."""
    return _spatial(op_name, arg_name, dilation)


def to_output_padding(op_name: str, arg_name: str, output_padding: Any) -> Any:
    """``output_padding`` as (h, w) (see :func:`to_strides`)."""
    return _spatial(op_name, arg_name, output_padding)


def to_2d_paddings(op_name: str, arg_name: str, pad: Any) -> Any:
    """An int as (p, p); a sequence as it is.

    Example:
        >>> to_2d_paddings('Op', 'pad', 1)
        (1, 1)
    """
    if isinstance(pad, int):
        return (pad, pad)
    if isinstance(pad, (tuple, list)):
        return pad
    raise ValueError(arg_invalid_info(op_name, arg_name, pad))


def generator_handler(op_name: str, arg_name: str, inputs: Any) -> Tuple[Any, ...]:
    """The ints of ``inputs`` as int64 Tensors (a generator's seed and offset), the rest as they are.

    Example:
        >>> generator_handler('Op', 'state', (1, 'x'))[0].dtype
        mindspore.int64
    """
    return tuple(Tensor(np.asarray(v, np.int64)) if isinstance(v, int) and not isinstance(v, bool) else v
                 for v in inputs)


def dtype_to_type_id(op_name: str, arg_name: str, dtype: Any) -> int:
    """MindSpore's type id of ``dtype`` (float32 → 43).

    Example:
        >>> import mskernel as ms
        >>> dtype_to_type_id('Cast', 'dtype', ms.int64)
        35
    """
    from mskernel.ops.table.thin import dtype_to_enum
    return dtype_to_enum(op_name, arg_name, dtype)


def str_to_enum(op_name: str, arg_name: str, value: Any) -> Any:
    """A string argument as the kernel takes it: mskernel's kernels read the strings themselves, so it is returned
    unchanged (a non-string is refused).

    Example:
        >>> str_to_enum('Pad', 'mode', 'reflect')
        'reflect'
    """
    if not isinstance(value, str):
        raise TypeError(f"For '{op_name}', the input '{arg_name}' should be a str, but got {type(value).__name__}.")
    return value
