"""nn.Cell: parameter naming, traversal, containers, hooks and their gradients, printed networks, Parameter."""
# ruff: noqa: E501
_SUB = """
from collections import OrderedDict
from mindspore import Parameter
class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones((2, 2), np.float32)))
        self.b = Parameter(Tensor(np.zeros(2, np.float32)), name="bias")
    def construct(self, x):
        return ops.matmul(x, self.weight) + self.b
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell([Sub(), Sub()])
        self.head = Sub()
        self.p = Parameter(Tensor(1.0))
    def construct(self, x):
        return self.head(self.body(x)) * self.p
def names(cell):
    return [(n, p.name) for n, p in cell.parameters_and_names()]
"""
_HOOK = """
log = []
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    def construct(self, x, y):
        return x * self.w + y * y
net = Net()
def show(ts):
    return [None if t is None else t.asnumpy().tolist() for t in ts]
def fpre(cell, inputs):
    log.append(("fpre", type(cell).__name__, show(inputs)))
    return (inputs[0] * 2, inputs[1])
def fhook(cell, inputs, output):
    log.append(("fhook", show(inputs), output.asnumpy().tolist()))
    return output + 1
def bpre(cell, grad_output):
    log.append(("bpre", show(grad_output)))
    return (grad_output[0] * 10,)
def bhook(cell, grad_input, grad_output):
    log.append(("bhook", show(grad_input), show(grad_output)))
    return (grad_input[0] * 3, grad_input[1])
x = Tensor(np.array([1.0, 1.0], np.float32)); y = Tensor(np.array([1.0, 2.0], np.float32))
"""
_TWO = """
log = []
def show(ts):
    return [None if t is None else t.asnumpy().tolist() for t in ts]
class Two(nn.Cell):
    def construct(self, x):
        return x * 2, x * 3
x = Tensor(np.array([1.0, 1.0], np.float32))
"""
_P = """
from mindspore import Parameter, ParameterTuple
p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
"""
_SEQ = _SUB + """
seq = nn.SequentialCell([Sub(), Sub(), Sub()])
class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = seq
"""
CASES = {
    # naming and traversal
    "nested_names": _SUB + "result = names(Net())",
    "sub_alone_keeps_names": _SUB + "result = [p.name for p in Sub().get_parameters()]",
    "assigned_sub_renamed": _SUB + "s = Sub(); c = nn.Cell(); c.s = s\nresult = [p.name for p in s.get_parameters()]",
    "no_auto_prefix": _SUB + "s = Sub(); c = nn.Cell(auto_prefix=False); c.s = s\nresult = [p.name for p in s.get_parameters()]",
    "cells_and_names": _SUB + "result = [n for n, _ in Net().cells_and_names()]",
    "cells_and_names_prefix": _SUB + "result = [n for n, _ in Net().cells_and_names(name_prefix='net')]",
    "params_prefix_no_expand": _SUB + "net = Net()\nresult = ([n for n, _ in net.parameters_and_names(name_prefix='m')], "
                                      "[n for n, _ in net.parameters_and_names(expand=False)])",
    "name_cells_and_cells": _SUB + "net = Net()\nresult = (list(net.name_cells().keys()), len(net.cells()))",
    "parameters_dict_keys": _SUB + "result = list(Net().parameters_dict().keys())",
    "trainable_untrainable": _SUB + "net = Net(); net.head.b.requires_grad = False\n"
                                    "result = ([p.name for p in net.trainable_params()], "
                                    "[p.name for p in net.untrainable_params()], len(net.trainable_params(recurse=False)))",
    "shared_cell_once": _SUB + "s = Sub()\nclass S(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
                               "        self.a = s\n        self.b = s\nn = S()\n"
                               "result = ([k for k, _ in n.cells_and_names()], names(n), list(n.name_cells().keys()))",
    "update_parameters_name": _SUB + "s = Sub(); s.update_parameters_name('net.')\nresult = [p.name for p in s.get_parameters()]",
    "update_parameters_name_error": _SUB + "Sub().update_parameters_name('a b')",
    "apply_order": _SUB + "seen = []\nnet = Net()\nr = net.apply(lambda c: seen.append(type(c).__name__))\n"
                          "result = (seen, r is net)",
    "set_train_phase": _SUB + "net = Net(); a = (net.training, net.phase)\nnet.set_train(False)\n"
                              "b = (net.phase, net.body.phase, net.training)\nnet.set_train()\n"
                              "result = (a, b, net.phase, net.body.training, net.body[0].training)",
    "set_grad_flag": _SUB + "net = Net(); r = net.set_grad()\nresult = (r is net, net.requires_grad, net.head.requires_grad)",
    "getattr_error": _SUB + "Net().nope",
    "delattr_param_and_cell": _SUB + "net = Net(); del net.head; del net.p\nresult = names(net)",
    "tensor_to_param_attr": _SUB + "net = Net(); net.p = Tensor(5.0)\nresult = (net.p, net.p.name)",
    "int_to_param_attr_error": _SUB + "net = Net(); net.p = 5",
    "int_to_cell_attr_error": _SUB + "net = Net(); net.head = 5",
    "none_to_param_and_cell": _SUB + "net = Net(); net.p = None; net.head = None\n"
                                     "result = (names(net), list(net.name_cells().keys()))",
    "insert_child_dot_error": _SUB + "Net().insert_child_to_cell('a.b', Sub())",
    "insert_child_type_error": _SUB + "Net().insert_child_to_cell('z', 5)",
    "insert_child_exists_error": _SUB + "Net().insert_child_to_cell('training', Sub())",
    "insert_child_keeps_names": _SUB + "net = Net(); s = Sub(); net.insert_child_to_cell('z', s)\n"
                                       "result = ([n for n, _ in net.parameters_and_names()][-2:], [p.name for p in s.get_parameters()])",
    "insert_param": _SUB + "net = Net(); a = Parameter(1.0); b = Parameter(2.0, name='named')\n"
                           "net.insert_param_to_cell('q', a); net.insert_param_to_cell('q2', b)\nresult = (a.name, b.name)",
    "insert_param_dot_error": _SUB + "Net().insert_param_to_cell('a.b', Parameter(1.0))",
    "insert_param_type_error": _SUB + "Net().insert_param_to_cell('q', 5)",
    "construct_not_defined": "nn.Cell()(Tensor(1.0))",
    "construct_kwargs": """
class M(nn.Cell):
    def construct(self, x, scale=1.0):
        return x * scale
m = M()
result = (m(Tensor([1.0, 2.0]), scale=3.0), m(Tensor([1.0]), 2.0), m(Tensor([1.0])))
""",
    "buffers": """
class B(nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", Tensor(np.array([1, 2], np.int32)))
        self.sub = nn.Cell()
        self.sub.register_buffer("mean", Tensor(np.zeros(2, np.float32)))
b = B()
result = ([n for n, _ in b.named_buffers()], b.count, len(list(b.buffers(recurse=False))), b.get_buffer("sub.mean"))
""",
    "buffer_name_error": "c = nn.Cell(); c.register_buffer('a.b', Tensor(1.0))",
    "to_float_dtype": _SUB + "net = Net(); net.to_float(ms.float16)\nout = net(Tensor(np.ones((1, 2), np.float32)))\n"
                             "result = (out, str(out.dtype), str(net.head.weight.dtype))",
    "to_float_sub": _SUB + "net = Net(); net.head.to_float(ms.float16)\n"
                           "result = str(net(Tensor(np.ones((1, 2), np.float32))).dtype)",
    "to_float_error": "nn.Cell().to_float(ms.int32)",
    "grad_through_net": _SUB + "net = Net()\nx = Tensor(np.array([[1.0, 2.0]], np.float32))\n"
                               "result = ms.grad(lambda a: net(a).sum(), 0, net.trainable_params())(x)",
    # printing
    "print_net": _SUB + "print(Net())\nprint(nn.Cell())\nresult = str(Sub())",
    "print_extend_repr": """
class E(nn.Cell):
    def extend_repr(self):
        return "a=1\\nb=2"
class One(nn.Cell):
    def extend_repr(self):
        return "in=2, out=3"
class F(nn.Cell):
    def __init__(self):
        super().__init__()
        self.e = E()
        self.o = One()
    def extend_repr(self):
        return "x=1"
print(E()); print(One()); print(F())
result = repr(F())
""",
    "print_containers": _SUB + "print(nn.CellList([Sub(), nn.Cell()]))\nprint(nn.CellDict({'a': Sub()}))\n"
                               "print(nn.SequentialCell(OrderedDict([('first', Sub())])))\nresult = None",
    # containers
    "seq_names_and_run": _SUB + "seq = nn.SequentialCell(Sub(), Sub())\n"
                                "result = ([p.name for p in seq.get_parameters()], seq(Tensor(np.ones((1, 2), np.float32))))",
    "seq_ordered_dict": _SUB + "seq = nn.SequentialCell(OrderedDict([('a', Sub()), ('b', Sub())]))\n"
                               "result = ([p.name for p in seq.get_parameters()], [n for n, _ in seq.cells_and_names()])",
    "seq_index_slice_len": _SEQ + "h = Holder()\ns2 = seq[1:]\n"
                                  "result = (len(seq), seq[-1] is seq[2], type(s2).__name__, len(s2), "
                                  "[p.name for p in s2.get_parameters()], [p.name for p in seq.get_parameters()])",
    "seq_append_in_holder": _SEQ + "h = Holder(); seq.append(Sub())\nresult = [p.name for p in h.get_parameters()]",
    "seq_delitem_renames": _SEQ + "h = Holder(); del seq[0]\n"
                                  "result = ([n for n, _ in h.parameters_and_names()], [p.name for p in h.get_parameters()])",
    "seq_setitem": _SEQ + "h = Holder(); seq[1] = Sub()\nresult = [p.name for p in h.get_parameters()]",
    "seq_index_error": _SEQ + "seq[3]",
    "seq_index_type_error": _SEQ + "seq['a']",
    "seq_bad_arg": "nn.SequentialCell(5)",
    "seq_bad_item": "nn.SequentialCell([nn.Cell(), 5])",
    "seq_iter_bool": _SEQ + "result = (len(list(seq)), bool(nn.SequentialCell([])), bool(seq))",
    "celllist_ops": _SUB + """
class H(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Sub(), Sub()])
h = H()
h.layers.append(Sub())
h.layers.insert(0, Sub())
h.layers.extend([Sub()])
a = [p.name for p in h.get_parameters()][::2]
del h.layers[1]
b = [p.name for p in h.get_parameters()][::2]
result = (a, b, len(h.layers), type(h.layers[1:]).__name__, len(h.layers[1:]))
""",
    "celllist_iadd_setitem": _SUB + """
cl = nn.CellList()
cl += [Sub()]
cl[0] = Sub()
result = ([p.name for p in cl.get_parameters()], len(cl))
""",
    "celllist_extend_error": "nn.CellList().extend(nn.Cell())",
    "celllist_index_error": "nn.CellList([nn.Cell()])[2]",
    "celllist_insert_index_error": "nn.CellList([nn.Cell()]).insert(3, nn.Cell())",
    "celllist_type_error": "nn.CellList([nn.Cell()]).append(5)",
    "celldict_ops": _SUB + """
class H(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.CellDict({"a": Sub(), "b": Sub()})
h = H()
h.d["c"] = Sub()
popped = h.d.pop("a")
h.d.update([("e", Sub())])
result = (list(h.d.keys()), len(h.d), "b" in h.d, list(h.d), [p.name for p in h.get_parameters()][::2],
          type(popped).__name__, len(h.d.values()), [k for k, _ in h.d.items()])
""",
    "celldict_clear": "d = nn.CellDict({'a': nn.Cell()}); d.clear()\nresult = len(d)",
    "celldict_dot_key": "nn.CellDict({'a.b': nn.Cell()})",
    "celldict_attr_key": "nn.CellDict({'training': nn.Cell()})",
    "celldict_container_value": "nn.CellDict({'a': nn.CellList()})",
    "celldict_none_value": "nn.CellDict({'a': None})",
    "celldict_update_bad": "nn.CellDict().update([('a', nn.Cell(), 1)])",
    # hooks
    "hooks_all_four": _HOOK + """
h1 = net.register_forward_pre_hook(fpre)
h2 = net.register_forward_hook(fhook)
h3 = net.register_backward_pre_hook(bpre)
h4 = net.register_backward_hook(bhook)
out = net(x, y)
g = ms.grad(net, (0, 1), net.trainable_params())(x, y)
result = (out, g, log)
""",
    "hooks_removed": _HOOK + """
hs = [net.register_forward_pre_hook(fpre), net.register_forward_hook(fhook), net.register_backward_pre_hook(bpre),
      net.register_backward_hook(bhook)]
for h in hs:
    h.remove()
hs[0].remove()
result = (ms.grad(net, (0, 1))(x, y), log, type(hs[0]).__name__)
""",
    "backward_hook_weights_only": """
log = []
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    def construct(self, x, s=2.0):
        return x * self.w * s
net = Net()
def bhook(cell, gi, go):
    log.append(([None if g is None else g.asnumpy().tolist() for g in gi], [g.asnumpy().tolist() for g in go]))
net.register_backward_hook(bhook)
x = Tensor(np.array([1.0, 1.0], np.float32))
a = ms.grad(net, None, net.trainable_params())(x)
b = ms.grad(net, 0)(x, 3.0)
c = ms.grad(lambda t: net(t, s=4.0), 0)(x)
result = (a, b, c, log)
""",
    "backward_hooks_unused_output": _TWO + """
t = Two()
t.register_backward_pre_hook(lambda c, go: log.append(("bpre", show(go))))
t.register_backward_hook(lambda c, gi, go: log.append(("bh", show(gi), show(go))))
result = (ms.grad(lambda a: t(a)[0].sum(), 0)(x), log)
""",
    "backward_hook_size_error": _TWO + "t = Two()\nt.register_backward_hook(lambda c, gi, go: (gi[0], gi[0]))\n"
                                       "ms.grad(lambda a: t(a)[0].sum(), 0)(x)",
    "backward_pre_hook_size_error": _TWO + "t = Two()\nt.register_backward_pre_hook(lambda c, go: go[0])\n"
                                           "ms.grad(lambda a: t(a)[0].sum(), 0)(x)",
    "forward_hooks_single_values": _TWO + """
t = Two()
t.register_forward_pre_hook(lambda c, i: i[0] * 5)
a = t(x)
t.register_forward_hook(lambda c, i, o: o[0])
result = (a, t(x))
""",
    "forward_hook_not_callable": "nn.Cell().register_forward_hook(3)",
    "backward_hook_not_callable": "nn.Cell().register_backward_hook('f')",
    "forward_hooks_kwargs_prepend": _TWO + """
t = Two()
t.register_forward_pre_hook(lambda c, a, k: ((a[0] + 1,), k), with_kwargs=True)
t.register_forward_hook(lambda c, a, k, o: log.append(("fk", k)), with_kwargs=True)
t.register_forward_pre_hook(lambda c, a: log.append("first"), prepend=True)
result = (t(x), log)
""",
    "forward_pre_hook_kwargs_bad_return": _TWO + "t = Two()\n"
                                                 "t.register_forward_pre_hook(lambda c, a, k: 5, with_kwargs=True)\nt(x)",
    "hooks_in_sequential": """
log = []
class Scale(nn.Cell):
    def __init__(self, s):
        super().__init__()
        self.s = s
    def construct(self, x):
        return x * self.s
seq = nn.SequentialCell([Scale(2.0), Scale(3.0)])
seq[0].register_forward_hook(lambda c, i, o: log.append(("f0", o.asnumpy().tolist())))
seq[1].register_forward_hook(lambda c, i, o: log.append(("f1", o.asnumpy().tolist())))
seq[0].register_backward_hook(lambda c, gi, go: log.append(("b0", gi[0].asnumpy().tolist(), go[0].asnumpy().tolist())))
seq[1].register_backward_hook(lambda c, gi, go: log.append(("b1", gi[0].asnumpy().tolist(), go[0].asnumpy().tolist())))
g = ms.grad(lambda a: seq(a).sum())(Tensor(np.array([1.0, 2.0], np.float32)))
result = (g, log)
""",
    # Parameter
    "param_dtypes": "from mindspore import Parameter\n"
                    "result = [str(p.dtype) for p in (Parameter(1), Parameter(1.0), Parameter([1, 2]), Parameter(np.array([1.0, 2.0])))]",
    "param_bool_error": "from mindspore import Parameter\nParameter(True)",
    "param_name_type_error": "from mindspore import Parameter\nParameter(1.0, name=3)",
    "param_name_strip": "from mindspore import Parameter\nresult = Parameter(1.0, name='  x  ').name",
    "param_name_too_long": "from mindspore import Parameter\nParameter(1.0, name='x' * 1100)",
    "param_requires_grad_type": "from mindspore import Parameter\nParameter(1.0, requires_grad=1)",
    "param_repr": _P + "q = Parameter(Tensor(np.zeros((2, 3), np.float16)), name='h', requires_grad=False)\n"
                       "print(p); print(repr(q))\nresult = (str(p), repr(q))",
    "param_set_data_shape": _P + "p.set_data(Tensor(np.array([1.0, 2.0, 3.0], np.float32)))\na = p.shape\n"
                                 "p.set_data(Tensor(np.array([7, 8], np.int32)))\nresult = (a, p, str(p.dtype), p.set_data(3.0).shape)",
    "param_set_data_list_error": _P + "p.set_data([1.0])",
    "param_set_data_float_into_int": "from mindspore import Parameter\n"
                                     "Parameter(Tensor(np.array([1, 2], np.int32)), name='i').set_data(2.5)",
    "param_set_data_float_tensor_into_int": "from mindspore import Parameter\n"
                                            "i = Parameter(Tensor(np.array([1, 2], np.int32)), name='i')\n"
                                            "result = i.set_data(Tensor(np.array([1.5, 2.5], np.float32)))",
    "param_clone": _P + "c = p.clone()\nz = p.clone(init='zeros')\nt = p.clone(init=Tensor(np.array([5.0, 6.0], np.float32)))\n"
                        "n = p.clone(init=7)\ncp = p.copy()\n"
                        "result = (c.name, c is p, c, z, t, n, cp.name, type(cp).__name__)",
    "param_value_data": _P + "result = (type(p.value()).__name__, p.value(), type(p.data).__name__, p.data)",
    "param_initializer": "from mindspore import Parameter\nfrom mindspore.common.initializer import initializer\n"
                         "w = Parameter(initializer('zeros', [2, 3], ms.float32), name='w')\n"
                         "result = (w, w.init_data() is w, w.shape)",
    "param_name_setter": _P + "p.name = 'other'\na = p.name\np.requires_grad = False\nresult = (a, str(p))",
    "param_name_setter_error": _P + "p.name = 5",
    "parameter_tuple": _P + "q = Parameter(Tensor(np.array([3.0], np.float32)), name='q')\npt = ParameterTuple([p, q])\n"
                            "c = pt.clone('new')\nz = pt.clone('m', init='ones')\n"
                            "result = (type(pt).__name__, [x.name for x in c], type(c).__name__, z, str(pt))",
    "parameter_tuple_type_error": _P + "ParameterTuple([p, 1])",
    "parameter_tuple_dup_name": _P + "ParameterTuple([p, Parameter(1.0, name='w')])",
    "parameter_tuple_clone_prefix_error": _P + "ParameterTuple([p]).clone('a b')",
}
OPTIONS = {
    "update_parameters_name_error": {"message": True},
    "getattr_error": {"message": True},
    "int_to_param_attr_error": {"message": True},
    "int_to_cell_attr_error": {"message": True},
    "insert_child_dot_error": {"message": True},
    "insert_child_type_error": {"message": True},
    "insert_child_exists_error": {"message": True},
    "insert_param_dot_error": {"message": True},
    "insert_param_type_error": {"message": True},
    "construct_not_defined": {"message": True},
    "buffer_name_error": {"message": True},
    "print_net": {"stdout": True},
    "print_extend_repr": {"stdout": True},
    "print_containers": {"stdout": True},
    "seq_index_error": {"message": True},
    "seq_index_type_error": {"message": True},
    "seq_bad_arg": {"message": True},
    "seq_bad_item": {"message": True},
    "celllist_extend_error": {"message": True},
    "celllist_index_error": {"message": True},
    "celllist_insert_index_error": {"message": True},
    "celllist_type_error": {"message": True},
    "celldict_dot_key": {"message": True},
    "celldict_attr_key": {"message": True},
    "celldict_container_value": {"message": True},
    "celldict_none_value": {"message": True},
    "celldict_update_bad": {"message": True},
    "backward_hook_size_error": {"message": True},
    "backward_pre_hook_size_error": {"message": True},
    "forward_hook_not_callable": {"message": True},
    "backward_hook_not_callable": {"message": True},
    "forward_pre_hook_kwargs_bad_return": {"message": True},
    "param_bool_error": {"message": True},
    "param_name_type_error": {"message": True},
    "param_requires_grad_type": {"message": True},
    "param_repr": {"stdout": True},
    "param_set_data_list_error": {"message": True},
    "param_set_data_float_into_int": {"message": True},
    "param_name_setter_error": {"message": True},
    "parameter_tuple_type_error": {"message": True},
    "parameter_tuple_dup_name": {"message": True},
    "parameter_tuple_clone_prefix_error": {"message": True},
}

# Error texts (every error case checks one): MindSpore's word for word, or, where its text carries what a user
# cannot rely on, the parts that matter and why.
OPTIONS.setdefault('param_name_too_long', {})["message"] = True
OPTIONS.setdefault('to_float_error', {}).update(message_parts=[
    "For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or mstype.bfloat16, but got type: <class '",
    "'> and value: Int32."],
    why='the wheel names the class of its C++ dtype object (mindspore._c_expression.typing.Int), an internal path')
