"""Op table: introspection (shape, dtype, rank, size), clipping, printing and scalar conversions.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[3.0, 4.0], [0.0, 0.0]])
    >>> ops.shape(x), ops.rank(x), ops.Size()(x), ops.dtype(x)
    ((2, 2), 2, 4, mindspore.float32)
    >>> print(ops.clip_by_norm(x, 1.0))
    [[0.5999999  0.79999983]
     [0.         0.        ]]
"""
from __future__ import annotations

import sys
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _shape(input_x: Any) -> Tuple[int, ...]:
    return check_tensor(input_x, "Shape", "input_x").shape


def _dtype(x: Any) -> mstype.Type:
    return check_tensor(x, "DType", "x").dtype


def _rank(input_x: Any) -> int:
    return check_tensor(input_x, "Rank", "input_x").ndim


def _size(input_x: Any) -> int:
    return check_tensor(input_x, "Size", "input_x").size


def _tensor_shape(input_x: Any) -> Tensor:
    return Tensor._wrap(np.array(check_tensor(input_x, "TensorShape", "input_x").shape, np.int64))


def _clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    if isinstance(x, (tuple, list)):
        return type(x)(_clip_by_value(t, clip_value_min, clip_value_max) for t in x)
    # as maximum then minimum, so a bound's gradient is shared at a tie as theirs is (MindSpore 2.10 does so;
    # ops.clamp gives a bound all of it)
    if clip_value_min is None and clip_value_max is None:
        return F.clamp(x, clip_value_min, clip_value_max)  # clamp's error for no bounds
    out = x if clip_value_min is None else F.maximum(x, clip_value_min)
    return out if clip_value_max is None else F.minimum(out, clip_value_max)


def _clip_by_norm(x: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False) -> Any:
    """Scale ``x`` (or a tuple of tensors, by their joint norm) so its norm is at most ``max_norm``."""
    tensors = list(x) if isinstance(x, (tuple, list)) else [x]
    if norm_type == float("inf"):
        total = F.amax(F.stack([F.amax(F.abs(t)) for t in tensors]))
    else:
        total = F.sum(F.stack([F.sum(F.abs(t) ** norm_type) for t in tensors])) ** (1.0 / norm_type)
    if error_if_nonfinite and not np.isfinite(total._data):
        raise RuntimeError(f"For 'clip_by_norm', the total norm of order {norm_type} is non-finite.")
    coef = F.clamp(max_norm / (total + 1e-6), max=1.0)
    out = [t * coef.astype(t.dtype) for t in tensors]
    return type(x)(out) if isinstance(x, (tuple, list)) else out[0]


def _clip_by_global_norm(x: Sequence[Any], clip_norm: float = 1.0, use_norm: Any = None) -> tuple:
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"For 'clip_by_global_norm', 'x' must be a tuple or list of Tensors, but got "
                        f"{type(x).__name__}.")
    norm = use_norm if use_norm is not None else F.sqrt(F.sum(F.stack([F.sum(t * t) for t in x])))
    scale = clip_norm / F.maximum(norm, clip_norm)
    return tuple(t * scale for t in x)


def _print(*input_x: Any) -> None:
    """MindSpore's ``ops.print_``/``ops.Print()``: each argument on its own line (Tensors as their repr)."""
    for v in input_x:
        sys.stdout.write((repr(v) if isinstance(v, Tensor) else str(v)) + "\n")


def _scalar_to_tensor(input_x: Any, dtype: Any = mstype.float32) -> Tensor:
    return Tensor(input_x, dtype)


def _tuple_to_array(input_x: Any) -> Tensor:
    if not isinstance(input_x, (tuple, list)):
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a tuple, but got {type(input_x).__name__}.")
    arr = np.array(input_x)  # measured on MindSpore 2.10: ints give Int32, floats Float32
    kind = arr.dtype.kind
    return Tensor(arr.astype(np.int32 if kind in "iu" else np.float32 if kind == "f" else arr.dtype))


def _scalar_cast(input_x: Any, input_y: Any) -> Any:
    return mstype.dtype_to_pytype(input_y)(input_x)


def _is_floating_point(input: Any) -> bool:
    return check_tensor(input, "is_floating_point", "input")._data.dtype.kind == "f"


_INTRO = dict(inputs=0)
OPS: List[Op] = [
    Op("shape", "input_x", fn=_shape, prim="Shape", **_INTRO),
    Op("dtype", "x", fn=_dtype, prim="DType", **_INTRO),
    Op("rank", "input_x", fn=_rank, prim="Rank", **_INTRO),
    Op("size", "input_x", fn=_size, prim="Size", **_INTRO),
    Op("numel", "input", fn=_size, **_INTRO),
    Op("tensor_shape", "input_x", fn=_tensor_shape, prim="TensorShape", **_INTRO),
    Op("is_floating_point", "input", fn=_is_floating_point, method=True, **_INTRO),
    Op("clip_by_value", "x, clip_value_min=None, clip_value_max=None", fn=_clip_by_value, **_INTRO),
    Op("clip_by_norm", "x, max_norm, norm_type=2.0, error_if_nonfinite=False", fn=_clip_by_norm, **_INTRO),
    Op("clip_by_global_norm", "x, clip_norm=1.0, use_norm=None", fn=_clip_by_global_norm, **_INTRO),
    Op("print_", "*input_x", fn=_print, prim="Print", **_INTRO),
    Op("scalar_to_tensor", "input_x, dtype=mindspore.float32", fn=_scalar_to_tensor, prim="ScalarToTensor",
       **_INTRO),
    Op("tuple_to_array", "input_x", fn=_tuple_to_array, prim="TupleToArray", **_INTRO),
    Op("scalar_cast", "input_x, input_y", fn=_scalar_cast, prim="ScalarCast", **_INTRO),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "shape": ("ops.shape(ms.Tensor([[1, 2, 3]]))", "(1, 3)"),
    "dtype": ("ops.dtype(ms.Tensor([1.0]))", "Float32"),
    "rank": ("ops.rank(ms.Tensor([[1, 2, 3]]))", "2"),
    "size": ("ops.size(ms.Tensor([[1, 2, 3]]))", "3"),
    "tensor_shape": ("ops.tensor_shape(ms.Tensor([[1, 2, 3]]))", "[1 3]"),
    "is_floating_point": ("ops.is_floating_point(ms.Tensor([1.0])), ops.is_floating_point(ms.Tensor([1]))",
                          "True False"),
    "clip_by_value": ("ops.clip_by_value(ms.Tensor([-2.0, 0.5, 3.0]), -1.0, 1.0)", "[-1.   0.5  1. ]"),
    "clip_by_norm": ("ops.clip_by_norm(ms.Tensor([3.0, 4.0]), 1.0)", "[0.5999999  0.79999983]"),
    "clip_by_global_norm": ("*ops.clip_by_global_norm((ms.Tensor([3.0]), ms.Tensor([4.0])), 1.0)", "[0.6] [0.8]"),
    "print_": ("ops.print_('x:', ms.Tensor([1, 2]))", "x:\nTensor(shape=[2], dtype=Int64, value= [1, 2])\nNone"),
    "scalar_to_tensor": ("ops.scalar_to_tensor(2, ms.float32)", "2.0"),
    "tuple_to_array": ("ops.tuple_to_array((1, 2, 3))", "[1 2 3]"),
    "scalar_cast": ("ops.scalar_cast(2.7, ms.int32)", "2"),
}
