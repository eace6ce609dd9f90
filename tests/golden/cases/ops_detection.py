"""Bounding-box ops of object detection (table/detection.py): encoding and decoding against anchors, validity
against the image, IOU/IOF, non-maximum suppression; values, dtypes and errors."""
_A = "anchor = Tensor(np.array([[2, 2, 2, 3], [0, 0, 9, 4], [3.5, 1.5, 7.5, 9.0]], np.float32))\n"
_G = "gt = Tensor(np.array([[1, 2, 1, 4], [1, 1, 8, 6], [4.0, 2.0, 6.5, 8.0]], np.float32))\n"
_D = "deltas = Tensor(np.array([[3, 1, 2, 2], [0.1, -0.2, 0.5, -5.0], [-0.3, 0.4, 6.0, 0.1]], np.float32))\n"
_B = ("b = Tensor(np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 5, 5]], np.float32))\n"
      "g = Tensor(np.array([[0, 0, 10, 10], [5, 5, 15, 15]], np.float32))\n")
_N = ("s = np.array([[100.0, 100.0, 150.0, 168.0, 0.63], [150.0, 75.0, 315.0, 190.0, 0.55], "
      "[12.0, 190.0, 300.0, 390.0, 0.9], [28.0, 130.0, 134.0, 302.0, 0.3], [101.0, 99.0, 149.0, 170.0, 0.7], "
      "[14.0, 192.0, 298.0, 388.0, 0.2]], np.float32)\n")
CASES = {
    "encode": _A + _G + "result = ops.BoundingBoxEncode()(anchor, gt)",
    "encode_means_stds": _A + _G + "result = ops.BoundingBoxEncode(means=(0.1, -0.1, 0.2, 0.0), stds=(0.5, 2.0, 1.0, 0.25))(anchor, gt)",
    "encode_functional": _A + _G + "result = ops.bounding_box_encode(anchor, gt, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0))",
    "decode": _A + _D + "result = ops.BoundingBoxDecode(max_shape=(768, 1280), wh_ratio_clip=0.016)(anchor, deltas)",
    "decode_means_stds": _A + _D + "result = ops.BoundingBoxDecode(max_shape=(10, 8), means=(0.1, 0.0, -0.1, 0.2), stds=(1.0, 0.5, 2.0, 1.0))(anchor, deltas)",
    "decode_functional": _A + _D + "result = ops.bounding_box_decode(anchor, deltas, max_shape=(20, 20), wh_ratio_clip=0.1)",
    "decode_roundtrip": _A + _G + "result = ops.BoundingBoxDecode(max_shape=(100, 100), wh_ratio_clip=0.001)(anchor, ops.BoundingBoxEncode()(anchor, gt))",
    "check_valid": "bboxes = Tensor(np.array([[0, 0, 2, 1], [0, 0, 3, 1], [0, 0, 2.5, 5], [0, 0, 2, 6], [-0.5, 0, 1, 1], [0, 0, 1.9, 4.9]], np.float32))\n"
                   "result = ops.CheckValid()(bboxes, Tensor(np.array([2, 1, 3], np.float32)))",
    "check_valid_functional": "bboxes = Tensor(np.linspace(0, 6, 12).reshape(3, 4), ms.float32)\nresult = ops.check_valid(bboxes, Tensor(np.array([2, 1, 3]), ms.float32))",
    "iou": _B + "result = ops.IOU()(b, g)",
    "iof": _B + "result = ops.IOU(mode='iof')(b, g)",
    "iou_functional": _B + "result = ops.iou(b, g, 'iou')",
    "iou_float16": _B + "result = ops.iou(b.astype(ms.float16), g.astype(ms.float16))",
    "nms": _N + "out = ops.NMSWithMask(0.1)(Tensor(s))\nresult = out",
    "nms_05": _N + "result = ops.NMSWithMask(0.5)(Tensor(s))",
    "nms_selected": _N + "boxes, idx, mask = ops.NMSWithMask(0.3)(Tensor(s))\nresult = Tensor(idx.asnumpy()[mask.asnumpy()])",
    "encode_bad_shape": "result = ops.BoundingBoxEncode()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)))",
    "iou_bad_mode": _B + "result = ops.IOU(mode='giou')(b, g)",
}
OPTIONS = {
    "encode_bad_shape": {"message_parts": ["For 'BoundingBoxEncode', 'anchor_box' last dimension must be 4, but got: 3."],
                         "why": "the wheel appends its C++ call stack"},
    "iou_bad_mode": {"message": True},
}
