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

# writing a piece at positions: values, the piece's and the input's gradients, repeated positions
_Z = "z = Tensor(np.arange(1, 19, dtype=np.float32).reshape(2, 3, 3))\n"
_W = "w = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))\n"
_G = "gw = Tensor(np.arange(18, dtype=np.float32).reshape(2, 3, 3))\n"
CASES.update({
    "select_scatter": _Z + _W + "result = (ops.select_scatter(z, w, 1, 1), ops.select_scatter(z, w, axis=-1, index=-1), z.select_scatter(w, 2, 0))",
    "select_scatter_grad": _Z + _W + _G + "result = ms.grad(lambda a, b: (ops.select_scatter(a, b, 1, 2) * gw).sum(), (0, 1))(z, w)",
    "select_scatter_shape": _Z + "result = ops.select_scatter(z, Tensor(np.ones((3, 3), np.float32)), 1, 1)",
    "slice_scatter": _Z + "result = (ops.slice_scatter(z, Tensor(np.zeros((2, 3, 2), np.float32)), axis=2, start=0, end=3, step=2), ops.slice_scatter(z, Tensor(np.zeros((1, 3, 3), np.float32)), start=1), z.slice_scatter(Tensor(np.zeros((2, 1, 3), np.float32)), 1, 1, 2))",
    "slice_scatter_grad": _Z + _G + "result = ms.grad(lambda a, b: (ops.slice_scatter(a, b, axis=2, start=1) * gw).sum(), (0, 1))(z, Tensor(np.ones((2, 3, 2), np.float32)))",
    "diagonal_scatter": _Z + "result = (ops.diagonal_scatter(z, Tensor(np.zeros((3, 2), np.float32))), ops.diagonal_scatter(z, Tensor(np.zeros((2, 2), np.float32)), offset=-1, dim1=1, dim2=2), ops.diagonal_scatter(z, Tensor(np.zeros((3, 2), np.float32)), 0, 0, 2), z.diagonal_scatter(Tensor(np.zeros((2, 1), np.float32)), 2, 1, 2))",
    "diagonal_scatter_shape": _Z + "result = ops.diagonal_scatter(z, Tensor(np.zeros((2, 3), np.float32)))",
    "diagonal_scatter_grad": _Z + _G + "result = ms.grad(lambda a, b: (ops.diagonal_scatter(a, b, 1, 1, 2) * gw).sum(), (0, 1))(z, Tensor(np.ones((2, 2), np.float32)))",
    "index_fill": _Z + "result = (ops.index_fill(z, 1, Tensor(np.array([0, 2], np.int32)), Tensor(-1.0, ms.float32)), ops.index_fill(z, -1, Tensor(np.array([1, -3], np.int32)), 5.0), ops.IndexFill()(z, 0, Tensor(np.array([1], np.int32)), Tensor(0.0, ms.float32)), z.index_fill(2, Tensor(np.array([0], np.int32)), Tensor(9.0, ms.float32)))",
    "index_fill_int": "result = ops.index_fill(Tensor(np.array([[1, 2], [3, 4]], np.int32)), 0, Tensor(np.array([1], np.int32)), 7)",
    "index_fill_grad": _Z + _G + "result = ms.grad(lambda a, v: (ops.index_fill(a, 1, Tensor(np.array([0, 2], np.int32)), v) * gw).sum(), (0, 1))(z, Tensor(2.0, ms.float32))",
    "index_fill_inplace": _Z + "y = z.copy()\nout = y.index_fill_(1, Tensor(np.array([0], np.int32)), Tensor(-1.0, ms.float32))\nresult = (out, y)",
    "index_fill_int64": _Z + "result = ops.index_fill(z, 1, Tensor(np.array([1], np.int64)), 1.0)",
    "index_fill_oob": _Z + "result = ops.index_fill(z, 1, Tensor(np.array([3], np.int32)), 1.0)",
    "inplace_add": _Z + "v = Tensor(np.ones((2, 3, 3), np.float32))\nresult = (ops.inplace_add(z, v, (1, 0)), ops.InplaceAdd(1)(z, v[:1]), z)",
    "inplace_sub": _Z + "v = Tensor(np.ones((2, 3, 3), np.float32))\nresult = (ops.inplace_sub(z, v, (0, 1)), ops.InplaceSub((1,))(z, v[:1]), z)",
    "inplace_update": _Z + "v = Tensor(np.zeros((1, 3, 3), np.float32))\nresult = (ops.inplace_update(z, v, (1,)), ops.InplaceUpdateV2()(z, 0, v), z.inplace_update(v, 1), z)",
    "inplace_add_dup": _W + "result = ops.inplace_add(w, Tensor(np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], np.float32)), (1, 1))",
    "inplace_update_dup": _W + "result = ops.inplace_update(w, Tensor(np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], np.float32)), (1, 1))",
    "inplace_add_grad": _W + "result = ms.grad(lambda a, b: (ops.inplace_add(a, b, (1,)) * a).sum(), (0, 1))(w, Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)))",
    "inplace_index_add": "p = ms.Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)), name='p')\nout = ops.inplace_index_add(p, Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.array([[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]], np.float32)), 0)\nresult = (out, p.value())",
    "inplace_index_add_prim": "p = ms.Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)), name='p')\nout = ops.InplaceIndexAdd(1)(p, Tensor(np.array([1], np.int32)), Tensor(np.array([[1.0], [2.0], [4.0]], np.float32)))\nresult = (out, p.value())",
    "index_add_prim": "p = ms.Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)), name='p')\nout = ops.IndexAdd(axis=0)(p, Tensor(np.array([2, 2], np.int32)), Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], np.float32)))\nresult = (out, p.value())",
    "t_index_add": _W + "y = w.copy()\nout = y.index_add(Tensor(np.array([0, 2], np.int32)), Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], np.float32)), axis=1)\nresult = (out, y, w, out is y)",
    "t_index_add_2": _W + "result = w.copy().index_add(Tensor(np.array([1], np.int32)), Tensor(np.array([[7.0, 7.0, 7.0]], np.float32)), 0)",
    "index_put": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.int32))\nidx = [Tensor(np.array([0, 1, 1], np.int32)), Tensor(np.array([1, 2, 1], np.int32))]\nresult = (ops.IndexPut(accumulate=1)(x, Tensor(np.array([3], np.int32)), idx), ops.IndexPut()(x, Tensor(np.array([7, 8, 9], np.int32)), idx), x.index_put(idx, Tensor(np.array([3], np.int32)), True), x.index_put(idx, Tensor(np.array([3], np.int32))))",
    "index_put_dup": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))\nidx = [Tensor(np.array([0, 0], np.int32)), Tensor(np.array([1, 1], np.int32))]\nresult = (x.index_put(idx, Tensor(np.array([7.0, 8.0], np.float32))), x.index_put(idx, Tensor(np.array([7.0, 8.0], np.float32)), True))",
    "index_put_rows": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))\nresult = x.index_put([Tensor(np.array([1], np.int32))], Tensor(np.array([0.0], np.float32)))",
    "index_put_inplace": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))\nout = x.index_put_([Tensor(np.array([1], np.int32)), Tensor(np.array([2], np.int32))], Tensor(np.array([0.0], np.float32)))\nresult = (out, x)",
    "masked_scatter": _Z + "result = (z.masked_scatter(z > 10, Tensor(np.arange(100, 110, dtype=np.float32))), z.masked_scatter(Tensor(np.array([True, False, True])), -z))",
    "masked_scatter_grad": _Z + _G + "result = ms.grad(lambda a, b: (a.masked_scatter(a > 10, b) * gw).sum(), (0, 1))(z, Tensor(np.arange(10, dtype=np.float32)))",
    "t_take": _Z + "result = (z.take(Tensor(np.array([0, 17, 4], np.int32))), z.take(Tensor(np.array([[1, 0], [2, 2]], np.int64)), axis=1), z.take(Tensor(np.array([5, -1], np.int32)), axis=2, mode='clip'), z.take(Tensor(np.array([5, -1], np.int32)), axis=2, mode='wrap'))",
    "t_choose": "x = Tensor(np.array([[2, 0, 1], [1, 1, 0]], np.int32))\nresult = (x.choose([[0, 1, 2], [10, 11, 12], [20, 21, 22]]), x.choose(Tensor(np.arange(6).reshape(2, 3)).astype(ms.int32)), x.choose((Tensor(np.array([5, 6, 7], np.int32)), Tensor(np.array([1], np.int32)), Tensor(np.array([[9], [8]], np.int32)))))",
    "t_select": _Z + "result = (z.select(1, 2), z.select(-1, 0), ops.zeros((2, 3)).select(Tensor(np.array([True, False, True])), Tensor(np.ones((2, 3), np.float32))))",
    "t_fill_diagonal": "x = Tensor(np.zeros((5, 2), np.float32))\nresult = (x.fill_diagonal(3.0), x.fill_diagonal(3.0, wrap=True), Tensor(np.zeros((2, 4), np.float32)).fill_diagonal(-1.0), Tensor(np.zeros((3, 3, 3), np.float32)).fill_diagonal(2.0))",
    "t_fill_diagonal_inplace": "x = Tensor(np.zeros((3, 3), np.float32))\nout = x.fill_diagonal_(3.0)\nresult = (out, x)",
    "put_": _W + "y = w.copy()\nout = y.put_(Tensor(np.array([0, 5, 5], np.int64)), Tensor(np.array([9.0, 8.0, 7.0], np.float32)), True)\nresult = (out, y)",
    "gather_d": _W + "result = (ops.gather_d(w, 1, Tensor(np.array([[0, 0], [2, 1]], np.int32))), ops.gather_d(w, 0, Tensor(np.array([[1, 0, 1]], np.int64))))",
    "argwhere": "x = Tensor(np.array([[[1, 0], [-5, 0]]], np.int32))\nresult = (ops.argwhere(x), x.argwhere(), ops.argwhere(Tensor(np.array([0.0, 2.0, 0.5], np.float32))))",
    "scatter_add_with_axis": _W + "result = (ops.ScatterAddWithAxis(1)(w, Tensor(np.array([[1, 1], [0, 2]], np.int32)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))), ops.ScatterAddWithAxis()(w, Tensor(np.array([[1, 0, 1]], np.int32)), Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))))",
})

# mint front ends
CASES.update({
    "mint_index_add": "from mindspore import mint\n" + _W + "out = mint.index_add(w, 1, Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)), alpha=2)\nresult = (out, w)",
    "mint_index_add_int64": "from mindspore import mint\n" + _W + "result = mint.index_add(w, 0, Tensor(np.array([1], np.int64)), Tensor(np.array([[1.0, 1.0, 1.0]], np.float32)))",
    "mint_index_add_grad": "from mindspore import mint\n" + _W + "result = ms.grad(lambda a, b: (mint.index_add(a, 1, Tensor(np.array([0, 0], np.int32)), b, alpha=3.0) * w).sum(), (0, 1))(w + 0, Tensor(np.ones((2, 2), np.float32)))",
    "mint_scatter_add": "from mindspore import mint\n" + _W + "result = mint.scatter_add(w, 1, Tensor(np.array([[2, 2], [0, 1]], np.int64)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))",
})

# reordering and padding blocks, and the small index utilities
_Q = "q = Tensor(np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4))\n"
_IMG = "img = Tensor(np.arange(32, dtype=np.float32).reshape(2, 4, 2, 2))\n"
CASES.update({
    "reverse_sequence": _Q + "result = (ops.reverse_sequence(q, Tensor(np.array([1, 4, 2], np.int32)), 2, 1), ops.ReverseSequence(seq_dim=1, batch_dim=0)(q, Tensor(np.array([3, 2], np.int64))), q.reverse_sequence(Tensor(np.array([0, 2, 1, 2], np.int32)), 0, 2))",
    "reverse_sequence_grad": _Q + "result = ms.grad(lambda a: (ops.reverse_sequence(a, Tensor(np.array([1, 4, 2], np.int32)), 2, 1) * Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))).sum())(q)",
    "mirror_pad": _Q + "result = (ops.mirror_pad(q, Tensor(np.array([[0, 1], [2, 1], [3, 0]], np.int64)), 'REFLECT'), ops.MirrorPad('SYMMETRIC')(q, Tensor(np.array([[1, 1], [0, 3], [2, 2]], np.int64))))",
    "mirror_pad_grad": _Q + "result = ms.grad(lambda a: ops.mirror_pad(a, Tensor(np.array([[0, 0], [1, 1], [2, 1]], np.int64)), 'REFLECT').sum())(q)",
    "padding": "x = Tensor(np.array([[[8.0], [10.0]]], np.float32))\nresult = (ops.padding(x, 3), ops.Padding()(x), ops.padding(x, 1))",
    "space_to_batch_nd": _IMG + "result = (ops.space_to_batch_nd(img, [2, 2], [[0, 0], [0, 0]]), ops.SpaceToBatchND([1, 2], [[1, 0], [0, 2]])(img), ops.space_to_batch_nd(img, 2, [[0, 0], [0, 2]]))",
    "batch_to_space_nd": _IMG + "result = (ops.batch_to_space_nd(img, [2, 1], [[0, 0], [0, 0]]), ops.BatchToSpaceND([2, 2], [[0, 1], [1, 0]])(Tensor(np.arange(32, dtype=np.float32).reshape(8, 1, 2, 2))))",
    "batch_to_space_nd_v2": "result = ops.BatchToSpaceNDV2()(Tensor(np.arange(32, dtype=np.float32).reshape(8, 1, 2, 2)), Tensor(np.array([4, 1], np.int64)), Tensor(np.array([[1, 2], [0, 1]], np.int64)))",
    "batch_to_space_nd_batch": _IMG + "result = ops.batch_to_space_nd(img, 2, [[0, 0], [0, 0]])",
    "space_batch_grad": _IMG + "result = ms.grad(lambda a: (ops.space_to_batch_nd(a, [1, 2], [[1, 0], [0, 2]]) * ops.arange(48.0).reshape(4, 4, 3, 1)).sum())(img)",
    "space_to_depth": _IMG + "result = (ops.SpaceToDepth(2)(img), ops.DepthToSpace(2)(img))",
    "channel_shuffle": _IMG + "result = (ops.channel_shuffle(img, 2), ops.ChannelShuffle(4)(img), ops.channel_shuffle(Tensor(np.arange(12, dtype=np.int32).reshape(1, 6, 2, 1)), 3))",
    "channel_shuffle_3d": "result = ops.channel_shuffle(Tensor(np.arange(12, dtype=np.int32).reshape(1, 6, 2)), 3)",
    "bias_add": _IMG + "result = (ops.bias_add(img, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))), ops.BiasAdd()(img, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))), ops.BiasAdd(data_format='NHWC')(img, Tensor(np.array([1.0, -1.0], np.float32))))",
    "bias_add_grad": _IMG + "result = ms.grad(lambda a, b: (ops.bias_add(a, b) * a).sum(), (0, 1))(img, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))",
    "flatten_prim": _IMG + "result = (ops.Flatten()(img), ops.Flatten()(Tensor(np.arange(3, dtype=np.float32))))",
    "unique_consecutive": "x = Tensor(np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32))\nresult = (ops.unique_consecutive(x), ops.unique_consecutive(x, True), ops.unique_consecutive(x, return_counts=True), ops.UniqueConsecutive(True, True)(x), x.unique_consecutive(True, True))",
    "unique_consecutive_dim": "x = Tensor(np.array([[1, 2], [1, 2], [3, 4], [1, 2]], np.float32))\nresult = (ops.unique_consecutive(x, True, True, 0), ops.unique_consecutive(x, True, True, 1), ops.unique_consecutive(x, True, True))",
    "mint_unique_consecutive": "from mindspore import mint\nx = Tensor(np.array([[1, 1], [2, 2], [2, 3]], np.int64))\nresult = (mint.unique_consecutive(x), mint.unique_consecutive(x, return_inverse=True, return_counts=True))",
    "unique_with_pad": "x = Tensor(np.array([5, 1, 5, 2, 1, 7], np.int32))\nresult = (ops.unique_with_pad(x, -1), ops.UniqueWithPad()(x, Tensor(0, ms.int32)), x.unique_with_pad(9), ops.unique_with_pad(Tensor(np.array([3, 3], np.int64)), 0))",
    "sequence_mask": "x = Tensor(np.array([[1, 3], [2, 0]], np.int32))\nresult = (ops.sequence_mask(x, 4), ops.sequence_mask(x), ops.sequence_mask(Tensor(np.array([0, 2], np.int64)), 2))",
    "intopk": "x1 = Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5], [2, 2, 2, 2, 2]], np.float32))\nx2 = Tensor(np.array([1, 3, 4], np.int32))\nresult = (ops.intopk(x1, x2, 3), ops.InTopK(1)(x1, x2), ops.intopk(x1, x2, 0), ops.intopk(x1.astype(ms.float16), x2, 2))",
    "invert_permutation": "result = (ops.InvertPermutation()((3, 4, 0, 2, 1)), ops.InvertPermutation()([1, 0, 2]))",
    "unravel_index": "result = (ops.UnravelIndex()(Tensor(np.array([2, 5, 7], np.int32)), Tensor(np.array([3, 3], np.int32))), ops.UnravelIndex()(Tensor(np.array([11], np.int64)), Tensor(np.array([2, 3, 2], np.int64))))",
    "list_diff": "x = Tensor(np.array([1, 5, 2, 5, 6, 3], np.int32))\ny = Tensor(np.array([5, 3], np.int32))\nresult = (ops.ListDiff()(x, y), ops.ListDiff(out_idx=ms.int64)(x, y))",
    "nth_element": "x = Tensor(np.array([[1, 5, 3, 3], [4, 9, 1, 0]], np.int32))\nresult = (ops.NthElement()(x, 1), ops.NthElement(reverse=True)(x, 0), ops.NthElement()(Tensor(np.array([3.0, 1.0, 2.0], np.float32)), 2))",
    "data_format": "result = (ops.DataFormatDimMap()(Tensor(np.array([0, 1, 2, 3, -1], np.int32))), ops.DataFormatDimMap('NCHW', 'NHWC')(Tensor(np.array([[1, 2], [3, 0]], np.int32))), ops.DataFormatVecPermute()(Tensor(np.array([1, 2, 3, 4], np.int32))), ops.DataFormatVecPermute('NCHW', 'NHWC')(Tensor(np.array([[1, 1], [2, 2], [3, 3], [4, 4]], np.int64))))",
    "identity_n": "result = ops.IdentityN()([Tensor(np.array([1, 2], np.int64)), Tensor(np.array([4.0], np.float32))])",
    "parallel_concat": "result = ops.ParallelConcat()((Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([[2, 1]], np.int32)), Tensor(np.array([[5, 6]], np.int32))))",
    "parallel_concat_rows": "result = ops.ParallelConcat()((Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([[2, 1], [5, 6]], np.int32))))",
    "fill_v2": "result = (ops.FillV2()(Tensor(np.array([2, 3], np.int32)), Tensor(1, ms.float32)), ops.FillV2()(Tensor(np.array([2], np.int64)), Tensor(7, ms.int32)))",
})

CASES["t_small_methods"] = _Q + "result = (q.gather_nd(Tensor(np.array([[1, 2], [0, 0]], np.int32))), q.swapdims(0, 2), q.reshape_as(Tensor(np.zeros((4, 6), np.float32))), q.ndimension(), q.numel())"

CASES["tensor_slice"] = _Q + "result = (ops.tensor_slice(q, (1, 0, 1), (1, 2, 3)), ops.tensor_slice(q, [0, 1, 0], [2, 1, 4]))"

CASES["row_stack"] = "result = (ops.row_stack([Tensor(np.array([1, 2], np.float32)), Tensor(np.array([3, 4], np.float32))]), ops.row_stack((Tensor(np.ones((2, 2), np.int32)), Tensor(np.zeros((1, 2), np.int32)))))"

OPTIONS = {case: {"message": True} for case in (
    "scatter_div_neg_index", "scatter_mul_oob", "scatter_update_shape", "tensor_scatter_elements_mul",
    "tensor_scatter_max_shape", "tensor_scatter_mul_oob_row", "tensor_scatter_sub_dtype",
    "tensor_scatter_sub_float_index", "tensor_scatter_sub_oob", "dsplit_2d", "hsplit_1d", "tensor_split_zero",
    "unsorted_segment_sum_float_ids", "select_scatter_shape", "index_fill_oob", "diagonal_scatter_shape", "index_fill_int64", "mint_index_add_int64", "channel_shuffle_3d", "batch_to_space_nd_batch", "parallel_concat_rows")}
OPTIONS.update({f"unsorted_segment_{name}_oob": {
    "message_parts": ["Launch kernel failed, name:"], "why": "the wheel names its graph node (Default/...-op0) and "
    "says no more; mskernel says which id is out of range"} for name in ["sum", "max", "min", "prod"]})

# Programs the CPU wheel cannot run (no CPU kernel: "The kernel ScatterAddExt / InplaceScatterAdd unregistered"):
# each answer is an equivalent program's, with tensor_scatter_elements adding
VIA = {
    "batch_to_space_nd_v2": "result = ops.BatchToSpaceND([4, 1], [[1, 2], [0, 1]])(Tensor(np.arange(32, dtype=np.float32).reshape(8, 1, 2, 2)))",
    "mint_scatter_add": _W + "result = ops.tensor_scatter_elements(w, Tensor(np.array([[2, 2], [0, 1]], np.int64)), Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), 1, 'add')",
    "index_fill_inplace": _Z + "y = ops.index_fill(z, 1, Tensor(np.array([0], np.int32)), Tensor(-1.0, ms.float32))\nresult = (y, y)",
    "index_put_inplace": "x = Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))\nout = x.index_put([Tensor(np.array([1], np.int32)), Tensor(np.array([2], np.int32))], Tensor(np.array([0.0], np.float32)))\nresult = (out, out)",
    "put_": _W + "out = ops.tensor_scatter_add(w.reshape(-1), Tensor(np.array([[0], [5], [5]], np.int64)), Tensor(np.array([9.0, 8.0, 7.0], np.float32))).reshape(2, 3)\nresult = (out, out)",
    "t_fill_diagonal_inplace": "x = Tensor(np.zeros((3, 3), np.float32))\nout = x.fill_diagonal(3.0)\nresult = (out, out)",
    "t_scatter_add_dim": _X + "result = (ops.tensor_scatter_elements(x, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32)), 1, 'add'), ops.tensor_scatter_elements(x, Tensor(np.array([[1, 0, 1]], np.int64)), Tensor(np.array([[1.0, 5.0, 7.0]], np.float32)), 0, 'add'))",
    "t_scatter_add_inplace": _X + "y = ops.tensor_scatter_elements(x, Tensor(np.array([[2, 2]], np.int64)), Tensor(np.array([[1.0, 5.0]], np.float32)), 1, 'add')\nresult = (y, y)",
}
OPTIONS.update({case: {"why": "the CPU wheel has no kernel for the in-place (or torch-style) form: the answer is "
                              "the functional form's"} for case in VIA})
