"""Op table: the resize primitives — ``ResizeNearestNeighbor``, ``ResizeNearestNeighborV2``, ``ResizeBilinearV2``,
``ResizeLinear1D``, ``UpsampleNearest3D`` and ``UpsampleTrilinear3D`` — each with its own coordinate convention
('align corners': the corner pixels meet; 'half pixel': pixel centres meet; 'asymmetric': output pixel i reads
input position i * in / out).

As in :mod:`mskernel.ops.table.nn_resize`, each resize is one matrix per spatial axis applied with ``matmul``, so
gradients follow.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> x = ms.Tensor([[[1.0, 2.0, 3.0]]])
    >>> print(ops.ResizeLinear1D()(x, (5,)))
    [[[1.  1.5 2.  2.5 3. ]]]
"""
from __future__ import annotations

from typing import Any, List, Sequence

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op
from mskernel.ops.table.nn_resize import apply_axis


def _source(n_in: int, n_out: int, convention: str) -> np.ndarray:
    out = np.arange(n_out, dtype=np.float64)
    if convention == "align_corners":
        return out * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros(n_out)
    if convention == "half_pixel":
        return (out + 0.5) * (n_in / n_out) - 0.5
    return out * (n_in / n_out)


def nearest_matrix(n_in: int, n_out: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """The (n_out, n_in) 0/1 matrix of nearest-neighbour resizing (TensorFlow's conventions).

    Example:
        >>> nearest_matrix(3, 2, False, False).argmax(1)
        array([0, 1])
    """
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    pos = (np.arange(n_out) + 0.5) * scale if half_pixel else np.arange(n_out) * scale
    src = np.floor(pos + 0.5) if align_corners else np.floor(pos)  # halves round up, as MindSpore's kernel
    m = np.zeros((n_out, n_in))
    m[np.arange(n_out), np.clip(src.astype(int), 0, n_in - 1)] = 1
    return m


def linear_matrix(n_in: int, n_out: int, convention: str) -> np.ndarray:
    """The (n_out, n_in) matrix of linear resizing under ``convention`` ('align_corners', 'half_pixel' or
    'asymmetric').

    Example:
        >>> print(linear_matrix(2, 3, "align_corners"))
        [[1.  0. ]
         [0.5 0.5]
         [0.  1. ]]
    """
    src = np.clip(_source(n_in, n_out, convention), 0, n_in - 1)
    i0 = np.floor(src).astype(int)
    i1 = np.minimum(i0 + 1, n_in - 1)
    w = src - i0
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    np.add.at(m, (rows, i0), 1 - w)
    np.add.at(m, (rows, i1), w)
    return m


def _apply(x: Tensor, matrices: Sequence[np.ndarray]) -> Tensor:
    """Each matrix applied to one of the last ``len(matrices)`` axes."""
    out = x
    for axis, m in zip(range(x.ndim - len(matrices), x.ndim), matrices):
        out = apply_axis(out, m, axis)
    return out


def _sizes(size: Any, n: int, op: str) -> List[int]:
    vals = size._data.reshape(-1).tolist() if isinstance(size, Tensor) else list(size)
    if len(vals) != n:
        raise ValueError(f"For '{op}', the size must have {n} elements, but got {vals}.")
    return [int(v) for v in vals]


def _float(x: Tensor, op: str) -> Tensor:
    if x._data.dtype.kind != "f":
        raise TypeError(f"For '{op}', the input must be a float tensor, but got {x.dtype}.")
    return x


def _nearest(input_x: Any, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> Tensor:
    """``half_pixel_centers`` is accepted and, as by MindSpore's CPU kernel, not used (measured)."""
    x = check_tensor(input_x, "ResizeNearestNeighbor", "input_x")
    h, w = _sizes(size, 2, "ResizeNearestNeighbor")
    return _apply(x, [nearest_matrix(x.shape[-2], h, align_corners, False),
                      nearest_matrix(x.shape[-1], w, align_corners, False)])


def _nearest_v2(x: Any, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> Tensor:
    t = check_tensor(x, "ResizeNearestNeighborV2", "x")
    h, w = _sizes(size, 2, "ResizeNearestNeighborV2")
    return _apply(t, [nearest_matrix(t.shape[-2], h, align_corners, half_pixel_centers),
                      nearest_matrix(t.shape[-1], w, align_corners, half_pixel_centers)])


def _convention(align_corners: bool, half_pixel_centers: bool) -> str:
    return "align_corners" if align_corners else "half_pixel" if half_pixel_centers else "asymmetric"


def _bilinear_v2(x: Any, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> Tensor:
    t = _float(check_tensor(x, "ResizeBilinearV2", "x"), "ResizeBilinearV2")
    if align_corners and half_pixel_centers:
        raise ValueError("For 'ResizeBilinearV2', the 'half_pixel_centers' must be False when 'align_corners' is "
                         "True, but got True.")
    h, w = _sizes(size, 2, "ResizeBilinearV2")
    c = _convention(align_corners, half_pixel_centers)
    return _apply(t, [linear_matrix(t.shape[-2], h, c), linear_matrix(t.shape[-1], w, c)])


def _linear_1d(x: Any, size: Any, coordinate_transformation_mode: str = "align_corners") -> Tensor:
    t = _float(check_tensor(x, "ResizeLinear1D", "x"), "ResizeLinear1D")
    if coordinate_transformation_mode not in ("align_corners", "half_pixel", "asymmetric"):
        raise ValueError(f"For 'ResizeLinear1D', the 'coordinate_transformation_mode' must be in ['align_corners', "
                         f"'half_pixel', 'asymmetric'], but got '{coordinate_transformation_mode}'.")
    if coordinate_transformation_mode == "asymmetric":  # MindSpore 2.10's CPU kernel has only the other two
        raise RuntimeError("For 'ResizeLinear1D', coordinate_transformation_mode not support now.")
    (n,) = _sizes(size, 1, "ResizeLinear1D")
    return _apply(t, [linear_matrix(t.shape[-1], n, coordinate_transformation_mode)])


def _out_3d(x: Tensor, output_size: Any, scales: Any, op: str) -> List[int]:
    if output_size is not None:
        return _sizes(output_size, 3, op)
    if scales is None:
        raise ValueError(f"For '{op}', either 'output_size' or 'scales' must be given.")
    return [int(np.floor(s * float(f))) for s, f in zip(x.shape[2:], scales)]


def _nearest_3d(x: Any, output_size: Any = None, scales: Any = None) -> Tensor:
    t = check_tensor(x, "UpsampleNearest3D", "x")
    out = _out_3d(t, output_size, scales, "UpsampleNearest3D")
    return _apply(t, [nearest_matrix(t.shape[2 + i], out[i], False, False) for i in range(3)])


def _trilinear_3d(x: Any, output_size: Any = None, scales: Any = None, align_corners: bool = False) -> Tensor:
    t = _float(check_tensor(x, "UpsampleTrilinear3D", "x"), "UpsampleTrilinear3D")
    out = _out_3d(t, output_size, scales, "UpsampleTrilinear3D")
    c = "align_corners" if align_corners else "half_pixel"
    return _apply(t, [linear_matrix(t.shape[2 + i], out[i], c) for i in range(3)])


OPS: List[Op] = [
    Op("_resize_nearest_neighbor", "input_x, size, align_corners=False", fn=_nearest,
       prim="ResizeNearestNeighbor(size, align_corners=False, half_pixel_centers=False)(input_x) -> input_x, size, "
            "align_corners, half_pixel_centers"),
    Op("_resize_nearest_neighbor_v2", "x, size, align_corners=False, half_pixel_centers=False", fn=_nearest_v2,
       prim="ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size) -> x, size, "
            "align_corners, half_pixel_centers"),
    Op("_resize_bilinear_v2", "x, size, align_corners=False, half_pixel_centers=False", fn=_bilinear_v2,
       prim="ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(x, size) -> x, size, align_corners, "
            "half_pixel_centers"),
    Op("_resize_linear_1d", "x, size, coordinate_transformation_mode='align_corners'", fn=_linear_1d,
       prim="ResizeLinear1D(coordinate_transformation_mode='align_corners')(x, size) -> x, size, "
            "coordinate_transformation_mode"),
    Op("_upsample_nearest_3d", "x, output_size=None, scales=None", fn=_nearest_3d,
       prim="UpsampleNearest3D()(x, output_size=None, scales=None) -> x, output_size, scales"),
    Op("_upsample_trilinear_3d", "x, output_size=None, scales=None, align_corners=False", fn=_trilinear_3d,
       prim="UpsampleTrilinear3D(align_corners=False)(x, output_size=None, scales=None) -> x, output_size, scales, "
            "align_corners"),
]

EXAMPLES = {
    "ResizeNearestNeighbor": ("ops.ResizeNearestNeighbor((2, 2))(ms.Tensor([[[[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]]]))",
                              "[[[[-0.1  0.3]\n   [ 0.4  0.5]]]]"),
    "ResizeNearestNeighborV2": ("ops.ResizeNearestNeighborV2()(ms.Tensor([[[[1.0, 2.0, 3.0, 4.0]]]]), "
                                "ms.Tensor([1, 2], ms.int32))", "[[[[1. 3.]]]]"),
    "ResizeBilinearV2": ("ops.ResizeBilinearV2(align_corners=True)(ms.Tensor([[[[1.0, 3.0]]]]), (1, 3))",
                         "[[[[1. 2. 3.]]]]"),
    "ResizeLinear1D": ("ops.ResizeLinear1D()(ms.Tensor([[[1.0, 2.0, 3.0]]]), (5,))", "[[[1.  1.5 2.  2.5 3. ]]]"),
    "UpsampleNearest3D": ("ops.UpsampleNearest3D()(ms.Tensor([[[[[1.0, 2.0]]]]]), [1, 1, 4], None)",
                          "[[[[[1. 1. 2. 2.]]]]]"),
    "UpsampleTrilinear3D": ("ops.UpsampleTrilinear3D()(ms.Tensor([[[[[1.0, 2.0]]]]]), [1, 1, 4], None)",
                            "[[[[[1.   1.25 1.75 2.  ]]]]]"),
}
