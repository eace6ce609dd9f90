"""Op table: bounding boxes for object detection (no gradients, as in MindSpore).

Boxes are ``[x1, y1, x2, y2]`` in pixels and include both ends, so a box's width is ``x2 - x1 + 1`` (MindSpore's
convention, measured on its CPU wheel): encoding gives ``(dx, dy, dw, dh)`` of the ground truth against the
anchor, normalised by ``means``/``stds``; decoding inverts it, with ``dw``/``dh`` clipped to
``|log(wh_ratio_clip)|`` and the box to ``[0, W] x [0, H]`` of ``max_shape = (H, W)``.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> a = ms.Tensor([[0.0, 0.0, 9.0, 9.0]])
    >>> print(ops.iou(a, ms.Tensor([[0.0, 0.0, 4.0, 9.0]])))
    [[0.5]]
"""
from __future__ import annotations

import math
from typing import Any, List, Sequence, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op
from mskernel.ops.table.nms import box_iou

_NO_GRAD = dict(dtype="any")


def _boxes(x: Any, op: str, arg: str, width: int = 4) -> np.ndarray:
    t = check_tensor(x, op, arg)
    if t.ndim != 2 or t.shape[-1] != width:
        got = t.shape[-1] if t.ndim else 0
        raise ValueError(f"For '{op}', '{arg}' last dimension must be {width}, but got: {got}.")
    return t._data


def _four(values: Sequence[float], op: str, arg: str) -> np.ndarray:
    if len(tuple(values)) != 4:
        raise ValueError(f"For '{op}', '{arg}' must be a tuple of 4 floats, but got {values!r}")
    return np.asarray(values, np.float64)


def _centres(b: np.ndarray) -> Tuple[np.ndarray, ...]:
    """(centre x, centre y, width, height) of ``[x1, y1, x2, y2]`` boxes, both ends included."""
    w, h = b[:, 2] - b[:, 0] + 1.0, b[:, 3] - b[:, 1] + 1.0
    return b[:, 0] + 0.5 * (w - 1.0), b[:, 1] + 0.5 * (h - 1.0), w, h


def bounding_box_encode(anchor_box: Any, groundtruth_box: Any, means: Sequence[float] = (0.0, 0.0, 0.0, 0.0),
                        stds: Sequence[float] = (1.0, 1.0, 1.0, 1.0)) -> Tensor:
    """``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))``, less ``means``, over ``stds``."""
    op = "BoundingBoxEncode"
    a, g = _boxes(anchor_box, op, "anchor_box"), _boxes(groundtruth_box, op, "groundtruth_box")
    px, py, pw, ph = (v.astype(np.float64) for v in _centres(a))
    gx, gy, gw, gh = (v.astype(np.float64) for v in _centres(g))
    d = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], axis=1)
    return Tensor._wrap(((d - _four(means, op, "means")) / _four(stds, op, "stds")).astype(a.dtype))


def bounding_box_decode(anchor_box: Any, deltas: Any, max_shape: Sequence[int],
                        means: Sequence[float] = (0.0, 0.0, 0.0, 0.0), stds: Sequence[float] = (1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip: float = 0.016) -> Tensor:
    """The boxes ``deltas`` encode against ``anchor_box`` (see the module docstring), clipped to ``max_shape``."""
    op = "BoundingBoxDecode"
    a, d = _boxes(anchor_box, op, "anchor_box"), _boxes(deltas, op, "deltas")
    if max_shape is None or len(tuple(max_shape)) != 2:
        raise ValueError(f"For '{op}', 'max_shape' must be a tuple of 2 ints (height, width), but got {max_shape!r}")
    d = d.astype(np.float64) * _four(stds, op, "stds") + _four(means, op, "means")
    px, py, pw, ph = (v.astype(np.float64) for v in _centres(a))
    limit = abs(math.log(wh_ratio_clip))
    gw, gh = pw * np.exp(np.clip(d[:, 2], -limit, limit)), ph * np.exp(np.clip(d[:, 3], -limit, limit))
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    height, width = max_shape
    out = np.stack([np.clip(gx - 0.5 * gw + 0.5, 0, width), np.clip(gy - 0.5 * gh + 0.5, 0, height),
                    np.clip(gx + 0.5 * gw - 0.5, 0, width), np.clip(gy + 0.5 * gh - 0.5, 0, height)], axis=1)
    return Tensor._wrap(out.astype(a.dtype))


def check_valid(bboxes: Any, img_metas: Any) -> Tensor:
    """Whether each box lies inside the image ``img_metas = (height, width, ratio)``: ``x1, y1 >= 0`` and
    ``x2 <= width * ratio - 1``, ``y2 <= height * ratio - 1``."""
    b = _boxes(bboxes, "CheckValid", "bboxes")
    meta = check_tensor(img_metas, "CheckValid", "img_metas")._data
    if meta.shape != (3,):
        raise ValueError(f"For 'CheckValid', 'img_metas' must have shape (3,) (height, width, ratio), but got "
                         f"{meta.shape}")
    height, width, ratio = (float(v) for v in meta)
    ok = (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= width * ratio - 1) & (b[:, 3] <= height * ratio - 1)
    return Tensor._wrap(ok)


def _overlaps(a: np.ndarray, g: np.ndarray, mode: str) -> np.ndarray:
    """``(len(g), len(a))`` intersection over union (``iou``) or over the ground truth's area (``iof``)."""
    a64, g64 = a.astype(np.float64), g.astype(np.float64)
    area_a = (a64[:, 2] - a64[:, 0] + 1) * (a64[:, 3] - a64[:, 1] + 1)
    area_g = (g64[:, 2] - g64[:, 0] + 1) * (g64[:, 3] - g64[:, 1] + 1)
    w = np.minimum(g64[:, None, 2], a64[None, :, 2]) - np.maximum(g64[:, None, 0], a64[None, :, 0]) + 1
    h = np.minimum(g64[:, None, 3], a64[None, :, 3]) - np.maximum(g64[:, None, 1], a64[None, :, 1]) + 1
    inter = np.clip(w, 0, None) * np.clip(h, 0, None)
    return inter / (area_a[None, :] + area_g[:, None] - inter) if mode == "iou" else inter / area_g[:, None]


def iou(anchor_boxes: Any, gt_boxes: Any, mode: str = "iou") -> Tensor:
    """``(len(gt_boxes), len(anchor_boxes))`` overlaps: ``iou`` (over the union) or ``iof`` (over the ground
    truth box's area)."""
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    a, g = _boxes(anchor_boxes, "IOU", "anchor_boxes"), _boxes(gt_boxes, "IOU", "gt_boxes")
    return Tensor._wrap(_overlaps(a, g, mode).astype(a.dtype))


def nms_with_mask(bboxes: Any, iou_threshold: float = 0.5) -> Tuple[Tensor, Tensor, Tensor]:
    """Non-maximum suppression of ``[x1, y1, x2, y2, score]`` rows: the rows sorted by score (highest first),
    their positions in that order, and which survive (a box is dropped when its IOU with a kept higher-scoring
    box exceeds ``iou_threshold``), as the CPU kernel returns them. The IOU is the documented plain one, the area
    of overlap over the area of union (no ``+ 1`` on the sides, unlike ``IOU``'s)."""
    b = _boxes(bboxes, "NMSWithMask", "bboxes", 5)
    order = np.argsort(-b[:, 4], kind="stable")
    s = b[order]
    over = box_iou(s[:, :4])
    keep = np.zeros(len(s), bool)
    for i in range(len(s)):
        keep[i] = not np.any(keep[:i] & (over[i, :i] > iou_threshold))
    return Tensor._wrap(s), Tensor._wrap(np.arange(len(s), dtype=np.int32)), Tensor._wrap(keep)


OPS: List[Op] = [
    Op("bounding_box_encode", "anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)",
       fn=bounding_box_encode, prim="BoundingBoxEncode(means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0))"
       "(anchor_box, groundtruth_box) -> anchor_box, groundtruth_box, means, stds"),
    Op("bounding_box_decode", "anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), "
       "stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016", fn=bounding_box_decode,
       prim="BoundingBoxDecode(max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), "
            "wh_ratio_clip=0.016)(anchor_box, deltas) -> anchor_box, deltas, max_shape, means, stds, wh_ratio_clip"),
    Op("check_valid", "bboxes, img_metas", fn=check_valid, prim="CheckValid"),
    Op("iou", "anchor_boxes, gt_boxes, mode='iou'", fn=iou,
       prim="IOU(mode='iou')(anchor_boxes, gt_boxes) -> anchor_boxes, gt_boxes, mode"),
    Op("_nms_with_mask", "bboxes, iou_threshold=0.5", fn=nms_with_mask,
       prim="NMSWithMask(iou_threshold=0.5)(bboxes) -> bboxes, iou_threshold"),
]

#: the examples, by op or primitive name (mskernel.ops.registry adds each to its docstring; the tests run it):
#: ``(setup statement, ..., expression, what print(expression) shows)``
EXAMPLES = {
    "bounding_box_encode": ("ops.bounding_box_encode(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), "
                            "ms.Tensor([[1.0, 2.0, 1.0, 4.0]]))",
                            "[[-1.         0.25       0.         0.4054651]]"),
    "BoundingBoxEncode": ("ops.BoundingBoxEncode(stds=(2.0, 2.0, 1.0, 1.0))(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), "
                          "ms.Tensor([[1.0, 2.0, 1.0, 4.0]]))", "[[-0.5        0.125      0.         0.4054651]]"),
    "bounding_box_decode": ("ops.bounding_box_decode(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), "
                            "ms.Tensor([[-1.0, 0.25, 0.0, 0.4054651]]), (10, 10))", "[[1. 2. 1. 4.]]"),
    "BoundingBoxDecode": ("ops.BoundingBoxDecode((10, 10))(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), "
                          "ms.Tensor([[0.0, 0.0, 0.0, 0.0]]))", "[[2. 2. 2. 3.]]"),
    "check_valid": ("ops.check_valid(ms.Tensor([[0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 2.5, 1.0]]), "
                    "ms.Tensor([2.0, 1.0, 3.0]))", "[ True False]"),
    "CheckValid": ("ops.CheckValid()(ms.Tensor([[-1.0, 0.0, 2.0, 1.0]]), ms.Tensor([2.0, 1.0, 3.0]))", "[False]"),
    "iou": ("ops.iou(ms.Tensor([[0.0, 0.0, 9.0, 9.0]]), ms.Tensor([[0.0, 0.0, 4.0, 9.0]]))", "[[0.5]]"),
    "IOU": ("ops.IOU(mode='iof')(ms.Tensor([[0.0, 0.0, 9.0, 9.0]]), ms.Tensor([[0.0, 0.0, 4.0, 9.0]]))", "[[1.]]"),
    "NMSWithMask": ("ops.NMSWithMask(0.5)(ms.Tensor([[0.0, 0.0, 9.0, 9.0, 0.5], [0.0, 0.0, 9.0, 8.0, 0.9]]))[2]",
                    "[ True False]"),
}
