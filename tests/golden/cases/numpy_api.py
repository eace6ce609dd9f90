"""mindspore.numpy (mnp): creation defaults, math, reductions, shape and linear-algebra functions (mskernel/numpy.py)."""
_M = "import mindspore.numpy as mnp\n"
_EXPRS = {
    "arange_int": "mnp.arange(3)", "arange_float": "mnp.arange(0.0, 1.0, 0.5)", "zeros": "mnp.zeros((2,))",
    "ones_int": "mnp.ones(2, dtype=mnp.int32)", "array_int": "mnp.array([1, 2])", "array_float": "mnp.array([1.0, 2.0])",
    "asarray_dtype": "mnp.asarray([[1, 2]], dtype=mnp.float32)", "full_int": "mnp.full((2,), 3)", "eye": "mnp.eye(2)",
    "linspace": "mnp.linspace(0, 1, 3)", "sum_int_axis": "mnp.sum(mnp.arange(6).reshape(2, 3), axis=1)",
    "mean_keepdims": "mnp.mean(mnp.ones((2, 3)), axis=0, keepdims=True)", "dot_mv": "mnp.dot(mnp.ones((2, 3)), mnp.ones((3,)))",
    "concatenate": "mnp.concatenate((mnp.ones(2), mnp.zeros(1)))", "where": "mnp.where(mnp.array([True, False]), 1.0, 2.0)",
    "exp": "mnp.exp(mnp.array([0.0, 1.0]))", "maximum_scalar": "mnp.maximum(mnp.array([1, 5]), 3)",
    "clip": "mnp.clip(mnp.arange(5), 1, 3)", "argmax": "mnp.argmax(mnp.array([1, 5, 2]))", "std": "mnp.std(mnp.array([1.0, 3.0]))",
    "var_ddof": "mnp.var(mnp.array([1.0, 3.0]), ddof=1)", "cumsum": "mnp.cumsum(mnp.arange(4))",
    "transpose": "mnp.transpose(mnp.ones((2, 3)))", "reshape": "mnp.reshape(mnp.arange(6), (3, 2))",
    "stack": "mnp.stack([mnp.ones(2), mnp.zeros(2)])", "matmul": "mnp.matmul(mnp.ones((2, 3)), mnp.ones((3, 2)))",
    "square": "mnp.square(mnp.array([2.0]))", "amax_axis": "mnp.amax(mnp.array([[1, 2], [3, 0]]), axis=0)",
    "isclose": "mnp.isclose(mnp.array([1.0]), mnp.array([1.0 + 1e-9]))", "abs_int": "mnp.abs(mnp.array([-1, 2]))",
    "log": "mnp.log(mnp.array([1.0]))", "tile": "mnp.tile(mnp.array([1, 2]), 2)", "repeat": "mnp.repeat(mnp.array([1, 2]), 2)",
    "flip": "mnp.flip(mnp.arange(3))", "expand_dims": "mnp.expand_dims(mnp.ones(2), 0).shape",
    "squeeze": "mnp.squeeze(mnp.ones((1, 2))).shape", "ravel": "mnp.ravel(mnp.ones((2, 2))).shape",
    "unique": "mnp.unique(mnp.array([3, 1, 3]))", "dtype_name": "str(mnp.float32)", "pi": "mnp.pi",
    "power": "mnp.power(mnp.array([2.0]), 3)", "sqrt": "mnp.sqrt(mnp.array([4.0]))", "add_scalar": "mnp.add(mnp.ones(2), 1)",
    "divide": "mnp.divide(mnp.ones(2), 2)", "subtract": "mnp.subtract(mnp.ones(2), 2)",
    "grad_through": "ms.grad(lambda a: mnp.sum(mnp.square(a) * 3))(mnp.array([1.0, 2.0]))",
    "top_level_attribute": "ms.numpy.arange(2)",
}
CASES = {k: _M + f"result = {v}" for k, v in _EXPRS.items()}
