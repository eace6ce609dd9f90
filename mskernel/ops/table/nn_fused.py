"""Op table: MindSpore's fused Ascend ops, run on CPU by their formulas so that Ascend code can be prototyped —
``swiglu``, ``rms_norm`` (and ``RmsNorm``), ``add_rms_norm``, ``add_layer_norm``, ``rotary_position_embedding`` and
``adaptive_avg_pool2d_ext``. Each is written with the op table's ops, so gradients follow.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> y, rstd = ops.rms_norm(ms.Tensor([[3.0, 4.0]]), ms.Tensor([1.0, 1.0]))
    >>> print(y, rstd)
    [[0.8485281 1.1313708]] [[0.28284267]]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel import dtype as mstype
from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _float(t: Tensor, op: str, name: str) -> None:
    if t._data.dtype not in (np.float16, np.float32):
        raise TypeError(f"For '{op}', the type of '{name}' must be one of [Float16, Float32, BFloat16], but got "
                        f"{t.dtype}.")


def swiglu(input: Any, dim: int = -1) -> Tensor:
    """The halves ``a, b`` of ``dim``: ``a * sigmoid(a) * b``.

    Example:
        >>> import mskernel as ms
        >>> print(swiglu(ms.Tensor([[-0.12, 0.123, 31.122], [2.1223, 4.1212121217, 0.3123]]), 0))
        [[-0.11970687  0.2690224   9.7194    ]]
    """
    x = check_tensor(input, "Swiglu", "input")
    _float(x, "Swiglu", "input")
    axis = dim + x.ndim if dim < 0 else dim
    if x.shape[axis] % 2:
        raise RuntimeError(f"For 'Swiglu', the dimension {dim} of 'input' must be divisible by 2, but got "
                           f"{x.shape[axis]}.")
    a, b = F.split(x, x.shape[axis] // 2, axis)
    return a * F.sigmoid(a) * b


def _rms(x: Tensor, gamma: Tensor, epsilon: float, op: str) -> Tuple[Tensor, Tensor]:
    _float(x, op, "x")
    _float(gamma, op, "gamma")
    if not isinstance(epsilon, float) or not 0 < epsilon <= 1:
        raise ValueError(f"For '{op}', the 'epsilon' must be a float in range (0, 1], but got {epsilon}.")
    if gamma.ndim > x.ndim or tuple(x.shape[x.ndim - gamma.ndim:]) != tuple(gamma.shape):
        raise ValueError(f"For '{op}', the shape of 'gamma' must be the last dimensions of 'x', but got "
                         f"{list(gamma.shape)} and {list(x.shape)}.")
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    xf = F.cast(x, mstype.float32) if x._data.dtype == np.float16 else x
    rstd = F.rsqrt(F.mean(xf * xf, axes, True) + epsilon)
    y = xf * rstd * (F.cast(gamma, xf.dtype) if gamma.dtype != xf.dtype else gamma)
    return F.cast(y, x.dtype) if y.dtype != x.dtype else y, rstd


def rms_norm(x: Any, gamma: Any, epsilon: float = 1e-6) -> Tuple[Tensor, Tensor]:
    """``(x / sqrt(mean(x ** 2) + epsilon) * gamma, 1 / sqrt(mean(x ** 2) + epsilon))``, the mean over the last
    ``gamma.ndim`` axes; the second output (Float32) keeps those axes as 1.

    Example:
        >>> import mskernel as ms
        >>> y, rstd = rms_norm(ms.Tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), ms.Tensor([1.0, 1.0, 1.0]))
        >>> print(y, rstd)
        [[0.46290997 0.92581993 1.3887299 ]
         [0.46290997 0.92581993 1.3887299 ]] [[0.46290997]
         [0.46290997]]
    """
    return _rms(check_tensor(x, "RmsNorm", "x"), check_tensor(gamma, "RmsNorm", "gamma"), epsilon, "RmsNorm")


def add_rms_norm(x1: Any, x2: Any, gamma: Any, epsilon: float = 1e-6) -> Tuple[Tensor, Tensor, Tensor]:
    """:func:`rms_norm` of ``x1 + x2``, and the sum: ``(y, rstd, x1 + x2)``.

    Example:
        >>> import mskernel as ms
        >>> y, rstd, s = add_rms_norm(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[2.0, 2.0]]), ms.Tensor([1.0, 1.0]))
        >>> print(y, s)
        [[0.8485281 1.1313708]] [[3. 4.]]
    """
    a, b = check_tensor(x1, "AddRmsNorm", "x1"), check_tensor(x2, "AddRmsNorm", "x2")
    s = a + b
    y, rstd = _rms(s, check_tensor(gamma, "AddRmsNorm", "gamma"), epsilon, "AddRmsNorm")
    return y, rstd, s


def add_layer_norm(x1: Any, x2: Any, gamma: Any, beta: Any, epsilon: float = 1e-5,
                   additional_output: bool = False) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Layer normalization of ``x1 + x2`` over the last axis: ``(y, mean, rstd, x1 + x2)``, ``mean`` and ``rstd``
    (Float32) keeping that axis as 1.

    Example:
        >>> import mskernel as ms
        >>> y, mean, rstd, s = add_layer_norm(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[0.0, 2.0]]), ms.Tensor([1.0, 1.0]),
        ...                                   ms.Tensor([0.0, 0.0]))
        >>> print(y, mean, s)
        [[-0.99999803  0.99999803]] [[2.5]] [[1. 4.]]
    """
    a, b = check_tensor(x1, "AddLayerNorm", "x1"), check_tensor(x2, "AddLayerNorm", "x2")
    g, be = check_tensor(gamma, "AddLayerNorm", "gamma"), check_tensor(beta, "AddLayerNorm", "beta")
    _float(a, "AddLayerNorm", "x1")
    s = a + b
    mean = F.mean(s, -1, True)
    centered = s - mean
    rstd = F.rsqrt(F.mean(centered * centered, -1, True) + epsilon)
    return centered * rstd * g + be, mean, rstd, s


def _rotate_half(x: Tensor, interleaved: bool) -> Tensor:
    d = x.shape[-1]
    if interleaved:  # pairs (x0, x1) become (-x1, x0)
        pairs = F.reshape(x, x.shape[:-1] + (d // 2, 2))
        even, odd = F.getitem(pairs, (Ellipsis, 0)), F.getitem(pairs, (Ellipsis, 1))
        return F.reshape(F.stack([-odd, even], -1), x.shape)
    first, second = F.split(x, d // 2, -1)
    return F.concat([-second, first], -1)


def rotary_position_embedding(x: Any, cos: Any, sin: Any, mode: int = 0) -> Tensor:
    """``x * cos + rotate(x) * sin`` over the last axis: ``mode`` 0 rotates the halves (GPT-NeoX style:
    (a, b) becomes (-b, a)), 1 the neighbouring pairs (GPT-J style).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32).reshape(1, 1, 1, 4))
        >>> c, s = ms.Tensor(np.zeros((1, 1, 1, 4), np.float32)), ms.Tensor(np.ones((1, 1, 1, 4), np.float32))
        >>> print(rotary_position_embedding(x, c, s).reshape(-1), rotary_position_embedding(x, c, s, 1).reshape(-1))
        [-3. -4.  1.  2.] [-2.  1. -4.  3.]
    """
    t = check_tensor(x, "RotaryPositionEmbedding", "x")
    c, s = check_tensor(cos, "RotaryPositionEmbedding", "cos"), check_tensor(sin, "RotaryPositionEmbedding", "sin")
    _float(t, "RotaryPositionEmbedding", "x")
    if mode not in (0, 1):
        raise ValueError(f"For 'RotaryPositionEmbedding', the 'mode' must be 0 or 1, but got {mode}.")
    if t.shape[-1] % 2:
        raise ValueError(f"For 'RotaryPositionEmbedding', the last dimension of 'x' must be even, but got "
                         f"{t.shape[-1]}.")
    return t * c + _rotate_half(t, mode == 1) * s


def adaptive_avg_pool2d_ext(input: Any, output_size: Any) -> Tensor:
    """Average over the regions that split H and W of (C, H, W) or (N, C, H, W) into ``output_size`` cells (None
    keeps a size): :func:`mskernel.ops.adaptive_avg_pool2d` under its Ascend name.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(adaptive_avg_pool2d_ext(ms.Tensor(np.arange(9, dtype=np.float32).reshape(1, 3, 3)), (1, 3)))
        [[[3. 4. 5.]]]
    """
    return F.adaptive_avg_pool2d(input, output_size)


OPS: List[Op] = [
    Op("swiglu", "input, dim=-1", fn=swiglu),
    Op("rms_norm", "x, gamma, epsilon=1e-6", fn=rms_norm, prim="RmsNorm(epsilon=1e-6)(x, gamma) -> x, gamma, epsilon"),
    Op("add_rms_norm", "x1, x2, gamma, epsilon=1e-6", fn=add_rms_norm),
    Op("add_layer_norm", "x1, x2, gamma, beta, epsilon=1e-5, additional_output=False", fn=add_layer_norm),
    Op("rotary_position_embedding", "x, cos, sin, mode=0", fn=rotary_position_embedding),
    Op("adaptive_avg_pool2d_ext", "input, output_size", fn=adaptive_avg_pool2d_ext),
]

EXAMPLES = {
    "RmsNorm": ("y, rstd = ops.RmsNorm()(ms.Tensor([[3.0, 4.0]]), ms.Tensor([1.0, 1.0]))", "y",
                "[[0.8485281 1.1313708]]"),
}
