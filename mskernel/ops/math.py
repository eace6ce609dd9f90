"""The hand-tuned binary, comparison and matrix ops the op table's entries point at (``fn=``).

``add``, ``sub``, ``mul`` and ``div`` are the Tensor operators' ops: the engine core runs their common
case (float operands of one dtype, or a float tensor and a Python number) in C and records it with
the rule declared here; the Python function coerces every other case and then comes back through
the core (``.apply``). Every other elementwise op is a forward/backward entry of :mod:`mskernel.ops.table`.

Backward rules are written with ops, so when the engine records them (``create_graph``)
higher-order gradients come for free. Broadcast gradients are summed back to input shapes by
the engine.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([1.0, 2.0])
    >>> print(ops.mul(x, x) + ops.exp(ops.zeros_like(x)))
    [2. 5.]
"""
from __future__ import annotations

from typing import Any, Callable, Tuple

import numpy as np

from mskernel._accel import cengine
from mskernel.autograd.broadcast import sum_to
from mskernel.autograd.node import STATE, _record1, record, saved
from mskernel.autograd.rule import rule
from mskernel import dtype as mstype
from mskernel.ops._core import binary_args, broadcast_error, cast_tensor, check_tensor
from mskernel.ops.opdef import F
from mskernel.common.tensor import Tensor

__all__ = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "extremum_weights", "matmul", "equal",
           "not_equal", "less", "less_equal", "greater", "greater_equal", "where", "logical_not", "ADD", "SUB",
           "MUL", "DIV"]


_new = Tensor._wrap
_C = cengine()

# ---- the Tensor operators' ops: each input's gradient, one formula per input ---------------------------------
ADD = rule("Add", ("input", "other"), (lambda g: g, lambda g: g))
SUB = rule("Sub", ("input", "other"), (lambda g: g, lambda g: -g))
MUL = rule("Mul", ("input", "other"), (lambda g, other: g * other, lambda g, input: g * input))
DIV = rule("Div", ("input", "other"), (lambda g, other: g / other,
                                       lambda g, input, other: -g * input / (other * other)))


def _operands(op: str, x: Any, y: Any) -> Tuple[Tensor, Tensor]:
    """Two Tensors of one dtype, promoted as MindSpore does (a Python number keeps a float tensor's dtype)."""
    if x.__class__ is Tensor and y.__class__ is Tensor and x._data.dtype is y._data.dtype:
        return x, y
    yc = y.__class__
    if x.__class__ is Tensor and (yc is float or yc is int) and x._data.dtype.kind == "f":
        return x, _new(np.array(y, x._data.dtype))  # promote_scalar keeps a float tensor's dtype
    return binary_args(x, y, op)


def _computed(op: Any, name: str, x: Tensor, y: Tensor) -> Tensor:
    """``op`` (an operator with a C path) on coerced operands: computed and recorded by the engine core."""
    try:
        return op.apply(x, y)
    except ValueError:
        raise broadcast_error(name, x, y) from None


def _with_c_path(fn: Callable, ufunc: Any, rule_: Any) -> Any:
    """``fn`` behind the engine core's C path for its common case (``fn`` stays its name, docstring and signature)."""
    return _C.Binop(fn.__name__, ufunc, fn, rule_)


def _binary(op: str, fn: Callable, x: Any, y: Any) -> Tuple[Tensor, Tensor, Tensor]:
    """The coerced operands and ``fn`` of their arrays, for the binary ops without a C path."""
    x, y = _operands(op, x, y)
    try:
        out = _new(fn(x._data, y._data))
    except ValueError:
        raise broadcast_error(op, x, y) from None
    return x, y, out


def add(input: Any, other: Any) -> Tensor:
    """``input + other`` with broadcasting and MindSpore's type promotion.

    Example:
        >>> import mskernel as ms
        >>> print(add(ms.Tensor([1.0, 2.0]), 1))
        [2. 3.]
    """
    x, y = _operands("Add", input, other)
    return _computed(add, "Add", x, y)


def sub(input: Any, other: Any) -> Tensor:
    """``input - other``.

    Example:
        >>> import mskernel as ms
        >>> print(sub(ms.Tensor([3.0]), ms.Tensor([1.0])))
        [2.]
    """
    x, y = _operands("Sub", input, other)
    return _computed(sub, "Sub", x, y)


def mul(input: Any, other: Any) -> Tensor:
    """``input * other``.

    Example:
        >>> import mskernel as ms
        >>> print(mul(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))
        [3. 8.]
    """
    x, y = _operands("Mul", input, other)
    return _computed(mul, "Mul", x, y)


def div(input: Any, other: Any) -> Tensor:
    """True division; integer inputs give Float32 (as MindSpore's ``Div``/``/``).

    Example:
        >>> import mskernel as ms
        >>> print(div(ms.Tensor([1, 3]), 2))
        [0.5 1.5]
    """
    x, y = binary_args(input, other, "Div")
    if x._data.dtype.kind in "biu":
        x, y = cast_tensor(x, mstype.float32), cast_tensor(y, mstype.float32)
    return _computed(div, "Div", x, y)


# the names above are now the operators with their C path (the functions stay their fallback and documentation)
add = _with_c_path(add, np.add, ADD)
sub = _with_c_path(sub, np.subtract, SUB)
mul = _with_c_path(mul, np.multiply, MUL)
div = _with_c_path(div, np.true_divide, DIV)


def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` (either may be a scalar).

    Example:
        >>> import mskernel as ms
        >>> print(pow(ms.Tensor([2.0, 3.0]), 2))
        [4. 9.]
    """
    x, y, out = _binary("Pow", np.power, input, exponent)
    if STATE.enabled and (x._rg or y._rg):
        xr, yr = x._rg, y._rg
        x, y = saved(x), saved(y)  # what the backward reads (an in-place write later leaves them as they are)

        def backward(d, outs):
            dx = d[0] * y * x ** (y - 1) if xr else None
            dy = d[0] * outs[0] * F.log(where(x > 0, x, ones_like(x))) if yr else None
            return dx, dy
        record("Pow", (x, y), (out,), backward, needs_outputs=True)
    return out


def maximum(input: Any, other: Any) -> Tensor:
    """Elementwise maximum; a NaN on either side gives NaN. At a tie each input gets half the gradient (as
    MindSpore's MaximumGrad); where a NaN makes the comparison false both get all of it.

    Example:
        >>> import mskernel as ms
        >>> print(maximum(ms.Tensor([1.0, 5.0]), ms.Tensor([3.0, 2.0])))
        [3. 5.]
    """
    return _extremum("Maximum", np.maximum, np.less, input, other)


def minimum(input: Any, other: Any) -> Tensor:
    """Elementwise minimum; NaN, ties and their gradients as :func:`maximum`.

    Example:
        >>> import mskernel as ms
        >>> print(minimum(ms.Tensor([1.0, 5.0]), ms.Tensor([3.0, 2.0])))
        [1. 2.]
    """
    return _extremum("Minimum", np.minimum, np.greater, input, other)


def extremum_weights(loses: Callable, x: np.ndarray, y: np.ndarray, dtype: Any) -> tuple:
    """The shares of the gradient of ``maximum(x, y)`` (``loses=np.less``) or ``minimum`` (``np.greater``) that
    go to ``x`` and to ``y``: all to the winner, half each at a tie (``+0 == -0`` and ``inf == inf`` are ties),
    all to each where a NaN makes every comparison false -- MindSpore 2.10's MaximumGrad/MinimumGrad.

    Example:
        >>> extremum_weights(np.less, np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 1.0]), np.float32)
        (array([0. , 0.5, 1. ], dtype=float32), array([1. , 0.5, 0. ], dtype=float32))
    """
    tie = x == y
    wx = np.where(loses(x, y), 0.0, np.where(tie, 0.5, 1.0)).astype(dtype)
    wy = np.where(loses(y, x), 0.0, np.where(tie, 0.5, 1.0)).astype(dtype)
    return wx, wy


def _extremum(op: str, fn: Callable, loses: Callable, input: Any, other: Any) -> Tensor:
    """``fn(input, other)`` elementwise; the gradient is shared as :func:`extremum_weights` says."""
    x, y, out = _binary(op, fn, input, other)
    if STATE.enabled and (x._rg or y._rg):
        xa, ya = x._data, y._data  # the arrays the op read (an in-place write later gives its target a new one)

        def backward(d):
            wx, wy = extremum_weights(loses, xa, ya, d[0]._data.dtype)
            # selects, so that an inf or NaN in d gives 0 to the input that lost (as the wheel)
            return (where(Tensor._wrap(wx != 0), d[0] * Tensor._wrap(wx), 0.0),
                    where(Tensor._wrap(wy != 0), d[0] * Tensor._wrap(wy), 0.0))
        _record1(op, (x, y), out, backward)
    return out


def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with numpy's rules (1-D operands, broadcast batch dimensions).

    Example:
        >>> import mskernel as ms
        >>> print(matmul(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0], [4.0]])))
        [[11.]]
    """
    x = check_tensor(input, "MatMul", "input")
    y = check_tensor(other, "MatMul", "other")
    if x._data.dtype != y._data.dtype:
        raise TypeError(f"For 'MatMul', the dtypes of 'input' and 'other' must be the same, but got {x.dtype} "
                        f"and {y.dtype}.")
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"For 'MatMul', the inputs must be at least 1-D, but got shapes {list(x.shape)} and "
                         f"{list(y.shape)}.")
    try:
        out = Tensor._wrap(np.matmul(x._data, y._data))
    except ValueError:
        raise ValueError(f"For 'MatMul', the shapes {list(x.shape)} and {list(y.shape)} cannot be multiplied: "
                         f"the last dimension of 'input' must equal the second-to-last of 'other'.") from None
    if STATE.enabled and (x._rg or y._rg):
        xr, yr = x._rg, y._rg
        x, y = saved(x), saved(y)  # what the backward reads (an in-place write later leaves them as they are)

        def backward(d):
            g = d[0]
            x2 = x if x.ndim > 1 else x.reshape((1, -1))
            y2 = y if y.ndim > 1 else y.reshape((-1, 1))
            if x.ndim == 1 or y.ndim == 1:  # restore the matrix dims numpy dropped
                batch = np.broadcast_shapes(x2.shape[:-2], y2.shape[:-2])
                g = g.reshape(batch + (x2.shape[-2], y2.shape[-1]))
            dx = matmul(g, y2.swapaxes(-1, -2)) if xr else None
            dy = matmul(x2.swapaxes(-1, -2), g) if yr else None
            if dx is not None and x.ndim == 1:
                dx = sum_to(dx, (1, x.shape[0])).reshape(x.shape)
            if dy is not None and y.ndim == 1:
                dy = sum_to(dy, (y.shape[0], 1)).reshape(y.shape)
            return dx, dy
        _record1("MatMul", (x, y), out, backward)
    return out


def _compare(op: str, fn: Callable, x: Any, y: Any) -> Tensor:
    x, y, out = _binary(op, fn, x, y)
    return out


def equal(input: Any, other: Any) -> Tensor:
    """Elementwise ``==`` as a Bool tensor.

    Example:
        >>> import mskernel as ms
        >>> print(equal(ms.Tensor([1, 2]), 2))
        [False  True]
    """
    return _compare("Equal", np.equal, input, other)


def not_equal(input: Any, other: Any) -> Tensor:
    """Elementwise ``!=``."""
    return _compare("NotEqual", np.not_equal, input, other)


def less(input: Any, other: Any) -> Tensor:
    """Elementwise ``<``."""
    return _compare("Less", np.less, input, other)


def less_equal(input: Any, other: Any) -> Tensor:
    """Elementwise ``<=``."""
    return _compare("LessEqual", np.less_equal, input, other)


def greater(input: Any, other: Any) -> Tensor:
    """Elementwise ``>``.

    Example:
        >>> import mskernel as ms
        >>> print(greater(ms.Tensor([1.0, 3.0]), 2.0))
        [False  True]
    """
    return _compare("Greater", np.greater, input, other)


def greater_equal(input: Any, other: Any) -> Tensor:
    """Elementwise ``>=``."""
    return _compare("GreaterEqual", np.greater_equal, input, other)


def logical_not(input: Any) -> Tensor:
    """Elementwise ``not`` of a Bool tensor."""
    x = check_tensor(input, "LogicalNot", "input")
    return Tensor._wrap(np.logical_not(x._data))


def where(condition: Any, input: Any, other: Any) -> Tensor:
    """``input`` where ``condition`` holds, else ``other`` (broadcasting; gradients flow to both).

    Example:
        >>> import mskernel as ms
        >>> print(where(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0]), 0.0))
        [1. 0.]
    """
    c = check_tensor(condition, "Select", "condition")
    if c._data.dtype != np.bool_:
        raise TypeError(f"For 'Select', the 'condition' must be a Bool tensor, but got {c.dtype}.")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):  # two Python values: tensors of them
        input = Tensor._wrap(np.asarray(input, np.float32 if isinstance(input, float) else None))
    x, y = binary_args(input, other, "Select")
    try:
        out = Tensor._wrap(np.where(c._data, x._data, y._data))
    except ValueError:
        raise ValueError(f"For 'Select', the shapes of condition {list(c.shape)}, x {list(x.shape)} and y "
                         f"{list(y.shape)} cannot broadcast.") from None
    if STATE.enabled and (x._rg or y._rg):
        xr, yr = x._rg, y._rg
        c = saved(c)

        def backward(d):
            z = zeros_like(d[0])
            return None, where(c, d[0], z) if xr else None, where(c, z, d[0]) if yr else None
        record("Select", (c, x, y), (out,), backward)
    return out


# late imports of sibling ops used inside backward rules (no cycle at import time)
from mskernel.ops.shape import ones_like, zeros_like  # noqa: E402
