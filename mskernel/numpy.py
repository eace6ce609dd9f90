"""``mindspore.numpy`` (imported as ``mnp``): numpy's names over mskernel Tensors, differentiable.

Creation follows MindSpore's defaults — Python ints become Int32 and floats Float32 (``mnp.array([1, 2])``
is Int32, ``mnp.arange(3)`` too) —, and every function takes Tensors, numbers or nested lists and returns
a Tensor. The math, reductions (``axis``, ``keepdims``), shape and linear-algebra functions are the op
table's ops under numpy's names and argument spellings, so ``ms.grad`` flows through them.

Example:
    >>> import mskernel.numpy as mnp
    >>> a = mnp.arange(6).reshape(2, 3)
    >>> print(a.dtype, mnp.sum(a, axis=1), mnp.mean(mnp.ones((2, 3)), axis=0))
    Int32 [ 3 12] [1. 1. 1.]
"""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import numpy as _np

from mskernel import dtype as _dt
from mskernel.common.tensor import Tensor
from mskernel.ops import functional as F

float16, float32, float64 = _dt.float16, _dt.float32, _dt.float64
int8, int16, int32, int64 = _dt.int8, _dt.int16, _dt.int32, _dt.int64
uint8, bool_ = _dt.uint8, _dt.bool_
pi, e, inf, nan, newaxis = math.pi, math.e, math.inf, math.nan, None


def _default(arr: _np.ndarray) -> _np.ndarray:
    if arr.dtype == _np.float64:
        return arr.astype(_np.float32)
    if arr.dtype.kind == "i" and arr.dtype != _np.int32:
        return arr.astype(_np.int32)
    return arr


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """A Tensor from ``obj`` (ints as Int32, floats as Float32 unless ``dtype``).

    Example:
        >>> array([1, 2]).dtype, array([1.0]).dtype
        (mindspore.int32, mindspore.float32)
    """
    if isinstance(obj, Tensor):
        t = obj.copy() if copy else obj
        return F.cast(t, _dt.to_dtype(dtype)) if dtype is not None else t
    arr = _np.asarray(obj)
    arr = arr.astype(_dt.to_dtype(dtype).np) if dtype is not None else _default(arr)
    while arr.ndim < ndmin:
        arr = arr[None]
    return Tensor(_np.array(arr))


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """``a`` as a Tensor (no copy of a Tensor of the right dtype).

    Example:
        >>> asarray([[1, 2]], dtype=float32).dtype
        mindspore.float32
    """
    return array(a, dtype, copy=False)


def _t(a: Any) -> Tensor:
    return a if isinstance(a, Tensor) else array(a)


def _shape(shape: Any) -> tuple:
    return (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(int(s) for s in shape)


def zeros(shape: Any, dtype: Any = float32) -> Tensor:
    """Zeros (Float32 by default).

    Example:
        >>> print(zeros(2))
        [0. 0.]
    """
    return Tensor._wrap(_np.zeros(_shape(shape), _dt.to_dtype(dtype).np))


def ones(shape: Any, dtype: Any = float32) -> Tensor:
    """Ones (Float32 by default).

    Example:
        >>> ones(2, dtype=int32).dtype
        mindspore.int32
    """
    return Tensor._wrap(_np.ones(_shape(shape), _dt.to_dtype(dtype).np))


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value`` (its dtype by MindSpore's defaults).

    Example:
        >>> full((2,), 3).dtype
        mindspore.int32
    """
    value = _np.asarray(fill_value._data if isinstance(fill_value, Tensor) else fill_value)
    arr = _np.full(_shape(shape), value)
    return Tensor._wrap(arr.astype(_dt.to_dtype(dtype).np) if dtype is not None else _default(arr))


def empty(shape: Any, dtype: Any = float32) -> Tensor:
    """An uninitialised tensor (zeros here).

    Example:
        >>> empty((1, 2)).shape
        (1, 2)
    """
    return zeros(shape, dtype)


def zeros_like(a: Any, dtype: Any = None) -> Tensor:
    """Zeros shaped like ``a``.

    Example:
        >>> zeros_like(ones(2)).shape
        (2,)
    """
    t = _t(a)
    return zeros(t.shape, dtype or t.dtype)


def ones_like(a: Any, dtype: Any = None) -> Tensor:
    """Ones shaped like ``a``.

    Example:
        >>> print(ones_like(array([1, 2])))
        [1 1]
    """
    t = _t(a)
    return ones(t.shape, dtype or t.dtype)


def full_like(a: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``fill_value`` shaped like ``a`` (and of its dtype).

    Example:
        >>> print(full_like(array([1, 2]), 7))
        [7 7]
    """
    t = _t(a)
    return full(t.shape, fill_value, dtype or t.dtype)


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Evenly spaced values in [start, stop) (Int32 for ints, Float32 otherwise).

    Example:
        >>> print(arange(0.0, 1.0, 0.5), arange(3).dtype)
        [0.  0.5] Int32
    """
    args = [v for v in (start, stop, step) if v is not None]
    arr = _np.arange(*args)
    return Tensor._wrap(arr.astype(_dt.to_dtype(dtype).np) if dtype is not None else _default(arr))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop``.

    Example:
        >>> print(linspace(0, 1, 3))
        [0.  0.5 1. ]
    """
    arr, step = _np.linspace(start, stop, num, endpoint, retstep=True, axis=axis)
    out = Tensor._wrap(arr.astype(_dt.to_dtype(dtype or float32).np))
    return (out, step) if retstep else out


def eye(N: int, M: Optional[int] = None, k: int = 0, dtype: Any = float32) -> Tensor:
    """Ones on the ``k``-th diagonal.

    Example:
        >>> eye(2).dtype
        mindspore.float32
    """
    return Tensor._wrap(_np.eye(N, M, k, _dt.to_dtype(dtype).np))


def identity(n: int, dtype: Any = float32) -> Tensor:
    """The ``n`` x ``n`` identity.

    Example:
        >>> identity(2).shape
        (2, 2)
    """
    return eye(n, dtype=dtype)


def _named(fn: Any, name: str, doc: str, args: str, out: str) -> Any:
    """``fn`` named ``name``, its docstring ``doc`` and an example: ``mnp.name(args)`` prints ``out`` (run by
    tests/test_doctests.py, as every function of this module)."""
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{doc}\n\nExample:\n    >>> import mskernel.numpy as mnp\n    >>> print(mnp.{name}({args}))\n"
                  f"    {out}\n")
    return fn


def _binary(name: str, op: Any, args: str, out: str) -> Any:
    def fn(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        a = x1 if isinstance(x1, (Tensor, int, float, bool)) else array(x1)
        b = x2 if isinstance(x2, (Tensor, int, float, bool)) else array(x2)
        out = op(a, b)
        return F.cast(out, _dt.to_dtype(dtype)) if dtype is not None else out
    return _named(fn, name, f"numpy's ``{name}`` on Tensors (``ops.{op.__name__}``: broadcasting, promotion).",
                  args, out)


def _unary(name: str, op: Any, args: str, out: str) -> Any:
    def fn(x: Any, dtype: Any = None) -> Tensor:
        out = op(_t(x))
        return F.cast(out, _dt.to_dtype(dtype)) if dtype is not None else out
    return _named(fn, name, f"numpy's ``{name}`` on a Tensor (``ops.{op.__name__}``).", args, out)


# one function per line: its name, the op, the example's arguments and what printing its result shows
add = _binary("add", F.add, "[1, 2], 3", "[4 5]")
subtract = _binary("subtract", F.sub, "[5, 7], [1, 2]", "[4 5]")
multiply = _binary("multiply", F.mul, "[1.5, 2.0], 2", "[3. 4.]")
divide = true_divide = _binary("divide", F.div, "[1, 3], 2", "[0.5 1.5]")
floor_divide = _binary("floor_divide", F.floor_divide, "[7, -7], 2", "[ 3 -4]")
power = _binary("power", F.pow, "[2, 3], 2", "[4 9]")
remainder = mod = _binary("remainder", F.remainder, "[7, -7], 3", "[1 2]")
maximum = _binary("maximum", F.maximum, "[1, 5], [3, 4]", "[3 5]")
minimum = _binary("minimum", F.minimum, "[1, 5], [3, 4]", "[1 4]")
arctan2 = _binary("arctan2", F.atan2, "[1.0, -1.0], [1.0, 1.0]", "[ 0.7853982 -0.7853982]")
equal = _binary("equal", F.equal, "[1, 2, 3], 2", "[False  True False]")
not_equal = _binary("not_equal", F.not_equal, "[1, 2, 3], 2", "[ True False  True]")
less = _binary("less", F.less, "[1, 2, 3], 2", "[ True False False]")
less_equal = _binary("less_equal", F.less_equal, "[1, 2, 3], 2", "[ True  True False]")
greater = _binary("greater", F.greater, "[1, 2, 3], 2", "[False False  True]")
greater_equal = _binary("greater_equal", F.greater_equal, "[1, 2, 3], 2", "[False  True  True]")
logical_and = _binary("logical_and", F.logical_and, "[True, False], [True, True]", "[ True False]")
logical_or = _binary("logical_or", F.logical_or, "[True, False], [False, False]", "[ True False]")
exp = _unary("exp", F.exp, "[0.0, 1.0]", "[1.       2.718282]")
log = _unary("log", F.log, "[1.0, 10.0]", "[0.        2.3025851]")
log2 = _unary("log2", F.log2, "[1.0, 8.0]", "[0. 3.]")
log10 = _unary("log10", F.log10, "[1.0, 100.0]", "[0. 2.]")
log1p = _unary("log1p", F.log1p, "[0.0, 1.0]", "[0.        0.6931472]")
expm1 = _unary("expm1", F.expm1, "[0.0, 1.0]", "[0.        1.7182817]")
sqrt = _unary("sqrt", F.sqrt, "[4.0, 2.0]", "[2.        1.4142135]")
square = _unary("square", F.square, "[-3, 2]", "[9 4]")
abs = absolute = _unary("abs", F.abs, "[-3, 2]", "[3 2]")
negative = _unary("negative", F.neg, "[1.0, -2.0]", "[-1.  2.]")
sign = _unary("sign", F.sign, "[-3.0, 0.0, 2.0]", "[-1.  0.  1.]")
sin = _unary("sin", F.sin, "[0.0, 1.0]", "[0.       0.841471]")
cos = _unary("cos", F.cos, "[0.0, 1.0]", "[1.        0.5403023]")
tan = _unary("tan", F.tan, "[0.0, 1.0]", "[0.        1.5574077]")
arcsin = _unary("arcsin", F.asin, "[0.0, 1.0]", "[0.        1.5707964]")
arccos = _unary("arccos", F.acos, "[1.0, 0.0]", "[0.        1.5707964]")
arctan = _unary("arctan", F.atan, "[0.0, 1.0]", "[0.        0.7853982]")
sinh = _unary("sinh", F.sinh, "[0.0, 1.0]", "[0.        1.1752012]")
cosh = _unary("cosh", F.cosh, "[0.0, 1.0]", "[1.        1.5430806]")
tanh = _unary("tanh", F.tanh, "[0.0, 1.0]", "[0.        0.7615942]")
floor = _unary("floor", F.floor, "[-1.5, 1.5]", "[-2.  1.]")
ceil = _unary("ceil", F.ceil, "[-1.5, 1.5]", "[-1.  2.]")
logical_not = _unary("logical_not", F.logical_not, "[True, False]", "[False  True]")
isnan = _unary("isnan", F.isnan, "[mnp.nan, 1.0]", "[ True False]")
isinf = _unary("isinf", F.isinf, "[mnp.inf, 1.0]", "[ True False]")
isfinite = _unary("isfinite", F.isfinite, "[mnp.inf, 1.0]", "[False  True]")


def clip(a: Any, a_min: Any, a_max: Any) -> Tensor:
    """``a`` limited to [a_min, a_max].

    Example:
        >>> print(clip(arange(5), 1, 3))
        [1 1 2 3 3]
    """
    return F.clamp(_t(a), a_min, a_max)


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """``x`` where ``condition`` holds, else ``y`` (with one argument: the indices of the true elements).

    Example:
        >>> print(where(array([True, False]), 1.0, 2.0))
        [1. 2.]
    """
    c = _t(condition)
    if x is None and y is None:
        return F.nonzero(c, as_tuple=True)
    a = x if isinstance(x, Tensor) else array(x)
    b = y if isinstance(y, Tensor) else array(y)
    return F.where(c, a, b)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Elementwise closeness, as numpy's.

    Example:
        >>> print(isclose(array([1.0]), array([1.0 + 1e-9])))
        [ True]
    """
    return Tensor._wrap(_np.isclose(_t(a)._data, _t(b)._data, rtol, atol, equal_nan))


def _reduce(name: str, op: Any, args: str, out: str) -> Any:
    def fn(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False, **kw: Any) -> Tensor:
        t = _t(a)
        if dtype is not None:
            t = F.cast(t, _dt.to_dtype(dtype))
        return op(t, axis, keepdims)
    return _named(fn, name, f"numpy's ``{name}``: a reduction over ``axis`` (all axes by default).", args, out)


def _int_sum(t: Tensor, axis: Any, keepdims: bool) -> Tensor:
    out = F.sum(t, axis, keepdims)
    return F.cast(out, int64) if t._data.dtype.kind in "iu" and t._data.dtype != _np.uint64 else out


sum = _reduce("sum", _int_sum, "[[1, 2], [3, 4]], axis=0", "[4 6]")
mean = _reduce("mean", F.mean, "[[1.0, 2.0], [3.0, 4.0]], axis=1", "[1.5 3.5]")
amax = max = _reduce("amax", F.amax, "[[1, 5], [3, 4]], axis=0", "[3 5]")
amin = min = _reduce("amin", F.amin, "[[1, 5], [3, 4]], axis=1", "[1 3]")
prod = _reduce("prod", F.prod, "[[1, 2], [3, 4]], axis=1", "[ 2 12]")
all = _reduce("all", F.all, "[[True, False], [True, True]], axis=1", "[False  True]")
any = _reduce("any", F.any, "[[True, False], [False, False]], axis=1", "[ True False]")


def var(a: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance with ``ddof``.

    Example:
        >>> print(var(array([1.0, 3.0]), ddof=1))
        2.0
    """
    return F.var(_t(a), axis, ddof, keepdims)


def std(a: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation with ``ddof``.

    Example:
        >>> print(std(array([1.0, 3.0])))
        1.0
    """
    return F.std(_t(a), axis, ddof, keepdims)


def argmax(a: Any, axis: Optional[int] = None) -> Tensor:
    """The index of the largest element (over the flattened array by default).

    Example:
        >>> print(argmax(array([1, 5, 2])))
        1
    """
    return F.argmax(_t(a), axis)


def argmin(a: Any, axis: Optional[int] = None) -> Tensor:
    """The index of the smallest element (Int64 as numpy's).

    Example:
        >>> print(argmin(array([3, 1, 2])))
        1
    """
    return F.cast(F.argmin(_t(a), axis), int64)


def cumsum(a: Any, axis: Optional[int] = None, dtype: Any = None) -> Tensor:
    """Running sums (of the flattened array by default).

    Example:
        >>> print(cumsum(arange(4)))
        [0 1 3 6]
    """
    t = _t(a)
    return F.cumsum(F.reshape(t, (-1,)) if axis is None else t, 0 if axis is None else axis, dtype)


def reshape(a: Any, newshape: Any) -> Tensor:
    """``a`` in a new shape.

    Example:
        >>> reshape(arange(6), (3, 2)).shape
        (3, 2)
    """
    return F.reshape(_t(a), newshape)


def transpose(a: Any, axes: Optional[Sequence[int]] = None) -> Tensor:
    """Axes reversed (or permuted by ``axes``).

    Example:
        >>> transpose(ones((2, 3))).shape
        (3, 2)
    """
    t = _t(a)
    return F.transpose(t, tuple(reversed(range(t.ndim))) if axes is None else tuple(axes))


def concatenate(arrays: Sequence[Any], axis: int = 0) -> Tensor:
    """Join along ``axis``.

    Example:
        >>> concatenate((ones(2), zeros(1))).shape
        (3,)
    """
    return F.concat([_t(a) for a in arrays], axis)


def stack(arrays: Sequence[Any], axis: int = 0) -> Tensor:
    """Join along a new ``axis``.

    Example:
        >>> stack([ones(2), zeros(2)]).shape
        (2, 2)
    """
    return F.stack([_t(a) for a in arrays], axis)


def dot(a: Any, b: Any) -> Tensor:
    """numpy's dot: vectors give their inner product, matrices their product.

    Example:
        >>> print(dot(ones((2, 3)), ones((3,))))
        [3. 3.]
    """
    x, y = _t(a), _t(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if y.ndim == 1 or x.ndim == 1:
        return F.matmul(x, y)
    return F.tensor_dot(x, y, ((x.ndim - 1,), (y.ndim - 2,)))


def matmul(a: Any, b: Any) -> Tensor:
    """The matrix product (broadcasting batch dimensions).

    Example:
        >>> matmul(ones((2, 3)), ones((3, 2))).shape
        (2, 2)
    """
    return F.matmul(_t(a), _t(b))


def tile(a: Any, reps: Any) -> Tensor:
    """``a`` repeated ``reps`` times per axis.

    Example:
        >>> print(tile(array([1, 2]), 2))
        [1 2 1 2]
    """
    return F.tile(_t(a), _shape(reps))


def repeat(a: Any, repeats: Any, axis: Optional[int] = None) -> Tensor:
    """Each element repeated (the flattened array by default).

    Example:
        >>> print(repeat(array([1, 2]), 2))
        [1 1 2 2]
    """
    return F.repeat_interleave(_t(a), repeats, axis)


def flip(m: Any, axis: Any = None) -> Tensor:
    """Reverse along ``axis`` (all axes by default).

    Example:
        >>> print(flip(arange(3)))
        [2 1 0]
    """
    t = _t(m)
    return F.flip(t, tuple(range(t.ndim)) if axis is None else axis)


def expand_dims(a: Any, axis: int) -> Tensor:
    """A new axis of length 1.

    Example:
        >>> expand_dims(ones(2), 0).shape
        (1, 2)
    """
    return F.expand_dims(_t(a), axis)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """Axes of length 1 removed.

    Example:
        >>> squeeze(ones((1, 2))).shape
        (2,)
    """
    return F.squeeze(_t(a), axis)


def ravel(x: Any) -> Tensor:
    """The flattened tensor.

    Example:
        >>> ravel(ones((2, 2))).shape
        (4,)
    """
    return F.reshape(_t(x), (-1,))


def unique(x: Any, return_inverse: bool = False) -> Any:
    """The distinct elements (in order of first appearance, as MindSpore's); with ``return_inverse`` also the
    position of each element among them.

    Example:
        >>> print(unique(array([3, 1, 3])))
        [3 1]
    """
    out, inverse = F.unique(_t(x))
    return (out, inverse) if return_inverse else out


def outer(a: Any, b: Any) -> Tensor:
    """The outer product of the flattened inputs.

    Example:
        >>> outer(ones(2), ones(3)).shape
        (2, 3)
    """
    return F.outer(ravel(a), ravel(b))


def broadcast_to(array_: Any, shape: Any) -> Tensor:
    """``array_`` broadcast to ``shape``.

    Example:
        >>> broadcast_to(ones(2), (3, 2)).shape
        (3, 2)
    """
    return F.broadcast_to(_t(array_), _shape(shape))


def meshgrid(*xi: Any, indexing: str = "xy") -> tuple:
    """Coordinate grids, as numpy's.

    Example:
        >>> [g.shape for g in meshgrid(arange(3), arange(2))]
        [(2, 3), (2, 3)]
    """
    return F.meshgrid(*[_t(x) for x in xi], indexing=indexing)


def trace(a: Any) -> Tensor:
    """The sum of the main diagonal.

    Example:
        >>> print(trace(eye(3)))
        3.0
    """
    return F.trace(_t(a))


tril, triu, diag, kron = F.tril, F.triu, F.diag, F.kron
swapaxes, moveaxis = F.swapaxes, F.movedim
