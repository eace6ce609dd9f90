"""The pieces of a synchronized batch norm, as ``mint`` names them (torch's): ``batch_norm_stats`` (each channel's
mean and inverse standard deviation over one process's batch), ``batch_norm_gather_stats_with_counts`` (the
statistics of the whole batch from every process's, weighted by their counts, updating the running statistics)
and ``batch_norm_elemt`` (normalizing with given statistics). Channels are axis 1. Written with the op table's
functions, so gradients flow through them. MindSpore 2.10's CPU wheel has no kernel for them ("The kernel
BatchNormStats unregistered"); this is torch's documented arithmetic.

Example:
    >>> import mskernel as ms
    >>> from mskernel import mint
    >>> x = ms.Tensor([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, invstd = mint.batch_norm_stats(x, 0.0)
    >>> print(mean, invstd, mint.batch_norm_elemt(x, None, None, mean, invstd, 0.0))
    [2. 4.] [1.  0.5] [[-1. -1.]
     [ 1.  1.]]
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops import functional as F

__all__ = ["_batch_norm_stats", "_batch_norm_elemt", "_batch_norm_gather_stats_with_counts"]


def _channel_shape(input: Tensor) -> Tuple[int, ...]:
    return (1, input.shape[1]) + (1,) * (input.ndim - 2)


def _check_input(name: str, input: Any) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{name}', the 'input' must be a Tensor, but got {type(input).__name__}.")
    if input.ndim < 2:
        raise ValueError(f"For '{name}', the 'input' must have at least 2 dims (N, C, ...), but got {input.ndim}.")


def _batch_norm_stats(input: Any, eps: float) -> Tuple[Tensor, Tensor]:
    """(mean, 1 / sqrt(biased variance + eps)) of each channel."""
    _check_input("batch_norm_stats", input)
    axes = tuple(a for a in range(input.ndim) if a != 1)
    mean = F.mean(input, axes, False)
    centered = F.sub(input, F.reshape(mean, _channel_shape(input)))
    var = F.mean(F.mul(centered, centered), axes, False)
    return mean, F.rsqrt(F.add(var, eps))


def _batch_norm_elemt(input: Any, weight: Any, bias: Any, mean: Any, invstd: Any, eps: float) -> Tensor:
    """``(input - mean) * invstd * weight + bias`` per channel (``eps`` is not read: ``invstd`` already has it)."""
    _check_input("batch_norm_elemt", input)
    shape = _channel_shape(input)
    y = F.mul(F.sub(input, F.reshape(mean, shape)), F.reshape(invstd, shape))
    if weight is not None:
        y = F.mul(y, F.reshape(weight, shape))
    if bias is not None:
        y = F.add(y, F.reshape(bias, shape))
    return y


def _batch_norm_gather_stats_with_counts(input: Any, mean: Any, invstd: Any, running_mean: Optional[Tensor],
                                         running_var: Optional[Tensor], momentum: float, eps: float,
                                         counts: Any) -> Tuple[Tensor, Tensor]:
    """The whole batch's (mean, invstd) from per-process rows of ``mean`` and ``invstd`` (G, C) with ``counts``
    (G,) elements per channel each (without counts, each process counts ``input.size / C``); the running
    statistics move by ``momentum`` towards the mean and the unbiased variance."""
    _check_input("batch_norm_gather_stats_with_counts", input)
    groups = mean.shape[0]
    if counts is None:
        counts = Tensor(np.full(groups, input.size // input.shape[1], np.float32))
    if not isinstance(counts, Tensor):
        counts = Tensor(np.asarray(counts, np.float32))
    n = F.reshape(counts.astype(mean.dtype), (groups, 1))
    total = F.sum(n)
    global_mean = F.div(F.sum(F.mul(n, mean), 0), total)
    var_g = F.sub(F.div(1.0, F.mul(invstd, invstd)), eps)
    spread = F.sub(mean, F.reshape(global_mean, (1, -1)))
    var = F.div(F.sum(F.mul(n, F.add(var_g, F.mul(spread, spread))), 0), total)
    count = float(total.asnumpy())
    for stat, value in ((running_mean, global_mean), (running_var, None)):
        if stat is None:
            continue
        new = var.asnumpy() * (count / (count - 1) if count > 1 else np.inf) if value is None else value.asnumpy()
        stat._data[...] = ((1 - momentum) * stat._data + momentum * new).astype(stat._data.dtype)
        stat._version += 1
    return global_mean, F.rsqrt(F.add(var, eps))
