"""Op table: ``SpaceToBatch`` and ``BatchToSpace`` — the 4-D (NCHW) forms with one block size for both spatial
axes (MindSpore's older names for ``SpaceToBatchND``/``BatchToSpaceND`` of rank 2).

``SpaceToBatch`` zero-pads H and W by ``paddings``, then moves each ``block x block`` offset ``(i, j)`` to batch
``(i * block + j) * N + n``; ``BatchToSpace`` is its inverse followed by cropping ``crops``. Both are index maps
(``_gather_map``), so gradients follow.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.array([[[[1.0, 2.0], [3.0, 4.0]]]]))
    >>> print(ops.SpaceToBatch(2, [[0, 0], [0, 0]])(x).reshape(-1))
    [1. 2. 3. 4.]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _block(block_size: Any, op: str) -> int:
    if not isinstance(block_size, int) or isinstance(block_size, bool):
        raise TypeError(f"For '{op}', the type of 'block_size' should be int, but got {type(block_size).__name__}.")
    if block_size < 2:
        raise ValueError(f"For '{op}', the 'block_size' should be greater than or equal to 2, but got {block_size}.")
    return block_size


def _pairs(value: Any, name: str, op: str) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    arr = np.array(value)
    if arr.shape != (2, 2):
        raise ValueError(f"For '{op}', the '{name} shape' should be (2, 2), but got {arr.shape}.")
    for v in np.ravel(np.array(value, dtype=object)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"For '{op}', the '{name} element' should be a non-negative int, but got {v!r}.")
    return (int(arr[0, 0]), int(arr[0, 1])), (int(arr[1, 0]), int(arr[1, 1]))


def space_to_batch(input_x: Any, block_size: int, paddings: Any) -> Tensor:
    """(N, C, H, W) -> (N * block**2, C, (H + pads) / block, (W + pads) / block).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> space_to_batch(ms.Tensor(np.zeros((1, 3, 2, 4), np.float32)), 2, [[0, 0], [0, 2]]).shape
        (4, 3, 1, 3)
    """
    op = "SpaceToBatch"
    b = _block(block_size, op)
    (pt, pb), (pl, pr) = _pairs(paddings, "paddings", op)
    x = check_tensor(input_x, op, "input_x")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    n, c, h, w = x.shape
    hp, wp = h + pt + pb, w + pl + pr
    if hp % b or wp % b:
        raise ValueError(f"For '{op}', the padded spatial sizes ({hp}, {wp}) must be divisible by 'block_size' {b}.")
    oh, ow = hp // b, wp // b
    i, j, nn, cc, yy, xx = np.meshgrid(np.arange(b), np.arange(b), np.arange(n), np.arange(c), np.arange(oh),
                                       np.arange(ow), indexing="ij")
    sy, sx = yy * b + i - pt, xx * b + j - pl
    inside = (sy >= 0) & (sy < h) & (sx >= 0) & (sx < w)
    idx = np.where(inside, ((nn * c + cc) * h + sy) * w + sx, -1).reshape(b * b * n, c, oh, ow)
    return F._gather_map(x, idx)


def batch_to_space(input_x: Any, block_size: int, crops: Any) -> Tensor:
    """(N * block**2, C, H, W) -> (N, C, H * block - crops, W * block - crops): the inverse of
    :func:`space_to_batch`.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.array([[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]]))
        >>> print(batch_to_space(x, 2, [[0, 0], [0, 0]]))
        [[[[1. 2.]
           [3. 4.]]]]
    """
    op = "BatchToSpace"
    b = _block(block_size, op)
    (ct, cb), (cl, cr) = _pairs(crops, "crops", op)
    x = check_tensor(input_x, op, "input_x")
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the dimension of 'input_x' must be 4, but got {x.ndim}.")
    nb, c, h, w = x.shape
    if nb % (b * b):
        raise ValueError(f"For '{op}', the shape of output with index 0 must be divided exactly by block_size_prod, "
                         f"but got the shape of output: {[nb, c, h * b - ct - cb, w * b - cl - cr]} and "
                         f"block_size_prod: {b * b}.")
    n = nb // (b * b)
    oh, ow = h * b - ct - cb, w * b - cl - cr
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the crops {[[ct, cb], [cl, cr]]} leave nothing of the {h * b} x {w * b} "
                         f"output.")
    nn, cc, yy, xx = np.meshgrid(np.arange(n), np.arange(c), np.arange(oh), np.arange(ow), indexing="ij")
    fy, fx = yy + ct, xx + cl
    src_b = ((fy % b) * b + fx % b) * n + nn
    idx = ((src_b * c + cc) * h + fy // b) * w + fx // b
    return F._gather_map(x, idx)


OPS: List[Op] = [
    Op("_space_to_batch", "input_x, block_size, paddings", fn=space_to_batch,
       prim="SpaceToBatch(block_size, paddings)(input_x) -> input_x, block_size, paddings"),
    Op("_batch_to_space", "input_x, block_size, crops", fn=batch_to_space,
       prim="BatchToSpace(block_size, crops)(input_x) -> input_x, block_size, crops"),
]

EXAMPLES = {
    "SpaceToBatch": ("x = ms.Tensor([[[[1.0, 2.0], [3.0, 4.0]]]])",
                     "ops.SpaceToBatch(2, [[0, 0], [0, 0]])(x).reshape(-1)", "[1. 2. 3. 4.]"),
    "BatchToSpace": ("x = ms.Tensor([[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]])",
                     "ops.BatchToSpace(2, [[0, 0], [0, 0]])(x)", "[[[[1. 2.]\n   [3. 4.]]]]"),
}
