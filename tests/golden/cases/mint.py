"""``mindspore.mint``: its functions, ``mint.nn.functional``, ``mint.special``, ``mint.linalg``, ``mint.nn`` layers
and ``mint.optim``, as the CPU wheel runs them: values, dtypes, gradients and error texts."""
_M = "from mindspore import mint\n"
_X = _M + "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
_P = _M + "p = Tensor(np.array([[0.2, 0.7, 1.5], [2.5, 0.1, 0.9]], np.float32))\n"
_XY = _X + "y = Tensor(np.array([[0.5, 2.0, -1.0], [3.0, -0.5, 2.0]], np.float32))\n"
_I = _M + "i = Tensor(np.array([[3, -1, 4], [1, -5, 9]], np.int32))\n"
_W = "w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10)\n"

CASES = {}

# elementwise unary functions: value and gradient
UNARY = ["abs", "neg", "negative", "exp", "exp2", "expm1", "sin", "cos", "tan", "tanh", "sinh", "cosh", "atan", "arctan",
         "asinh", "arcsinh", "sigmoid", "sign", "square", "floor", "ceil", "trunc", "fix", "round", "frac", "erf",
         "erfc"]
POSITIVE = ["log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "acosh", "arccosh"]
UNIT = ["asin", "arcsin", "acos", "arccos", "atanh", "arctanh", "erfinv"]
for name in UNARY:
    CASES[f"{name}"] = _X + f"result = mint.{name}(x)"
for name in POSITIVE:
    CASES[f"{name}"] = _P + f"result = mint.{name}(p + 1)"
for name in UNIT:
    CASES[f"{name}"] = _M + f"result = mint.{name}(Tensor(np.array([-0.5, 0.1, 0.9], np.float32)))"
for name in ["abs", "exp", "tanh", "sigmoid", "sin", "erf", "square"]:
    CASES[f"{name}_grad"] = _X + f"result = ms.grad(lambda a: (mint.{name}(a) * (1 + a)).sum())(x)"
for name in ["log", "sqrt", "rsqrt", "reciprocal"]:
    CASES[f"{name}_grad"] = _P + f"result = ms.grad(lambda a: mint.{name}(a).sum())(p)"
CASES.update({
    "isfinite": _M + "result = mint.isfinite(Tensor(np.array([1.0, np.inf, np.nan], np.float32)))",
    "isinf": _M + "result = mint.isinf(Tensor(np.array([1.0, -np.inf, np.nan], np.float32)))",
    "isnan": _M + "result = mint.isnan(Tensor(np.array([1.0, np.inf, np.nan], np.float32)))",
    "nan_to_num": _M + "result = mint.nan_to_num(Tensor(np.array([1.0, np.inf, -np.inf, np.nan], np.float32)))",
    "nan_to_num_args": _M + "result = mint.nan_to_num(Tensor(np.array([1.0, np.inf, -np.inf, np.nan], np.float32)), 2.0, 9.0, -9.0)",
    "abs_int": _I + "result = mint.abs(i)",
    "sqrt_int": _I + "result = mint.sqrt(mint.abs(i))",
    "exp_int": _I + "result = mint.exp(i)",
    "logical_not": _I + "result = mint.logical_not(i)",
    "bitwise_not": _I + "result = mint.bitwise_not(i)",
})

# binary functions
BINARY = ["add", "sub", "mul", "div", "divide", "maximum", "minimum", "pow", "atan2", "arctan2", "remainder", "fmod",
          "floor_divide", "xlogy", "eq", "ne", "not_equal", "gt", "greater", "ge", "greater_equal", "lt", "less", "le",
          "less_equal", "logical_and", "logical_or", "logical_xor", "isclose"]
for name in BINARY:
    CASES[name] = _XY + f"result = mint.{name}(x, y)"
for name in ["add", "sub", "mul", "div", "maximum", "pow", "atan2", "xlogy"]:
    CASES[f"{name}_grad"] = _XY + f"result = ms.grad(lambda a, b: mint.{name}(a, b).sum(), (0, 1))(mint.abs(x), y)"
CASES.update({
    "add_alpha": _XY + "result = mint.add(x, y, alpha=2)",
    "add_alpha_grad": _XY + "result = ms.grad(lambda a, b: mint.add(a, b, alpha=0.5).sum(), (0, 1))(x, y)",
    "add_scalar": _X + "result = mint.add(x, 2)",
    "add_int_float": _I + "result = mint.add(i, 2.5)",
    "sub_alpha": _XY + "result = mint.sub(x, y, alpha=3)",
    "mul_scalar": _I + "result = mint.mul(i, 2)",
    "div_int": _I + "result = mint.div(i, 2)",
    "div_floor": _X + "result = mint.div(x, 4, rounding_mode='floor')",
    "div_trunc": _X + "result = mint.div(x, 4, rounding_mode='trunc')",
    "pow_scalar": _X + "result = mint.pow(x, 2)",
    "remainder_scalar": _X + "result = mint.remainder(x, 2.5)",
    "eq_scalar": _I + "result = mint.eq(i, 4)",
    "bitwise_and": _I + "result = mint.bitwise_and(i, Tensor(np.array([[1, 3, 5], [7, 9, 11]], np.int32)))",
    "bitwise_or": _I + "result = mint.bitwise_or(i, Tensor(np.array([[1, 3, 5], [7, 9, 11]], np.int32)))",
    "bitwise_xor": _I + "result = mint.bitwise_xor(i, Tensor(np.array([[1, 3, 5], [7, 9, 11]], np.int32)))",
    "lerp": _XY + "result = mint.lerp(x, y, 0.25)",
    "lerp_tensor": _XY + "result = mint.lerp(x, y, Tensor(np.array([0.1, 0.5, 0.9], np.float32)))",
    "lerp_grad": _XY + "result = ms.grad(lambda a, b: mint.lerp(a, b, 0.25).sum(), (0, 1))(x, y)",
    "clamp": _X + "result = mint.clamp(x, -1.0, 2.0)",
    "clamp_min": _X + "result = mint.clamp(x, min=0.0)",
    "clamp_tensor": _XY + "result = mint.clamp(x, y, y + 1)",
    "clamp_grad": _X + "result = ms.grad(lambda a: mint.clamp(a, -1.0, 2.0).sum())(x)",
    "add_broadcast_error": _XY + "result = mint.add(x, Tensor(np.ones((4,), np.float32)))",
})

# reductions
CASES.update({
    "sum": _X + "result = mint.sum(x)",
    "sum_dim": _X + "result = mint.sum(x, 1)",
    "sum_dim_keep": _X + "result = mint.sum(x, dim=0, keepdim=True)",
    "sum_dims": _X + "result = mint.sum(x, (0, 1))",
    "sum_int": _I + "result = mint.sum(i)",
    "sum_dtype": _I + "result = mint.sum(i, dtype=ms.float32)",
    "sum_grad": _X + "result = ms.grad(lambda a: (mint.sum(a, 1) ** 2).sum())(x)",
    "mean": _X + "result = mint.mean(x)",
    "mean_dim": _X + "result = mint.mean(x, 1, True)",
    "mean_grad": _X + "result = ms.grad(lambda a: (mint.mean(a, 0) ** 2).sum())(x)",
    "prod": _X + "result = mint.prod(x)",
    "prod_dim": _X + "result = mint.prod(x, 1)",
    "prod_int": _I + "result = mint.prod(i, 0)",
    "prod_grad": _X + "result = ms.grad(lambda a: mint.prod(a, 1).sum())(x)",
    "amax": _X + "result = mint.amax(x)",
    "amax_dim": _X + "result = mint.amax(x, 1)",
    "amin_dim": _X + "result = mint.amin(x, 0, True)",
    "all": _I + "result = mint.all(i)",
    "all_dim": _I + "result = mint.all(i > 0, 1)",
    "any": _I + "result = mint.any(i > 5)",
    "any_dim": _I + "result = mint.any(i > 5, 1, True)",
    "std": _X + "result = mint.std(x)",
    "std_dim": _X + "result = mint.std(x, 1)",
    "std_correction": _X + "result = mint.std(x, dim=1, correction=0, keepdim=True)",
    "std_grad": _X + "result = ms.grad(lambda a: mint.std(a, 1).sum())(x)",
    "var": _X + "result = mint.var(x)",
    "var_dim": _X + "result = mint.var(x, 0)",
    "var_correction": _X + "result = mint.var(x, dim=1, correction=0)",
    "var_mean": _X + "result = mint.var_mean(x, 1)",
    "std_mean": _X + "result = mint.std_mean(x, dim=0, correction=0)",
    "logsumexp": _X + "result = mint.logsumexp(x, 1)",
    "logsumexp_keep": _X + "result = mint.logsumexp(x, 0, True)",
    "logsumexp_grad": _X + "result = ms.grad(lambda a: mint.logsumexp(a, 1).sum())(x)",
    "nansum": _M + "result = mint.nansum(Tensor(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32)), 1)",
    "count_nonzero": _I + "result = mint.count_nonzero(i)",
    "count_nonzero_dim": _M + "result = mint.count_nonzero(Tensor(np.array([[0, 1, 2], [0, 0, 3]], np.int32)), 1)",
    "max": _X + "result = mint.max(x)",
    "max_dim": _X + "result = mint.max(x, 1)",
    "max_dim_keep": _X + "result = mint.max(x, 0, True)",
    "max_dim_kw": _X + "result = mint.max(x, dim=1, keepdim=False)",
    "max_other": _XY + "result = mint.max(x, y)",
    "min": _X + "result = mint.min(x)",
    "min_dim": _X + "result = mint.min(x, 1)",
    "min_other": _XY + "result = mint.min(x, y)",
    "max_grad": _X + "result = ms.grad(lambda a: mint.max(a))(x)",
    "max_dim_grad": _X + "result = ms.grad(lambda a: mint.max(a, 1)[0].sum())(x)",
    "max_int": _I + "result = mint.max(i, 1)",
    "argmax": _X + "result = mint.argmax(x)",
    "argmax_dim": _X + "result = mint.argmax(x, 1)",
    "argmax_keep": _X + "result = mint.argmax(x, dim=0, keepdim=True)",
    "argmin": _X + "result = mint.argmin(x)",
    "argmin_dim": _X + "result = mint.argmin(x, 1, True)",
    "median": _X + "result = mint.median(x)",
    "median_dim": _X + "result = mint.median(x, 1)",
    "median_dim_keep": _X + "result = mint.median(x, 0, True)",
    "cumsum": _X + "result = mint.cumsum(x, 1)",
    "cumsum_dtype": _I + "result = mint.cumsum(i, 1, dtype=ms.float32)",
    "cumsum_grad": _X + "result = ms.grad(lambda a: (mint.cumsum(a, 1) ** 2).sum())(x)",
    "cumprod": _X + "result = mint.cumprod(x, 1)",
    "cummax": _X + "result = mint.cummax(x, 1)",
    "cummin": _X + "result = mint.cummin(x, 0)",
    "norm": _X + "result = mint.norm(x)",
    "norm_p1": _X + "result = mint.norm(x, 1)",
    "norm_dim": _X + "result = mint.norm(x, 2, 1)",
    "norm_inf": _X + "result = mint.norm(x, float('inf'), 1, True)",
    "norm_grad": _X + "result = ms.grad(lambda a: mint.norm(a))(x)",
    "sum_bad_dim": _X + "result = mint.sum(x, 2)",
})

# shapes, joining, indexing
CASES.update({
    "cat": _XY + "result = mint.cat((x, y))",
    "cat_dim": _XY + "result = mint.cat([x, y], dim=1)",
    "concat": _XY + "result = mint.concat((x, y), -1)",
    "cat_grad": _XY + "result = ms.grad(lambda a, b: (mint.cat((a, b), 1) * Tensor(np.arange(12, dtype=np.float32).reshape(2, 6))).sum(), (0, 1))(x, y)",
    "stack": _XY + "result = mint.stack((x, y), 1)",
    "hstack": _XY + "result = mint.hstack((x, y))",
    "dstack": _XY + "result = mint.dstack((x, y))",
    "split": _X + "result = mint.split(x, 1)",
    "split_sections": _X + "result = mint.split(x, [1, 2], dim=1)",
    "chunk": _X + "result = mint.chunk(x, 3, 1)",
    "unbind": _X + "result = mint.unbind(x, 1)",
    "narrow": _X + "result = mint.narrow(x, 1, 1, 2)",
    "select": _X + "result = mint.select(x, 1, 2)",
    "select_grad": _X + "result = ms.grad(lambda a: (mint.select(a, 0, 1) * 3).sum())(x)",
    "reshape": _X + "result = mint.reshape(x, (3, 2))",
    "reshape_infer": _X + "result = mint.reshape(x, (-1,))",
    "flatten": _M + "result = mint.flatten(Tensor(np.ones((2, 3, 4), np.float32)))",
    "flatten_dims": _M + "result = mint.flatten(Tensor(np.ones((2, 3, 4, 5), np.float32)), 1, 2).shape",
    "ravel": _X + "result = mint.ravel(x)",
    "squeeze_no_dim": _M + "result = mint.squeeze(Tensor(np.ones((1, 2, 1), np.float32))).shape",
    "squeeze_dim": _M + "result = mint.squeeze(Tensor(np.ones((1, 2, 1), np.float32)), 2).shape",
    "unsqueeze": _X + "result = mint.unsqueeze(x, 1).shape",
    "permute": _M + "result = mint.permute(Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4)), (2, 0, 1))",
    "transpose": _M + "result = mint.transpose(Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4)), 0, 2)",
    "swapaxes": _X + "result = mint.swapaxes(x, 0, 1)",
    "t": _X + "result = mint.t(x)",
    "t_1d": _M + "result = mint.t(Tensor(np.array([1.0, 2.0], np.float32)))",
    "broadcast_to": _M + "result = mint.broadcast_to(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), (2, 3))",
    "tile": _X + "result = mint.tile(x, (2, 1))",
    "repeat_interleave": _X + "result = mint.repeat_interleave(x, 2, 1)",
    "repeat_interleave_flat": _X + "result = mint.repeat_interleave(x, 2)",
    "flip": _X + "result = mint.flip(x, (0, 1))",
    "roll": _X + "result = mint.roll(x, 1, 1)",
    "tril": _X + "result = mint.tril(x)",
    "triu": _X + "result = mint.triu(x, 1)",
    "diag_1d": _M + "result = mint.diag(Tensor(np.array([1.0, 2.0], np.float32)), 1)",
    "diag_2d": _X + "result = mint.diag(x)",
    "diag_2d_offset": _X + "result = mint.diag(x, -1)",
    "trace": _X + "result = mint.trace(x)",
    "gather": _X + "result = mint.gather(x, 1, Tensor(np.array([[0, 0], [2, 1]], np.int64)))",
    "gather_grad": _X + "result = ms.grad(lambda a: mint.gather(a, 1, Tensor(np.array([[0, 0], [2, 1]], np.int64))).sum())(x)",
    "index_select": _X + "result = mint.index_select(x, 1, Tensor(np.array([2, 0], np.int64)))",
    "index_select_grad": _X + "result = ms.grad(lambda a: mint.index_select(a, 1, Tensor(np.array([2, 2], np.int64))).sum())(x)",
    "masked_select": _X + "result = mint.masked_select(x, x > 0)",
    "take": _X + "result = mint.take(x, Tensor(np.array([[0, 5], [3, 1]], np.int64)))",
    "scatter": _M + "result = mint.scatter(Tensor(np.zeros((2, 3), np.float32)), 1, Tensor(np.array([[2], [0]], np.int64)), Tensor(np.array([[7.0], [8.0]], np.float32)))",
    "where": _XY + "result = mint.where(x > 0, x, y)",
    "where_scalar": _X + "result = mint.where(x > 0, x, 0.0)",
    "where_cond": _X + "result = mint.where(x > 0)",
    "nonzero": _X + "result = mint.nonzero(x > 0)",
    "nonzero_tuple": _X + "result = mint.nonzero(x > 0, as_tuple=True)",
    "sort": _X + "result = mint.sort(x)",
    "sort_desc": _X + "result = mint.sort(x, dim=0, descending=True)",
    "argsort": _X + "result = mint.argsort(x, 1, True)",
    "topk": _X + "result = mint.topk(x, 2)",
    "topk_smallest": _X + "result = mint.topk(x, 1, dim=0, largest=False)",
    "searchsorted": _M + "result = mint.searchsorted(Tensor(np.array([1.0, 3.0, 5.0], np.float32)), Tensor(np.array([2.0, 5.0], np.float32)))",
    "unique": _M + "result = mint.unique(Tensor(np.array([3, 1, 3, 2, 1], np.int32)))",
    "unique_all": _M + "result = mint.unique(Tensor(np.array([3, 1, 3, 2, 1], np.int32)), return_inverse=True, return_counts=True)",
    "bincount": _M + "result = mint.bincount(Tensor(np.array([0, 2, 2, 5], np.int32)))",
    "meshgrid": _M + "result = mint.meshgrid(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4, 5], np.int32)), indexing='ij')",
    "meshgrid_xy": _M + "result = mint.meshgrid(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4, 5], np.int32)), indexing='xy')",
    "cat_error": _XY + "result = mint.cat((x, Tensor(np.ones((2, 2, 2), np.float32))))",
})

# linear algebra and creation
_A = _M + "a = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))\n"
CASES.update({
    "matmul": _XY + "result = mint.matmul(x, y.T)",
    "matmul_grad": _XY + "result = ms.grad(lambda a, b: mint.matmul(a, b).sum(), (0, 1))(x, y.T)",
    "mm": _XY + "result = mint.mm(x, y.T)",
    "bmm": _M + "result = mint.bmm(Tensor(np.ones((2, 2, 3), np.float32)), Tensor(np.arange(12, dtype=np.float32).reshape(2, 3, 2)))",
    "mv": _X + "result = mint.mv(x, Tensor(np.array([1.0, 2.0, 3.0], np.float32)))",
    "outer": _M + "result = mint.outer(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0, 5.0], np.float32)))",
    "dot": _M + "result = mint.dot(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32)))",
    "addmm": _A + "result = mint.addmm(a, a, a, beta=0.5, alpha=2)",
    "baddbmm": _A + "b = mint.stack((a, a))\nresult = mint.baddbmm(b, b, b, beta=2, alpha=0.5)",
    "einsum": _XY + "result = mint.einsum('ij,kj->ik', x, y)",
    "cross": _M + "result = mint.cross(Tensor(np.array([[1.0, 0.0, 0.0]], np.float32)), Tensor(np.array([[0.0, 1.0, 0.0]], np.float32)))",
    "cdist": _XY + "result = mint.cdist(x, y)",
    "inverse": _A + "result = mint.inverse(a)",
    "zeros": _M + "result = mint.zeros((2, 3))",
    "zeros_dtype": _M + "result = mint.zeros((2,), dtype=ms.int32)",
    "ones": _M + "result = mint.ones((2, 1))",
    "ones_dtype": _M + "result = mint.ones(3, dtype=ms.float16)",
    "zeros_like": _I + "result = mint.zeros_like(i)",
    "ones_like": _I + "result = mint.ones_like(i, dtype=ms.float32)",
    "full": _M + "result = mint.full((2, 2), 1.5)",
    "full_int": _M + "result = mint.full((2,), 7)",
    "full_like": _X + "result = mint.full_like(x, 2)",
    "eye": _M + "result = mint.eye(2)",
    "eye_nm": _M + "result = mint.eye(2, 3, ms.int32)",
    "arange": _M + "result = mint.arange(5)",
    "arange_float": _M + "result = mint.arange(0, 1, 0.25)",
    "linspace": _M + "result = mint.linspace(0, 1, 5)",
    "linspace_dtype": _M + "result = mint.linspace(0, 10, 3, dtype=ms.int64)",
    "clone": _X + "c = mint.clone(x)\nresult = (c, c is x)",
    "clone_grad": _X + "result = ms.grad(lambda a: (mint.clone(a) * 2).sum())(x)",
})

# mint.special and mint.linalg
CASES.update({
    "special_erfc": _X + "result = mint.special.erfc(x)",
    "special_exp2": _X + "result = mint.special.exp2(x)",
    "special_expm1": _X + "result = mint.special.expm1(x)",
    "special_log1p": _P + "result = mint.special.log1p(p)",
    "special_log_softmax": _X + "result = mint.special.log_softmax(x, 1)",
    "special_round": _X + "result = mint.special.round(x)",
    "linalg_norm": _X + "result = mint.linalg.norm(x)",
    "linalg_norm_ord": _X + "result = mint.linalg.norm(x, 1)",
    "linalg_vector_norm": _X + "result = mint.linalg.vector_norm(x)",
    "linalg_vector_norm_dim": _X + "result = mint.linalg.vector_norm(x, 1, 1)",
    "linalg_matrix_norm": _X + "result = mint.linalg.matrix_norm(x)",
    "linalg_matrix_norm_ord": _X + "result = mint.linalg.matrix_norm(x, 1)",
    "linalg_inv": _A + "result = mint.linalg.inv(a)",
})

# mint.nn.functional
_F = _M + "import mindspore.mint.nn.functional as F\n"
_FX = _F + "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
ACTS = ["relu", "relu6", "sigmoid", "tanh", "silu", "gelu", "elu", "selu", "softplus", "mish", "logsigmoid",
        "hardsigmoid", "hardswish", "leaky_relu"]
for name in ACTS:
    CASES[f"F_{name}"] = _FX + f"result = F.{name}(x)"
    CASES[f"F_{name}_grad"] = _FX + f"result = ms.grad(lambda a: (F.{name}(a) * (1 + a)).sum())(x)"
CASES.update({
    "F_gelu_tanh": _FX + "result = F.gelu(x, approximate='tanh')",
    "F_elu_alpha": _FX + "result = F.elu(x, 0.5)",
    "F_leaky_relu_slope": _FX + "result = F.leaky_relu(x, 0.2)",
    "F_softplus_args": _FX + "result = F.softplus(x, 2, 1)",
    "F_relu_inplace": _FX + "r = F.relu(x, inplace=True)\nresult = (r, x)",
    "F_relu_": _FX + "r = F.relu_(x)\nresult = (r, x)",
    "F_sigmoid_": _FX + "r = F.sigmoid_(x)\nresult = (r, x)",
    "F_elu_": _FX + "r = F.elu_(x)\nresult = (r, x)",
    "F_softmax": _FX + "result = F.softmax(x, 1)",
    "F_softmax_dim0": _FX + "result = F.softmax(x, dim=0)",
    "F_log_softmax": _FX + "result = F.log_softmax(x, 1)",
    "F_softmax_grad": _FX + "result = ms.grad(lambda a: (F.softmax(a, 1) * Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))).sum())(x)",
    "F_prelu": _FX + "result = F.prelu(x, Tensor(np.array([0.25], np.float32)))",
    "F_linear": _FX + _W + "result = F.linear(x, w)",
    "F_linear_bias": _FX + _W + "result = F.linear(x, w, Tensor(np.array([1.0, -1.0], np.float32)))",
    "F_linear_grad": _FX + _W + "result = ms.grad(lambda a, b: F.linear(a, b).sum(), (0, 1))(x, w)",
    "F_dropout_eval": _FX + "result = F.dropout(x, 0.5, training=False)",
    "F_dropout_p0": _FX + "result = F.dropout(x, 0.0)",
    "F_flatten": _F + "result = F.flatten(Tensor(np.ones((2, 3, 4), np.float32))).shape",
    "F_one_hot": _F + "result = F.one_hot(Tensor(np.array([0, 2, 1], np.int64)))",
    "F_one_hot_n": _F + "result = F.one_hot(Tensor(np.array([0, 2], np.int64)), 4)",
    "F_pad": _FX + "result = F.pad(x, (1, 2))",
    "F_pad_value": _FX + "result = F.pad(x, (1, 0, 0, 1), value=9.0)",
    "F_pad_reflect": _F + "result = F.pad(Tensor(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (2, 1), mode='reflect')",
    "F_normalize": _FX + "result = F.normalize(x)",
    "F_normalize_p1": _FX + "result = F.normalize(x, 1.0, 0)",
})
_T = "t = Tensor(np.array([2, 0], np.int64))\n"
_PT = "q = Tensor(np.array([[0.2, 0.3, 0.5], [0.7, 0.1, 0.2]], np.float32))\n"
CASES.update({
    "F_cross_entropy": _FX + _T + "result = F.cross_entropy(x, t)",
    "F_cross_entropy_smooth": _FX + _T + "result = F.cross_entropy(x, t, label_smoothing=0.1, reduction='sum')",
    "F_cross_entropy_grad": _FX + _T + "result = ms.grad(lambda a: F.cross_entropy(a, t))(x)",
    "F_nll_loss": _FX + _T + "result = F.nll_loss(F.log_softmax(x, 1), t)",
    "F_mse_loss": _FX + _PT + "result = F.mse_loss(x, q)",
    "F_mse_loss_none": _FX + _PT + "result = F.mse_loss(x, q, reduction='none')",
    "F_l1_loss": _FX + _PT + "result = F.l1_loss(x, q)",
    "F_smooth_l1_loss": _FX + _PT + "result = F.smooth_l1_loss(x, q)",
    "F_smooth_l1_loss_beta": _FX + _PT + "result = F.smooth_l1_loss(x, q, reduction='sum', beta=0.5)",
    "F_bce": _F + _PT + "result = F.binary_cross_entropy(q, Tensor(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], np.float32)))",
    "F_bce_logits": _FX + _PT + "result = F.binary_cross_entropy_with_logits(x, q)",
    "F_bce_logits_pos": _FX + _PT + "result = F.binary_cross_entropy_with_logits(x, q, pos_weight=Tensor(np.array([1.0, 2.0, 3.0], np.float32)))",
    "F_bce_logits_grad": _FX + _PT + "result = ms.grad(lambda a: F.binary_cross_entropy_with_logits(a, q))(x)",
    "F_kl_div": _FX + _PT + "result = F.kl_div(F.log_softmax(x, 1), q)",
    "F_kl_div_batchmean": _FX + _PT + "result = F.kl_div(F.log_softmax(x, 1), q, reduction='batchmean')",
    "F_kl_div_log_target": _FX + _PT + "result = F.kl_div(F.log_softmax(x, 1), mint.log(q), reduction='sum', log_target=True)",
})
_IMG = _F + "img = Tensor(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) / 10)\n"
_K = "k = Tensor(np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3) / 20 - 0.4)\n"
CASES.update({
    "F_conv2d": _IMG + _K + "result = F.conv2d(img, k)",
    "F_conv2d_pad": _IMG + _K + "result = F.conv2d(img, k, Tensor(np.array([0.5], np.float32)), stride=2, padding=1)",
    "softmax_top": _X + "result = mint.softmax(x, 1)",
    "conv2d_top": _IMG + _K + "result = mint.conv2d(img, k, padding=1)",
    "F_conv2d_same": _IMG + _K + "result = F.conv2d(img, k, padding='same')",
    "F_conv2d_grad": _IMG + _K + "result = ms.grad(lambda a, b: F.conv2d(a, b, padding=1).sum(), (0, 1))(img, k)",
    "F_max_pool2d": _IMG + "result = F.max_pool2d(img, 2)",
    "F_max_pool2d_indices": _IMG + "result = F.max_pool2d(img, 3, 1, 1, return_indices=True)",
    "F_avg_pool2d": _IMG + "result = F.avg_pool2d(img, 2)",
    "F_avg_pool2d_pad": _IMG + "result = F.avg_pool2d(img, 3, 2, 1, count_include_pad=False)",
    "F_avg_pool1d": _F + "result = F.avg_pool1d(Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 8)), 2)",
    "F_adaptive_avg_pool2d": _IMG + "result = F.adaptive_avg_pool2d(img, 2)",
    "F_adaptive_avg_pool1d": _F + "result = F.adaptive_avg_pool1d(Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 8)), 4)",
    "F_adaptive_max_pool2d": _IMG + "result = F.adaptive_max_pool2d(img, (2, 1))",
    "F_interpolate": _IMG + "result = F.interpolate(img, scale_factor=2.0).shape",
    "F_interpolate_bilinear": _IMG + "result = F.interpolate(img, size=(3, 3), mode='bilinear', align_corners=True)",
    "F_layer_norm": _FX + "result = F.layer_norm(x, (3,))",
    "F_layer_norm_affine": _FX + "result = F.layer_norm(x, (3,), Tensor(np.array([1.0, 2.0, 0.5], np.float32)), Tensor(np.array([0.0, 1.0, -1.0], np.float32)))",
    "F_group_norm": _IMG + "result = F.group_norm(img, 2)",
    "F_batch_norm": _IMG + "result = F.batch_norm(img, Tensor(np.zeros(2, np.float32)), Tensor(np.ones(2, np.float32)), training=True)",
    "F_embedding": _F + "result = F.embedding(Tensor(np.array([[0, 2]], np.int64)), Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))",
})

# mint.nn layers
CASES.update({
    "nn_Linear": _X + "ms.set_seed(1)\nm = mint.nn.Linear(3, 2)\nresult = (m(x).shape, [(p.name, p.shape) for p in m.get_parameters()])",
    "nn_Linear_nobias": _X + "m = mint.nn.Linear(3, 2, bias=False, weight_init='ones')\nresult = (m(x), [p.name for p in m.get_parameters()])",
    "nn_Linear_grad": _X + "m = mint.nn.Linear(3, 2, weight_init='ones', bias_init='zeros')\nresult = ms.grad(lambda a: m(a).sum(), None, m.trainable_params())(x)",
    "nn_ReLU": _X + "result = mint.nn.ReLU()(x)",
    "nn_GELU": _X + "result = mint.nn.GELU(approximate='tanh')(x)",
    "nn_SiLU": _X + "result = mint.nn.SiLU()(x)",
    "nn_Sigmoid": _X + "result = mint.nn.Sigmoid()(x)",
    "nn_Tanh": _X + "result = mint.nn.Tanh()(x)",
    "nn_Softmax": _X + "result = mint.nn.Softmax(dim=0)(x)",
    "nn_LogSoftmax": _X + "result = mint.nn.LogSoftmax(1)(x)",
    "nn_ELU": _X + "result = mint.nn.ELU(0.5)(x)",
    "nn_Mish": _X + "result = mint.nn.Mish()(x)",
    "nn_SELU": _X + "result = mint.nn.SELU()(x)",
    "nn_Hardswish": _X + "result = mint.nn.Hardswish()(x)",
    "nn_Hardsigmoid": _X + "result = mint.nn.Hardsigmoid()(x)",
    "nn_LogSigmoid": _X + "result = mint.nn.LogSigmoid()(x)",
    "nn_ReLU6": _X + "result = mint.nn.ReLU6()(x * 3)",
    "nn_PReLU": _X + "m = mint.nn.PReLU()\nresult = (m(x), [(p.name, p.shape) for p in m.get_parameters()], str(m))",
    "nn_Identity": _X + "result = mint.nn.Identity()(x)",
    "nn_Flatten": _M + "result = mint.nn.Flatten()(Tensor(np.ones((2, 3, 4), np.float32))).shape",
    "nn_Dropout_eval": _X + "m = mint.nn.Dropout(0.3)\nm.set_train(False)\nresult = m(x)",
    "nn_MSELoss": _XY + "result = mint.nn.MSELoss()(x, y)",
    "nn_L1Loss": _XY + "result = mint.nn.L1Loss(reduction='sum')(x, y)",
    "nn_SmoothL1Loss": _XY + "result = mint.nn.SmoothL1Loss(beta=0.5)(x, y)",
    "nn_CrossEntropyLoss": _X + _T + "result = mint.nn.CrossEntropyLoss()(x, t)",
    "nn_CrossEntropyLoss_smooth": _X + _T + "result = mint.nn.CrossEntropyLoss(label_smoothing=0.2)(x, t)",
    "nn_NLLLoss": _X + _T + "result = mint.nn.NLLLoss()(mint.special.log_softmax(x, 1), t)",
    "nn_BCEWithLogitsLoss": _X + _PT + "result = mint.nn.BCEWithLogitsLoss()(x, q)",
    "nn_BCELoss": _M + _PT + "result = mint.nn.BCELoss()(q, Tensor(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], np.float32)))",
    "nn_KLDivLoss": _X + _PT + "result = mint.nn.KLDivLoss(reduction='batchmean')(mint.special.log_softmax(x, 1), q)",
    "nn_Conv2d": _IMG + "m = mint.nn.Conv2d(2, 3, 3, padding=1)\nresult = m(img).shape",
    "nn_Conv2d_params": _M + "m = mint.nn.Conv2d(2, 3, 3, padding=1)\nresult = ([(p.name, p.shape) for p in m.get_parameters()], str(m))",
    "nn_Conv2d_nobias": _IMG + "m = mint.nn.Conv2d(2, 1, 2, stride=2, bias=False)\nresult = ([p.name for p in m.get_parameters()], m(img).shape)",
    "nn_MaxPool2d": _IMG + "result = mint.nn.MaxPool2d(2)(img)",
    "nn_AvgPool2d": _IMG + "result = mint.nn.AvgPool2d(2, 1)(img)",
    "nn_AdaptiveAvgPool2d": _IMG + "result = mint.nn.AdaptiveAvgPool2d((1, 2))(img)",
    "nn_BatchNorm2d": _IMG + "m = mint.nn.BatchNorm2d(2)\nm.set_train(True)\nresult = m(img)",
    "nn_BatchNorm2d_params": _M + "m = mint.nn.BatchNorm2d(2)\nresult = ([(p.name, p.shape, p.requires_grad) for p in m.get_parameters()], str(m), m.training)",
    "nn_LayerNorm": _X + "m = mint.nn.LayerNorm(3)\nresult = m(x)",
    "nn_LayerNorm_params": _M + "m = mint.nn.LayerNorm(3)\nresult = ([(p.name, p.shape) for p in m.get_parameters()], str(m))",
    "nn_GroupNorm": _IMG + "m = mint.nn.GroupNorm(1, 2)\nresult = (m(img), [(p.name, p.shape) for p in m.get_parameters()], str(m))",
    "nn_Embedding": _M + "m = mint.nn.Embedding(4, 2)\nresult = m(Tensor(np.array([1, 3], np.int64))).shape",
    "nn_Embedding_params": _M + "m = mint.nn.Embedding(4, 2)\nresult = ([(p.name, p.shape) for p in m.get_parameters()], str(m))",
    "nn_Linear_str": _M + "result = (str(mint.nn.Linear(3, 2)), str(mint.nn.Linear(3, 2, bias=False)))",
    "nn_Upsample": _IMG + "result = mint.nn.Upsample(scale_factor=2.0)(img).shape",
})

# mint.optim
_NET = (_M + "ms.set_seed(0)\nnet = mint.nn.Linear(3, 2, weight_init='ones', bias_init='zeros')\n"
        "x = Tensor(np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float32))\n"
        "grad_fn = ms.value_and_grad(lambda a: (net(a) ** 2).mean(), None, net.trainable_params())\n")
_STEP = "for _ in range(3):\n    loss, g = grad_fn(x)\n    opt(g)\nresult = (loss, [p.value() for p in net.trainable_params()])"
CASES.update({
    "optim_SGD": _NET + "opt = mint.optim.SGD(net.trainable_params(), lr=0.1)\n" + _STEP,
    "optim_SGD_momentum": _NET + "opt = mint.optim.SGD(net.trainable_params(), lr=0.05, momentum=0.9, weight_decay=0.01)\n" + _STEP,
    "optim_SGD_nesterov": _NET + "opt = mint.optim.SGD(net.trainable_params(), lr=0.05, momentum=0.9, nesterov=True)\n" + _STEP,
    "optim_SGD_maximize": _NET + "opt = mint.optim.SGD(net.trainable_params(), lr=0.1, maximize=True)\n" + _STEP,
})

# Programs the CPU wheel cannot run (it has no CPU kernel for these mint functions: "The kernel X unregistered",
# or, for mint.optim, silently leaves the parameters unchanged): each answer is recorded from an equivalent program
# the wheel runs, with ops (or nn) in place of mint (record.py keeps the wheel's own error beside it).
VIA = {}


def _via(case, *pairs):
    src = CASES[case]
    for old, new in pairs:
        assert old in src, (case, old)
        src = src.replace(old, new)
    VIA[case] = src


_I64 = ".astype(ms.int64)"
_SAME = {"acos": "acos", "arccos": "acos", "asin": "asin", "arcsin": "asin", "atan": "atan", "arctan": "atan",
         "asinh": "asinh", "arcsinh": "asinh", "acosh": "acosh", "arccosh": "acosh", "exp2": "exp2", "frac": "frac",
         "log2": "log2", "log10": "log10", "atan2": "atan2", "arctan2": "atan2", "bitwise_not": "invert",
         "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor", "mm": "matmul", "outer": "outer",
         "inverse": "inverse", "cumsum": "cumsum", "logsumexp": "logsumexp", "stack": "stack", "tril": "tril",
         "trace": "trace", "full_like": "full_like", "zeros_like": "zeros_like",
         "ones_like": "ones_like", "linspace": "linspace", "arange": "arange", "index_select": "index_select",
         "repeat_interleave": "repeat_interleave", "norm": "norm"}
for case in ["acos", "arccos", "asin", "arcsin", "atan", "arctan", "asinh", "arcsinh", "acosh", "arccosh", "exp2", "frac",
             "log2", "log10", "atan2", "arctan2", "atan2_grad", "bitwise_not", "bitwise_or", "bitwise_xor", "mm", "outer",
             "inverse", "cumsum", "cumsum_dtype", "cumsum_grad", "logsumexp", "logsumexp_grad", "logsumexp_keep",
             "stack", "tril", "trace", "full_like", "zeros_like", "ones_like", "linspace",
             "arange", "arange_float", "index_select", "index_select_grad", "repeat_interleave",
             "repeat_interleave_flat", "norm", "norm_dim", "norm_grad", "norm_inf"]:
    fn = next(n for n in sorted(_SAME, key=len, reverse=True) if f"mint.{n}(" in CASES[case])
    _via(case, (f"mint.{fn}(", f"ops.{_SAME[fn]}("))
_via("special_exp2", ("mint.special.exp2(", "ops.exp2("))
# the wheel's ops.full gives a float fill value Int64 (truncated): the float fill, with ops.fill
_via("full", ("mint.full((2, 2), 1.5)", "ops.fill(ms.float32, (2, 2), 1.5)"))
_via("full_int", ("mint.full((2,), 7)", "ops.fill(ms.int64, (2,), 7)"))
_via("norm_p1", ("mint.norm(x, 1)", "ops.norm(x.reshape(-1), 1)"))
_via("linspace_dtype", ("mint.linspace(0, 10, 3, dtype=ms.int64)", "ops.linspace(0, 10, 3).astype(ms.int64)"))
_via("addmm", ("mint.addmm(", "ops.addmm("))
_via("baddbmm", ("mint.stack((a, a))", "ops.stack((a, a))"), ("mint.baddbmm(", "ops.baddbmm("))
_via("bincount", ("mint.bincount(", "ops.bincount("))
_via("cummin", ("mint.cummin(x, 0)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.cummin(x, 0))"))
_via("count_nonzero", ("mint.count_nonzero(i)", "ops.count_nonzero(i, dtype=ms.int64)"))
_via("count_nonzero_dim", ("mint.count_nonzero(", "ops.count_nonzero("), (", 1)", ", 1, dtype=ms.int64)"))
_via("clone", ("mint.clone(x)", "ops.deepcopy(x)"))
_via("clone_grad", ("mint.clone(a)", "a"))
_via("diag_1d", ("mint.diag(Tensor(np.array([1.0, 2.0], np.float32)), 1)",
                 "ops.diag_embed(Tensor(np.array([1.0, 2.0], np.float32)), 1)"))
_via("diag_2d", ("mint.diag(x)", "ops.diagonal(x)"))
_via("diag_2d_offset", ("mint.diag(x, -1)", "ops.diagonal(x, -1)"))
_via("dot", ("mint.dot(", "ops.inner("))
_via("einsum", ("mint.einsum('ij,kj->ik', x, y)", "ops.matmul(x, y.T)"))
_via("mv", ("mint.mv(", "ops.mv("))
_via("argmax", ("mint.argmax(x)", "ops.argmax(x)" + _I64))
_via("argmax_dim", ("mint.argmax(x, 1)", "ops.argmax(x, 1)" + _I64))
_via("argmax_keep", ("mint.argmax(x, dim=0, keepdim=True)", "ops.argmax(x, 0, True)" + _I64))
_via("argmin", ("mint.argmin(x)", "ops.argmin(x)" + _I64))
_via("argmin_dim", ("mint.argmin(x, 1, True)", "ops.argmin(x, 1, True)" + _I64))
_via("argsort", ("mint.argsort(x, 1, True)", "ops.argsort(x, 1, True)" + _I64))
_via("sort", ("mint.sort(x)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.sort(x))"))
_via("sort_desc", ("mint.sort(x, dim=0, descending=True)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.sort(x, 0, True))"))
_via("topk", ("mint.topk(x, 2)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.topk(x, 2))"))
_via("topk_smallest", ("mint.topk(x, 1, dim=0, largest=False)",
                       "(lambda r: (r[0], r[1]" + _I64 + "))(ops.topk(x, 1, dim=0, largest=False))"))
_via("median", ("mint.median(x)", "ops.median(x.reshape(-1), 0)[0]"))
_via("median_dim", ("mint.median(x, 1)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.median(x, 1))"))
_via("median_dim_keep", ("mint.median(x, 0, True)", "(lambda r: (r[0], r[1]" + _I64 + "))(ops.median(x, 0, True))"))
_via("std", ("mint.std(x)", "ops.std(x, ddof=1)"))
_via("std_dim", ("mint.std(x, 1)", "ops.std(x, 1, ddof=1)"))
_via("std_correction", ("mint.std(x, dim=1, correction=0, keepdim=True)", "ops.std(x, 1, ddof=0, keepdims=True)"))
_via("std_grad", ("mint.std(a, 1)", "ops.std(a, 1, ddof=1)"))
_via("std_mean", ("mint.std_mean(x, dim=0, correction=0)", "ops.std_mean(x, 0, ddof=0)"))
_via("var", ("mint.var(x)", "ops.var(x, ddof=1)"))
_via("var_dim", ("mint.var(x, 0)", "ops.var(x, 0, ddof=1)"))
_via("var_correction", ("mint.var(x, dim=1, correction=0)", "ops.var(x, 1, ddof=0)"))
_via("var_mean", ("mint.var_mean(x, 1)", "ops.var_mean(x, 1, ddof=1)"))
_via("take", ("mint.take(x, ", "ops.gather(x.reshape(-1), "), ("np.int64)))", "np.int64)), 0)"))
_via("unique", ("mint.unique(Tensor(np.array([3, 1, 3, 2, 1], np.int32)))",
                "Tensor(np.unique(np.array([3, 1, 3, 2, 1], np.int32)))"))
_via("unique_all", ("result = mint.unique(Tensor(np.array([3, 1, 3, 2, 1], np.int32)), return_inverse=True, "
                    "return_counts=True)",
                    "u, inv, cnt = np.unique(np.array([3, 1, 3, 2, 1], np.int32), return_inverse=True, "
                    "return_counts=True)\nresult = (Tensor(u), Tensor(inv.astype(np.int64)), Tensor(cnt.astype(np.int64)))"))
_via("where_cond", ("mint.where(x > 0)", "(ops.nonzero(x > 0)[:, 0], ops.nonzero(x > 0)[:, 1])"))
_via("nonzero_tuple", ("mint.nonzero(x > 0, as_tuple=True)", "(ops.nonzero(x > 0)[:, 0], ops.nonzero(x > 0)[:, 1])"))
_via("roll", ("mint.roll(x, 1, 1)", "Tensor(np.roll(x.asnumpy(), 1, 1))"))
_via("select_grad", ("mint.select(a, 0, 1)", "a[1]"))
_via("linalg_inv", ("mint.linalg.inv(", "ops.inverse("))
_via("linalg_norm", ("mint.linalg.norm(x)", "ops.norm(x)"))
_via("linalg_norm_ord", ("mint.linalg.norm(x, 1)", "ops.norm(x, 1)"))
_via("linalg_vector_norm", ("mint.linalg.vector_norm(x)", "ops.norm(x.reshape(-1))"))
_via("linalg_vector_norm_dim", ("mint.linalg.vector_norm(x, 1, 1)", "ops.norm(x, 1, 1)"))
_via("linalg_matrix_norm", ("mint.linalg.matrix_norm(x)", "ops.norm(x, 'fro')"))
_via("linalg_matrix_norm_ord", ("mint.linalg.matrix_norm(x, 1)", "ops.norm(x, 1)"))
_via("special_log_softmax", ("mint.special.log_softmax(x, 1)", "ops.log_softmax(x, 1)"))
# mint.nn.functional
for name in ["elu", "elu_grad", "gelu", "gelu_grad", "gelu_tanh", "logsigmoid", "logsigmoid_grad",
             "mish", "mish_grad", "selu", "selu_grad", "relu6", "relu6_grad", "log_softmax", "l1_loss", "mse_loss",
             "mse_loss_none", "cross_entropy", "cross_entropy_grad", "cross_entropy_smooth", "nll_loss",
             "softplus_grad"]:
    _via(f"F_{name}", ("F.", "ops."))
_via("F_elu_alpha", ("F.elu(x, 0.5)", "ops.where(x > 0, x, 0.5 * (ops.exp(x) - 1))"))
_via("F_leaky_relu", ("F.leaky_relu(x)", "ops.leaky_relu(x, 0.01)"))
_via("F_leaky_relu_slope", ("F.leaky_relu(", "ops.leaky_relu("))
_via("F_leaky_relu_grad", ("F.leaky_relu(a)", "ops.leaky_relu(a, 0.01)"))
_via("F_kl_div", ("F.kl_div(F.log_softmax(x, 1), q)", "(q * (ops.log(q) - ops.log_softmax(x, 1))).mean()"))
_via("F_kl_div_batchmean", ("F.kl_div(F.log_softmax(x, 1), q, reduction='batchmean')",
                            "ops.kl_div(ops.log_softmax(x, 1), q, reduction='batchmean')"))
_via("F_kl_div_log_target", ("F.kl_div(F.log_softmax(x, 1), mint.log(q), reduction='sum', log_target=True)",
                             "(q * (ops.log(q) - ops.log_softmax(x, 1))).sum()"))
_via("F_relu_inplace", ("r = F.relu(x, inplace=True)", "x = ops.relu(x)\nr = x"))
_via("F_relu_", ("r = F.relu_(x)", "x = ops.relu(x)\nr = x"))
_via("F_sigmoid_", ("r = F.sigmoid_(x)", "x = ops.sigmoid(x)\nr = x"))
_via("F_elu_", ("r = F.elu_(x)", "x = ops.elu(x)\nr = x"))
_via("conv2d_top", ("mint.conv2d(img, k, padding=1)", "ops.conv2d(img, k, pad_mode='pad', padding=1)"))
_via("F_one_hot", ("F.one_hot(Tensor(np.array([0, 2, 1], np.int64)))",
                   "ops.one_hot(Tensor(np.array([0, 2, 1], np.int64)), 3, Tensor(1, ms.int64), Tensor(0, ms.int64))"))
_via("F_one_hot_n", ("F.one_hot(Tensor(np.array([0, 2], np.int64)), 4)",
                     "ops.one_hot(Tensor(np.array([0, 2], np.int64)), 4, Tensor(1, ms.int64), Tensor(0, ms.int64))"))
_via("F_pad", ("F.pad(", "ops.pad("))
_via("F_pad_value", ("F.pad(", "ops.pad("))
_via("F_pad_reflect", ("F.pad(", "ops.pad("))
_via("F_normalize", ("F.normalize(x)", "x / ops.clamp(ops.norm(x, 2, 1, True), 1e-12)"))
_via("F_normalize_p1", ("F.normalize(x, 1.0, 0)", "x / ops.clamp(ops.norm(x, 1, 0, True), 1e-12)"))
_via("F_layer_norm", ("F.layer_norm(x, (3,))",
                      "ops.LayerNorm(-1, -1, 1e-5)(x, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)))[0]"))
_via("F_layer_norm_affine", ("F.layer_norm(x, (3,), ", "ops.LayerNorm(-1, -1, 1e-5)(x, "), ("np.float32)))", "np.float32)))[0]"))
_via("F_batch_norm", ("F.batch_norm(", "ops.batch_norm("),
     ("training=True)", "Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32)), training=True)"))
_via("F_embedding", ("F.embedding(Tensor(np.array([[0, 2]], np.int64)), Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))",
                     "ops.gather(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), Tensor(np.array([[0, 2]], np.int64)), 0)"))
_via("F_conv2d", ("F.conv2d(img, k)", "ops.conv2d(img, k)"))
_via("F_conv2d_pad", ("F.conv2d(img, k, Tensor(np.array([0.5], np.float32)), stride=2, padding=1)",
                      "ops.conv2d(img, k, Tensor(np.array([0.5], np.float32)), stride=2, pad_mode='pad', padding=1)"))
_via("F_conv2d_same", ("F.conv2d(img, k, padding='same')", "ops.conv2d(img, k, pad_mode='same')"))
_via("F_conv2d_grad", ("F.conv2d(a, b, padding=1)", "ops.conv2d(a, b, pad_mode='pad', padding=1)"))
_via("F_max_pool2d", ("F.max_pool2d(img, 2)", "ops.max_pool2d(img, 2)"))
_via("F_max_pool2d_indices", ("F.max_pool2d(img, 3, 1, 1, return_indices=True)",
                              "(lambda r: (r[0], r[1]" + _I64 + "))(ops.max_pool2d(img, 3, 1, 1, return_indices=True))"))
_via("F_avg_pool2d", ("F.avg_pool2d(img, 2)", "ops.avg_pool2d(img, 2, 2)"))
_via("F_avg_pool2d_pad", ("F.avg_pool2d(img, 3, 2, 1, count_include_pad=False)",
                          "ops.avg_pool2d(img, 3, 2, 1, count_include_pad=False)"))
_via("F_avg_pool1d", ("F.avg_pool1d(", "ops.avg_pool1d("), (", 2)", ", 2, 2)"))
_via("F_adaptive_avg_pool2d", ("F.adaptive_avg_pool2d(", "ops.adaptive_avg_pool2d("))
_via("F_adaptive_avg_pool1d", ("F.adaptive_avg_pool1d(", "ops.adaptive_avg_pool1d("))
_via("F_interpolate_bilinear", ("F.interpolate(", "ops.interpolate("))
# mint.nn layers
_via("nn_Conv2d", ("mint.nn.Conv2d(2, 3, 3, padding=1)", "nn.Conv2d(2, 3, 3, pad_mode='pad', padding=1, has_bias=True)"))
_via("nn_Conv2d_nobias", ("m = mint.nn.Conv2d(2, 1, 2, stride=2, bias=False)", "m = nn.Conv2d(2, 1, 2, stride=2, pad_mode='valid')"))
_via("nn_BatchNorm2d", ("mint.nn.BatchNorm2d(2)", "nn.BatchNorm2d(2)"))
_via("nn_LayerNorm", ("mint.nn.LayerNorm(3)", "nn.LayerNorm((3,), epsilon=1e-5)"))
_via("nn_Embedding", ("mint.nn.Embedding(4, 2)", "nn.Embedding(4, 2)"))
_via("nn_AdaptiveAvgPool2d", ("mint.nn.AdaptiveAvgPool2d(", "nn.AdaptiveAvgPool2d("))
_via("nn_AvgPool2d", ("mint.nn.AvgPool2d(2, 1)", "nn.AvgPool2d(2, 1)"))
_via("nn_MaxPool2d", ("mint.nn.MaxPool2d(2)", "nn.MaxPool2d(2, 2)"))
_via("nn_ELU", ("mint.nn.ELU(0.5)(x)", "ops.where(x > 0, x, 0.5 * (ops.exp(x) - 1))"))
_via("nn_GELU", ("mint.nn.GELU(approximate='tanh')", "nn.GELU()"))
_via("nn_Mish", ("mint.nn.Mish()", "nn.Mish()"))
_via("nn_SELU", ("mint.nn.SELU()", "nn.SeLU()"))
_via("nn_ReLU6", ("mint.nn.ReLU6()", "nn.ReLU6()"))
_via("nn_LogSigmoid", ("mint.nn.LogSigmoid()", "nn.LogSigmoid()"))
_via("nn_LogSoftmax", ("mint.nn.LogSoftmax(1)", "nn.LogSoftmax(1)"))
_via("nn_MSELoss", ("mint.nn.MSELoss()", "nn.MSELoss()"))
_via("nn_L1Loss", ("mint.nn.L1Loss(reduction='sum')", "nn.L1Loss(reduction='sum')"))
_via("nn_CrossEntropyLoss", ("mint.nn.CrossEntropyLoss()(x, t)", "nn.CrossEntropyLoss()(x, t.astype(ms.int32))"))
_via("nn_CrossEntropyLoss_smooth", ("mint.nn.CrossEntropyLoss(label_smoothing=0.2)(x, t)",
                                    "nn.CrossEntropyLoss(label_smoothing=0.2)(x, t.astype(ms.int32))"))
_via("nn_NLLLoss", ("mint.nn.NLLLoss()(mint.special.log_softmax(x, 1), t)", "nn.NLLLoss()(ops.log_softmax(x, 1), t)"))
_via("nn_KLDivLoss", ("mint.nn.KLDivLoss(reduction='batchmean')(mint.special.log_softmax(x, 1), q)",
                      "ops.kl_div(ops.log_softmax(x, 1), q, reduction='batchmean')"))
OPTIONS = {case: {"why": "the CPU wheel has no kernel for it (or, mint.optim, leaves the parameters unchanged): "
                         "the answer is an equivalent program's, with ops or nn"} for case in VIA}
OPTIONS.update({
    "add_broadcast_error": {"message_parts": ["need to broadcast", "must be 1 or -1 when they are not the same"],
                            "why": "the wheel names mint's primitive AddExt and its input/other; mskernel's mint.add "
                                   "is ops.add's rule, whose text names Add and input1/input2"},
    "cat_error": {"message_parts": ["element rank must be same"],
                  "why": "the wheel prints the shapes as its C++ vectors"},
    "sum_bad_dim": {"message_parts": ["must be in", "but got 2"],
                    "why": "the wheel names mint's primitive SumExt and writes the range half-open; mskernel's "
                           "mint.sum is ops.sum's rule, whose text names ReduceSum and the range closed"},
    "exp_int": {"message_parts": ["must be a type of", "but got Int32"],
                "why": "the wheel's list of accepted dtypes names BFloat16 and complex types mskernel has not"},
    "squeeze_no_dim": {"message": True},
})

# mint.optim: the CPU wheel's optimizers return without changing the parameters (no error); mskernel takes the step,
# computed here by numpy: the loss mean((x @ w.T + b) ** 2), its gradient, and torch's SGD rule (what nn.SGD does)


def _sgd_oracle(lr, momentum=0.0, weight_decay=0.0, nesterov=False, maximize=False):
    return (f"x = np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], np.float64)\n"
            f"w, b = np.ones((2, 3)), np.zeros(2)\nbuf = None\n"
            f"for _ in range(3):\n"
            f"    y = x @ w.T + b\n    loss = (y ** 2).mean()\n    dy = 2 * y / y.size\n"
            f"    g = [dy.T @ x, dy.sum(0)]\n"
            f"    g = [-gi for gi in g] if {maximize} else g\n"
            f"    g = [gi + {weight_decay} * p for gi, p in zip(g, (w, b))]\n"
            f"    if {momentum}:\n"
            f"        buf = g if buf is None else [{momentum} * bi + gi for bi, gi in zip(buf, g)]\n"
            f"        g = [gi + {momentum} * bi for gi, bi in zip(g, buf)] if {nesterov} else buf\n"
            f"    w, b = w - {lr} * g[0], b - {lr} * g[1]\n"
            f"result = (as_tensor(np.float32(loss)), [as_tensor(w.astype(np.float32)), as_tensor(b.astype(np.float32))])")


_WHY_OPTIM = ("MindSpore 2.10's CPU wheel runs mint.optim's step without error but leaves the parameters unchanged; "
              "mskernel takes the SGD step it documents (torch's rule, the same as nn.SGD's)")
OPTIONS.update({
    "optim_SGD": {"differs": _WHY_OPTIM, "oracle": _sgd_oracle(0.1)},
    "optim_SGD_momentum": {"differs": _WHY_OPTIM, "oracle": _sgd_oracle(0.05, momentum=0.9, weight_decay=0.01)},
    "optim_SGD_nesterov": {"differs": _WHY_OPTIM, "oracle": _sgd_oracle(0.05, momentum=0.9, nesterov=True)},
    "optim_SGD_maximize": {"differs": _WHY_OPTIM, "oracle": _sgd_oracle(0.1, maximize=True)},
})

# Where the wheel's float32 kernels are less exact than mskernel's (numpy's), float64 numpy says which is right
_XO = "x = np.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]])\n"
_LOGSM = _XO + "m = x.max(1, keepdims=True)\nresult = as_tensor((x - m - np.log(np.exp(x - m).sum(1, keepdims=True))).astype(np.float32))"
_TANH = _XO + "result = as_tensor(np.tanh(x).astype(np.float32))"
_TANH_GRAD = _XO + "t = np.tanh(x)\nresult = as_tensor(((1 - t * t) * (1 + x) + t).astype(np.float32))"
_MISH_GRAD = (_XO + "t = np.tanh(np.log1p(np.exp(x)))\ns = 1 / (1 + np.exp(-x))\n"
              "result = as_tensor(((t + x * (1 - t * t) * s) * (1 + x) + x * t).astype(np.float32))")
_SELU_GRAD = (_XO + "a, c = 1.6732632423543772, 1.0507009873554805\n"
              "y = np.where(x > 0, c * x, c * a * np.expm1(x))\nd = np.where(x > 0, c, c * a * np.exp(x))\n"
              "result = as_tensor((d * (1 + x) + y).astype(np.float32))")
_WHY_F32 = "MindSpore 2.10's CPU float32 {} is less exact than numpy's, which mskernel uses; float64 numpy decides"
for case, oracle, what in [("tanh", _TANH, "tanh"), ("F_tanh", _TANH, "tanh"), ("nn_Tanh", _TANH, "tanh"),
                           ("tanh_grad", _TANH_GRAD, "tanh"), ("F_tanh_grad", _TANH_GRAD, "tanh"),
                           ("F_log_softmax", _LOGSM, "log_softmax"), ("nn_LogSoftmax", _LOGSM, "log_softmax"),
                           ("special_log_softmax", _LOGSM, "log_softmax"), ("F_mish_grad", _MISH_GRAD, "mish gradient"),
                           ("F_selu_grad", _SELU_GRAD, "selu gradient")]:
    OPTIONS.setdefault(case, {}).update({"differs": _WHY_F32.format(what), "oracle": oracle})
