"""Elementwise ops of the table (arith.py, unary.py): values, gradients, dtypes, promotion, errors."""
_X = "x = Tensor(np.array([[0.3, -0.7, 1.2], [2.5, -1.9, 0.05]], np.float32))\n"
_P = "x = Tensor(np.array([[0.3, 0.7, 1.2], [2.5, 1.9, 0.05]], np.float32))\n"   # positive
_U = "x = Tensor(np.array([[0.3, -0.7, 0.2], [0.5, -0.9, 0.05]], np.float32))\n"  # inside (-1, 1)
_G = "x = Tensor(np.array([[1.3, 1.7, 2.2], [3.5, 1.9, 1.05]], np.float32))\n"   # above 1
_Y = "y = Tensor(np.array([[1.5, 2.0, -0.5], [0.25, 3.0, -1.5]], np.float32))\n"

UNARY = {
    "neg": _X, "exp": _X, "log": _P, "sqrt": _P, "sin": _X, "cos": _X, "tanh": _X, "sigmoid": _X, "relu": _X,
    "abs": _X, "sign": _X, "square": _X, "tan": _U, "asin": _U, "acos": _U, "atan": _X, "sinh": _X, "cosh": _X,
    "asinh": _X, "acosh": _G, "atanh": _U, "log1p": _P, "expm1": _X, "log2": _P, "log10": _P, "exp2": _X,
    "erf": _X, "erfc": _X, "erfinv": _U, "rsqrt": _P, "reciprocal": _X, "floor": _X, "ceil": _X, "trunc": _X,
    "round": _X, "frac": _X,
}
NO_GRAD = {"sign", "floor", "ceil", "trunc", "round"}
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "remainder", "fmod", "hypot"]
NO_METHOD = {"erfinv", "tan", "exp2", "relu"}
COMPARE = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "eq", "ne", "lt", "le", "gt",
           "ge"]

CASES = {}
for name, data in UNARY.items():
    CASES[f"{name}_value"] = data + f"result = ops.{name}(x)"
    if name not in NO_GRAD:
        CASES[f"{name}_grad"] = data + f"result = ms.grad(lambda a: ops.{name}(a).sum())(x)"
    if name not in NO_METHOD:
        CASES[f"{name}_method"] = data + f"result = x.{name}()"
for name in BINARY:
    base = _P if name in ("pow",) else _X
    CASES[f"{name}_value"] = base + _Y + f"result = ops.{name}(x, y)"
    CASES[f"{name}_grad"] = base + _Y + f"result = ms.grad(lambda a, b: ops.{name}(a, b).sum(), (0, 1))(x, y)"
    CASES[f"{name}_broadcast_grad"] = base + "y = Tensor(np.array([1.5, 2.0, -0.5], np.float32))\n" + \
        f"result = ms.grad(lambda a, b: ops.{name}(a, b).sum(), (0, 1))(x, y)"
for name in COMPARE:
    CASES[f"{name}_value"] = _X + _Y + f"result = ops.{name}(x, y)"
CASES.update({
    "int_plus_float_scalar": "result = Tensor(np.array([1, 2], np.int32)) + 1.5",
    "int32_plus_int64": "result = Tensor(np.array([1, 2], np.int32)) + Tensor(np.array([1, 2], np.int64))",
    "float16_times_float32": "result = Tensor(np.array([1, 2], np.float16)) * Tensor(np.array([3, 4], np.float32))",
    "int_div": "result = Tensor(np.array([1, 3], np.int32)) / 2",
    "int_mod": "x = Tensor(np.array([5, 7], np.int32))\nresult = (x % Tensor(np.array([3, 4], np.int32)), x % 2, 7 % x)",
    "float_mod_negative": "x = Tensor(np.array([-5.5, 7.0], np.float32))\nresult = (x % 3, ops.fmod(x, 3.0))",
    "floordiv": "result = Tensor(np.array([-7, 7], np.int32)) // 2",
    "div_trunc": "result = ops.div(Tensor(np.array([7., -7.], np.float32)), 2.0, rounding_mode='trunc')",
    "div_floor": "result = ops.div(Tensor(np.array([7., -7.], np.float32)), 2.0, rounding_mode='floor')",
    "scalar_tensor_ops": "x = Tensor(2.0, ms.float32)\nresult = (x * 3, 3 - x, x ** 2, 2 ** x)",
    "clamp": _X + "result = (ops.clamp(x, -0.5, 0.5), ops.clip(x, min=0.0), x.clamp(max=1.0))",
    "clamp_grad": _X + "result = ms.grad(lambda a: ops.clamp(a, -0.5, 0.5).sum())(x)",
    "lerp": _X + _Y + "result = ops.lerp(x, y, 0.3)",
    "lerp_grad": _X + _Y + "result = ms.grad(lambda a, b: ops.lerp(a, b, 0.3).sum(), (0, 1))(x, y)",
    "logaddexp": _X + _Y + "result = (ops.logaddexp(x, y), x.logaddexp(y), ops.logaddexp2(x, y), x.logaddexp2(y))",
    "logaddexp_grad": _X + _Y + "result = (ms.grad(lambda a, b: ops.logaddexp(a, b).sum(), (0, 1))(x, y), "
                                "ms.grad(lambda a, b: ops.logaddexp2(a, b).sum(), (0, 1))(x, y))",
    "addcmul": _X + _Y + ("v = Tensor(np.float32(0.5))\nresult = (ops.addcmul(x, y, x, v), ops.Addcmul()(x, y, x, v), "
                          "x.addcmul(y, x, 0.5), ops.addcmul(x, y, x))"),
    "addcmul_grad": _X + _Y + ("v = Tensor(np.array([0.5, 2.0, -1.0], np.float32))\n"
                               "result = ms.grad(lambda a, b, c: ops.addcmul(a, b, a, c).sum(), (0, 1, 2))(x, y, v)"),
    "addcdiv": _X + _Y + ("v = Tensor(np.float32(0.5))\nresult = (ops.addcdiv(x, x, y, v), ops.Addcdiv()(x, x, y, v), "
                          "ops.addcdiv(x, x, y))"),
    "addcdiv_grad": _X + _Y + ("v = Tensor(np.float32(0.5))\nd = ops.abs(y) + 1\n"
                               "result = ms.grad(lambda a, b, c: ops.addcdiv(a, b, c, v).sum(), (0, 1, 2))(x, y, d)"),
    "xlogy": _P + _Y + "result = ops.xlogy(x, ops.abs(y))",
    "isclose": _X + "result = ops.isclose(x, x + 1e-7)",
    "logical": "a = Tensor(np.array([True, False, True]))\nb = Tensor(np.array([True, True, False]))\n"
               "result = (ops.logical_and(a, b), ops.logical_or(a, b), ops.logical_xor(a, b), ops.logical_not(a))",
    "isnan_isinf": "x = Tensor(np.array([1.0, np.nan, np.inf, -np.inf], np.float32))\n"
                   "result = (ops.isnan(x), ops.isinf(x), ops.isfinite(x))",
    "nan_to_num": "x = Tensor(np.array([1.0, np.nan, np.inf, -np.inf], np.float32))\n"
                  "result = ops.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0)",
    "primitive_forms": _X + _Y + "result = (ops.Add()(x, y), ops.Mul()(x, 2.0), ops.RealDiv()(x, y), ops.Exp()(x),"
                       " ops.Greater()(x, y), ops.Maximum()(x, y), ops.Square()(x), ops.Atan2()(x, y))",
    "inplace_add": "x = Tensor(np.array([1.0, 2.0], np.float32))\nr = x.add_(1)\nresult = (r, x)",
    "inplace_mul_grad_nonleaf": "x = Tensor(np.array([1.0, 2.0], np.float32))\n"
                                "def f(a):\n    b = a * 1\n    b.mul_(3)\n    return b.sum()\n"
                                "result = ms.grad(f)(x)",
    "exp_int_error": "result = ops.exp(Tensor(np.array([1, 2], np.int32)))",
    "sqrt_int": "result = ops.sqrt(Tensor(np.array([1, 4], np.int32)))",
    "add_broadcast_error": "result = ops.add(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4,), np.float32)))",
})
OPTIONS = {
    "acosh_grad": {"rtol": 1e-4}, "erfinv_value": {"rtol": 1e-4},
    "inplace_add": {"differs": "MindSpore 2.10's CPU wheel returns the sum and leaves x unchanged; mskernel updates x "
                               "in place, as MindSpore documents add_"},
    "inplace_mul_grad_nonleaf": {"differs": "MindSpore 2.10's CPU wheel gives [1, 1] (the in-place multiply is not "
                                            "seen by autograd when its result is unused); mskernel gives the "
                                            "derivative of the computed value, [3, 3]"},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('add_broadcast_error', {})["message"] = True
OPTIONS.setdefault('exp_int_error', {})["message"] = True

# add_ updates x in place and returns it; the gradient of sum(3 * (a * 1)) by float64 central differences
OPTIONS["inplace_add"]["oracle"] = ("x = Tensor(np.array([1.0, 2.0], np.float32))\nnp.add(x, 1, out=x)\n"
                                    "result = (as_tensor(x), as_tensor(x))")
OPTIONS["inplace_mul_grad_nonleaf"]["oracle"] = ("x = Tensor(np.array([1.0, 2.0], np.float32))\n"
                                                 "def f(a):\n    b = a * 1\n    b *= 3\n    return b.sum()\n"
                                                 "result = as_tensor(numeric_grad(f, x).astype(np.float32))")
