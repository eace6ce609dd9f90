"""Module paths, Tensor construction and printing, and other front-end names real files use."""
CASES = {
    "tensor_type_name": "t = Tensor(np.array([1.0], np.float32))\n"
                        "result = type(t).__module__.split('.', 1)[1] + '.' + type(t).__name__",
    "tensor_factory": "result = ms.tensor([1, 2], ms.float32)",
    "tensor_factory_int": "result = ms.tensor([1, 2])",
    "from_numpy_shares": "a = np.array([1.0, 2.0], np.float32)\nt = Tensor.from_numpy(a)\na[0] = 5\nresult = t",
    "lazy_init_prints_uninitialized": "from mindspore.common.initializer import One\n"
                                      "t = Tensor(shape=(2, 2), dtype=ms.float32, init=One())\nprint(t)\n"
                                      "result = t.init_data()",
    "common_tensor_path": "from mindspore.common.tensor import Tensor as T\nresult = T([1.0, 2.0])",
    "common_parameter_path": "from mindspore.common.parameter import Parameter, ParameterTuple\n"
                             "p = Parameter(Tensor(np.array([1.0], np.float32)), name='w')\n"
                             "result = (p.name, len(ParameterTuple([p])))",
    "operations_as_P": "from mindspore.ops import operations as P\nresult = P.Mul()(Tensor([2.0]), Tensor([3.0]))",
    "functional_as_F": "from mindspore.ops import functional as F\nresult = F.mul(Tensor([2.0]), 4)",
    "composite_gradoperation": "from mindspore.ops import composite as C\n"
                               "result = C.GradOperation()(lambda x: x * x)(Tensor(3.0, ms.float32))",
    "extends_cell_attr_register": "from mindspore._extends import cell_attr_register\n"
                                  "class N(nn.Cell):\n    @cell_attr_register\n    def __init__(self, k):\n"
                                  "        super().__init__()\n        self.k = k\nresult = N(3).cell_init_args",
    "set_seed": "ms.set_seed(3)\nresult = ms.get_seed()",
    "mod_between_tensors": "result = Tensor(np.array([5.0, 7.0], np.float32)) % Tensor(np.array([3.0, 4.0], np.float32))",
    "ops_gt": "result = ops.gt(Tensor([1.0, 3.0]), 2.0)",
    "assign": "p = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='p')\n"
              "r = ops.assign(p, Tensor(np.array([3.0, 4.0], np.float32)))\nresult = (r, p.asnumpy())",
    "assign_add": "p = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='p')\n"
                  "r = ops.AssignAdd()(p, Tensor(np.array([1.0, 1.0], np.float32)))\nresult = (r, p.asnumpy())",
    "assign_shape_error": "p = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='p')\n"
                          "result = ops.assign(p, Tensor(np.array([5.0, 5.0, 5.0], np.float32)))",
    "print_tensor_repr": "print(repr(Tensor(np.array([[1.5, 2.25], [3.0, 4.0]], np.float64))))\nresult = None",
    "print_scalar": "x = Tensor(2.0, ms.float32)\nprint(x, repr(x))\nresult = None",
    "print_parameter": "print(ms.Parameter(Tensor(2.0, ms.float32), name='w'))\nresult = None",
    "dtype_names": "result = (str(ms.float32), str(ms.int64), str(ms.bool_), repr(ms.float32))",
}
OPTIONS = {
    "lazy_init_prints_uninitialized": {"stdout": True},
    "print_tensor_repr": {"stdout": True},
    "print_scalar": {"stdout": True},
    "print_parameter": {"stdout": True},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('assign_shape_error', {})["message"] = True
