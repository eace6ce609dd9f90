"""Op table: the piecewise activations (shrinks, clamps, thresholds), the gated and fast ones, each backward beside
its forward.

A piecewise activation's gradient is 1 where it passes the input through and 0 where it cuts it off, with the
boundary on the side MindSpore 2.10 puts it (``threshold`` and the shrinks are strict; ``hardtanh`` clamps with a
maximum then a minimum, so an input equal to a bound shares the gradient half and half).

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([-2.0, -0.5, 0.3, 1.0])
    >>> print(ops.hardshrink(x), ops.softshrink(x), ops.hardtanh(x))
    [-2.  0.  0.  1.] [-1.5  0.   0.   0.5] [-1.  -0.5  0.3  1. ]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op

_FAST_GELU_K = 1.702


def _where(cond: np.ndarray, like: Tensor) -> Tensor:
    return Tensor._wrap(np.asarray(cond).astype(like._data.dtype))


def _check_half_single(x: np.ndarray, prim: str) -> None:
    """MindSpore's HShrink and SoftShrink kernels take Float16 and Float32 only."""
    if x.dtype not in (np.float16, np.float32):
        from mskernel import dtype as mstype
        raise TypeError(f"For primitive[{prim}], the input argument[input_x] must be a type of {{BFloat16, Float16, "
                        f"Float32}}, but got {mstype.to_dtype(x.dtype)}.")


def _hardshrink(x: np.ndarray, lambd: float = 0.5) -> np.ndarray:
    _check_half_single(x, "HShrink")
    return np.where(np.abs(x) > lambd, x, 0).astype(x.dtype)


def _softshrink(x: np.ndarray, lambd: float = 0.5) -> np.ndarray:
    _check_half_single(x, "SoftShrink")
    if lambd < 0:
        raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or equal to 0, , but found to "
                           f"be [{lambd:g}].")
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0)).astype(x.dtype)


def _celu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    if x.dtype.kind != "f":
        from mskernel import dtype as mstype
        raise TypeError(f"For primitive[CeLU], the input argument[input_x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{mstype.to_dtype(x.dtype)}].")
    if alpha == 0:
        raise ValueError(f"For primitive[CeLU], the alpha must be not equal to 0 , but got {alpha:g}.")
    with np.errstate(over="ignore"):
        neg = alpha * np.expm1(np.minimum(x, 0) / alpha)
    return np.where(x > 0, x, neg).astype(x.dtype)


def _hardtanh_grad(g: Tensor, input: Tensor, min_val: float, max_val: float) -> tuple:
    x = input._data
    share = np.where((x > min_val) & (x < max_val), 1.0, np.where((x == min_val) | (x == max_val), 0.5, 0.0))
    return (g * _where(share, g),)


def _fast_gelu(x: np.ndarray) -> np.ndarray:
    """``x * sigmoid(1.702 x)``, written as MindSpore's kernel writes it: ``x / (1 + e**(-1.702|x|)) *
    e**(0.851 (x - |x|))`` (no overflow for large |x|)."""
    w = x.astype(np.float32) if x.dtype == np.float16 else x  # half precision computed in float32, rounded once
    a = np.abs(w)
    return (w / (1 + np.exp(-_FAST_GELU_K * a)) * np.exp(_FAST_GELU_K / 2 * (w - a))).astype(x.dtype)


def _fast_gelu_grad(g: Tensor, x: Tensor) -> tuple:
    s = F.sigmoid(x * _FAST_GELU_K)
    return (g * (s + x * _FAST_GELU_K * s * (1 - s)),)


def glu(x: Any, axis: int = -1) -> Tensor:
    """The gated linear unit: ``x`` split in two halves along ``axis``, ``a * sigmoid(b)``.

    Example:
        >>> import mskernel as ms
        >>> print(glu(ms.Tensor([[0.0, 1.0, 2.0, 3.0]])))
        [[0.        0.9525741]]
    """
    t = check_tensor(x, "GLU", "x")
    axis = axis + t.ndim if axis < 0 else axis
    if t.shape[axis] % 2:
        raise ValueError(f"For 'Split', x_shape[{axis}] must be divisible by output_num = 2, but got "
                         f"{t.shape[axis]}")
    if t._data.dtype.kind not in "f":
        raise TypeError("Select CPU operator[Sigmoid] fail! Unsupported data type!")
    a, b = F.split(t, t.shape[axis] // 2, axis)
    return a * F.sigmoid(b)


def rrelu(input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> Tensor:
    """The randomized leaky ReLU: each negative element times a slope drawn uniformly from [lower, upper].

    Example:
        >>> import mskernel as ms
        >>> print(rrelu(ms.Tensor([[1.0, 2.0], [0.0, 3.0]])))
        [[1. 2.]
         [0. 3.]]
    """
    x = check_tensor(input, "rrelu", "input")
    for name, v in (("lower", lower), ("upper", upper)):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise TypeError(f"For 'rrelu', the type of '{name}' should be one of '['float', 'int']', but got type "
                            f"'{type(v).__name__}'.")
    if lower > upper:
        raise ValueError(f"For 'rrelu', the value of 'upper' must be greater than or equal to 'lower', but got "
                         f"upper: {upper}, lower: {lower}. ")
    from mskernel.common.seed import generator
    slope = generator().uniform(lower, upper, x.shape).astype(x._data.dtype)
    return x * Tensor._wrap(np.where(x._data >= 0, 1, slope).astype(x._data.dtype))


OPS: List[Op] = [
    Op("hardshrink", "input, lambd=0.5", _hardshrink,
       lambda g, input, lambd: (g * _where(np.abs(input._data) > lambd, g),),
       prim="HShrink(lambd=0.5)(input_x) -> input_x, lambd", method=True),
    Op("softshrink", "input, lambd=0.5", _softshrink,
       lambda g, input, lambd: (g * _where(np.abs(input._data) > lambd, g),),
       prim="SoftShrink(lambd=0.5)(input_x) -> input_x, lambd", method="soft_shrink",
       aliases=("soft_shrink",)),
    Op("celu", "x, alpha=1.0", _celu,
       lambda g, x, alpha: (g * F.where(x > 0, F.ones_like(x), F.exp(x * (1.0 / alpha))),),
       prim="CeLU(alpha=1.0)(input_x) -> input_x, alpha"),
    Op("hardtanh", "input, min_val=-1.0, max_val=1.0",
       lambda x, min_val, max_val: np.minimum(np.maximum(x, min_val), max_val).astype(x.dtype), _hardtanh_grad),
    Op("threshold", "input, thr, value", lambda x, thr, value: np.where(x > thr, x, value).astype(x.dtype),
       lambda g, input, thr: (g * _where(input._data > thr, g),)),
    Op("tanhshrink", "input", lambda x: (x - np.tanh(x)).astype(x.dtype),
       lambda g, input: (g * F.tanh(input) * F.tanh(input),), dtype="to_float"),
    Op("fast_gelu", "x", _fast_gelu, _fast_gelu_grad, dtype="float", prim=("FastGeLU", "FastGelu")),
    Op("glu", "x, axis=-1", fn=glu, prim="GLU(axis=-1)(x) -> x, axis"),
    Op("rrelu", "input, lower=1.0 / 8, upper=1.0 / 3", fn=rrelu),
]

EXAMPLES = {
    "celu": ("ops.celu(ms.Tensor([-2.0, -1.0, 1.0, 2.0]))", "[-0.86466473 -0.63212055  1.          2.        ]"),
    "CeLU": ("ops.CeLU(alpha=2.0)(ms.Tensor([-2.0, 1.0]))", "[-1.2642411  1.       ]"),
    "hardtanh": ("ops.hardtanh(ms.Tensor([-2.0, 0.5, 3.0]), -1.0, 2.0)", "[-1.   0.5  2. ]"),
    "threshold": ("ops.threshold(ms.Tensor([0.0, 2.0, 3.0]), 1.0, 20.0)", "[20.  2.  3.]"),
    "tanhshrink": ("ops.tanhshrink(ms.Tensor([1.0, 2.0]))", "[0.23840582 1.0359724 ]"),
    "fast_gelu": ("ops.fast_gelu(ms.Tensor([-1.0, 0.0, 2.0]))", "[-0.15420423  0.          1.9356586 ]"),
    "FastGeLU": ("ops.FastGeLU()(ms.Tensor([-1.0, 0.0, 2.0]))", "[-0.15420423  0.          1.9356586 ]"),
    "hardshrink": ("ops.hardshrink(ms.Tensor([[0.5, 1.0, 2.0], [0.0533, 0.0776, -2.1233]]))",
                   "[[ 0.      1.      2.    ]\n [ 0.      0.     -2.1233]]"),
    "softshrink": ("ops.softshrink(ms.Tensor([-2.0, -0.5, 0.3, 1.0]))", "[-1.5  0.   0.   0.5]"),
    "HShrink": ("ops.HShrink(lambd=1.0)(ms.Tensor([-2.0, 0.5, 1.5]))", "[-2.   0.   1.5]"),
    "SoftShrink": ("ops.SoftShrink(lambd=1.0)(ms.Tensor([-2.0, 0.5, 1.5]))", "[-1.   0.   0.5]"),
    "GLU": ("ops.GLU(axis=0)(ms.Tensor([[1.0], [0.0]]))", "[[0.5]]"),
}
