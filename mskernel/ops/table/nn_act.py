"""Op table: activations and the softmax family, each backward beside its forward.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0]])
    >>> print(ops.softmax(x), ops.Softmax(axis=-1)(x).sum())
    [[0.09003057 0.24472846 0.66524094]] 1.0
    >>> print(ops.gelu(x, approximate="tanh"), ops.leaky_relu(-x))
    [[0.841192  1.9545977 2.9963627]] [[-0.2 -0.4 -0.6]]
"""
from __future__ import annotations

import math
from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import math as M
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.unary import in_float32

_FLOAT = dict(dtype="float")
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_erf = np.frompyfunc(math.erf, 1, 1)


def _softmax(x: np.ndarray, axis: Any = -1, dtype: Any = None) -> np.ndarray:
    if dtype is not None:
        x = x.astype(dtype.np)
    if isinstance(axis, (tuple, list)):
        axis = tuple(axis)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """A slice holding +inf (and no NaN) gives the limit, as MindSpore does: -inf at its finite entries, NaN at the
    infinite ones."""
    top = np.max(x, axis=axis, keepdims=True)
    with np.errstate(invalid="ignore"):
        shifted = x - top
        out = shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    at = np.isposinf(top)
    if not at.any():
        return out
    return np.where(at, np.where(np.isposinf(x), np.nan, -np.inf), out).astype(out.dtype)


def _gelu(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    if approximate == "tanh":
        return (0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    if approximate != "none":
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got {approximate!r}.")
    if x.dtype == np.float16:  # MindSpore's CPU kernel: each step rounded to float16, erf evaluated in float32
        h = np.float16
        e = np.asarray(_erf((x / h(math.sqrt(2.0))).astype(np.float32))).astype(h)
        return (h(0.5) * x) * (h(1) + e)
    return (0.5 * x * (1 + np.asarray(_erf(x / math.sqrt(2.0)), np.float64))).astype(x.dtype)


def _silu(x: np.ndarray) -> np.ndarray:
    """``x * sigmoid(x)``; float16 as MindSpore's CPU kernel computes it (the sigmoid in float16, then the
    product)."""
    if x.dtype == np.float16:
        with np.errstate(over="ignore"):
            return x * (np.float16(1) / (np.float16(1) + np.exp(-x)))
    return x / (1 + np.exp(-x))


def _logsigmoid(x: np.ndarray) -> np.ndarray:
    """``-log(1 + e**-x)``; float16 as MindSpore's CPU kernel computes it: ``log(1 / (1 + e**-x))`` step by step
    in float16."""
    if x.dtype == np.float16:
        with np.errstate(over="ignore", divide="ignore"):
            return np.log(np.float16(1) / (np.float16(1) + np.exp(-x)))
    return -np.logaddexp(0, -x).astype(x.dtype)


def _gelu_grad(g: Tensor, input: Tensor, approximate: str) -> tuple:
    x = input
    if approximate == "tanh":
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
        t = F.tanh(inner)
        d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * 0.044715 * x * x)
        return (g * d,)
    cdf = 0.5 * (1 + F.erf(x * (1 / math.sqrt(2.0))))
    pdf = F.exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi))
    return (g * (cdf + x * pdf),)


def _mask(cond: np.ndarray, like: Tensor) -> Tensor:
    return Tensor._wrap(cond.astype(like._data.dtype))


def _keep(g: Tensor, cond: np.ndarray) -> Tensor:
    """``g`` where ``cond``, else 0 -- a select, so an inf or NaN arriving where the input is cut off gives 0 (as
    MindSpore 2.10's ReluGrad and its kin), where ``g * mask`` would give NaN."""
    return F.where(Tensor._wrap(np.asarray(cond, bool)), g, 0.0)


def _softplus(x: np.ndarray, beta: float = 1, threshold: float = 20) -> np.ndarray:
    if x.dtype == np.float16:  # MindSpore's CPU kernel computes half precision in float32, rounded once
        return _softplus(x.astype(np.float32), beta, threshold).astype(np.float16)
    bx = x * beta
    return np.where(bx > threshold, x, np.log1p(np.exp(np.minimum(bx, threshold))) / beta).astype(x.dtype)


def _softmax_grad(g: Tensor, out: Tensor, axis: Any) -> tuple:
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else axis
    return (out * (g - F.sum(g * out, axis, True)),)


def _dropout(input: Any, p: float = 0.5, training: bool = True, seed: Any = None) -> Tensor:
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)``; the identity when not training.

    Example:
        >>> import mskernel as ms
        >>> print(_dropout(ms.Tensor([1.0, 2.0]), 0.5, training=False))
        [1. 2.]
    """
    if not 0 <= p <= 1:
        raise ValueError(f"For 'dropout', the 'p' must be in range [0, 1], but got {p}.")
    if not training or p == 0:
        return input
    from mskernel.common.seed import generator
    keep = generator().random(input.shape) >= p
    scale = 0.0 if p == 1 else 1.0 / (1 - p)
    return input * Tensor._wrap((keep * scale).astype(input._data.dtype))


def _leaky_relu_grad(g: Tensor, input: Tensor, alpha: float) -> tuple:
    """1 above 0 and ``alpha`` below; where ``x == alpha * x`` (0, +-inf) or x is NaN, the shares MindSpore 2.10
    gives, whose LeakyReLU differentiates as ``maximum(x, alpha * x)`` (``minimum`` when ``alpha > 1``)."""
    x = input._data
    loses = np.less if alpha <= 1 else np.greater
    wx, wy = M.extremum_weights(loses, x, x * np.asarray(alpha, x.dtype), g._data.dtype)
    return (g * Tensor._wrap(wx + wy * np.asarray(alpha, g._data.dtype)),)


def _dropout_with_mask(x: Any, keep_prob: float = 0.5) -> tuple:
    """MindSpore's ``ops.Dropout(keep_prob)(x)``: ``(output, mask)``, the mask as 0/1 in ``x``'s dtype.

    Example:
        >>> import mskernel as ms
        >>> out, mask = _dropout_with_mask(ms.Tensor([1.0, 2.0]), 1.0)
        >>> print(out, mask)
        [1. 2.] [1. 1.]
    """
    if not 0 < keep_prob <= 1:
        raise ValueError(f"For 'Dropout', the 'keep_prob' must be in range (0, 1], but got {keep_prob}.")
    from mskernel.common.seed import generator
    mask = Tensor._wrap((generator().random(x.shape) < keep_prob).astype(x._data.dtype))
    return x * mask * (1.0 / keep_prob), mask


def _prelu(input: Any, weight: Any) -> Tensor:
    """``max(0, x) + weight * min(0, x)`` with one slope per channel: a 1-D ``weight`` runs along axis 1 (the
    channels) of an input of two or more dimensions, as MindSpore's PReLU."""
    if isinstance(input, Tensor) and isinstance(weight, Tensor) and input.ndim >= 2 and weight.ndim == 1 \
            and weight.shape[0] != 1:
        weight = F.reshape(weight, (weight.shape[0],) + (1,) * (input.ndim - 2))
    return F._prelu_broadcast(input, weight)


OPS: List[Op] = [
    Op("softmax", "input, axis=-1, *, dtype=None", _softmax, _softmax_grad, prim="Softmax(axis=-1)(x) -> x, axis",
       method=True, **_FLOAT),
    Op("log_softmax", "logits, axis=-1", _log_softmax,
       lambda g, out, axis: (g - F.exp(out) * F.sum(g, axis, True),), prim="LogSoftmax(axis=-1)(x) -> x, axis",
       **_FLOAT),
    Op("softmin", "x, axis=-1", lambda x, axis: _softmax(-x, axis),
       lambda g, out, axis: (-(out * (g - F.sum(g * out, axis, True))),), **_FLOAT),
    # the CPU primitives GeLU and Gelu compute the tanh form (measured on the wheel)
    Op("gelu", "input, approximate='none'", _gelu, _gelu_grad,
       prim=("GeLU()(x) -> x, 'tanh'", "Gelu()(x) -> x, 'tanh'"), **_FLOAT),
    Op("silu", "input", _silu,
       lambda g, input: (g * (F.sigmoid(input) * (1 + input * (1 - F.sigmoid(input)))),), prim="SiLU", **_FLOAT),
    Op("leaky_relu", "input, alpha=0.2", lambda x, alpha: np.where(x >= 0, x, x * alpha).astype(x.dtype),
       _leaky_relu_grad, **_FLOAT),
    Op("elu", "input_x, alpha=1.0", lambda x, alpha: np.where(x > 0, x, alpha * np.expm1(x)).astype(x.dtype),
       lambda g, out, input_x, alpha: (g * F.where(input_x <= 0, out + alpha, F.ones_like(out)),),
       prim="Elu(alpha=1.0)(input_x) -> input_x, alpha", **_FLOAT),
    Op("relu6", "x", lambda x: np.clip(x, 0, 6).astype(x.dtype),
       lambda g, x: (_keep(g, (x._data > 0) & (x._data <= 6)),), prim="ReLU6", **_FLOAT),
    Op("softplus", "input, beta=1, threshold=20", _softplus,
       in_float32(lambda g, input, beta, threshold: (g * F.where(input * beta > threshold, F.ones_like(input),
                                                                 F.sigmoid(input * beta)),)), prim="Softplus()(x) -> x",
       **_FLOAT),
    Op("softsign", "x", lambda x: x / (1 + np.abs(x)), lambda g, x: (g / ((1 + F.abs(x)) * (1 + F.abs(x))),),
       prim="Softsign", **_FLOAT),
    Op("hardswish", "input",  # 0 below -3 (at -inf too, where the product would be -inf * 0)
       lambda x: (lambda v: v * np.clip(v + 3, 0, 6) / 6)(np.where(x < -3, 0, x)).astype(x.dtype),
       lambda g, input: (g * Tensor._wrap(np.where(input._data < -3, 0.0, np.where(
           input._data > 3, 1.0, (2 * input._data + 3) / 6)).astype(g._data.dtype)),), prim="HSwish", **_FLOAT),
    Op("hardsigmoid", "input",  # float16 in float32, rounded once (as the CPU kernel)
       lambda x: np.clip(x.astype(np.promote_types(x.dtype, np.float32)) / 6 + 0.5, 0, 1).astype(x.dtype),
       lambda g, input: (g * _mask((input._data > -3) & (input._data < 3), g) * (1 / 6),), prim="HSigmoid",
       **_FLOAT),
    Op("mish", "input", lambda x: (x * np.tanh(np.log1p(np.exp(x)))).astype(x.dtype),
       lambda g, input: (g * (F.tanh(F.softplus(input)) + input * F.sigmoid(input) *
                              (1 - F.tanh(F.softplus(input)) ** 2)),), prim="Mish", **_FLOAT),
    Op("logsigmoid", "x", _logsigmoid, lambda g, x: (g * F.sigmoid(-x),),
       **_FLOAT),
    Op("selu", "input_x", lambda x: (1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(x))).astype(x.dtype),
       lambda g, input_x: (g * 1.0507009873554805 * F.where(input_x > 0, F.ones_like(input_x),
                                                              1.6732632423543772 * F.exp(input_x)),),
       prim="SeLU", **_FLOAT),
    Op("_prelu_broadcast", "x, weight", lambda x, w: np.where(x >= 0, x, x * w).astype(x.dtype),
       lambda g, x, weight: (g * F.where(x > 0, F.ones_like(x), weight * F.ones_like(x)),  # slope at 0: weight
                             g * F.where(x >= 0, F.zeros_like(x), x)),
       inputs=2, **_FLOAT),
    Op("prelu", "input, weight", fn=_prelu, prim="PReLU"),
    Op("dropout", "input, p=0.5, training=True, seed=None", fn=_dropout),
    Op("_dropout_with_mask", "x, keep_prob=0.5", fn=_dropout_with_mask,
       prim="Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x) -> x, keep_prob"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "softmax": ("ops.softmax(ms.Tensor([1.0, 2.0, 3.0]))", "[0.09003057 0.24472846 0.66524094]"),
    "log_softmax": ("ops.log_softmax(ms.Tensor([1.0, 2.0, 3.0]))", "[-2.4076061 -1.407606  -0.407606 ]"),
    "softmin": ("ops.softmin(ms.Tensor([1.0, 2.0, 3.0]))", "[0.66524094 0.24472846 0.09003057]"),
    "gelu": ("ops.gelu(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.15865526  0.          0.8413447 ]"),
    "silu": ("ops.silu(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.2689414  0.         0.7310586]"),
    "leaky_relu": ("ops.leaky_relu(ms.Tensor([-1.0, 0.0, 1.0]), 0.1)", "[-0.1  0.   1. ]"),
    "elu": ("ops.elu(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.63212055  0.          1.        ]"),
    "relu6": ("ops.relu6(ms.Tensor([-1.0, 3.0, 8.0]))", "[0. 3. 6.]"),
    "softplus": ("ops.softplus(ms.Tensor([-1.0, 0.0, 1.0]))", "[0.3132617 0.6931472 1.3132617]"),
    "softsign": ("ops.softsign(ms.Tensor([-1.0, 0.0, 3.0]))", "[-0.5   0.    0.75]"),
    "hardswish": ("ops.hardswish(ms.Tensor([-4.0, 0.0, 1.0, 4.0]))", "[0.        0.        0.6666667 4.       ]"),
    "hardsigmoid": ("ops.hardsigmoid(ms.Tensor([-4.0, 0.0, 1.5, 4.0]))", "[0.   0.5  0.75 1.  ]"),
    "mish": ("ops.mish(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.30340147  0.          0.8650984 ]"),
    "logsigmoid": ("ops.logsigmoid(ms.Tensor([-1.0, 0.0, 1.0]))", "[-1.3132617 -0.6931472 -0.3132617]"),
    "selu": ("ops.selu(ms.Tensor([-1.0, 0.0, 1.0]))", "[-1.1113307  0.         1.050701 ]"),
    "prelu": ("ops.prelu(ms.Tensor([[-2.0, -2.0], [1.0, -1.0]]), ms.Tensor([0.5, 0.25]))",
              "[[-1.   -0.5 ]\n [ 1.   -0.25]]"),
    "Softmax": ("ops.Softmax(axis=0)(ms.Tensor([[1.0, 1.0], [1.0, 3.0]]))",
                "[[0.5        0.11920292]\n [0.5        0.880797  ]]"),
    "LogSoftmax": ("ops.LogSoftmax(axis=0)(ms.Tensor([[1.0, 1.0], [1.0, 3.0]]))",
                   "[[-0.6931472  -2.126928  ]\n [-0.6931472  -0.12692805]]"),
    "GeLU": ("ops.GeLU()(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.158808  0.        0.841192]"),
    "Gelu": ("ops.Gelu()(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.15880796  0.          0.841192  ]"),
    "Elu": ("ops.Elu(alpha=0.5)(ms.Tensor([-1.0, 0.0, 1.0]))", "[-0.31606027  0.          1.        ]"),
    "Softplus": ("ops.Softplus()(ms.Tensor([-1.0, 0.0, 1.0]))", "[0.3132617 0.6931472 1.3132617]"),
    "Dropout": ("y, mask = ops.Dropout(keep_prob=1.0)(ms.Tensor([1.0, 2.0]))", "y, mask.dtype", "[1. 2.] Float32"),
}
