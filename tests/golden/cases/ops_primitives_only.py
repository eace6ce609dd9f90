"""Ops MindSpore offers only as primitive classes (table/primitives_only.py): values, gradients, dtypes, errors."""
_P = "p = Tensor(np.arange(10).reshape(5, 2).astype(np.float32))\n"
_I = "i = Tensor(np.array([[1, 7], [4, -1], [3, 3]]), ms.int32)\n"
_RGB = "rgb = Tensor(np.array([[[[0.9, 0.1, 0.3], [0.0, 0.0, 0.0]], [[0.2, 0.2, 0.2], [0.1, 0.8, 0.5]]]], np.float32))\n"
_HSV = "hsv = Tensor(np.array([[[[0.95, 0.8, 0.9], [0.0, 0.0, 0.0]], [[0.5, 0.0, 0.2], [0.4, 0.9, 0.8]]], [[[0.1, 0.5, 0.5], [0.7, 1.0, 1.0]], [[0.33, 0.3, 0.6], [0.99, 0.2, 0.1]]]], np.float32))\n"
_S = "seq = Tensor(np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]], [[4, 8, 6, 4, 5, 6, 4], [4, 8, 8, 4, 3, 4, 8]]]), ms.int32)\nlp = Tensor(np.linspace(0.1, 0.9, 40).reshape(2, 2, 10).astype(np.float32))\n"
CASES = {
    "diag_part": "result = ops.DiagPart()(Tensor(np.arange(9).reshape(3, 3).astype(np.float32)))",
    "diag_part_4d": "result = ops.DiagPart()(Tensor(np.arange(36).reshape(2, 3, 2, 3).astype(np.int32)))",
    "diag_part_grad": "result = ms.grad(lambda a: (ops.DiagPart()(a) * Tensor([1.0, 2.0, 3.0])).sum())(Tensor(np.ones((3, 3), np.float32)))",
    "diag_part_bad": "result = ops.DiagPart()(Tensor(np.ones((2, 3), np.float32)))",
    "embedding_lookup": _P + _I + "result = ops.EmbeddingLookup()(p, i, 2)",
    "embedding_lookup_grad": _P + _I + "result = ms.grad(lambda a: ops.EmbeddingLookup()(a, i, 0).sum())(p)",
    "embedding_lookup_1d": "result = ops.EmbeddingLookup()(Tensor(np.array([1.5, 2.5, 3.5], np.float32)), Tensor(np.array([0, 2, 3]), ms.int32), 0)",
    "embedding_lookup_cell": _I + "result = nn.EmbeddingLookup(5, 3, param_init='ones')(i)",
    "embedding_lookup_cell_max_norm": _I + "e = nn.EmbeddingLookup(5, 2, param_init='ones', max_norm=0.5)\nresult = (e(i), repr(e), [n for n, _ in e.parameters_and_names()])",
    "embedding_lookup_cell_grad": _I + "e = nn.EmbeddingLookup(8, 2, param_init='ones')\nresult = ms.grad(lambda x: (e(x) * Tensor([1.0, 3.0])).sum(), None, e.trainable_params())(i)",
    "embedding_lookup_cell_target": "result = nn.EmbeddingLookup(4, 2, target='GPU')",
    "rgb_to_hsv": _RGB + "result = ops.RGBToHSV()(rgb)",
    "hsv_to_rgb": _HSV + "result = ops.HSVToRGB()(hsv)",
    "hsv_round_trip": _RGB + "result = ops.HSVToRGB()(ops.RGBToHSV()(rgb))",
    "hsv_to_rgb_float16": _HSV + "result = ops.HSVToRGB()(hsv.astype(ms.float16))",
    "hsv_to_rgb_bad_rank": "result = ops.HSVToRGB()(Tensor(np.ones((2, 3), np.float32)))",
    "compare_and_bitpack": "result = ops.CompareAndBitpack()(Tensor(np.arange(32).reshape(2, 16).astype(np.float32)), Tensor(np.float32(9.5)))",
    "compare_and_bitpack_bool": "result = ops.CompareAndBitpack()(Tensor(np.array([True, False] * 4)), Tensor(False))",
    "sub_and_filter": "result = ops.SubAndFilter()(Tensor(np.array([1, 3, 5, 8, 9, 16, 14, 5]), ms.int32), 10, 5)",
    "ragged_range": "result = ops.RaggedRange(Tsplits=ms.int64)(Tensor(np.array([2, 5, 8, 0]), ms.int32), Tensor(np.array([3, 5, 12, -6]), ms.int32), Tensor(np.array([1, 1, 2, -3]), ms.int32))",
    "ragged_range_float": "result = ops.RaggedRange(Tsplits=ms.int32)(Tensor(np.array([0.0, 1.0], np.float32)), Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([0.25, 0.5], np.float32)))",
    "no_repeat_ngram": _S + "result = ops.NoRepeatNGram(ngram_size=3)(seq, lp)",
    "no_repeat_ngram_2": _S + "result = ops.NoRepeatNGram(ngram_size=2)(seq, lp)",
    "adjust_hue": _RGB + "result = (ops.AdjustHue()(rgb, Tensor(0.2)), ops.AdjustHue()(rgb * 10, Tensor(-0.35)))",
    "adjust_saturation": _RGB + "result = (ops.AdjustSaturation()(rgb, Tensor(0.5)), ops.AdjustSaturation()(rgb, Tensor(3.0)))",
    "map_uniform": "result = ops.MapUniform()(Tensor(np.arange(12), ms.int32), 3, 4)",
    "cumulative_logsumexp": "x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], np.float32))\nresult = [ops.CumulativeLogsumexp(e, r)(x, Tensor(a)) for e in (False, True) for r in (False, True) for a in (0, 1)]",
    "cumulative_logsumexp_grad": "x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], np.float32))\nresult = ms.grad(lambda a: (ops.CumulativeLogsumexp(False, True)(a, Tensor(1)) * Tensor([1.0, 2.0, 3.0])).sum())(x)",
    "pad_v3": "x = Tensor(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3))\nresult = [ops.PadV3(m, c)(x, Tensor([1, 2, 0, 1]), Tensor(1.5) if m == 'constant' else None) for m, c in (('constant', True), ('constant', False), ('reflect', True), ('edge', True), ('edge', False))]",  # the wheel's reflect with paddings_contiguous=False returns uninitialised memory
    "tensor_sum_to_size": "x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))\nresult = (x.sum_to_size((3, 1)), x.sum_to_size(1, 3, 4), x.sum_to_size(2, 1, 4))",
    "tensor_resize": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32))\nresult = (x.resize(3, 3), x.resize((2, 2)), x.resize(7))",
    "summaries": "x = Tensor(np.ones((1, 3, 2, 2), np.float32))\nresult = (ops.ScalarSummary()('s', Tensor(1.0)), ops.TensorSummary()('t', x), ops.ImageSummary()('i', x), ops.HistogramSummary()('h', x))",
}
OPTIONS = {
    "embedding_lookup_cell_target": {"message": True},
    "embedding_lookup_cell_max_norm": {
        "differs": "with max_norm the wheel's CPU lookup renormalises some looked-up rows and not others (index 4 keeps "
                   "norm 1.41; index 3 gives 0.354 the first time and 0.5 the second); mskernel scales every row longer "
                   "than max_norm to it, as MindSpore documents",
        "oracle": "idx = np.array([[1, 7], [4, -1], [3, 3]])\nrows = np.where(((idx >= 0) & (idx < 5))[..., None], np.ones((3, 2, 2)), 0.0)\n"
                  "norm = np.sqrt((rows ** 2).sum(-1, keepdims=True))\n"
                  "rows = np.where(norm > 0.5, rows * 0.5 / np.maximum(norm, 1e-12), rows).astype(np.float32)\n"
                  "result = (as_tensor(rows), 'EmbeddingLookup()', ['embedding_table'])"},
    "embedding_lookup_cell_grad": {"differs": "as embedding_lookup_grad: the wheel returns the sparse gradient's values "
                                              "(shape [6, 2]); mskernel the dense gradient of the [8, 2] table",
                                   "oracle": "idx = np.array([[1, 7], [4, -1], [3, 3]]).reshape(-1)\ng = np.zeros((8, 2), np.float32)\n"
                                             "np.add.at(g, idx[(idx >= 0) & (idx < 8)], [1.0, 3.0])\nresult = (as_tensor(g),)"},
    "diag_part_bad": {"message_parts": ["For primitive[DiagPart], the attribute[input_shape[i + rank(input_shape) / 2]] must be equal to 2, but got 3."],
                      "why": "the wheel appends its C++ call stack"},
    # the wheel's gradient is the values of a sparse (row) gradient: one row per index, shaped like the lookup; mskernel
    # gives the dense gradient of the table, each row the count of its in-range lookups
    "embedding_lookup_grad": {"differs": "the wheel returns the values of EmbeddingLookup's sparse gradient (one row per index, "
                                         "shape [6, 2]) where the table's gradient has the table's shape [5, 2]; mskernel "
                                         "gives that dense gradient",
                              "oracle": "idx = np.array([[1, 7], [4, -1], [3, 3]]).reshape(-1)\ng = np.zeros((5, 2), np.float32)\n"
                                        "np.add.at(g, idx[(idx >= 0) & (idx < 5)], 1.0)\nresult = as_tensor(g)"},
    "hsv_to_rgb_bad_rank": {"message_parts": ["For primitive[HSVToRGB], the the dimension of [x] must be equal to 4, but got 2."],
                            "why": "the wheel appends its C++ call stack"},
}
