"""``mindspore.get_py_obj_dtype``: MindSpore's type of a Python object.

Example:
    >>> import mskernel as ms
    >>> get_py_obj_dtype(ms.Tensor([1.0]))
    mindspore.tensor[float32]
"""
from __future__ import annotations

from typing import Any

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor

__all__ = ["get_py_obj_dtype"]


def get_py_obj_dtype(obj: Any) -> Any:
    """MindSpore's type of a Python object (or of a Python type): ``int`` → int64, ``float`` → float64, a
    Tensor → its TensorType, a dtype → ``type_type``.

    Example:
        >>> import mskernel as ms
        >>> get_py_obj_dtype(1), get_py_obj_dtype(1.0), get_py_obj_dtype(True), get_py_obj_dtype(ms.float32)
        (mindspore.int64, mindspore.float64, mindspore.bool_, mindspore.type_type)
    """
    if isinstance(obj, Tensor):
        return mstype.TensorType(obj.dtype)
    if isinstance(obj, (mstype.Type, mstype.AbstractType, mstype.TensorType)):
        return mstype.type_type
    kind = obj if isinstance(obj, type) else type(obj)
    table = {bool: mstype.bool_, int: mstype.int64, float: mstype.float64, str: mstype.string, list: mstype.list_,
             tuple: mstype.tuple_, type(None): mstype.type_none}
    if kind in table:
        return table[kind]
    if isinstance(obj, type) and issubclass(obj, Tensor):
        return mstype.tensor_type
    raise TypeError(f"The python type {kind} cannot be converted to MindSpore type.")
