"""Scatter, segment, split and rearranging ops (table/scatter.py and its neighbours): values, dtypes, the
in-place Parameter forms (their return value and the Parameter after), repeated indices (updates applied in
order, the last update kept), gradients and error texts, as the CPU wheel gives them."""
_P = "p = ms.Parameter(Tensor(np.array([[6.0, 6.0, 6.0], [2.0, 2.0, 2.0]], np.float32)), name='p')\n"
_PI = "p = ms.Parameter(Tensor(np.array([[-7, 7, 9], [8, -9, 3]], np.int32)), name='p')\n"
_U = "u = Tensor(np.array([[2.0, 3.0, -1.0], [4.0, 0.5, 8.0]], np.float32))\n"
_X = "x = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
_IX = "i = Tensor(np.array([[0, 0], [1, 2], [0, 0]], np.int32))\nv = Tensor(np.array([2.0, 8.0, 4.0], np.float32))\n"

CASES = {}
# the in-place row scatters: the returned tensor and the Parameter after, one row named once, twice, in a 2-D index
for name, prim in [("update", "ScatterUpdate"), ("mul", "ScatterMul"), ("div", "ScatterDiv"), ("max", "ScatterMax"),
                   ("min", "ScatterMin")]:
    CASES[f"scatter_{name}"] = _P + _U + f"out = ops.scatter_{name}(p, Tensor(np.array([1, 0], np.int32)), u)\nresult = (out, p.value(), type(out) is ms.Parameter)"
    CASES[f"scatter_{name}_dup"] = _P + _U + f"result = (ops.{prim}()(p, Tensor(np.array([0, 0], np.int32)), u), p.value())"
    CASES[f"scatter_{name}_2d"] = _P + f"result = ops.scatter_{name}(p, Tensor(np.array([[0, 1], [1, 1]], np.int32)), Tensor(np.arange(1, 13, dtype=np.float32).reshape(2, 2, 3)))"
    CASES[f"scatter_{name}_int"] = _PI + f"result = ops.scatter_{name}(p, Tensor(np.array([1, 1], np.int32)), Tensor(np.array([[2, -2, 4], [3, 3, -2]], np.int32)))"
CASES.update({
    "scatter_sub": _P + _U + "result = (ops.ScatterSub()(p, Tensor(np.array([1, 1], np.int32)), u), p.value())",
    "t_scatter_methods": _X + _IX + "result = (x.scatter_mul(i, v), x.scatter_div(i, v), x.scatter_max(i, v), x.scatter_min(i, v), x.scatter_sub(i, v), x.scatter_add(i, v), x)",
    "t_scatter_methods_param": _P + _IX + "result = (p.scatter_mul(i, v), p.value())",
    "scatter_update_tensor": _X + _U + "result = (ops.scatter_update(x, Tensor(np.array([1, 0], np.int32)), u), x)",
    "scatter_mul_cast": "p = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='p')\nresult = ops.scatter_mul(p, Tensor(np.array([0], np.int32)), Tensor(np.array([3], np.int32)))",
    "scatter_mul_oob": _P + _U + "result = ops.scatter_mul(p, Tensor(np.array([2, 0], np.int32)), u)",
    "scatter_div_neg_index": _P + _U + "result = ops.scatter_div(p, Tensor(np.array([-1, 0], np.int32)), u)",
    "scatter_update_shape": _P + "result = ops.scatter_update(p, Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32)))",
    "scatter_max_locking": _P + _U + "result = ops.ScatterMax(use_locking=True)(p, Tensor(np.array([1, 0], np.int32)), u)",
})
# the in-place coordinate scatters
for name, prim in [("add", "ScatterNdAdd"), ("sub", "ScatterNdSub"), ("mul", "ScatterNdMul"), ("div", "ScatterNdDiv"),
                   ("max", "ScatterNdMax"), ("min", "ScatterNdMin"), ("update", "ScatterNdUpdate")]:
    CASES[f"scatter_nd_{name}"] = _P + _IX + f"out = ops.scatter_nd_{name}(p, i, v)\nresult = (out, p.value())"
    CASES[f"scatter_nd_{name}_rows"] = _P + f"result = ops.{prim}()(p, Tensor(np.array([[1], [1]], np.int32)), Tensor(np.array([[1.0, 2.0, 4.0], [8.0, 0.5, -1.0]], np.float32)))"
CASES.update({
    "scatter_nd_div_int": _PI + "result = ops.scatter_nd_div(p, Tensor(np.array([[0, 0], [0, 1], [1, 1]], np.int32)), Tensor(np.array([2, -2, 4], np.int32)))",
    "scatter_nd_update_doc": "p = ms.Parameter(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32)), name='x')\nresult = ops.scatter_nd_update(p, Tensor(np.array([[0, 0], [1, 1]], np.int32)), Tensor(np.array([1.0, 2.2], np.float32)))",
    "scatter_nd_add_locking": _P + _IX + "result = ops.scatter_nd_add(p, i, v, True)",
})
# the functional coordinate scatters, their primitives and gradients
for name, prim in [("sub", "TensorScatterSub"), ("mul", "TensorScatterMul"), ("div", "TensorScatterDiv"),
                   ("max", "TensorScatterMax"), ("min", "TensorScatterMin")]:
    CASES[f"tensor_scatter_{name}"] = _X + _IX + f"result = (ops.tensor_scatter_{name}(x, i, v), ops.{prim}()(x, i, v), x)"
    CASES[f"tensor_scatter_{name}_slices"] = _X + f"result = ops.tensor_scatter_{name}(x, Tensor(np.array([[1], [0]], np.int64)), Tensor(np.array([[1.0, 2.0, 4.0], [8.0, 0.5, -1.0]], np.float32)))"
    CASES[f"tensor_scatter_{name}_int"] = f"result = ops.tensor_scatter_{name}(Tensor(np.array([-7, 7, -7, 5], np.int32)), Tensor(np.array([[0], [1], [2], [2]], np.int32)), Tensor(np.array([2, -2, 3, 4], np.int32)))"
    CASES[f"tensor_scatter_{name}_grad"] = _X + f"i = Tensor(np.array([[0, 0], [1, 2]], np.int32))\nresult = ms.grad(lambda a, b: (ops.tensor_scatter_{name}(a, i, b) * Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))).sum(), (0, 1))(x, Tensor(np.array([3.0, 0.5], np.float32)))"
CASES.update({
    "tensor_scatter_max_tie_grad": _X + "i = Tensor(np.array([[0, 0], [1, 2]], np.int32))\nresult = ms.grad(lambda a, b: ops.tensor_scatter_max(a, i, b).sum(), (0, 1))(x, Tensor(np.array([1.0, 0.5], np.float32)))",
    "tensor_scatter_min_dup_grad": _X + "i = Tensor(np.array([[0, 0], [0, 0]], np.int32))\nresult = ms.grad(lambda a, b: ops.tensor_scatter_min(a, i, b).sum(), (0, 1))(x, Tensor(np.array([0.5, -1.0], np.float32)))",
    "tensor_scatter_div_zero": "result = ops.tensor_scatter_div(Tensor(np.array([-7.0, 7.0, 0.0], np.float32)), Tensor(np.array([[0], [1], [2]], np.int32)), Tensor(np.array([0.0, -0.0, 0.0], np.float32)))",
    "tensor_scatter_sub_oob": _X + "result = ops.tensor_scatter_sub(x, Tensor(np.array([[0, 5]], np.int32)), Tensor(np.array([1.0], np.float32)))",
    "tensor_scatter_mul_oob_row": _X + "result = ops.tensor_scatter_mul(x, Tensor(np.array([[0, 1], [2, 0]], np.int32)), Tensor(np.array([1.0, 2.0], np.float32)))",
    "tensor_scatter_sub_dtype": _X + "result = ops.tensor_scatter_sub(x, Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([1], np.int32)))",
    "tensor_scatter_sub_float_index": _X + "result = ops.tensor_scatter_sub(x, Tensor(np.array([[0.0, 1.0]], np.float32)), Tensor(np.array([1.0], np.float32)))",
    "tensor_scatter_max_shape": _X + "result = ops.tensor_scatter_max(x, Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([[1.0]], np.float32)))",
    "tensor_scatter_elements": _X + "result = (ops.tensor_scatter_elements(x, Tensor(np.array([[1, 0, 1]], np.int64)), Tensor(np.array([[7.0, 8.0, 9.0]], np.float32))), ops.tensor_scatter_elements(x, Tensor(np.array([[2, 2], [0, 1]], np.int32)), Tensor(np.array([[7.0, 8.0], [9.0, 1.0]], np.float32)), 1, 'add'))",
    "tensor_scatter_elements_dup": _X + "result = ops.TensorScatterElements(axis=1)(x, Tensor(np.array([[1, 1]], np.int32)), Tensor(np.array([[8.0, 9.0]], np.float32)))",
    "tensor_scatter_elements_neg": _X + "result = ops.tensor_scatter_elements(x, Tensor(np.array([[-1, 0]], np.int32)), Tensor(np.array([[8.0, 9.0]], np.float32)), -1, 'add')",
    "tensor_scatter_elements_grad": _X + "result = ms.grad(lambda a, b: (ops.tensor_scatter_elements(a, Tensor(np.array([[1, 0]], np.int32)), b, 1) * Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))).sum(), (0, 1))(x, Tensor(np.array([[8.0, 9.0]], np.float32)))",
    "tensor_scatter_elements_add_grad": _X + "result = ms.grad(lambda a, b: (ops.tensor_scatter_elements(a, Tensor(np.array([[1, 1]], np.int32)), b, 1, 'add') * Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))).sum(), (0, 1))(x, Tensor(np.array([[8.0, 9.0]], np.float32)))",
    "tensor_scatter_elements_mul": _X + "result = ops.tensor_scatter_elements(x, Tensor(np.array([[1, 1]], np.int32)), Tensor(np.array([[8.0, 9.0]], np.float32)), 1, 'mul')",
})
# segment reductions: values, empty segments, dropped ids, ties in the gradient
_S = "s = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 2.0, 0.5], [1.0, 7.0, 3.0], [0.0, -1.0, 2.0]], np.float32))\n"
_ID = "ids = Tensor(np.array([0, 0, 2, 0], np.int32))\n"
for name in ["sum", "max", "min", "prod"]:
    CASES[f"unsorted_segment_{name}"] = _S + _ID + f"result = ops.unsorted_segment_{name}(s, ids, 4)"
    CASES[f"unsorted_segment_{name}_prim"] = _S + f"result = ops.UnsortedSegment{name.capitalize()}()(s, Tensor(np.array([1, 2, 0, 1], np.int64)), 3)"
    CASES[f"unsorted_segment_{name}_oob"] = _S + f"result = ops.unsorted_segment_{name}(s, Tensor(np.array([1, 2, 0, 3], np.int32)), 3)"
    CASES[f"unsorted_segment_{name}_int"] = f"result = ops.unsorted_segment_{name}(Tensor(np.array([[1, 2], [3, -4], [5, 6]], np.int32)), Tensor(np.array([1, 1, 3], np.int32)), 4)"
for name in ["sum", "max", "min"]:
    CASES[f"unsorted_segment_{name}_grad"] = _S + _ID + f"result = ms.grad(lambda a: (ops.unsorted_segment_{name}(a, ids, 3) * Tensor(np.array([[1.0], [2.0], [3.0]], np.float32))).sum())(s)"
for name in ["max", "min", "prod"]:
    CASES[f"t_unsorted_segment_{name}"] = _S + _ID + f"result = s.unsorted_segment_{name}(ids, 3)"
CASES.update({
    "unsorted_segment_sum_2d_ids": _S + "result = ops.unsorted_segment_sum(s, Tensor(np.array([[0, 1, 1], [2, 0, 1], [1, 1, 1], [0, 0, 0]], np.int32)), 3)",
    "unsorted_segment_sum_tensor_n": _S + _ID + "result = ops.unsorted_segment_sum(s, ids, Tensor(3, ms.int32))",
    "unsorted_segment_max_ties_grad": "s = Tensor(np.array([2.0, 2.0, 1.0, 2.0], np.float32))\nresult = ms.grad(lambda a: ops.unsorted_segment_max(a, Tensor(np.array([0, 0, 0, 1], np.int32)), 2).sum())(s)",
    "unsorted_segment_sum_float_ids": _S + "result = ops.unsorted_segment_sum(s, Tensor(np.array([0.0, 1.0, 1.0, 0.0], np.float32)), 2)",
    "sparse_segment_mean": _S + "result = ops.sparse_segment_mean(s, Tensor(np.array([0, 1, 3, 3], np.int32)), Tensor(np.array([0, 0, 2, 3], np.int32)))",
})
for name in ["Sum", "Max", "Min", "Mean", "Prod"]:
    CASES[f"segment_{name.lower()}"] = _S + f"result = ops.Segment{name}()(s, Tensor(np.array([0, 0, 2, 3], np.int64)))"
    CASES[f"segment_{name.lower()}_int"] = f"result = ops.Segment{name}()(Tensor(np.array([[1, 2], [3, -4], [5, 6]], np.int32)), Tensor(np.array([1, 1, 3], np.int32)))"
CASES["segment_sum_grad"] = _S + "result = ms.grad(lambda a: (ops.SegmentSum()(a, Tensor(np.array([0, 0, 2, 3], np.int32))) * 2.0).sum())(s)"
CASES["segment_mean_grad"] = _S + "result = ms.grad(lambda a: ops.SegmentMean()(a, Tensor(np.array([0, 0, 2, 2], np.int32))).sum())(s)"
CASES["segment_max_grad"] = _S + "result = ms.grad(lambda a: ops.SegmentMax()(a, Tensor(np.array([0, 0, 2, 2], np.int32))).sum())(s)"

# tensor_split and the h/v/d splits
_R = "r = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))\n"
CASES.update({
    "tensor_split_int": _R + "result = (ops.tensor_split(r, 3, axis=2), ops.tensor_split(r, 2, 1), ops.tensor_split(Tensor(np.arange(7)), 3))",
    "tensor_split_list": _R + "result = (ops.tensor_split(r, [1, 3], axis=2), ops.tensor_split(r, (2, 1), axis=-1), ops.tensor_split(r, [5], 0))",
    "tensor_split_more": _R + "result = ops.tensor_split(r, 5, axis=1)",
    "t_tensor_split": _R + "result = r.tensor_split(2, axis=2)",
    "tensor_split_grad": _R + "result = ms.grad(lambda a: (ops.tensor_split(a, [1, 3], axis=2)[1] * 2.0).sum())(r)",
    "tensor_split_zero": _R + "result = ops.tensor_split(r, 0)",
    "hsplit": _R + "result = (ops.hsplit(r, 3), ops.hsplit(r, [1]), r.hsplit(3))",
    "hsplit_1d": "result = ops.hsplit(Tensor(np.arange(6, dtype=np.float32)), 2)",
    "vsplit": _R + "result = (ops.vsplit(r, 2), ops.vsplit(r, [1, 5]), r.vsplit(2))",
    "vsplit_1d": "result = ops.vsplit(Tensor(np.arange(6, dtype=np.float32)), 2)",
    "dsplit": _R + "result = (ops.dsplit(r, 2), ops.dsplit(r, [3, 6]), r.dsplit([1]))",
    "dsplit_2d": "result = ops.dsplit(Tensor(np.ones((2, 4), np.float32)), 2)",
    "t_scatter_add_dim": _X + "result = (x.scatter_add(1, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32))), x.scatter_add(dim=0, index=Tensor(np.array([[1, 0, 1]], np.int64)), src=Tensor(np.array([[1.0, 5.0, 7.0]], np.float32))))",
    "t_scatter_add_inplace": _X + "y = x.copy()\nout = y.scatter_add_(1, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32)))\nresult = (out, y)",
})

OPTIONS = {case: {"message": True} for case in (
    "scatter_div_neg_index", "scatter_mul_oob", "scatter_update_shape", "tensor_scatter_elements_mul",
    "tensor_scatter_max_shape", "tensor_scatter_mul_oob_row", "tensor_scatter_sub_dtype",
    "tensor_scatter_sub_float_index", "tensor_scatter_sub_oob", "dsplit_2d", "hsplit_1d", "tensor_split_zero",
    "unsorted_segment_sum_float_ids")}
OPTIONS.update({f"unsorted_segment_{name}_oob": {
    "message_parts": ["Launch kernel failed, name:"], "why": "the wheel names its graph node (Default/...-op0) and "
    "says no more; mskernel says which id is out of range"} for name in ["sum", "max", "min", "prod"]})

# Programs the CPU wheel cannot run (no CPU kernel: "The kernel ScatterAddExt / InplaceScatterAdd unregistered"):
# each answer is an equivalent program's, with tensor_scatter_elements adding
VIA = {
    "t_scatter_add_dim": _X + "result = (ops.tensor_scatter_elements(x, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32)), 1, 'add'), ops.tensor_scatter_elements(x, Tensor(np.array([[1, 0, 1]], np.int64)), Tensor(np.array([[1.0, 5.0, 7.0]], np.float32)), 0, 'add'))",
    "t_scatter_add_inplace": _X + "y = ops.tensor_scatter_elements(x, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32)), 1, 'add')\nresult = (y, y)",
}
OPTIONS.update({case: {"why": "the CPU wheel has no kernel for the torch-style scatter_add: the answer is "
                              "tensor_scatter_elements(..., 'add')'s"} for case in VIA})
