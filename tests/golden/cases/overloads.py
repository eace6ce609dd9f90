"""Keyword forms and overloads MindSpore's docstring examples use (found by tests/golden/audit_examples.py):
Tensor.add/sub with alpha, ops.subtract, remainder(divisor=), std(dim, correction), amax/amin with initial and
where, aminmax over every axis, baddbmm of matrices, prelu per channel, the Logit/MatrixInverse/GeLU
primitives' attributes, HSigmoid in float16, Tensor.stride, the internal module paths ops are reached through."""
_X = "x = Tensor(np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32))\n"
_Y = "y = Tensor(np.array([[0.5, 1.5, -2.0], [1.0, -1.0, 2.5]], np.float32))\n"
_W = "w = Tensor(np.array([[True, False, True], [False, True, True]]))\n"
_C = "c = Tensor(np.arange(-6, 6).reshape(2, 3, 2).astype(np.float32))\np = Tensor(np.array([0.1, 0.6, -0.3], np.float32))\n"
CASES = {
    "tensor_add_alpha": _X + _Y + "result = x.add(y, alpha=2.5)",
    "tensor_add_alpha_grad": _X + _Y + "result = ms.grad(lambda a, b: a.add(b, alpha=2.5).sum(), (0, 1))(x, y)",
    "tensor_sub_alpha": _X + _Y + "result = x.sub(y, alpha=0.5)",
    "subtract_alpha": _X + _Y + "result = ops.subtract(x, y, alpha=3)",
    "subtract_alpha_grad": _X + _Y + "result = ms.grad(lambda a, b: ops.subtract(a, b, alpha=3).sum(), (0, 1))(x, y)",
    "tensor_subtract": _X + _Y + "result = x.subtract(y)",
    "remainder_divisor": _X + "result = x.remainder(divisor=4.0)",
    "std_correction": _X + "result = x.std(dim=1, correction=1, keepdim=True)",
    "std_correction_0": _X + "result = x.std(dim=0, correction=0)",
    "std_default": _X + "result = x.std()",
    "std_axis_ddof": _X + "result = x.std(axis=1, ddof=1)",
    "amax_initial": _X + "result = ops.amax(x, 1, initial=4.5)",
    "amax_initial_where": _X + _W + "result = ops.amax(x, 1, keepdims=True, initial=-10.0, where=w)",
    "amin_initial_where": _X + _W + "result = ops.amin(x, 0, initial=0.0, where=w)",
    "amax_where_grad": _X + _W + "result = ms.grad(lambda a: ops.amax(a, 1, initial=-10.0, where=w).sum())(x)",
    "aminmax_none_keepdims": _X + "result = ops.aminmax(x, axis=None, keepdims=True)",
    "aminmax_int": "result = ops.aminmax(Tensor(np.array([[3, 1], [0, 7]], np.int32)), axis=1)",
    "baddbmm_matrices": _X + "result = ops.baddbmm(ops.ones((2, 2)), x, Tensor(np.ones((3, 2), np.float32)), beta=0.5, alpha=2)",
    "baddbmm_matrices_grad": _X + "result = ms.grad(lambda a: ops.baddbmm(ops.ones((2, 2)), a, Tensor(np.ones((3, 2), np.float32))).sum())(x)",
    "prelu_channels": _C + "result = ops.prelu(c, p)",
    "prelu_channels_grad": _C + "result = ms.grad(lambda a, b: ops.prelu(a, b).sum(), (0, 1))(c, p)",
    "prelu_channels_primitive": _C + "result = ops.PReLU()(c, p)",
    "prelu_scalar_weight": _C + "result = ops.prelu(c, Tensor(np.array([0.25], np.float32)))",
    "logit_eps_primitive": "result = ops.Logit(eps=1e-3)(Tensor(np.array([0.0, 0.25, 1.0], np.float32)))",
    "matrix_inverse_adjoint": "result = ops.MatrixInverse(adjoint=True)(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))",
    "gelu_primitive": _X + "result = ops.GeLU()(x)",
    "gelu_primitive_grad": _X + "result = ms.grad(lambda a: ops.GeLU()(a).sum())(x)",
    "hsigmoid_float16": "result = nn.HSigmoid()(Tensor(np.array([-1, -2, 0, 2, 1, 4]), ms.float16))",
    "hardsigmoid_float16": "result = ops.hardsigmoid(Tensor(np.array([-2.5, -0.7, 0.3, 1.9]), ms.float16))",
    "internal_module_paths": _X + "result = (ops.function.math_func.amax_ext(x, dim=1, keepdim=True), ops.auto_generate.select_ext_view(x, 0, 1), "
                                  "ops.functional_overload.any(x > 4.5, dim=1), ops.function.nn_func.softmax_ext(x))",
    "stride": _X + "result = (x.stride(), x.stride(0), x.stride(-1))",
}
OPTIONS = {"gelu_primitive_grad": {"rtol": 1e-5, "atol": 1e-6}}
