"""Op table: 3-D grid sampling — ``GridSampler3D``: trilinear or nearest sampling of (N, C, D, H, W) at the
normalized (x, y, z) positions of an (N, Do, Ho, Wo, 3) grid, with 'zeros', 'border' or 'reflection' padding.

The coordinates follow :mod:`mskernel.ops.table.nn_grid` (one piecewise linear function of the grid per axis, so the
gradient for the grid follows the piece its value lies on); the eight corners are read by index maps, which carry
the gradient for the input.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
    >>> print(ops.GridSampler3D(align_corners=True)(x, ms.Tensor(np.zeros((1, 1, 1, 1, 3), np.float32))))
    [[[[[3.5]]]]]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import F, Op
from mskernel.ops.table.nn_grid import _coordinate

_OP = "GridSampler3D"


def _check_attrs(interpolation_mode: Any, padding_mode: Any, align_corners: Any) -> None:
    for name, value, allowed in (("interpolation_mode", interpolation_mode, ("bilinear", "nearest")),
                                 ("padding_mode", padding_mode, ("zeros", "border", "reflection"))):
        if value not in allowed:
            raise ValueError(f"Failed to convert the value \"{value}\" of input '{name}' of '{_OP}' to enum.")
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{_OP}', the type of 'align_corners' should be 'bool', but got type "
                        f"'{type(align_corners).__name__}'.")


def grid_sample_3d(input_x: Any, grid: Any, interpolation_mode: str = "bilinear", padding_mode: str = "zeros",
                   align_corners: bool = False) -> Tensor:
    """Samples (N, C, D, H, W) ``input_x`` at the (x, y, z) positions of the (N, Do, Ho, Wo, 3) ``grid`` (-1 and 1
    the edges: the outer voxel faces, or with ``align_corners`` the corner voxels' centres): (N, C, Do, Ho, Wo).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
        >>> g = ms.Tensor(np.array([[[[[1.0, 1.0, 1.0]]]]], np.float32))
        >>> print(grid_sample_3d(x, g, "nearest", "border", True).reshape(-1))
        [7.]
    """
    _check_attrs(interpolation_mode, padding_mode, align_corners)
    x, g = check_tensor(input_x, _OP, "input_x"), check_tensor(grid, _OP, "grid")
    if g.ndim == 5 and g.shape[-1] != 3:
        raise ValueError(f"For '{_OP}', the last dimension of grid must be 3, but got {g.shape[-1]}.")
    if x.ndim != 5 or g.ndim != 5 or g.shape[0] != x.shape[0]:
        raise ValueError(f"For '{_OP}', 'input_x' must be (N, C, D, H, W) and 'grid' (N, D_out, H_out, W_out, 3), "
                         f"but got {list(x.shape)} and {list(g.shape)}.")
    n, c, d, h, w = x.shape
    ix_t, ix = _coordinate(F.getitem(g, (Ellipsis, 0)), w, padding_mode, align_corners)
    iy_t, iy = _coordinate(F.getitem(g, (Ellipsis, 1)), h, padding_mode, align_corners)
    iz_t, iz = _coordinate(F.getitem(g, (Ellipsis, 2)), d, padding_mode, align_corners)
    base = (np.arange(n * c, dtype=np.int64) * (d * h * w)).reshape(n, c, 1, 1, 1)

    def read(zz: np.ndarray, yy: np.ndarray, xx: np.ndarray) -> Tensor:
        inside = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h) & (zz >= 0) & (zz < d)
        flat = np.where(inside, (zz * h + yy) * w + xx, 0)[:, None] + base
        return F._gather_map(x, np.where(inside[:, None], flat, -1))

    if interpolation_mode == "nearest":
        return read(np.rint(iz).astype(np.int64), np.rint(iy).astype(np.int64), np.rint(ix).astype(np.int64))
    dt = g._data.dtype
    x0, y0, z0 = (np.floor(v).astype(np.int64) for v in (ix, iy, iz))
    wx1 = F.expand_dims(ix_t - Tensor._wrap(x0.astype(dt)), 1)
    wy1 = F.expand_dims(iy_t - Tensor._wrap(y0.astype(dt)), 1)
    wz1 = F.expand_dims(iz_t - Tensor._wrap(z0.astype(dt)), 1)
    out = None
    for dz, wz in ((0, 1 - wz1), (1, wz1)):
        for dy, wy in ((0, 1 - wy1), (1, wy1)):
            for dx, wx in ((0, 1 - wx1), (1, wx1)):
                term = read(z0 + dz, y0 + dy, x0 + dx) * (wz * wy * wx)
                out = term if out is None else out + term
    return out


def _grid_sampler_3d_prim(input_x: Any, grid: Any, interpolation_mode: str = "bilinear",
                          padding_mode: str = "zeros", align_corners: bool = False) -> Tensor:
    return grid_sample_3d(input_x, grid, interpolation_mode, padding_mode, align_corners)


# its checks when built are in the table of init checks (mskernel/ops/init_checks.py): the modes only

OPS: List[Op] = [
    Op("_grid_sampler_3d", "input_x, grid, interpolation_mode='bilinear', padding_mode='zeros', align_corners=False",
       fn=_grid_sampler_3d_prim,
       prim="GridSampler3D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x, grid) "
            "-> input_x, grid, interpolation_mode, padding_mode, align_corners"),
]

EXAMPLES = {
    "GridSampler3D": ("import numpy as np", "x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))",
                      "ops.GridSampler3D(align_corners=True)(x, ms.Tensor(np.zeros((1, 1, 1, 1, 3), np.float32)))",
                      "[[[[[3.5]]]]]"),
}
