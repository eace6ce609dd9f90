"""Op table: ``rotated_iou`` — the overlap of rotated rectangles.

A box is ``[x, y, w, h, t]`` (centre, width, height, angle ``t`` in degrees, counter-clockwise), or with ``trans``
``[x1, y1, x2, y2, t]`` (two opposite corners of the unrotated box, rotated about its centre). The overlap of two
boxes is the area of their convex intersection (each rectangle clipped by the other's edges), over the union
(``mode=0``) or over the first box's area (``mode=1``, 'iof'). MindSpore runs it only on Ascend (the CPU wheel has
no RotatedIou kernel); here it is computed in float64 and returned in the input's dtype. ``v_threshold`` and
``e_threshold`` are the device's tolerances for its vertex and edge tests, which the exact computation here does
not need.

Example:
    >>> import numpy as np, mskernel as ms
    >>> from mskernel import ops
    >>> a = ms.Tensor(np.array([[[0.0, 0.0, 2.0, 2.0, 0.0]]], np.float32))
    >>> b = ms.Tensor(np.array([[[1.0, 0.0, 2.0, 2.0, 0.0], [0.0, 0.0, 2.0, 2.0, 90.0]]], np.float32))
    >>> print(ops.rotated_iou(a, b))
    [[[0.33333334 1.        ]]]
"""
from __future__ import annotations

from typing import Any, List

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op


def corners(box: np.ndarray, trans: bool) -> np.ndarray:
    """The four corners (4, 2), counter-clockwise, of one ``[x, y, w, h, t]`` (or ``[x1, y1, x2, y2, t]``) box.

    Example:
        >>> print(corners(np.array([0.0, 0.0, 2.0, 2.0, 0.0]), False))
        [[-1. -1.]
         [ 1. -1.]
         [ 1.  1.]
         [-1.  1.]]
    """
    if trans:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        w, h = abs(box[2] - box[0]), abs(box[3] - box[1])
    else:
        cx, cy, w, h = box[0], box[1], box[2], box[3]
    th = np.deg2rad(box[4])
    c, s = np.cos(th), np.sin(th)
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return np.stack([cx + local[:, 0] * c - local[:, 1] * s, cy + local[:, 0] * s + local[:, 1] * c], 1)


def _area(poly: np.ndarray) -> float:
    if len(poly) < 3:
        return 0.0
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _clip(subject: np.ndarray, clipper: np.ndarray) -> np.ndarray:
    """The part of convex ``subject`` inside convex counter-clockwise ``clipper`` (Sutherland-Hodgman)."""
    out = list(subject)
    for i in range(len(clipper)):
        a, b = clipper[i], clipper[(i + 1) % len(clipper)]
        edge = b - a

        def side(p: np.ndarray) -> float:
            return float(edge[0] * (p[1] - a[1]) - edge[1] * (p[0] - a[0]))

        pts, out = out, []
        for j in range(len(pts)):
            p, q = pts[j], pts[(j + 1) % len(pts)]
            sp, sq = side(p), side(q)
            if sp >= 0:
                out.append(p)
            if (sp >= 0) != (sq >= 0):
                out.append(p + (q - p) * (sp / (sp - sq)))
        if not out:
            break
    return np.array(out).reshape(-1, 2)


def _overlap(a: np.ndarray, b: np.ndarray, trans: bool, mode: int) -> float:
    pa, pb = corners(a, trans), corners(b, trans)
    area_a, area_b = _area(pa), _area(pb)
    inter = _area(_clip(pa, pb)) if area_a > 0 and area_b > 0 else 0.0
    denom = area_a if mode == 1 else area_a + area_b - inter
    return inter / denom if denom > 0 else 0.0


def rotated_iou(boxes: Any, query_boxes: Any, trans: bool = False, mode: int = 0, is_cross: bool = True,
                v_threshold: float = 0.0, e_threshold: float = 0.0) -> Tensor:
    """Overlaps of the (B, N, 5) ``boxes`` with the (B, K, 5) ``query_boxes``: (B, N, K), or with ``is_cross``
    False the aligned pairs (B, N).

    Example:
        >>> import numpy as np, mskernel as ms
        >>> a = ms.Tensor(np.array([[[0.0, 0.0, 2.0, 2.0, 45.0]]], np.float32))
        >>> print(rotated_iou(a, a, is_cross=False))
        [[1.]]
    """
    op = "rotated_iou"
    b, q = check_tensor(boxes, op, "boxes"), check_tensor(query_boxes, op, "query_boxes")
    for name, t in (("boxes", b), ("query_boxes", q)):
        if t._data.dtype not in (np.float16, np.float32) and str(t.dtype) != "BFloat16":
            raise ValueError(f"input {name} type is illegal.")
    if b.ndim != 3 or q.ndim != 3 or b.shape[2] != 5 or q.shape[2] != 5:
        raise ValueError(f"For '{op}', the third dimension of 'boxes' and 'query_boxes' must be 5, but got "
                         f"{list(b.shape)} and {list(q.shape)}.")
    if b.shape[0] != q.shape[0]:
        raise ValueError(f"For '{op}', 'boxes' and 'query_boxes' must have the same first dimension, but got "
                         f"{b.shape[0]} and {q.shape[0]}.")
    bv, qv = b._data.astype(np.float64), q._data.astype(np.float64)
    if is_cross:
        out = np.array([[[_overlap(bv[i, n], qv[i, k], trans, mode) for k in range(q.shape[1])]
                         for n in range(b.shape[1])] for i in range(b.shape[0])]).reshape(b.shape[0], b.shape[1],
                                                                                           q.shape[1])
    else:
        if b.shape[1] != q.shape[1]:
            raise ValueError(f"For '{op}', one-to-one overlaps need as many 'query_boxes' as 'boxes', but got "
                             f"{q.shape[1]} and {b.shape[1]}.")
        out = np.array([[_overlap(bv[i, n], qv[i, n], trans, mode) for n in range(b.shape[1])]
                        for i in range(b.shape[0])]).reshape(b.shape[0], b.shape[1])
    return Tensor._wrap(out.astype(b._data.dtype))


OPS: List[Op] = [
    Op("rotated_iou", "boxes, query_boxes, trans=False, mode=0, is_cross=True, v_threshold=0.0, e_threshold=0.0",
       fn=rotated_iou),
]

EXAMPLES: dict = {}
