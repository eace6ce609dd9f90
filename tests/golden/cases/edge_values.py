"""Values and gradients at ties, signed zeros, infinities and NaNs ([21]): the points random data never hits.

Each case puts one op on inputs built to land on its boundary (x == y for maximum, tied maxima of a reduction,
0 for abs/relu/sign/sqrt, the bounds of clamp and relu6, NaN and +-inf) and records the value and the
gradient MindSpore 2.10's CPU wheel gives there, so the conventions (which input a tie's gradient goes to,
whether a reduction's gradient is split between tied maxima, what a NaN does to maximum) are pinned.
"""
_NAN = "nan, inf = float('nan'), float('inf')\n"
# pairs: a tie, a NaN on either side, both +-0 orders, infinities, a plain pair
_PAIR = _NAN + ("x = Tensor(np.array([1.0, 2.0, nan, 3.0, 0.0, -0.0, inf, -inf, 4.0, nan], np.float32))\n"
                "y = Tensor(np.array([1.0, nan, 2.0, 3.0, -0.0, 0.0, inf, -inf, -4.0, nan], np.float32))\n")
_BCAST = ("x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, 2.0, 5.0]], np.float32))\n"
          "y = Tensor(np.array([1.0, 2.0, 4.0], np.float32))\n")
# tied maxima / minima along axis 1 (rows: all tied, two tied, one)
_TIES = "x = Tensor(np.array([[2.0, 2.0, 2.0], [1.0, 3.0, 3.0], [-1.0, 0.0, -1.0]], np.float32))\n"
_NANROW = _NAN + "x = Tensor(np.array([[1.0, nan, 3.0], [inf, 2.0, inf], [-inf, -inf, 0.0]], np.float32))\n"
# boundary points of the unary ops
_POINTS = _NAN + "x = Tensor(np.array([-1.0, -0.0, 0.0, 1.0, 6.0, 7.0, inf, -inf, nan], np.float32))\n"
_W = "w = Tensor(np.arange(1, 10, dtype=np.float32))\n"  # weights so each element's gradient is told apart

CASES = {}
for _op in ("maximum", "minimum"):
    CASES[f"{_op}_value"] = _PAIR + f"result = ops.{_op}(x, y)"
    CASES[f"{_op}_grad"] = _PAIR + f"result = ms.grad(lambda a, b: ops.{_op}(a, b).sum(), (0, 1))(x, y)"
    CASES[f"{_op}_bcast_grad"] = _BCAST + f"result = ms.grad(lambda a, b: ops.{_op}(a, b).sum(), (0, 1))(x, y)"
    CASES[f"{_op}_scalar_tie_grad"] = _BCAST + f"result = ms.grad(lambda a: ops.{_op}(a, 2.0).sum())(x)"
    CASES[f"{_op}_self_grad"] = _BCAST + f"result = ms.grad(lambda a: ops.{_op}(a, a).sum())(x)"

_REDUCE = {
    "max_axis": "ops.max(a, 1)[0]", "min_axis": "ops.min(a, 1)[0]",
    "max_all": "ops.max(a)[0]", "min_all": "ops.min(a)[0]",
    "amax": "ops.amax(a, 1)", "amin": "ops.amin(a, 1)", "amax_all": "ops.amax(a)",
    "reducemax": "ops.ReduceMax()(a, 1)", "reducemin": "ops.ReduceMin(keep_dims=True)(a, 1)",
    "reducemax_all": "ops.ReduceMax()(a)",
    "t_max": "a.max(axis=1)", "t_min": "a.min(axis=0)", "t_max_all": "a.max()",
    "argmaxwithvalue": "ops.ArgMaxWithValue(axis=1)(a)[1]", "argminwithvalue": "ops.ArgMinWithValue(axis=1)(a)[1]",
    "aminmax": "ops.aminmax(a, axis=1)[0] + 2 * ops.aminmax(a, axis=1)[1]",
}
for _name, _expr in _REDUCE.items():
    CASES[f"{_name}_ties_value"] = _TIES + f"a = x\nresult = {_expr}"
    CASES[f"{_name}_ties_grad"] = _TIES + f"result = ms.grad(lambda a: ({_expr}).sum())(x)"
    CASES[f"{_name}_nan_value"] = _NANROW + f"a = x\nresult = {_expr}"
    CASES[f"{_name}_nan_grad"] = _NANROW + f"result = ms.grad(lambda a: ({_expr}).sum())(x)"

for _name, _expr in {"argmax": "ops.argmax(x, 1)", "argmin": "ops.argmin(x, 1)", "argmax_all": "ops.argmax(x)",
                     "argmin_all": "ops.argmin(x)", "p_argmax": "ops.Argmax()(x)", "p_argmin": "ops.Argmin(axis=0)(x)",
                     "max_index": "ops.max(x, 1)[1]", "min_index": "ops.min(x, 1)[1]",
                     "t_argmax": "x.argmax(1)"}.items():
    CASES[f"{_name}_ties"] = _TIES + f"result = {_expr}"
    CASES[f"{_name}_nan"] = _NANROW + f"result = {_expr}"

_UNARY = {
    "abs": "ops.abs(a)", "relu": "ops.relu(a)", "relu6": "ops.relu6(a)", "sign": "ops.sign(a)",
    "sqrt": "ops.sqrt(a)", "clamp": "ops.clamp(a, 0.0, 6.0)", "clip_by_value": "ops.clip_by_value(a, 0.0, 6.0)",
    "clamp_min": "ops.clamp(a, min=0.0)", "clamp_max": "ops.clamp(a, max=6.0)",
    "p_relu": "ops.ReLU()(a)", "p_relu6": "ops.ReLU6()(a)", "p_abs": "ops.Abs()(a)",
    "nn_relu": "nn.ReLU()(a)",
    "leaky_relu": "ops.leaky_relu(a, 0.2)", "elu": "ops.elu(a)",
    "square": "ops.square(a)", "rsqrt": "ops.rsqrt(a)", "exp": "ops.exp(a)", "log": "ops.log(a)",
    "floor": "ops.floor(a)", "round": "ops.round(a)",
}
for _name, _expr in _UNARY.items():
    CASES[f"{_name}_value"] = _POINTS + f"a = x\nresult = {_expr}"
    CASES[f"{_name}_grad"] = _POINTS + _W + f"result = ms.grad(lambda a: ({_expr} * w).sum())(x)"

_WH = _NAN + ("x = Tensor(np.array([-1.0, 0.0, 4.0, nan, inf], np.float32))\n"
              "y = Tensor(np.array([2.0, nan, inf, 1.0, 3.0], np.float32))\n")
CASES.update({
    "where_value": _WH + "result = ops.where(x > 0, x, y)",
    "where_grad": _WH + "result = ms.grad(lambda a, b: ops.where(a > 0, a, b).sum(), (0, 1))(x, y)",
    "where_sqrt_grad": _WH + "result = ms.grad(lambda a: ops.where(a > 0, ops.sqrt(a), 0.0).sum())(x)",
    "where_scalar_grad": _WH + "result = ms.grad(lambda a: ops.where(a > 1, a * 2, 1.0).sum())(x)",
})

_SORTX = _NAN + "x = Tensor(np.array([3.0, 1.0, 3.0, nan, 1.0, -inf, 3.0, 0.0, -0.0], np.float32))\n"
_SORTW = "w = Tensor(np.arange(1, 10, dtype=np.float32))\n"
_FINITE = "x = Tensor(np.array([3.0, 1.0, 3.0, 2.0, 1.0, 3.0], np.float32))\n"
CASES.update({
    "sort_ties": _FINITE + "result = ops.sort(x)",
    "sort_desc_ties": _FINITE + "result = ops.sort(x, descending=True)",
    "sort_nan": _SORTX + "result = ops.sort(x)",
    "sort_desc_nan": _SORTX + "result = ops.sort(x, descending=True)",
    "sort_ties_grad": _FINITE + "w = Tensor(np.arange(1, 7, dtype=np.float32))\n"
                                "result = ms.grad(lambda a: (ops.sort(a)[0] * w).sum())(x)",
    "topk_ties": _FINITE + "result = ops.topk(x, 3)",
    "topk_nan": _SORTX + "result = ops.topk(x, 4)",
    "topk_ties_grad": _FINITE + "w = Tensor(np.array([1.0, 2.0, 3.0], np.float32))\n"
                                "result = ms.grad(lambda a: (ops.topk(a, 3)[0] * w).sum())(x)",
    "argsort_ties": _FINITE + "result = ops.argsort(x)",
    "cummax_ties": _FINITE + "result = ops.cummax(x, 0)",
    "cummin_ties": _FINITE + "result = ops.cummin(x, 0)",
    "norm_zero_grad": "x = Tensor(np.zeros((3,), np.float32))\nresult = ms.grad(lambda a: ops.norm(a))(x)",
    "median_ties": _FINITE + "result = ops.median(x)",
})
_CUBE = "x = Tensor(np.array([[[2.0, 2.0], [2.0, 1.0]]], np.float32))\n"  # ties along every axis
for _name, _expr in {"t_max_axes": "a.max(axis=(1, 2))", "t_max_kd": "a.max(axis=1, keepdims=True)",
                     "t_min_last": "a.min(axis=-1)", "t_max_indices": "a.max(axis=1, return_indices=True)[0]",
                     "t_min_neg_axes": "a.min(axis=(-1,))"}.items():
    CASES[f"{_name}_ties_grad"] = _CUBE + f"result = ms.grad(lambda a: ({_expr}).sum())(x)"


# an inf or NaN gradient arriving where an op cut its input off: a select gives 0 there, a multiply NaN
_UP = _NAN + ("x = Tensor(np.array([-1.0, 0.0, 2.0, 7.0], np.float32))\n"
              "up = Tensor(np.array([inf, nan, inf, nan], np.float32))\n")
for _name, _expr in {"relu": "ops.relu(a)", "relu6": "ops.relu6(a)", "clamp": "ops.clamp(a, 0.0, 6.0)",
                     "clip_by_value": "ops.clip_by_value(a, 0.0, 6.0)", "abs": "ops.abs(a)",
                     "maximum": "ops.maximum(a, 1.0)", "minimum": "ops.minimum(a, 1.0)",
                     "leaky_relu": "ops.leaky_relu(a, 0.1)", "elu": "ops.elu(a)", "where": "ops.where(a > 1, a, 0.0)",
                     "sign": "ops.sign(a) * 2", "floor": "ops.floor(a)", "round": "ops.round(a)",
                     "amax": "ops.amax(a.reshape(2, 2), 1).tile((2,))",
                     "max_index": "ops.max(a.reshape(2, 2), 1)[0].tile((2,))",
                     "argmaxwithvalue": "ops.ArgMaxWithValue(axis=1)(a.reshape(2, 2))[1].tile((2,))",
                     "sort": "ops.sort(a)[0]", "sqrt_relu": "ops.sqrt(ops.relu(a))"}.items():
    CASES[f"{_name}_upstream_nan_grad"] = _UP + f"result = ms.grad(lambda a: (({_expr}) * up).sum())(x)"


# Where mskernel keeps its own answer. Each oracle computes mskernel's documented value with numpy alone.
_NAN_KEPT = ("MindSpore documents that maximum/minimum give NaN where an element is compared with NaN; the 2.10 "
             "CPU kernels compare as `a > b ? a : b`, so a NaN is dropped or kept by which side (in a reduction, "
             "which position) it is on, and relu, clamp and sign turn it into a number (relu6 keeps it). mskernel "
             "propagates NaN through every comparison, as numpy does")
_NAN_GRAD = ("the gradient follows the value: the wheel's goes to the element its NaN-dropping comparison picked; "
             "mskernel's goes where its NaN-propagating value came from (the NaNs share it, or the index it returns)")
_SORT_NAN = ("with a NaN the wheel's CPU sort does not sort (NaN breaks its comparison order); mskernel puts NaN "
             "last, ascending or descending, and keeps ties in index order, as a stable numpy sort")
_HELP = ("def ties(x, out, axis):\n"  # amax/amin: the tied elements, or a NaN result's NaNs, share the gradient
         "    k = out if axis is None else np.expand_dims(out, axis)\n"
         "    m = ((x == k) | (np.isnan(x) & np.isnan(k))).astype(np.float32)\n"
         "    return m / m.sum(axis=axis, keepdims=True)\n"
         "def first(x, idx, axis):\n"  # max/min with an axis: the gradient goes to the index they return
         "    g = np.zeros_like(x)\n"
         "    np.put_along_axis(g, np.expand_dims(idx, axis), 1.0, axis)\n"
         "    return g\n")
_MAX1, _MIN1 = ("np.max(a, 1)", "first(a, np.argmax(a, 1), 1)"), ("np.min(a, 1)", "first(a, np.argmin(a, 1), 1)")
_MAXALL, _MINALL = ("np.max(a)", "ties(a, np.max(a), None)"), ("np.min(a)", "ties(a, np.min(a), None)")
_NP_REDUCE = {  # name: (value, gradient of its sum) with NaN propagated
    "max_axis": _MAX1, "min_axis": _MIN1, "max_all": _MAXALL, "min_all": _MINALL, "amax_all": _MAXALL,
    "reducemax_all": _MAXALL, "t_max_all": _MAXALL, "t_max": _MAX1, "argmaxwithvalue": _MAX1,
    "argminwithvalue": _MIN1, "amax": ("np.max(a, 1)", "ties(a, np.max(a, 1), 1)"),
    "reducemax": ("np.max(a, 1)", "ties(a, np.max(a, 1), 1)"), "amin": ("np.min(a, 1)", "ties(a, np.min(a, 1), 1)"),
    "reducemin": ("np.min(a, 1, keepdims=True)", "ties(a, np.min(a, 1), 1)"),
    "aminmax": ("np.min(a, 1) + 2 * np.max(a, 1)", "first(a, np.argmin(a, 1), 1) + 2 * first(a, np.argmax(a, 1), 1)"),
}
_NP_INDEX = {"argmax": "np.argmax(x, 1)", "argmin": "np.argmin(x, 1).astype(np.int32)", "argmax_all": "np.argmax(x)",
             "argmin_all": "np.argmin(x).astype(np.int32)", "p_argmax": "np.argmax(x, -1).astype(np.int32)",
             "max_index": "np.argmax(x, 1)", "min_index": "np.argmin(x, 1)", "t_argmax": "np.argmax(x, 1)"}
_NP_UNARY = {"relu": "np.maximum(a, 0)", "p_relu": "np.maximum(a, 0)", "nn_relu": "np.maximum(a, 0)",
             "sign": "np.sign(a)", "clamp": "np.clip(a, 0, 6)", "clip_by_value": "np.clip(a, 0, 6)",
             "clamp_min": "np.maximum(a, 0)", "clamp_max": "np.minimum(a, 6)"}

OPTIONS = {}
for _name, (_value, _grad) in _NP_REDUCE.items():
    OPTIONS[f"{_name}_nan_value"] = {"differs": _NAN_KEPT,
                                     "oracle": _NANROW + f"a = x\nresult = as_tensor(np.asarray({_value}))"}
    if _name != "t_max":  # over one axis with no NaN first, the wheel's gradient is ours (see t_max_nan_grad)
        OPTIONS[f"{_name}_nan_grad"] = {"differs": _NAN_GRAD, "oracle": _NANROW + _HELP +
                                        f"a = x\nresult = as_tensor(({_grad}).astype(np.float32))"}
OPTIONS["t_max_nan_grad"] = {"differs": _NAN_GRAD, "oracle": _NANROW + _HELP +
                             f"a = x\nresult = as_tensor(({_MAX1[1]}).astype(np.float32))"}
for _name, _expr in _NP_INDEX.items():
    OPTIONS[f"{_name}_nan"] = {"differs": _NAN_KEPT, "oracle": _NANROW + f"result = as_tensor(np.asarray({_expr}))"}
for _name, _expr in _NP_UNARY.items():
    OPTIONS[f"{_name}_value"] = {"differs": _NAN_KEPT, "oracle": _POINTS + f"a = x\nresult = as_tensor({_expr})"}
for _name in ("abs", "p_abs"):  # g * sign(x), and sign(NaN) is NaN
    OPTIONS[f"{_name}_grad"] = {"differs": _NAN_KEPT, "oracle": _POINTS + _W + "result = as_tensor(np.sign(x) * w)"}
for _op in ("maximum", "minimum"):
    OPTIONS[f"{_op}_value"] = {"differs": _NAN_KEPT, "oracle": _PAIR + f"result = as_tensor(np.{_op}(x, y))"}
for _name, _key in (("sort_nan", "x"), ("sort_desc_nan", "-x")):
    OPTIONS[_name] = {"differs": _SORT_NAN, "oracle": _SORTX + f"i = np.argsort({_key}, kind='stable')\n"
                                                              "result = (as_tensor(x[i]), as_tensor(i.astype(np.int32)))"}
del _value, _grad, _key
del _op, _name, _expr
