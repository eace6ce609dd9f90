"""Op table: greedy non-maximum suppression — ``NonMaxSuppressionV3`` (boxes ``[y1, x1, y2, x2]``, any two
opposite corners), ``NonMaxSuppressionWithOverlaps`` (a given overlap matrix) and ``CombinedNonMaxSuppression``
(per class, then across classes, batched, padded); and ``rotated_iou`` (the overlap of rotated boxes).

Suppression visits the boxes by descending score (ties: the lower index first), skips those whose score is not
above ``score_threshold``, and keeps a box unless its overlap with a kept box exceeds the threshold, until
``max_output_size`` are kept. No gradients, as in MindSpore.

Example:
    >>> import mskernel as ms
    >>> from mskernel import ops
    >>> boxes = ms.Tensor([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]])
    >>> scores = ms.Tensor([0.9, 0.8, 0.7])
    >>> print(ops.NonMaxSuppressionV3()(boxes, scores, ms.Tensor(3, ms.int32), ms.Tensor(0.5), ms.Tensor(0.0)))
    [0 2]
"""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

import numpy as np

from mskernel.common.tensor import Tensor
from mskernel.ops._core import check_tensor
from mskernel.ops.opdef import Op


def _scalar(v: Any, op: str, name: str) -> float:
    arr = np.asarray(v._data if isinstance(v, Tensor) else v)
    if arr.ndim != 0 and arr.size != 1:
        raise ValueError(f"For '{op}', the rank of '{name}' must be 0, but got {arr.ndim}.")
    return float(arr.reshape(()))


def box_iou(boxes: np.ndarray) -> np.ndarray:
    """(n, n) intersection over union of ``[y1, x1, y2, x2]`` boxes (either corner order; 0 where an area is 0).

    Example:
        >>> print(box_iou(np.array([[0.0, 0.0, 1.0, 1.0], [0.0, 0.5, 1.0, 1.5]]))[0, 1].round(4))
        0.3333
    """
    b = boxes.astype(np.float64)
    y1, y2 = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    x1, x2 = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    area = (y2 - y1) * (x2 - x1)
    ih = np.clip(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0, None)
    iw = np.clip(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0, None)
    inter = ih * iw
    union = area[:, None] + area[None] - inter
    ok = (area[:, None] > 0) & (area[None] > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ok, inter / np.where(ok, union, 1.0), 0.0)


def greedy_nms(scores: np.ndarray, overlap: Callable[[int, int], float], max_output: int, threshold: float,
               score_threshold: float) -> List[int]:
    """The indices kept by greedy suppression (see the module docstring).

    Example:
        >>> ov = np.array([[1.0, 0.9], [0.9, 1.0]])
        >>> greedy_nms(np.array([0.2, 0.8]), lambda i, j: ov[i, j], 2, 0.5, 0.0)
        [1]
    """
    kept: List[int] = []
    for i in np.argsort(-scores, kind="stable"):
        if len(kept) >= max_output:
            break
        if not scores[i] > score_threshold:
            continue
        if all(not overlap(int(i), j) > threshold for j in kept):
            kept.append(int(i))
    return kept


def _nms_inputs(a: Any, scores: Any, op: str, a_name: str) -> Tuple[np.ndarray, np.ndarray]:
    t, s = check_tensor(a, op, a_name), check_tensor(scores, op, "scores")
    if s.ndim != 1:
        raise ValueError(f"For '{op}', the rank of 'scores' must be 1, but got {s.ndim}.")
    return t._data, s._data.astype(np.float64)


def non_max_suppression_v3(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any,
                           score_threshold: Any) -> Tensor:
    """The Int32 indices of the boxes greedy suppression keeps, by descending score.

    Example:
        >>> import mskernel as ms
        >>> boxes = ms.Tensor([[1.0, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4], [1, 1, 3, 4]])
        >>> print(non_max_suppression_v3(boxes, ms.Tensor([0.4, 0.5, 0.72, 0.9, 0.45]), 5, 0.5, 0.0))
        [3 2 0]
    """
    op = "NonMaxSuppressionV3"
    b, s = _nms_inputs(boxes, scores, op, "boxes")
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"For '{op}', the shape of 'boxes' must be (num_boxes, 4), but got {list(b.shape)}.")
    if b.shape[0] != s.shape[0]:
        raise ValueError(f"For '{op}', the number of 'scores' ({s.shape[0]}) must equal the number of 'boxes' "
                         f"({b.shape[0]}).")
    iou = _scalar(iou_threshold, op, "iou_threshold")
    if not 0 <= iou <= 1:
        raise ValueError(f"For '{op}', 'iou_threshold' must be in [0, 1], but got {iou}.")
    ov = box_iou(b)
    kept = greedy_nms(s, lambda i, j: ov[i, j], max(int(_scalar(max_output_size, op, "max_output_size")), 0),
                      iou, _scalar(score_threshold, op, "score_threshold"))
    return Tensor._wrap(np.array(kept, np.int32))


def non_max_suppression_with_overlaps(overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any,
                                      score_threshold: Any) -> Tensor:
    """The Int32 indices greedy suppression keeps, ``overlaps[i, j]`` the overlap of boxes i and j.

    Example:
        >>> import mskernel as ms
        >>> ov = ms.Tensor([[1.0, 0.7], [0.7, 1.0]])
        >>> print(non_max_suppression_with_overlaps(ov, ms.Tensor([0.5, 0.6]), 2, 0.5, 0.0))
        [1]
    """
    op = "NonMaxSuppressionWithOverlaps"
    ov, s = _nms_inputs(overlaps, scores, op, "overlaps")
    if ov.ndim != 2:
        raise ValueError(f"For primitive[{op}], the overlaps's rank must be equal to 2, but got {ov.ndim}.")
    if ov.shape[0] != ov.shape[1]:
        raise ValueError(f"For primitive[{op}], the size of the second dimension of overlaps must be equal to "
                         f"{ov.shape[0]}, but got {ov.shape[1]}.")
    if ov.shape[0] != s.shape[0]:
        raise ValueError(f"For '{op}', the number of 'scores' ({s.shape[0]}) must equal the rows of 'overlaps' "
                         f"({ov.shape[0]}).")
    o64 = ov.astype(np.float64)
    kept = greedy_nms(s, lambda i, j: o64[i, j], max(int(_scalar(max_output_size, op, "max_output_size")), 0),
                      _scalar(overlap_threshold, op, "overlap_threshold"),
                      _scalar(score_threshold, op, "score_threshold"))
    return Tensor._wrap(np.array(kept, np.int32))


def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: Any, score_threshold: Any, pad_per_class: bool = False,
                                 clip_boxes: bool = True) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """Suppression per image and class of (batch, num_boxes, q, 4) ``boxes`` (q is 1, shared by all classes, or
    the number of classes) scored by (batch, num_boxes, num_classes) ``scores``; the survivors of all classes
    sorted by score, at most ``max_total_size`` (with ``pad_per_class``: at most ``max_output_size_per_class *
    num_classes``). Returns the boxes (clipped to [0, 1] with ``clip_boxes``), scores, classes (float) and the
    number of valid detections per image, zero-padded.

    Example:
        >>> import numpy as np, mskernel as ms
        >>> boxes = ms.Tensor(np.array([[[[0.0, 0.0, 0.5, 0.5]], [[0.0, 0.1, 0.5, 0.6]]]], np.float32))
        >>> scores = ms.Tensor(np.array([[[0.9], [0.8]]], np.float32))
        >>> out = combined_non_max_suppression(boxes, scores, 2, 2, 0.5, 0.0)
        >>> print(out[1], out[3])
        [[0.9 0. ]] [1]
    """
    op = "CombinedNonMaxSuppression"
    b = check_tensor(boxes, op, "boxes")._data
    s = check_tensor(scores, op, "scores")._data
    if b.ndim != 4:
        raise ValueError(f"For '{op}', the shape of 'boxes' must be (batch, num_boxes, q, 4), but got "
                         f"{list(b.shape)}.")
    if b.shape[-1] != 4:
        raise ValueError(f"For {op}, the boxes's 4th dim must be equal to 4, but got{b.shape[-1]}.")
    if s.ndim != 3 or s.shape[:2] != b.shape[:2] or b.shape[2] not in (1, s.shape[2]):
        raise ValueError(f"For '{op}', the shape of 'scores' must be (batch, num_boxes, num_classes) with q 1 or "
                         f"num_classes, but got {list(s.shape)} for boxes {list(b.shape)}.")
    per_class = int(_scalar(max_output_size_per_class, op, "max_output_size_per_class"))
    total = int(_scalar(max_total_size, op, "max_total_size"))
    iou = _scalar(iou_threshold, op, "iou_threshold")
    low = _scalar(score_threshold, op, "score_threshold")
    batch, _, q, _ = b.shape
    classes = s.shape[2]
    size = min(per_class * classes, total) if pad_per_class else total
    out_b = np.zeros((batch, size, 4), np.float32)
    out_s = np.zeros((batch, size), np.float32)
    out_c = np.zeros((batch, size), np.float32)
    valid = np.zeros(batch, np.int32)
    for n in range(batch):
        found = []
        for c in range(classes):
            bc = b[n, :, 0 if q == 1 else c]
            sc = s[n, :, c].astype(np.float64)
            ov = box_iou(bc)
            for i in greedy_nms(sc, lambda i, j: ov[i, j], per_class, iou, low):
                found.append((sc[i], c, bc[i]))
        found.sort(key=lambda e: -e[0])
        found = found[:size]
        valid[n] = len(found)
        for k, (score, c, box) in enumerate(found):
            out_b[n, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_s[n, k], out_c[n, k] = score, c
    return Tensor._wrap(out_b), Tensor._wrap(out_s), Tensor._wrap(out_c), Tensor._wrap(valid)


def _check_combined_attrs(pad_per_class: Any = False, clip_boxes: Any = True) -> None:
    for name, v in (("pad_per_class", pad_per_class), ("clip_boxes", clip_boxes)):
        if not isinstance(v, bool):
            raise TypeError(f"For 'CombinedNonMaxSuppression', the type of '{name}' should be 'bool', but got type "
                            f"'{type(v).__name__}'.")


def _combined_prim(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                   iou_threshold: Any, score_threshold: Any, pad_per_class: bool = False,
                   clip_boxes: bool = True) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                                        score_threshold, pad_per_class, clip_boxes)


_combined_prim.init_check = _check_combined_attrs  # type: ignore[attr-defined]

OPS: List[Op] = [
    Op("_non_max_suppression_v3", "boxes, scores, max_output_size, iou_threshold, score_threshold",
       fn=non_max_suppression_v3, prim="NonMaxSuppressionV3"),
    Op("_non_max_suppression_with_overlaps", "overlaps, scores, max_output_size, overlap_threshold, score_threshold",
       fn=non_max_suppression_with_overlaps, prim="NonMaxSuppressionWithOverlaps"),
    Op("_combined_non_max_suppression", "boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, "
       "score_threshold, pad_per_class=False, clip_boxes=True", fn=_combined_prim,
       prim="CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes, scores, "
            "max_output_size_per_class, max_total_size, iou_threshold, score_threshold) -> boxes, scores, "
            "max_output_size_per_class, max_total_size, iou_threshold, score_threshold, pad_per_class, clip_boxes"),
]

EXAMPLES = {
    "NonMaxSuppressionV3": ("boxes = ms.Tensor([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]])",
                            "ops.NonMaxSuppressionV3()(boxes, ms.Tensor([0.9, 0.8, 0.7]), ms.Tensor(3, ms.int32), "
                            "ms.Tensor(0.5), ms.Tensor(0.0))", "[0 2]"),
    "NonMaxSuppressionWithOverlaps": ("ov = ms.Tensor([[1.0, 0.7], [0.7, 1.0]])",
                                      "ops.NonMaxSuppressionWithOverlaps()(ov, ms.Tensor([0.5, 0.6]), "
                                      "ms.Tensor(2, ms.int32), ms.Tensor(0.5), ms.Tensor(0.0))", "[1]"),
    "CombinedNonMaxSuppression": ("boxes = ms.Tensor([[[[0.0, 0.0, 0.5, 0.5]], [[0.0, 0.1, 0.5, 0.6]]]])",
                                  "out = ops.CombinedNonMaxSuppression()(boxes, ms.Tensor([[[0.9], [0.8]]]), "
                                  "ms.Tensor(2, ms.int32), ms.Tensor(2, ms.int32), ms.Tensor(0.5), ms.Tensor(0.0))",
                                  "out[1], out[3]", "[[0.9 0. ]] [1]"),
}
