"""Op table: moving channels into space and back (``pixel_shuffle``, ``pixel_unshuffle``, ``channel_shuffle``) and
dropping whole channels (``dropout1d/2d/3d``, the ``Dropout2D``/``Dropout3D`` primitives).

The shuffles are reshapes and transposes of the op table, so their gradients are the inverse permutations; the
channel dropouts multiply by one random keep mask per (sample, channel), scaled by ``1 / (1 - p)``.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 1, 2))
    >>> print(ops.pixel_shuffle(x, 2)[0, 0])
    [[0. 2. 1. 3.]
     [4. 6. 5. 7.]]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def pixel_shuffle(input: Any, upscale_factor: int) -> Tensor:
    """(..., C * r * r, H, W) to (..., C, H * r, W * r): each group of r * r channels spread over an r x r block.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> pixel_shuffle(ms.Tensor(np.ones((1, 9, 2, 2), np.float32)), 3).shape
        (1, 1, 6, 6)
    """
    x = check_tensor(input, "pixel_shuffle", "input")
    r = int(upscale_factor)
    if x.ndim < 3:
        raise ValueError(f"For pixel_shuffle, the dimension of `input` should be larger than 2, but got {x.ndim}.")
    c, h, w = x.shape[-3:]
    if c % (r * r):
        raise ValueError("For 'pixel_shuffle', the length of third to last dimension is not divisibleby "
                         "`upscale_factor` squared.")
    lead = x.shape[:-3]
    n = len(lead)
    y = F.reshape(x, lead + (c // (r * r), r, r, h, w))
    y = F.transpose(y, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return F.reshape(y, lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input: Any, downscale_factor: int) -> Tensor:
    """(..., C, H * r, W * r) to (..., C * r * r, H, W): the inverse of :func:`pixel_shuffle`.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> pixel_unshuffle(ms.Tensor(np.ones((1, 1, 4, 4), np.float32)), 2).shape
        (1, 4, 2, 2)
    """
    x = check_tensor(input, "pixel_unshuffle", "input")
    r = int(downscale_factor)
    if x.ndim < 3:
        raise ValueError(f"For pixel_unshuffle, the dimension of `input` should be larger than 2, but got {x.ndim}.")
    c, h, w = x.shape[-3:]
    if h % r or w % r:
        raise ValueError("For 'pixel_unshuffle', the length of second to last 2 dimension should be divisible by "
                         "downscale_factor.")
    lead = x.shape[:-3]
    n = len(lead)
    y = F.reshape(x, lead + (c, h // r, r, w // r, r))
    y = F.transpose(y, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return F.reshape(y, lead + (c * r * r, h // r, w // r))


def _channel_mask(x: Tensor, p: float, prim: str) -> Tuple[Tensor, np.ndarray]:
    """The dropped input and the keep mask (one draw per sample and channel, broadcast over the rest)."""
    from mskernel.common.seed import generator
    keep = generator().random(x.shape[:2] + (1,) * (x.ndim - 2)) >= p
    scale = 0.0 if p == 1 else 1.0 / (1 - p)
    out = x * Tensor._wrap((keep * scale).astype(x._data.dtype))
    return out, np.broadcast_to(keep, x.shape).copy()


def _check_p(p: Any, prim: str) -> None:
    if not 0 <= p <= 1:
        raise ValueError(f"For '{prim}', the 'keep_prob' must be in range of [0.0, 1.0], but got {1 - p} with type "
                         f"'{type(p).__name__}'.")


def _dropout_nd(input: Any, p: float, training: bool, rank: int, prim: str) -> Tensor:
    x = check_tensor(input, prim, "input")
    _check_p(p, prim)
    if x.ndim != rank:
        raise ValueError(f"For primitive[{prim}], the rank of input  must be equal to {rank} , but got {x.ndim}.")
    if not training or p == 0:
        return x
    return _channel_mask(x, p, prim)[0]


def dropout1d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) with probability ``p``; the rest scaled by ``1 / (1 - p)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> print(dropout1d(ms.Tensor(np.ones((1, 2, 3), np.float32)), 0.5, training=False))
        [[[1. 1. 1.]
          [1. 1. 1.]]]
    """
    x = check_tensor(input, "dropout1d", "input")
    if x.ndim not in (2, 3):
        raise ValueError(f"For 'dropout1d', the 'input' must be a 2-D or 3-D tensor, but got {x.ndim}-D.")
    batched = x if x.ndim == 3 else F.expand_dims(x, 0)
    out = _dropout_nd(F.expand_dims(batched, -1), p, training, 4, "Dropout2D")
    out = F.squeeze(out, -1)
    return out if x.ndim == 3 else F.squeeze(out, 0)


def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of (N, C, H, W) with probability ``p``; the rest scaled by ``1 / (1 - p)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> dropout2d(ms.Tensor(np.ones((2, 3, 4, 4), np.float32)), 0.5).shape
        (2, 3, 4, 4)
    """
    return _dropout_nd(input, p, training, 4, "Dropout2D")


def dropout3d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) with probability ``p``; the rest scaled by ``1 / (1 - p)``.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> dropout3d(ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32)), 0.0).shape
        (1, 2, 2, 2, 2)
    """
    return _dropout_nd(input, p, training, 5, "Dropout3D")


def _dropout_prim(rank: int, prim: str) -> Any:
    def run(x: Any, keep_prob: float = 0.5) -> Tuple[Tensor, Tensor]:
        t = check_tensor(x, prim, "x")
        _check_p(1 - keep_prob, prim)
        if t.ndim != rank:
            raise ValueError(f"For primitive[{prim}], the rank of input  must be equal to {rank} , but got {t.ndim}.")
        out, keep = _channel_mask(t, 1 - keep_prob, prim)
        return out, Tensor._wrap(keep)
    run.__doc__ = (f"MindSpore's ``ops.{prim}(keep_prob)(x)``: ``(output, mask)``, the Bool mask of the kept "
                   f"channels.")
    return run


OPS: List[Op] = [
    Op("pixel_shuffle", "input, upscale_factor", fn=pixel_shuffle),
    Op("pixel_unshuffle", "input, downscale_factor", fn=pixel_unshuffle),
    Op("dropout1d", "input, p=0.5, training=True", fn=dropout1d),
    Op("dropout2d", "input, p=0.5, training=True", fn=dropout2d),
    Op("dropout3d", "input, p=0.5, training=True", fn=dropout3d),
    Op("_dropout2d_primitive", "x, keep_prob=0.5", fn=_dropout_prim(4, "Dropout2D"),
       prim="Dropout2D(keep_prob=0.5)(x) -> x, keep_prob"),
    Op("_dropout3d_primitive", "x, keep_prob=0.5", fn=_dropout_prim(5, "Dropout3D"),
       prim="Dropout3D(keep_prob=0.5)(x) -> x, keep_prob"),
]

EXAMPLES = {
    "Dropout2D": ("import numpy as np",
                  "out, mask = ops.Dropout2D(keep_prob=1.0)(ms.Tensor(np.ones((1, 2, 1, 1), np.float32)))",
                  "out.shape, mask.dtype", "(1, 2, 1, 1) Bool"),
    "Dropout3D": ("import numpy as np",
                  "out, mask = ops.Dropout3D(keep_prob=1.0)(ms.Tensor(np.ones((1, 2, 1, 1, 1), np.float32)))",
                  "out.shape, mask.dtype", "(1, 2, 1, 1, 1) Bool"),
}
