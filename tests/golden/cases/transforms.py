"""Functional transforms (jvp, vjp, jacfwd, jacrev, vmap), hook primitives and composite helpers.

Several cases are MindSpore's own docstring examples (their printed output is compared). Functions are
written with ``def`` because MindSpore compiles jvp/jacfwd/jacrev/vmap and cannot parse a lambda that
shares its line with a call.
"""
_XY = """
x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, 4.0], np.float32))
v = Tensor(np.array([1.0, 1.0], np.float32))
y3 = Tensor(np.array([3.0, 4.0, 5.0], np.float32))
def cube(a):
    return a ** 3
def mul(a, b):
    return a * b
def two_out(a, b):
    return a * b, a + b
def aux2(a, b):
    return a * b, a
def aux3(a, b):
    return a * b, a, b
def sq_and_scaled(a, b):
    return a * a, b.sum() * a
def total(a):
    return (a * a).sum()
"""
_NET = """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    def construct(self, a):
        return a * self.w
net = Net()
"""
_VM = """
x = Tensor(np.arange(6).reshape(3, 2).astype(np.float32))
y = Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
z = Tensor(np.array([0, 3]).astype(np.float32))
def add3(a, b, c):
    return a + b + c
def double(a):
    return a * 2
def two(a):
    return a * 2, a.sum()
def row_sum(a):
    return a.sum()
def pair_mul(t):
    return t[0] * t[1]
def scaled(a, s):
    return a * s
def nested(a):
    return (a, (a * 2, a * 3))
def as_list(a):
    return [a, a * 2]
def make_constant(c):
    def constant(a):
        return c
    return constant
constant = make_constant(z)
def three(a):
    return 3.0
"""
_DOC_JVP = """
class Net(nn.Cell):
    def construct(self, x, y):
        return x**3 + y
x = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
v = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))
output = ops.jvp(Net(), (x, y), (v, v))
print(output[0])
print(output[1])
def fn(x, y):
    return x ** 3 + y, y
output, jvp_out, aux = ops.jvp(fn, (x, y), (v, v), has_aux=True)
print(output)
print(jvp_out)
print(aux)
result = (output, jvp_out, aux)
"""
_DOC_VJP = """
class Net(nn.Cell):
    def construct(self, x, y):
        return x**3 + y
x = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
v = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))
outputs, vjp_fn = ops.vjp(Net(), x, y)
print(outputs)
gradient = vjp_fn(v)
print(gradient)
def fn(x, y):
    return 2 * x + y, y ** 3
outputs, vjp_fn, aux = ops.vjp(fn, x, y, has_aux=True)
gradient = vjp_fn(v)
print(outputs)
print(aux)
print(gradient)
result = (outputs, aux, gradient)
"""
_DOC_JAC = """
class MultipleInputsMultipleOutputsNet(nn.Cell):
    def construct(self, x, y, z):
        return x ** 2 + y ** 2 + z ** 2, x * y * z
x = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
y = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
z = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))
net = MultipleInputsMultipleOutputsNet()
jac, aux = ops.{J}(net, grad_position=0, has_aux=True)(x, y, z)
print(jac)
print(aux)
result = (jac, aux)
"""
_DOC_HOOK = """
def hook_fn(grad):
    print(grad)
hook = ops.HookBackward(hook_fn)
def hook_test(x, y):
    z = x * y
    z = hook(z)
    z = z * y
    return z
grad_all = ops.GradOperation(get_all=True)
def backward(x, y):
    return grad_all(hook_test)(x, y)
output = backward(Tensor(1, ms.float32), Tensor(2, ms.float32))
print(output)
result = output
"""
_DOC_IGO = """
from mindspore import jit
def InsertGradientOfClipDemo():
    a = Tensor(np.array([1.0]).astype(np.float32))
    b = Tensor(np.array([0.2]).astype(np.float32))
    def clip_gradient(dx):
        ret = dx
        if ret > a:
            ret = a
        if ret < b:
            ret = b
        return ret
    clip = ops.InsertGradientOf(clip_gradient)
    grad_all = ops.GradOperation(get_all=True)
    def clip_test(x, y):
        x = clip(x)
        y = clip(y)
        c = x * y
        return c
    @jit
    def f(x, y):
        return clip_test(x, y)
    def fd(x, y):
        return grad_all(clip_test)(x, y)
    print("forward: ", f(Tensor(np.array([1.1]).astype(np.float32)), Tensor(np.array([0.1]).astype(np.float32))))
    print("clip_gradient:", fd(Tensor(np.array([1.1]).astype(np.float32)),
                                Tensor(np.array([0.1]).astype(np.float32))))
    return fd(Tensor(np.array([1.1]).astype(np.float32)), Tensor(np.array([0.1]).astype(np.float32)))
result = InsertGradientOfClipDemo()
"""
_DOC_MFG = """
from mindspore import dtype as mstype
tensor_add = ops.Add()
add = ops.MultitypeFuncGraph('add')
@add.register("Number", "Number")
def add_scala(x, y):
    return x + y
@add.register("Tensor", "Tensor")
def add_tensor(x, y):
    return tensor_add(x, y)
output = add(1, 2)
print(output)
output2 = add(Tensor([0.1, 0.6, 1.2], dtype=mstype.float32), Tensor([0.1, 0.6, 1.2], dtype=mstype.float32))
print(output2)
result = (output, output2)
"""
_DOC_HYPERMAP = """
from mindspore import dtype as mstype
nest_tensor_list = ((Tensor(1, mstype.float32), Tensor(2, mstype.float32)),
                    (Tensor(3, mstype.float32), Tensor(4, mstype.float32)))
square = ops.MultitypeFuncGraph('square')
@square.register("Tensor")
def square_tensor(x):
    return ops.square(x)
common_map = ops.HyperMap()
output = common_map(square, nest_tensor_list)
print(output)
square_map = ops.HyperMap(square, False)
output = square_map(nest_tensor_list)
print(output)
result = output
"""
_DOC_MAP = """
from mindspore import dtype as mstype
from mindspore.ops import MultitypeFuncGraph, Map
tensor_list = (Tensor(1, mstype.float32), Tensor(2, mstype.float32), Tensor(3, mstype.float32))
square = MultitypeFuncGraph('square')
@square.register("Tensor")
def square_tensor(x):
    return ops.square(x)
common_map = Map()
output = common_map(square, tensor_list)
print(output)
square_map = Map(square, False)
output = square_map(tensor_list)
print(output)
result = output
"""
_MFG = """
from mindspore.ops import composite as C
f = C.MultitypeFuncGraph("f")
@f.register("Bool")
def _b(x):
    return "bool"
@f.register("Int")
def _i(x):
    return "int"
@f.register("Float")
def _fl(x):
    return "float"
@f.register("Tensor")
def _t(x):
    return "tensor"
@f.register("Tuple")
def _tu(x):
    return "tuple"
@f.register("List")
def _l(x):
    return "list"
@f.register("String")
def _s(x):
    return "string"
@f.register("None")
def _n(x):
    return "none"
@f.register("Function")
def _fn(x):
    return "function"
"""
_FIRST = """
def first_line(call):
    try:
        return call()
    except Exception as e:
        return (type(e).__name__, str(e).split("\\n")[0])
"""
CASES = {
    # jvp
    "jvp_single": _XY + "result = ops.jvp(cube, x, v)",
    "jvp_two_inputs_list": _XY + "result = ops.jvp(mul, [x, y], [v, v])",
    "jvp_two_outputs": _XY + "result = ops.jvp(two_out, (x, y), (v, v))",
    "jvp_has_aux_two": _XY + "result = ops.jvp(aux2, (x, y), (v, v), has_aux=True)",
    "jvp_has_aux_three": _XY + "result = ops.jvp(aux3, (x, y), (v, v), has_aux=True)",
    "jvp_scalar_output": _XY + "result = ops.jvp(total, x, v)",
    "jvp_length_error": _XY + _FIRST + "result = first_line(lambda: ops.jvp(mul, (x, y), (v,)))",
    "jvp_type_error": _XY + _FIRST + "result = first_line(lambda: ops.jvp(mul, 1.0, v))",
    "jvp_has_aux_type_error": _XY + _FIRST + "result = first_line(lambda: ops.jvp(cube, x, v, has_aux=1))",
    "jvp_docstring": _DOC_JVP,
    # vjp
    "vjp_single": _XY + "out, fn = ops.vjp(cube, x)\nresult = (out, fn(v))",
    "vjp_two_inputs": _XY + "result = ops.vjp(mul, x, y)[1](v)",
    "vjp_two_outputs": _XY + "result = ops.vjp(two_out, x, y)[1](v, v)",
    "vjp_two_outputs_tuple_v": _XY + "result = ops.vjp(two_out, x, y)[1]((v, v))",
    "vjp_has_aux_two": _XY + "out, fn, aux = ops.vjp(aux2, x, y, has_aux=True)\nresult = (out, aux, fn(v))",
    "vjp_has_aux_three": _XY + "out, fn, aux = ops.vjp(aux3, x, y, has_aux=True)\nresult = (out, aux, fn(v))",
    "vjp_has_aux_error": _XY + _FIRST + "result = first_line(lambda: ops.vjp(mul, x, y, has_aux=True))",
    "vjp_weights": _XY + _NET + "result = ops.vjp(net, x, weights=net.trainable_params())[1](v)",
    "vjp_single_weight": _XY + _NET + "result = ops.vjp(net, x, weights=net.w)[1](v)",
    "vjp_called_twice": _XY + "out, fn = ops.vjp(cube, x)\nresult = (fn(v), fn(v * 2))",
    "vjp_input_type_error": _XY + _FIRST + "result = first_line(lambda: ops.vjp(cube, 1.0))",
    "vjp_docstring": _DOC_VJP,
    # jacobians
    "jacfwd_single": _XY + "result = ops.jacfwd(cube)(x)",
    "jacrev_single": _XY + "result = ops.jacrev(cube)(x)",
    "jacfwd_two_positions": _XY + "result = ops.jacfwd(sq_and_scaled, (0, 1))(x, y3)",
    "jacrev_two_positions": _XY + "result = ops.jacrev(sq_and_scaled, (0, 1))(x, y3)",
    "jacrev_two_outputs": _XY + "result = ops.jacrev(sq_and_scaled)(x, y3)",
    "jacfwd_position_tuple_of_one": _XY + "result = ops.jacfwd(sq_and_scaled, (1,))(x, y3)",
    "jacrev_scalar_output": _XY + "result = ops.jacrev(total)(x)",
    "jacfwd_has_aux_three": _XY + "result = ops.jacfwd(aux3, 0, True)(x, y)",
    "jacrev_2d": "a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))\n"
                 "def f(t):\n    return t ** 2\nresult = ops.jacrev(f)(a)",
    "jacrev_position_error": _XY + _FIRST + "result = first_line(lambda: ops.jacrev(mul, 2)(x, y))",
    "jacfwd_position_type_error": _XY + _FIRST + "result = first_line(lambda: ops.jacfwd(mul, 1.0)(x, y))",
    "jacrev_negative_position": _XY + _FIRST + "result = first_line(lambda: ops.jacrev(mul, -1)(x, y))",
    "jacfwd_docstring": _DOC_JAC.replace("{J}", "jacfwd"),
    "jacrev_docstring": _DOC_JAC.replace("{J}", "jacrev"),
    # vmap
    "vmap_docstring": _VM + "output = ops.vmap(add3, in_axes=(0, 1, None), out_axes=1)(x, y, z)\nprint(output)\n"
                            "result = output",
    "vmap_default": _VM + "result = ops.vmap(double)(x)",
    "vmap_two_outputs": _VM + "result = ops.vmap(two)(x)",
    "vmap_two_outputs_out_axes": _VM + "result = ops.vmap(two, out_axes=(1, 0))(x)",
    "vmap_in_axes_1": _VM + "result = ops.vmap(row_sum, in_axes=1)(x)",
    "vmap_in_axes_negative": _VM + "result = ops.vmap(row_sum, in_axes=-1)(x)",
    "vmap_out_axes_negative": _VM + "result = ops.vmap(double, out_axes=-1)(x)",
    "vmap_nested_in_axes": _VM + "result = ops.vmap(pair_mul, in_axes=((0, None),))((x, z))",
    "vmap_nested_input": _VM + "result = ops.vmap(pair_mul)((x, x))",
    "vmap_scalar_argument": _VM + "result = ops.vmap(scaled, in_axes=(0, None))(x, 2.0)",
    "vmap_nested_output": _VM + "result = ops.vmap(nested)(x)",
    "vmap_list_output": _VM + "result = ops.vmap(as_list)(x)",
    "vmap_constant_output": _VM + "result = ops.vmap(constant)(x)",
    "vmap_python_scalar_output": _VM + "result = ops.vmap(three)(x)",
    "vmap_list_in_axes": _VM + "result = ops.vmap(add3, in_axes=[0, 1, None], out_axes=1)(x, y, z)",
    "vmap_cell": _VM + "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
                       "        self.w = ms.Parameter(Tensor(np.array([1.0, -1.0], np.float32)), name='w')\n"
                       "    def construct(self, a):\n        return (a * self.w).sum()\nresult = ops.vmap(Net())(x)",
    "vmap_grad_through": _VM + "def loss(a):\n    return ops.vmap(row_sum)(a * a).sum()\nresult = ms.grad(loss)(x)",
    "vmap_int_input": _VM + "result = ops.vmap(double)(Tensor(np.arange(6).reshape(3, 2)))",
    "vmap_in_axes_none_error": _VM + _FIRST + "result = first_line(lambda: ops.vmap(double, in_axes=None)(x))",
    "vmap_out_axes_none_error": _VM + _FIRST + "result = first_line(lambda: ops.vmap(constant, out_axes=None)(x))",
    "vmap_all_none_error": _VM + _FIRST + "result = first_line("
                           "lambda: ops.vmap(add3, in_axes=(None, None, None))(x, y, z))",
    "vmap_size_error": _VM + _FIRST + "result = first_line(lambda: ops.vmap(add3, in_axes=(0, 0, 0))(x, y, z))",
    "vmap_in_axes_length_error": _VM + _FIRST + "result = first_line(lambda: ops.vmap(add3, in_axes=(0, 0))(x, y, z))",
    "vmap_axis_out_of_bounds": _VM + _FIRST + "result = first_line(lambda: ops.vmap(double, in_axes=2)(x))",
    "vmap_out_axis_out_of_bounds": _VM + _FIRST + "result = first_line(lambda: ops.vmap(double, out_axes=3)(x))",
    "vmap_out_axes_length_error": _VM + _FIRST + "result = first_line(lambda: ops.vmap(two, out_axes=(0, 0, 0))(x))",
    "vmap_batched_output_none_axis": _VM + _FIRST + "result = first_line("
                                     "lambda: ops.vmap(nested, out_axes=(0, (1, None)))(x))",
    # hooks and helpers
    "hook_backward_docstring": _DOC_HOOK,
    "hook_backward_returns_tensor": "def h(g):\n    return g[0] * 10\nhook = ops.HookBackward(h)\n"
                                    "def f(x):\n    return hook(x * 2) * 3\nresult = ms.grad(f)(Tensor(1.0))",
    "hook_backward_two_inputs": "def h(g):\n    print(len(g))\n    return (g[0] * 2, g[1] * 3)\n"
                                "hook = ops.HookBackward(h)\ndef f(x, y):\n    a, b = hook(x * 2, y * 3)\n"
                                "    return a * b\nresult = ms.grad(f, (0, 1))(Tensor(1.0), Tensor(2.0))",
    "hook_backward_forward_values": "hook = ops.HookBackward(print)\n"
                                    "result = (hook(Tensor(1.0)), hook(Tensor(1.0), Tensor(2.0)), repr(hook))",
    "hook_backward_bad_return": _FIRST + "def h5(g):\n    return 5\ndef f(x):\n"
                                "    return ops.HookBackward(h5)(x * 2) * 3\n"
                                "result = first_line(lambda: ms.grad(f)(Tensor(1.0)))",
    "hook_backward_not_callable": _FIRST + "result = first_line(lambda: ops.HookBackward(3))",
    "hook_backward_non_tensor_input": "def h(g):\n    return g\nresult = ops.HookBackward(h)(1.0)",
    "insert_gradient_of_docstring": _DOC_IGO,
    "insert_gradient_of_prints": "def pr(dx):\n    print('got', dx)\n    return dx * 2\n"
                                 "def f(x):\n    return ops.InsertGradientOf(pr)(x * 3) * 4\n"
                                 "result = ms.grad(f)(Tensor(np.array([1.0, 2.0], np.float32)))",
    "insert_gradient_of_non_tensor": "def pr(dx):\n    return dx\nresult = ops.InsertGradientOf(pr)(3.0)",
    "insert_gradient_of_two_inputs": _FIRST + "def pr(dx):\n    return dx\n"
                                     "result = first_line(lambda: ops.InsertGradientOf(pr)(Tensor(1.0), Tensor(2.0)))",
    "depend_value": "result = (ops.depend(Tensor([1.0]), Tensor([2.0])), ops.depend((Tensor([1.0]), 2), 3), "
                    "ops.Depend()(Tensor([1.0]), Tensor([2.0])), repr(ops.Depend()))",
    "depend_gradient": "def f(x, y):\n    return ops.depend(x * 2, y * 3).sum()\n"
                       "result = ms.grad(f, (0, 1))(Tensor([1.0]), Tensor([2.0]))",
    "partial": "def add(a, b):\n    return a + b\n"
               "result = (ops.partial(add, Tensor(1.0))(Tensor(2.0)), ops.Partial()(add, Tensor(1.0))(Tensor(2.0)))",
    "multitype_docstring": _DOC_MFG,
    "multitype_dispatch": _MFG + "result = [f(v) for v in (True, 1, 1.5, np.float32(2), Tensor([1.0]), "
                                 "ms.Parameter(Tensor([1.0]), name='p'), (1,), [1], 's', None, ops.Add())]",
    "multitype_two_args": "k = ops.MultitypeFuncGraph('k')\n@k.register('Tensor', 'Tuple')\ndef _a(x, t):\n"
                          "    return 'TT'\n@k.register('Tensor', 'List')\ndef _b(x, t):\n    return 'TL'\n"
                          "@k.register('None', 'Number')\ndef _c(x, t):\n    return 'NN'\n"
                          "result = (k(Tensor(1.0), (1,)), k(Tensor(1.0), [1]), k(None, 2))",
    "multitype_single_registration": "g = ops.MultitypeFuncGraph('g')\n@g.register('Number')\ndef _g(x):\n"
                                     "    return ('only', x)\nresult = (g('str'), g(Tensor(1.0)))",
    "multitype_typed_tensor": "t = ops.MultitypeFuncGraph('t')\n@t.register('Tensor[Float32]')\ndef _a(x):\n"
                              "    return 'f32'\n@t.register('Tensor')\ndef _b(x):\n    return 'other'\n"
                              "result = (t(Tensor([1.0])), t(Tensor([1])), t(Tensor(np.array([1.0]))))",
    "multitype_no_match": _MFG + "result = f(1, 2)",
    "multitype_ndarray_error": _MFG + _FIRST + "result = first_line(lambda: f(np.ones(2)))",
    "multitype_bad_type_name": _MFG + _FIRST + "result = first_line(lambda: f.register('Bogus')(len))",
    "hypermap_docstring": _DOC_HYPERMAP,
    "hypermap_function_first": "def sq(x):\n    return x * x\nresult = ops.HyperMap()(sq, (1, 2))",
    "hypermap_nested_two": "def add(a, b):\n    return a + b\n"
                           "result = ops.HyperMap()(add, [1, [2, 3]], [10, [20, 30]])",
    "hypermap_plain_function_error": "def sq(x):\n    return x * x\nresult = ops.HyperMap(sq)((1, 2))",
    "map_docstring": _DOC_MAP,
    "map_function_first": "def add(a, b):\n    return a + b\nresult = ops.Map()(add, (1, 2), (3, 4))",
    "map_plain_function_error": "def sq(x):\n    return x * x\nresult = ops.Map(sq)((1, 2))",
    "composite_module_names": "from mindspore.ops import composite as C\n"
                              "result = [hasattr(C, n) for n in ('GradOperation', 'HyperMap', 'Map', "
                              "'MultitypeFuncGraph')]",
}
OPTIONS = {
    "jvp_docstring": {"stdout": True}, "vjp_docstring": {"stdout": True},
    "jacfwd_docstring": {"stdout": True}, "jacrev_docstring": {"stdout": True},
    "vmap_docstring": {"stdout": True},
    "hook_backward_docstring": {"stdout": True}, "hook_backward_two_inputs": {"stdout": True},
    "insert_gradient_of_docstring": {"stdout": True}, "insert_gradient_of_prints": {"stdout": True},
    "multitype_docstring": {"stdout": True},
    "hypermap_docstring": {"stdout": True}, "map_docstring": {"stdout": True},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('hook_backward_non_tensor_input', {})["message"] = True
OPTIONS.setdefault('hypermap_plain_function_error', {}).update(message_parts=[
    'function',
    'MultitypeFuncGraph'],
    why="the wheel's text is pybind11's cast failure naming a C++ type (std::shared_ptr<mindspore::prim::MultitypeFuncGraph>)")
OPTIONS.setdefault('map_plain_function_error', {}).update(message_parts=[
    'function',
    'MultitypeFuncGraph'],
    why="the wheel's text is pybind11's list of C++ constructor overloads with the function's address")
OPTIONS.setdefault('multitype_no_match', {}).update(message_parts=[
    "For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, fn): [((mindspore.bool,), <function _b at 0x",
    '((mindspore.function,), <function _fn at 0x',
    ')], and (dtype, args): (mindspore.int64, mindspore.int64).'],
    why="the wheel's text holds the functions' addresses, different in every run")
