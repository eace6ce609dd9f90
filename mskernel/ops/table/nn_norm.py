"""Op table: normalization and embedding — batch_norm (updating its running statistics in training, as
MindSpore's does), layer_norm, group_norm, embedding, and the ``LayerNorm``/``BatchNorm`` primitives.

All are written with ops, so their gradients come from the engine. Running statistics use the unbiased
batch variance; normalization the biased one.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])
    >>> print(ops.layer_norm(x, (3,))[0])
    [-1.2247356  0.         1.2247356]
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _channel_shape(x: Tensor) -> Tuple[int, ...]:
    return (1, -1) + (1,) * (x.ndim - 2)


def batch_norm(input_x: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    """Normalize each channel (axis 1) by the batch's statistics (training) or the running ones; in training
    the running statistics are updated in place: ``running = (1 - momentum) * running + momentum * batch``.

    Example:
        >>> import mskernel as ms
        >>> rm, rv = ms.Tensor([0.0]), ms.Tensor([1.0])
        >>> y = batch_norm(ms.Tensor([[1.0], [3.0]]), rm, rv, ms.Tensor([1.0]), ms.Tensor([0.0]), training=True)
        >>> print(y.T, rm, rv)
        [[-0.999995  0.999995]] [0.2] [1.1]
    """
    x = check_tensor(input_x, "BatchNorm", "input_x")
    if x.ndim < 2:
        raise ValueError(f"For 'BatchNorm', the input must be at least 2-D (N, C, ...), but got {x.ndim}-D.")
    axes = (0,) + tuple(range(2, x.ndim))
    shape = _channel_shape(x)
    if training:
        mean = F.mean(x, axes, True)
        var = F.mean((x - mean) * (x - mean), axes, True)
        n = x.size // x.shape[1]
        with_no_grad(lambda: _update(running_mean, mean, momentum))
        with_no_grad(lambda: _update(running_var, var * (n / max(n - 1, 1)), momentum))
    else:
        mean = F.reshape(running_mean, shape)
        var = F.reshape(running_var, shape)
    y = (x - mean) / F.sqrt(var + eps)
    if weight is not None:
        y = y * F.reshape(weight, shape)
    if bias is not None:
        y = y + F.reshape(bias, shape)
    return y


def with_no_grad(fn: Any) -> Any:
    """Run ``fn`` without recording gradients.

    Example:
        >>> with_no_grad(lambda: 3)
        3
    """
    from mskernel.autograd.node import STATE
    old = STATE.enabled
    STATE.enabled = False
    try:
        return fn()
    finally:
        STATE.enabled = old


def _update(running: Any, batch: Tensor, momentum: float) -> None:
    if isinstance(running, Tensor):
        new = running._data * (1 - momentum) + batch._data.reshape(running.shape) * momentum
        running._data[...] = new.astype(running._data.dtype)


def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-05) -> Tensor:
    """Normalize over the last ``len(normalized_shape)`` axes, then scale and shift.

    Example:
        >>> import mskernel as ms
        >>> print(layer_norm(ms.Tensor([[0.0, 2.0]]), (2,), eps=0.0))
        [[-1.  1.]]
    """
    x = check_tensor(input, "LayerNorm", "input")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(x.shape[x.ndim - len(shape):]) != shape:
        raise ValueError(f"For 'LayerNorm', 'normalized_shape' {list(shape)} must match the last dimensions of the "
                         f"input shape {list(x.shape)}.")
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    mean = F.mean(x, axes, True)
    centered = x - mean
    y = centered / F.sqrt(F.mean(centered * centered, axes, True) + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-05) -> Tensor:
    """Normalize each group of ``C / num_groups`` channels over its channels and spatial positions.

    Example:
        >>> import mskernel as ms
        >>> group_norm(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 2)), 2).shape
        (1, 4, 2)
    """
    x = check_tensor(input, "GroupNorm", "input")
    n, c = x.shape[:2]
    if c % num_groups:
        raise ValueError(f"For 'GroupNorm', the number of channels {c} must be divisible by 'num_groups' "
                         f"{num_groups}.")
    g = F.reshape(x, (n, num_groups, -1))
    mean = F.mean(g, 2, True)
    centered = g - mean
    y = F.reshape(centered / F.sqrt(F.mean(centered * centered, 2, True) + eps), x.shape)
    shape = _channel_shape(x)
    if weight is not None:
        y = y * F.reshape(weight, shape)
    if bias is not None:
        y = y + F.reshape(bias, shape)
    return y


def embedding(input: Any, weight: Any, padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Tensor:
    """The rows of ``weight`` at the integer ``input``; the ``padding_idx`` row gets no gradient.

    Example:
        >>> import mskernel as ms
        >>> print(embedding(ms.Tensor([[1, 0]]), ms.Tensor([[0.0, 1.0], [2.0, 3.0]])))
        [[[2. 3.]
          [0. 1.]]]
    """
    w = check_tensor(weight, "Embedding", "weight")
    if max_norm is not None:
        norms = np.linalg.norm(w._data, ord=norm_type, axis=1, keepdims=True)
        w._data[...] = np.where(norms > max_norm, w._data * (max_norm / (norms + 1e-7)), w._data)
    out = F.gather(w, input, 0)
    if padding_idx is not None:
        idx = input._data if isinstance(input, Tensor) else np.asarray(input)
        keep = (idx != padding_idx % w.shape[0]).astype(w._data.dtype)[..., None]
        out = out * Tensor._wrap(keep) + F.stop_gradient(out) * Tensor._wrap(1 - keep)
    return out


def _layer_norm_prim(x: Any, gamma: Any, beta: Any, begin_norm_axis: int = 1, begin_params_axis: int = 1,
                     epsilon: float = 1e-07) -> tuple:
    t = check_tensor(x, "LayerNorm", "input_x")
    b = begin_norm_axis % t.ndim
    axes = tuple(range(b, t.ndim))
    mean = F.mean(t, axes, True)
    centered = t - mean
    var = F.mean(centered * centered, axes, True)
    y = centered / F.sqrt(var + epsilon) * gamma + beta
    return y, mean, var


def _batch_norm_prim(x: Any, scale: Any, bias: Any, mean: Any, variance: Any, is_training: bool = False,
                     epsilon: float = 1e-05, momentum: float = 0.1, data_format: str = "NCHW") -> tuple:
    t = check_tensor(x, "BatchNorm", "input_x")
    axes = (0,) + tuple(range(2, t.ndim))
    if is_training:
        bm = F.mean(t, axes)
        bv = F.mean((t - F.reshape(bm, _channel_shape(t))) ** 2, axes)
    else:
        bm, bv = mean, variance
    y = batch_norm(t, bm, bv, scale, bias, False, 0.0, epsilon)
    if is_training:
        with_no_grad(lambda: (_update(mean, bm, 1 - momentum if momentum > 0.5 else momentum),
                              _update(variance, bv, 1 - momentum if momentum > 0.5 else momentum)))
    return y, bm, bv, bm, bv


def lrn(x: Any, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    """Local response normalization across channels of (N, C, H, W): each element divided by
    ``(bias + alpha * sum of squares of the 2 * depth_radius + 1 channels around it) ** beta``.

    Example:
        >>> import mskernel as ms
        >>> print(lrn(ms.Tensor([[[[0.1], [0.2]], [[0.3], [0.4]]]])))
        [[[[0.09534626]
           [0.18257418]]
        <BLANKLINE>
          [[0.2860388 ]
           [0.36514837]]]]
    """
    t = check_tensor(x, "LRN", "x")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', the 'norm_region' must be str and must be in '['ACROSS_CHANNELS']', but got "
                         f"'{norm_region}'.")
    if t._data.dtype not in (np.float16, np.float32):
        raise TypeError(f"For primitive[LRN], the input argument[x] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32]}}, but got Tensor[{t.dtype}].")
    if t.ndim != 4:
        raise ValueError(f"For primitive[LRN], the rank of input  must be equal to 4 , but got {t.ndim}.")
    c, r = t.shape[1], int(depth_radius)
    padded = F.pad(t * t, (0, 0, 0, 0, r, r))
    total = F.getitem(padded, (slice(None), slice(0, c)))
    for i in range(1, 2 * r + 1):
        total = total + F.getitem(padded, (slice(None), slice(i, i + c)))
    return t / F.pow(total * float(alpha) + float(bias), float(beta))


OPS: List[Op] = [
    Op("batch_norm", "input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-05",
       fn=batch_norm),
    Op("layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05", fn=layer_norm),
    Op("group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05", fn=group_norm),
    Op("embedding", "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False",
       fn=embedding, inputs=0),
    Op("_layer_norm_primitive", "x, gamma, beta, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-07",
       fn=_layer_norm_prim, inputs=3,
       prim="LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-07)(input_x, gamma, beta) -> input_x, "
            "gamma, beta, begin_norm_axis, begin_params_axis, epsilon"),
    Op("_batch_norm_primitive", "x, scale, bias, mean, variance, is_training=False, epsilon=1e-05, momentum=0.1, "
       "data_format='NCHW'", fn=_batch_norm_prim, inputs=5,
       prim="BatchNorm(is_training=False, epsilon=1e-05, momentum=0.1, data_format='NCHW')(input_x, scale, bias, "
            "mean, variance) -> input_x, scale, bias, mean, variance, is_training, epsilon, momentum, data_format"),
    Op("lrn", "x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS'", fn=lrn,
       prim="LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')(x) -> x, depth_radius, "
            "bias, alpha, beta, norm_region"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "LRN": ("ops.LRN(depth_radius=1)(ms.Tensor([[[[0.1]], [[0.3]]]])).reshape(-1)", "[0.09534626 0.2860388 ]"),
    "LayerNorm": ("*ops.LayerNorm()(ms.Tensor([[1.0, 3.0]]), ms.Tensor([1.0, 1.0]), ms.Tensor([0.0, 0.0]))",
                  "[[-1.  1.]] [[2.]] [[1.]]"),
    "BatchNorm": ("one, zero = ms.Tensor([1.0, 1.0]), ms.Tensor([0.0, 0.0])",
                  "ops.BatchNorm()(ms.Tensor([[1.0, 3.0]]), one, zero, one, ms.Tensor([4.0, 1.0]))[0]",
                  "[[0.      1.99999]]"),
}

