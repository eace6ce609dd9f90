"""Op table: sampling grids — ``affine_grid`` (``AffineGrid``) and 2-D ``grid_sample`` (``GridSampler2D``):
bilinear or nearest sampling of (N, C, H, W) at the normalized (x, y) positions of an (N, Ho, Wo, 2) grid, with
'zeros', 'border' or 'reflection' padding.

Each source coordinate is a piecewise linear function of the grid value (unnormalized, then clipped or reflected):
its pieces are found in numpy and the coordinate rebuilt as ``grid * slope + offset`` with ops, so the
interpolation weights — and the gradient for the grid — follow the piece the value lies on; the pixels are read
by an index map (``_gather_map``), which carries the gradient for the input.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
    >>> print(ops.grid_sample(x, ms.Tensor([[[[0.0, 0.0]]]]), align_corners=True))
    [[[[1.5]]]]
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op


def _base(n: int, align_corners: bool) -> np.ndarray:
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2.0 + 1.0) / n - 1.0


def affine_grid(theta: Any, size: Any, align_corners: bool = False) -> Tensor:
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) for an output of ``size`` (N, C, H, W): (N, H, W, 2)
    normalized (x, y) positions; (N, 3, 4) and (N, C, D, H, W) give (N, D, H, W, 3).

    Example:
        >>> import mskernel as ms
        >>> print(affine_grid(ms.Tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 1, 1, 2), True))
        [[[[-1.  0.]
           [ 1.  0.]]]]
    """
    t = check_tensor(theta, "AffineGrid", "theta")
    size = tuple(int(v) for v in size)
    if len(size) == 4:
        if t.ndim != 3 or t.shape[1:] != (2, 3):
            raise ValueError(f"For 'AffineGrid', the shape of 'theta' must be (N, 2, 3) for a 4-D size, but got "
                             f"{list(t.shape)}.")
        h, w = size[2:]
        ys, xs = np.meshgrid(_base(h, align_corners), _base(w, align_corners), indexing="ij")
        base = np.stack([xs, ys, np.ones_like(xs)], -1).reshape(1, h * w, 3)
        out_shape = (size[0], h, w, 2)
    elif len(size) == 5:
        if t.ndim != 3 or t.shape[1:] != (3, 4):
            raise ValueError(f"For 'AffineGrid', the shape of 'theta' must be (N, 3, 4) for a 5-D size, but got "
                             f"{list(t.shape)}.")
        d, h, w = size[2:]
        zs, ys, xs = np.meshgrid(_base(d, align_corners), _base(h, align_corners), _base(w, align_corners),
                                 indexing="ij")
        base = np.stack([xs, ys, zs, np.ones_like(xs)], -1).reshape(1, d * h * w, 4)
        out_shape = (size[0], d, h, w, 3)
    else:
        raise ValueError(f"For 'AffineGrid', the length of 'size' must be 4 or 5, but got {len(size)}.")
    grid = F.matmul(Tensor._wrap(base.astype(t._data.dtype)), F.transpose(t, (0, 2, 1)))
    return F.reshape(grid, out_shape)


def _reflect(c: np.ndarray, low2: float, high2: float) -> np.ndarray:
    if low2 == high2:
        return np.zeros_like(c)
    lo, span = low2 / 2, (high2 - low2) / 2
    d = np.abs(c - lo)
    extra = np.fmod(d, span)
    flips = np.floor(d / span)
    return np.where(flips % 2 == 0, extra + lo, span - extra + lo)


def _coordinate(g: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tuple[Tensor, np.ndarray]:
    """The source coordinate along one axis as a Tensor (differentiable in the grid) and as numpy values."""
    scale = (size - 1) / 2 if align_corners else size / 2
    shift = (size - 1) / 2 if align_corners else (size - 1) / 2
    raw = g._data.astype(np.float64) * scale + shift
    c = raw
    if padding_mode == "reflection":
        c = _reflect(raw, 0.0, 2.0 * (size - 1)) if align_corners else _reflect(raw, -1.0, 2.0 * size - 1)
    if padding_mode in ("border", "reflection"):
        c = np.clip(c, 0, size - 1)
    # the slope of the piece each value is on: 1 or -1 (a reflection), 0 where clipped
    eps = 1e-6
    probe = raw + eps
    if padding_mode == "reflection":
        probe = _reflect(probe, 0.0, 2.0 * (size - 1)) if align_corners else _reflect(probe, -1.0, 2.0 * size - 1)
    if padding_mode in ("border", "reflection"):
        probe = np.clip(probe, 0, size - 1)
    slope = np.rint((probe - c) / eps) * scale
    offset = c - g._data.astype(np.float64) * slope
    dt = g._data.dtype
    return g * Tensor._wrap(slope.astype(dt)) + Tensor._wrap(offset.astype(dt)), c


def grid_sample(input: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: Any = None) -> Tensor:
    """Samples (N, C, H, W) ``input`` at the (x, y) positions of the (N, Ho, Wo, 2) ``grid`` (-1 and 1 the
    edges: the outer pixel edges, or with ``align_corners`` the corner pixels' centres).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
        >>> print(grid_sample(x, ms.Tensor([[[[-1.0, -1.0], [1.0, 1.0]]]]), "nearest", "border", True))
        [[[[0. 3.]]]]
    """
    x = check_tensor(input, "GridSampler2D", "input_x")
    g = check_tensor(grid, "GridSampler2D", "grid")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"For 'GridSampler2D', 'mode' must be 'bilinear' or 'nearest', but got '{mode}'.")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For 'GridSampler2D', 'padding_mode' must be 'zeros', 'border' or 'reflection', but got "
                         f"'{padding_mode}'.")
    if x.ndim != 4 or g.ndim != 4 or g.shape[-1] != 2 or g.shape[0] != x.shape[0]:
        raise ValueError(f"For 'GridSampler2D', 'input_x' must be (N, C, H, W) and 'grid' (N, H_out, W_out, 2), "
                         f"but got {list(x.shape)} and {list(g.shape)}.")
    align = bool(align_corners)
    n, c, h, w = x.shape
    gx = F.getitem(g, (Ellipsis, 0))
    gy = F.getitem(g, (Ellipsis, 1))
    ix_t, ix = _coordinate(gx, w, padding_mode, align)
    iy_t, iy = _coordinate(gy, h, padding_mode, align)
    base = (np.arange(n * c, dtype=np.int64) * (h * w)).reshape(n, c, 1, 1)

    def read(yy: np.ndarray, xx: np.ndarray) -> Tensor:
        inside = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
        flat = np.where(inside, yy * w + xx, 0)[:, None] + base
        return F._gather_map(x, np.where(inside[:, None], flat, -1))

    if mode == "nearest":
        return read(np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64))
    x0, y0 = np.floor(ix).astype(np.int64), np.floor(iy).astype(np.int64)
    wx1 = F.expand_dims(ix_t - Tensor._wrap(x0.astype(g._data.dtype)), 1)
    wy1 = F.expand_dims(iy_t - Tensor._wrap(y0.astype(g._data.dtype)), 1)
    wx0, wy0 = 1 - wx1, 1 - wy1
    return (read(y0, x0) * wy0 * wx0 + read(y0, x0 + 1) * wy0 * wx1 + read(y0 + 1, x0) * wy1 * wx0
            + read(y0 + 1, x0 + 1) * wy1 * wx1)


def _grid_sampler_2d(input_x: Any, grid: Any, interpolation_mode: str = "bilinear", padding_mode: str = "zeros",
                     align_corners: bool = False) -> Tensor:
    return grid_sample(input_x, grid, interpolation_mode, padding_mode, align_corners)


OPS: List[Op] = [
    Op("affine_grid", "theta, size, align_corners=False", fn=affine_grid,
       prim="AffineGrid(align_corners=False)(theta, output_size) -> theta, output_size, align_corners"),
    Op("grid_sample", "input, grid, mode='bilinear', padding_mode='zeros', align_corners=None", fn=grid_sample),
    Op("_grid_sampler_2d", "input_x, grid, interpolation_mode='bilinear', padding_mode='zeros', align_corners=False",
       fn=_grid_sampler_2d,
       prim="GridSampler2D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x, grid) "
            "-> input_x, grid, interpolation_mode, padding_mode, align_corners"),
]

EXAMPLES = {
    "AffineGrid": ("ops.AffineGrid(True)(ms.Tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 1, 1, 2))",
                   "[[[[-1.  0.]\n   [ 1.  0.]]]]"),
    "GridSampler2D": ("x = ms.Tensor([[[[0.0, 1.0], [2.0, 3.0]]]])",
                      "ops.GridSampler2D(align_corners=True)(x, ms.Tensor([[[[0.0, 0.0]]]]))", "[[[[1.5]]]]"),
}
