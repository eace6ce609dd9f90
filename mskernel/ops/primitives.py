"""MindSpore's primitive classes (``ops.Mul()(x, y)``) over the functional ops.

A primitive is constructed once (with its attributes) and called like a function; every call is
the same recorded op as the functional form.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> print(ops.Mul()(ms.Tensor([2.0]), ms.Tensor([3.0])), ops.ReduceSum(keep_dims=True)(ms.Tensor([1.0, 2.0])))
    [6.] [3.]
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from mskernel.ops import math as M
from mskernel.ops import reduce as R
from mskernel.ops import shape as S

__all__ = ["Primitive", "PrimitiveWithInfer", "Add", "Sub", "Mul", "Div", "RealDiv", "Neg", "Pow", "Exp", "Log",
           "Sqrt", "Sin", "Cos", "Tanh", "Sigmoid", "ReLU", "Abs", "Maximum", "Minimum", "MatMul", "BatchMatMul",
           "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "Reshape", "Transpose", "BroadcastTo", "ExpandDims",
           "Squeeze", "Concat", "Stack", "Select", "ZerosLike", "OnesLike", "Cast", "Square", "StopGradient",
           "Equal", "Greater", "Less", "Identity", "Fill"]


class Primitive:
    """Base of primitive ops: a name, attributes (``add_prim_attr``) and ``__call__``.

    Example:
        >>> p = Primitive("MyOp")
        >>> p.add_prim_attr("k", 3).attrs["k"]
        3
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.attrs: Dict[str, Any] = {}

    def add_prim_attr(self, name: str, value: Any) -> "Primitive":
        """Set an attribute (MindSpore's ``add_prim_attr``)."""
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        """Remove an attribute."""
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs: Any, outputs: Any) -> None:
        """Record input/output names (kept as attributes, as in MindSpore)."""
        self.attrs["input_names"] = list(inputs)
        self.attrs["output_names"] = list(outputs)

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithInfer(Primitive):
    """Primitive with ``infer_shape``/``infer_dtype`` hooks (MindSpore's base of ``Custom``)."""


def _simple(name: str, fn: Callable, doc: str) -> type:
    def __init__(self) -> None:
        Primitive.__init__(self, name)

    def __call__(self, *args: Any) -> Any:
        return fn(*args)
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc})


Add = _simple("Add", M.add, "``Add()(x, y)``: x + y.")
Sub = _simple("Sub", M.sub, "``Sub()(x, y)``: x - y.")
Mul = _simple("Mul", M.mul, "``Mul()(x, y)``: x * y.")
Div = _simple("Div", M.div, "``Div()(x, y)``: x / y.")
RealDiv = _simple("RealDiv", M.div, "``RealDiv()(x, y)``: x / y.")
Neg = _simple("Neg", M.neg, "``Neg()(x)``: -x.")
Pow = _simple("Pow", M.pow, "``Pow()(x, y)``: x ** y.")
Exp = _simple("Exp", M.exp, "``Exp()(x)``.")
Log = _simple("Log", M.log, "``Log()(x)``.")
Sqrt = _simple("Sqrt", M.sqrt, "``Sqrt()(x)``.")
Sin = _simple("Sin", M.sin, "``Sin()(x)``.")
Cos = _simple("Cos", M.cos, "``Cos()(x)``.")
Tanh = _simple("Tanh", M.tanh, "``Tanh()(x)``.")
Sigmoid = _simple("Sigmoid", M.sigmoid, "``Sigmoid()(x)``.")
ReLU = _simple("ReLU", M.relu, "``ReLU()(x)``.")
Abs = _simple("Abs", M.abs, "``Abs()(x)``.")
Square = _simple("Square", M.square, "``Square()(x)``.")
Maximum = _simple("Maximum", M.maximum, "``Maximum()(x, y)``.")
Minimum = _simple("Minimum", M.minimum, "``Minimum()(x, y)``.")
Equal = _simple("Equal", M.equal, "``Equal()(x, y)``.")
Greater = _simple("Greater", M.greater, "``Greater()(x, y)``.")
Less = _simple("Less", M.less, "``Less()(x, y)``.")
Select = _simple("Select", M.where, "``Select()(cond, x, y)``.")
ZerosLike = _simple("ZerosLike", S.zeros_like, "``ZerosLike()(x)``.")
OnesLike = _simple("OnesLike", S.ones_like, "``OnesLike()(x)``.")
Cast = _simple("Cast", S.cast, "``Cast()(x, dtype)``.")
Reshape = _simple("Reshape", S.reshape, "``Reshape()(x, shape)``.")
Transpose = _simple("Transpose", S.transpose, "``Transpose()(x, perm)``.")
StopGradient = _simple("StopGradient", S.stop_gradient, "``StopGradient()(x)``.")
Identity = _simple("Identity", S.identity, "``Identity()(x)``.")
Fill = _simple("Fill", S.fill, "``Fill()(dtype, shape, value)``.")


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)`` for 2-D matrices.

    Example:
        >>> import mskernel as ms
        >>> print(MatMul(transpose_b=True)(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0, 4.0]])))
        [[11.]]
    """

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__("MatMul")
        self.transpose_a, self.transpose_b = transpose_a, transpose_b
        self.add_prim_attr("transpose_a", transpose_a).add_prim_attr("transpose_b", transpose_b)

    def __call__(self, x: Any, y: Any) -> Any:
        if self.transpose_a:
            x = S.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = S.swapaxes(y, -1, -2)
        return M.matmul(x, y)


class BatchMatMul(MatMul):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)`` over leading batch dimensions."""


class _Reduce(Primitive):
    _fn: Callable = staticmethod(R.sum)

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__(type(self).__name__)
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.name}', 'keep_dims' must be a bool, but got {type(keep_dims).__name__}.")
        self.keep_dims = keep_dims
        self.add_prim_attr("keep_dims", keep_dims)

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        return type(self)._fn(x, axis, self.keep_dims)


class ReduceSum(_Reduce):
    """``ReduceSum(keep_dims=False)(x, axis=())``: sum over axis (all when empty).

    Example:
        >>> import mskernel as ms
        >>> print(ReduceSum()(ms.Tensor([[1.0, 2.0]]), 1))
        [3.]
    """
    _fn = staticmethod(R.reduce_sum)


class ReduceMean(_Reduce):
    """``ReduceMean(keep_dims=False)(x, axis=())``."""
    _fn = staticmethod(R.reduce_mean)


class ReduceMax(_Reduce):
    """``ReduceMax(keep_dims=False)(x, axis=())``."""
    _fn = staticmethod(R.reduce_max)


class ReduceMin(_Reduce):
    """``ReduceMin(keep_dims=False)(x, axis=())``."""
    _fn = staticmethod(R.reduce_min)


class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``."""

    def __init__(self, shape: Any) -> None:
        super().__init__("BroadcastTo")
        self.shape = shape

    def __call__(self, x: Any) -> Any:
        return S.broadcast_to(x, self.shape)


class ExpandDims(Primitive):
    """``ExpandDims()(x, axis)``."""

    def __init__(self) -> None:
        super().__init__("ExpandDims")

    def __call__(self, x: Any, axis: int) -> Any:
        return S.expand_dims(x, axis)


class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``."""

    def __init__(self, axis: Any = ()) -> None:
        super().__init__("Squeeze")
        self.axis = axis

    def __call__(self, x: Any) -> Any:
        return S.squeeze(x, self.axis if self.axis != () else None)


class Concat(Primitive):
    """``Concat(axis=0)(tensors)``."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__("Concat")
        self.axis = axis

    def __call__(self, tensors: Any) -> Any:
        return S.concat(tensors, self.axis)


class Stack(Primitive):
    """``Stack(axis=0)(tensors)``."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__("Stack")
        self.axis = axis

    def __call__(self, tensors: Any) -> Any:
        return S.stack(tensors, self.axis)
