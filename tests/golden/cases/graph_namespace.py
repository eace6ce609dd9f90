"""mindspore.graph (op wrappers and infer functions inside jit, custom pass/backend registration) and the
deprecated ops.MapCacheIdx primitive (embedding-cache lookup with an in-place hashmap update)."""
# a hashmap of (key, value, step, tag) rows, built by inserting keys as the cache does (linear probing from
# the golden-ratio hash); the case then looks indices up in it
_BUILD = '''import math
def build(n, keys, steps, dt=np.int32):
    rows = np.zeros((n, 4), np.int64)
    for v, (k, s) in enumerate(zip(keys, steps)):
        slot, dist = int((0.6180339 * k - math.floor(0.6180339 * k)) * n), 1
        while rows[slot, 3] != 0:
            slot, dist = (slot + 1) % n, dist + 1
        rows[slot] = [k, v, s, dist]
    return Tensor(rows.astype(dt))
def lookup(table, idx, step, emb_max_num=40, offset=0, dt=np.int32):
    st = Tensor(np.array([step], dt))
    out = ops.MapCacheIdx()(table, Tensor(np.array(idx, dt)), st, emb_max_num, offset)
    return (out, table, st)
'''
_MAP = {
    "map_cache_idx_hits_and_misses": "t = build(16, [3, 11, 19, 27, 35, 4, 12], [0, -5, -5, 1, -5, -5, -5])\nresult = lookup(t, [3, 11, 8, 9, 27, 50, -1], 2)",
    "map_cache_idx_int64": "t = build(12, [1, 2, 3, 5, 8, 13, 21], [-5] * 7, np.int64)\nresult = lookup(t, [13, 4, 6, 21, 30], 0, 25, 0, np.int64)",
    "map_cache_idx_offset": "t = build(10, [0, 4, 9, 14, 22], [-5, -5, 0, -5, -5])\nresult = lookup(t, [102, 109, 105, 130, 99], 1, 30, 100)",
    "map_cache_idx_int16": "t = build(8, [1, 6, 7, 30], [-5] * 4, np.int16)\nresult = lookup(t, [6, 2], 0, 40, 0, np.int16)",
    "map_cache_idx_2d_indices": "t = build(16, list(range(0, 40, 3)), [-5] * 14)\nresult = lookup(t, [[0, 1, 2], [3, 4, 6]], 0)",
    "map_cache_idx_duplicate_misses": "t = build(12, [10, 20, 30, 31, 32, 33], [-5] * 6)\nresult = lookup(t, [7, 7, 10, 8], 3)",
    "map_cache_idx_all_out_of_range": "t = build(6, [1, 2], [-5, -5])\nresult = lookup(t, [40, 41, -3], 0)",
    "map_cache_idx_chain_compress": "t = build(8, [1, 9, 4, 17, 12], [-5, -5, -5, -5, 5])\nresult = lookup(t, [5, 13], 5)",
    "map_cache_idx_twice": "t = build(12, list(range(9)), [-5] * 9)\na = lookup(t, [20, 21], 0)\nresult = (a, lookup(t, [20, 22, 0], 1))",
    "map_cache_idx_step_tensor_scalars": "t = build(8, [1, 2, 3], [-5] * 3)\nst = Tensor(np.array([4], np.int32))\nout = ops.MapCacheIdx()(t, Tensor(np.array([5, 1], np.int32)), st, Tensor(np.array(10, np.int32)), Tensor(np.array(0, np.int32)))\nresult = (out, t, st)",
    "map_cache_idx_parameter": "t = ms.Parameter(build(8, [1, 2, 3], [-5] * 3), name='hashmap')\nout = ops.MapCacheIdx()(t, Tensor(np.array([6], np.int32)), Tensor(np.array([0], np.int32)), 10, 0)\nresult = (out, t.value())",
    "map_cache_idx_int64_table_int32_step": "t = build(8, [1, 2, 3], [-5] * 3, np.int64)\nst = Tensor(np.array([0], np.int32))\nout = ops.MapCacheIdx()(t, Tensor(np.array([6, 1], np.int64)), st, 10, 0)\nresult = (out, t, st)",
    "map_cache_idx_delete_fails": "t = build(4, [1, 2], [0, 0])\nresult = lookup(t, [9], 1)",
    "map_cache_idx_delete_fails_in_place": "t = build(4, [1, 2, 3], [-5, -5, -5])\ntry:\n    lookup(t, [5, 6, 7], 1)\nexcept RuntimeError:\n    pass\nresult = t",
    "map_cache_idx_search_fails": "t = build(4, [5, 2, 7, 3], [9] * 4)\nresult = lookup(t, [0, 1], 0, 10)",
    "map_cache_idx_four_inputs": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10)",
    "map_cache_idx_six_inputs": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10, 0, 1)",
    "map_cache_idx_rank": "result = ops.MapCacheIdx()(Tensor(np.zeros((3, 4, 4), np.int32)), Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int32)), 10, 0)",
    "map_cache_idx_dtype_mismatch": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int64)), Tensor(np.array([0], np.int32)), 10, 0)",
    "map_cache_idx_step_dtype_mismatch": "t = build(4, [1], [0])\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.int32)), Tensor(np.array([0], np.int64)), 10, 0)",
    "map_cache_idx_uint8": "t = build(4, [1], [0], np.uint8)\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.uint8)), Tensor(np.array([0], np.uint8)), 10, 0)",
    "map_cache_idx_float": "t = build(4, [1], [0], np.float32)\nresult = ops.MapCacheIdx()(t, Tensor(np.array([1], np.float32)), Tensor(np.array([0], np.float32)), 10, 0)",
}
CASES = {name: _BUILD + src for name, src in _MAP.items()}
OPTIONS = {name: {"message": True} for name in (
    "map_cache_idx_delete_fails", "map_cache_idx_search_fails", "map_cache_idx_four_inputs",
    "map_cache_idx_six_inputs", "map_cache_idx_rank", "map_cache_idx_dtype_mismatch",
    "map_cache_idx_step_dtype_mismatch", "map_cache_idx_uint8", "map_cache_idx_float")}

# mindspore.graph: every case starts and ends with no wrapper or infer function registered (the suite runs in one
# process). The wheel calls a wrapper once per compilation with abstract tensors, and infer functions twice per
# compilation; mskernel calls them per primitive call with the arguments: so the cases record what the functions
# saw by assignment (a dict), not by printing or appending.
_G = '''from mindspore.graph import register_op_wrapper, register_op_infer, clear_op_wrapper, clear_op_infer
from mindspore import jit
clear_op_wrapper(); clear_op_infer()
x = Tensor(np.array([1.0, 2.0], np.float32)); y = Tensor(np.array([10.0, 20.0], np.float32))
seen = {}
def twice_y(a, b):
    seen['wrapper_args'] = (type(a).__name__, tuple(a.shape), tuple(b.shape))
    def func(p, q):
        return p + 2 * q
    return func
def _case(ms, ops, nn, np, Tensor, jit, register_op_wrapper, register_op_infer, clear_op_wrapper, clear_op_infer,
          x, y, seen, twice_y):
'''
# the body runs in a function whose parameters the jit functions close over: the wheel's compiler resolves a
# global name in the module of the harness, not in the case's namespace
_END = (
    "    return locals().get('result')\n"
    "try:\n"
    "    result = _case(ms, ops, nn, np, Tensor, jit, register_op_wrapper, register_op_infer, clear_op_wrapper,\n"
    "                   clear_op_infer, x, y, seen, twice_y)\n"
    "finally:\n"
    "    clear_op_wrapper(); clear_op_infer(); ms.set_context(mode=ms.PYNATIVE_MODE)\n")


def _g(body: str) -> str:
    return _G + "".join("    " + line + "\n" for line in body.strip("\n").split("\n")) + _END


_INFER_NET = '''class MyNet(nn.Cell):
    @jit
    def construct(self, a, b):
        z = ops.Add()(a, b)
        return ops.Mul()(z, a)
@register_op_infer("Add", "layout")
def infer_add_layout(a, b):
    return a.shape + b.shape
@register_op_infer("Mul", "layout")
def infer_mul_layout(a, b):
    seen['mul_sees'] = a.layout
    try:
        b.layout
    except AttributeError as e:
        seen['mul_y'] = str(e)
'''
_GRAPH = {
    "wrapper_cell_jit": "register_op_wrapper('Add')(twice_y)\nclass Net(nn.Cell):\n    @jit\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nresult = (Net()(x, y), seen)",
    "wrapper_not_in_pynative": "register_op_wrapper('Add')(twice_y)\nresult = (ops.Add()(x, y), seen)",
    "wrapper_cell_without_jit": "register_op_wrapper('Add')(twice_y)\nclass Net(nn.Cell):\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nresult = Net()(x, y)",
    "wrapper_jit_function": "register_op_wrapper('Add')(twice_y)\n@jit\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = (f(x, y), seen)",
    "wrapper_functional_add_in_jit": "register_op_wrapper('Add')(twice_y)\n@jit\ndef f(a, b):\n    return ops.add(a, b)\nresult = f(x, y)",
    "wrapper_tensor_plus_in_jit": "register_op_wrapper('Add')(twice_y)\n@jit\ndef f(a, b):\n    return a + b\nresult = f(x, y)",
    "wrapper_graph_mode_cell": "register_op_wrapper('Add')(twice_y)\nclass Net(nn.Cell):\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nms.set_context(mode=ms.GRAPH_MODE)\nresult = Net()(x, y)",
    "wrapper_jit_called_from_plain": "register_op_wrapper('Add')(twice_y)\n@jit\ndef inner(a, b):\n    return ops.Add()(a, b)\ndef outer(a, b):\n    return inner(a, b) * 1\nresult = outer(x, y)",
    "wrapper_nested_jit": "register_op_wrapper('Add')(twice_y)\n@jit\ndef inner(a, b):\n    return ops.Add()(a, b)\n@jit\ndef outer(a, b):\n    return inner(a, b) * 1\nresult = outer(x, y)",
    "wrapper_plain_called_from_jit": "register_op_wrapper('Add')(twice_y)\ndef plain(a, b):\n    return ops.Add()(a, b)\n@jit\ndef f(a, b):\n    return plain(a, b)\nresult = f(x, y)",
    "wrapper_jit_cell_instance": "register_op_wrapper('Add')(twice_y)\nclass Net(nn.Cell):\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nresult = jit(Net())(x, y)",
    "wrapper_capture_bytecode": "register_op_wrapper('Add')(twice_y)\n@jit(capture_mode='bytecode')\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_capture_trace": "register_op_wrapper('Add')(twice_y)\n@jit(capture_mode='trace')\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_jit_level_o1": "register_op_wrapper('Add')(twice_y)\n@jit(jit_level='O1')\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_sub_cell_of_jit_cell": "register_op_wrapper('Add')(twice_y)\nclass Inner(nn.Cell):\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nclass Outer(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.inner = Inner()\n    @jit\n    def construct(self, a, b):\n        return self.inner(a, b)\nresult = Outer()(x, y)",
    "wrapper_grad": "register_op_wrapper('Add')(twice_y)\nclass Net(nn.Cell):\n    @jit\n    def construct(self, a, b):\n        return ops.Add()(a, b)\nresult = ms.grad(Net(), grad_position=(0, 1))(x, y)",
    "wrapper_scalar_argument": "def w(a, b):\n    def func(p, q):\n        return p + 2 * q\n    return func\nregister_op_wrapper('Add')(w)\n@jit\ndef f(a):\n    return ops.Add()(a, 3.0)\nresult = f(x)",
    "wrapper_two_calls": "register_op_wrapper('Add')(twice_y)\n@jit\ndef f(a, b):\n    return ops.Add()(a, b), ops.Add()(b, b)\nresult = f(x, y)",
    "wrapper_sub_and_mul": "def w1(a, b):\n    def func(p, q):\n        return p * q\n    return func\ndef w2(a, b):\n    def func(p, q):\n        return p - q\n    return func\nregister_op_wrapper('Sub')(w1)\nregister_op_wrapper('Mul')(w2)\n@jit\ndef f(a, b):\n    return ops.Sub()(a, b), ops.Mul()(a, b), ops.Div()(a, b)\nresult = f(x, y)",
    "wrapper_returns_non_callable": "register_op_wrapper('Add')(lambda a, b: 5)\n@jit\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_twice": "register_op_wrapper('Sub')(lambda a, b: (lambda p, q: p))\nregister_op_wrapper('Sub')(lambda a, b: (lambda p, q: q))",
    "wrapper_clear_then_register": "def w1(a, b):\n    def func(p, q):\n        return p\n    return func\ndef w2(a, b):\n    def func(p, q):\n        return q * 3\n    return func\nregister_op_wrapper('Sub')(w1)\nclear_op_wrapper()\nregister_op_wrapper('Sub')(w2)\n@jit\ndef f(a, b):\n    return ops.Sub()(a, b)\nresult = (f(x, y), clear_op_wrapper())",
    "wrapper_cleared_not_applied": "register_op_wrapper('Add')(twice_y)\nclear_op_wrapper()\n@jit\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_empty_name": "register_op_wrapper('')",
    "wrapper_blank_name": "register_op_wrapper('   ')",
    "wrapper_non_str_name": "register_op_wrapper(5)",
    "infer_docstring_example": _INFER_NET + "net = MyNet()\nout = net(Tensor([[1., 2., 3.], [4., 5., 6.]]), Tensor([[1., 2., 3.], [4., 5., 6.]]))\nresult = (out, seen, hasattr(out, 'layout'))",
    "infer_not_in_pynative": _INFER_NET + "z = ops.Add()(x, y)\nresult = (ops.Mul()(z, x), seen, hasattr(z, 'layout'))",
    "infer_several_names": _INFER_NET + "@register_op_infer('Add', 'other')\ndef infer_other(a, b):\n    return 'o'\n@register_op_infer('Mul', 'other2')\ndef infer_mul2(a, b):\n    seen['mul2_sees'] = (a.other, a.layout)\nresult = (MyNet()(x, y), seen)",
    "infer_twice": "register_op_infer('Add', 'layout')(lambda a, b: 1)\nregister_op_infer('Add', 'layout')(lambda a, b: 2)",
    "infer_clear_then_register": "register_op_infer('Add', 'layout')(lambda a, b: 1)\nclear_op_infer()\nregister_op_infer('Add', 'layout')(lambda a, b: 2)\nresult = clear_op_infer()",
    "infer_empty_op_name": "register_op_infer('', 'layout')",
    "infer_empty_infer_name": "register_op_infer('Add', '')",
    "infer_none_infer_name": "register_op_infer('Add', None)",
    "infer_with_wrapper_same_op": "register_op_infer('Add', 'layout')(lambda a, b: seen.__setitem__('add_infer', True) or 'L')\ndef w1(a, b):\n    def func(p, q):\n        return p - q\n    return func\nregister_op_wrapper('Add')(w1)\n@register_op_wrapper('Mul')\ndef wm(a, b):\n    seen['mul_wrapper_sees'] = getattr(a, 'layout', 'none')\n    def func(p, q):\n        return p * q * 10\n    return func\n@jit\ndef f(a, b):\n    return ops.Mul()(ops.Add()(a, b), b)\nresult = (f(x, y), seen)",
    "infer_inside_wrapper_function": "def w1(a, b):\n    def func(p, q):\n        return ops.Sub()(p, q)\n    return func\nregister_op_wrapper('Add')(w1)\nregister_op_infer('Sub', 'tag')(lambda a, b: 'S')\n@register_op_infer('Neg', 'tag')\ndef ineg(a):\n    seen['neg_sees'] = getattr(a, 'tag', 'none')\n@jit\ndef f(a, b):\n    return ops.Neg()(ops.Add()(a, b))\nresult = (f(x, y), seen)",
    "infer_raising_is_skipped": "register_op_infer('Add', 'bad')(lambda a, b: 1 / 0)\n@jit\ndef f(a, b):\n    return ops.Add()(a, b)\nresult = f(x, y)",
    "wrapper_reads_infer_result": "register_op_infer('Sub', 'layout')(lambda a, b: a.shape)\n@register_op_wrapper('Mul')\ndef wm(a, b):\n    seen['mul_wrapper_sees'] = a.layout\n    def func(p, q):\n        return p * q\n    return func\n@jit\ndef f(a, b):\n    return ops.Mul()(ops.Sub()(a, b), b)\nresult = (f(x, y), seen)",
}
_PASS = '''import os, tempfile
import mindspore.graph as graph
from mindspore.graph import CustomPassType
fake = os.path.join(tempfile.gettempdir(), 'graph_namespace_fake_plugin.so')
with open(fake, 'w') as fh:
    fh.write('not a shared library')
'''
_PASSES = {
    "custom_pass_type": "result = (str(CustomPassType.PATTERN), repr(CustomPassType.FULL_GRAPH), CustomPassType.PATTERN.value, CustomPassType.FULL_GRAPH.name, CustomPassType.PATTERN == CustomPassType.PATTERN, CustomPassType.PATTERN == CustomPassType.FULL_GRAPH)",
    "graph_all": "result = sorted(graph.__all__)",
    "custom_pass_missing_file": "result = graph.register_custom_pass('my_pass', '/nonexistent/dir/my_plugin.so', device='cpu')",
    "custom_pass_relative_path": "result = graph.register_custom_pass('my_pass', 'relative/my_plugin.so')",
    "custom_pass_not_so": "result = graph.register_custom_pass('my_pass', os.path.abspath(__file__) if '__file__' in globals() else '/etc/hostname')",
    "custom_pass_not_a_library": "result = graph.register_custom_pass('my_pass', fake, 'all', CustomPassType.FULL_GRAPH)",
    "custom_pass_bad_device": "result = graph.register_custom_pass('my_pass', '/nonexistent/my_plugin.so', device='tpu')",
    "custom_pass_type_int": "result = graph.register_custom_pass('my_pass', fake, pass_type=1)",
    "custom_pass_type_str": "result = graph.register_custom_pass('my_pass', fake, pass_type='PATTERN')",
    "custom_pass_name_not_str": "result = graph.register_custom_pass(1, '/x.so')",
    "custom_backend_missing_file": "result = graph.register_custom_backend('my_backend', '/nonexistent/dir/my_backend.so')",
    "custom_backend_relative_path": "result = graph.register_custom_backend('my_backend', 'rel/my_backend.so')",
    "custom_backend_none_name": "result = graph.register_custom_backend(None, '/x.so')",
    "custom_backend_none_path": "result = graph.register_custom_backend('b', None)",
    "custom_backend_not_so": "p = os.path.join(tempfile.gettempdir(), 'graph_namespace_backend.txt')\nopen(p, 'w').close()\nresult = graph.register_custom_backend('b', p)",
    "custom_backend_not_a_library": "result = graph.register_custom_backend('graph_namespace_bad_backend', fake)",
    "custom_backend_registers": "import _ctypes\nresult = (graph.register_custom_backend('graph_namespace_backend', _ctypes.__file__), graph.register_custom_backend('graph_namespace_backend', fake))",
    "custom_pass_library_without_plugin": "import _ctypes\nresult = graph.register_custom_pass('my_pass', _ctypes.__file__)",
    "custom_backend_ms_backend": "result = graph.register_custom_backend('ms_backend', fake)",
    "custom_backend_ge": "result = graph.register_custom_backend('GE', fake)",
    "jit_unregistered_backend": "@ms.jit(backend='graph_namespace_never_registered')\ndef f(a):\n    return a * 2\nresult = f(Tensor([1.0]))",
}
CASES.update({name: _g(src) for name, src in _GRAPH.items()})
CASES.update({name: _PASS + src for name, src in _PASSES.items()})
OPTIONS.update({name: {"message": True} for name in (
    "wrapper_twice", "wrapper_empty_name", "wrapper_blank_name", "wrapper_non_str_name", "infer_twice",
    "infer_empty_op_name", "infer_empty_infer_name", "infer_none_infer_name", "custom_pass_type_int",
    "custom_pass_type_str", "custom_backend_missing_file", "custom_backend_relative_path", "custom_backend_none_name",
    "custom_backend_none_path", "custom_backend_not_so", "custom_backend_ms_backend", "jit_unregistered_backend")})
OPTIONS["custom_pass_name_not_str"] = {"message_parts": ["register_custom_pass(): incompatible function arguments.",
                                                         "(pass_name: str, plugin_so_path: str, device: str, pass_type:"],
                                       "why": "pybind11's list of the C++ signature and the arguments' reprs"}
