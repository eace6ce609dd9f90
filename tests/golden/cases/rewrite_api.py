"""mindspore.rewrite: node lists of a small network, and its outputs after insert/erase/replace; error texts."""
_NET = """
from mindspore.rewrite import SymbolTree, ScopedValue, Node, NodeType
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()
        self.relu2 = nn.ReLU()
        self.dense2 = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    def construct(self, x, y):
        x = self.dense1(x)
        x = self.relu(x)
        z = x * y
        x = self.relu2(z)
        x = self.dense2(x - y)
        return x
net = Net()
st = SymbolTree.create(net)
x = Tensor((np.arange(8, dtype=np.float32).reshape(2, 4) - 3) / 7)
y = Tensor(np.full((2, 3), 0.5, np.float32))
def listing():
    return [(n.get_name(), str(n.get_node_type()), [str(a) for a in n.get_args()], [str(t) for t in n.get_targets()],
             [i.get_name() for i in n.get_inputs()], [u.get_name() for u in n.get_users()]) for n in st.nodes()]
"""

_NET = """
import importlib, os, sys, tempfile
from mindspore.rewrite import SymbolTree, ScopedValue, Node, NodeType
_src = '''
import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()
        self.relu2 = nn.ReLU()
        self.dense2 = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        self.neg = ops.Neg()

    def construct(self, x, y):
        x = self.dense1(x)
        x = self.relu(x)
        z = x * y
        x = self.relu2(z)
        x = self.dense2(x - y)
        x = self.neg(x)
        return x
'''
_dir = tempfile.mkdtemp()
with open(os.path.join(_dir, "rewrite_golden_net.py"), "w") as _f:
    _f.write(_src)
sys.path.insert(0, _dir)
Net = importlib.import_module("rewrite_golden_net").Net
net = Net()
st = SymbolTree.create(net)
x = Tensor((np.arange(8, dtype=np.float32).reshape(2, 4) - 3) / 7)
y = Tensor(np.full((2, 3), 0.5, np.float32))
def listing():
    return [(n.get_name(), str(n.get_node_type()), [str(a) for a in n.get_args()], [str(t) for t in n.get_targets()],
             [i.get_name() for i in n.get_inputs()], [u.get_name() for u in n.get_users()]) for n in st.nodes()]
"""

_NET2 = """
import importlib, os, sys, tempfile
from mindspore.rewrite import SymbolTree, NodeType
_src = '''
from mindspore import nn, ops


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


class Net2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()
        self.sub = Sub()
        self.seq = nn.SequentialCell([nn.ReLU(), nn.Sigmoid()])
        self.flatten = nn.Flatten()

    def construct(self, x, y):
        x = self.relu(self.dense1(x))
        x = x + 1
        a, b = self.sub(x), y
        x = self.seq(a)
        x = ops.relu(x)
        x = self.flatten(x)
        x = -x
        return x, b
'''
_dir = tempfile.mkdtemp()
with open(os.path.join(_dir, "rewrite_golden_net2.py"), "w") as _f:
    _f.write(_src)
sys.path.insert(0, _dir)
net = importlib.import_module("rewrite_golden_net2").Net2()
st = SymbolTree.create(net)
x = Tensor((np.arange(8, dtype=np.float32).reshape(2, 4) - 3) / 7)
y = Tensor(np.full((2, 3), 0.5, np.float32))
"""
_IMP = "from mindspore.rewrite import SymbolTree, ScopedValue, Node, NodeType\n"
# The wheel's SymbolTree.create reads the network's class source with inspect, which fails for a class defined in
# the golden harness's exec'd __main__ ("could not find class definition"): the network is written to a module file.
CASES = {
    "scoped_values": _IMP + """
result = [str(ScopedValue.create_naming_value('conv', 'self')), str(ScopedValue.create_variable_value(2)),
          str(ScopedValue.create_name_values(['z', 'z_1'], ['self', 'self'])), ScopedValue.create_naming_value('a') == ScopedValue.create_naming_value('a')]
""",
    "err_cell_int": _IMP + "Node.create_call_cell(3, ['x'])",
    "err_targets_str": _IMP + "Node.create_call_cell(nn.ReLU(), 'x')",
    "err_args_int": _IMP + "Node.create_call_cell(nn.ReLU(), ['x'], args=[3])",
    "err_naming": _IMP + "ScopedValue.create_naming_value(3)",
    "err_create": _IMP + "SymbolTree.create(3)",
    "node_type": _IMP + "result = [str(NodeType.CallCell), NodeType.Output.value, str(NodeType.MathOps)]",
    "nodes": _NET + "result = listing()",
    "instances": _NET + "result = [n.get_instance_type().__name__ for n in st.nodes()]",
    "identity_net": _NET + "result = [st.get_network()(x, y), net(x, y)]",
    "insert_after": _NET + """
node = Node.create_call_cell(nn.Sigmoid(), targets=['x'], args=[ScopedValue.create_naming_value('x')], name='sig')
got = st.insert(st.after('relu'), node)
result = [got.get_name(), listing(), st.get_network()(x, y), net(x, y)]
""",
    "insert_before": _NET + """
node = Node.create_call_cell(nn.Tanh(), targets=['x'], args=[ScopedValue.create_naming_value('x')], name='tanh')
got = st.insert(st.before(st.get_node('dense1')), node)
result = [got.get_name(), listing(), st.get_network()(x, y)]
""",
    "insert_same_name": _NET + """
node = Node.create_call_cell(nn.Tanh(), targets=['x'], args=[ScopedValue.create_naming_value('x')], name='relu')
got = st.insert(st.after('relu2'), node)
result = [got.get_name(), listing(), st.get_network()(x, y)]
""",
    "erase": _NET + """
st.get_node('dense2').set_arg(0, 'z')
erased = st.erase(st.get_node('relu2'))
result = [erased.get_name(), listing(), st.get_network()(x, y)]
""",
    "erase_by_name": _NET + """
st.erase('neg')
result = [listing(), st.get_network()(x, y)]
""",
    "replace": _NET + """
new = Node.create_call_cell(nn.Sigmoid(), targets=['x'], args=[ScopedValue.create_naming_value('x')], name='sig')
got = st.replace(st.get_node('relu'), [new])
result = [got.get_name(), listing(), st.get_network()(x, y)]
""",
    "set_arg": _NET + """
node = st.get_node('relu2')
node.set_arg(0, ScopedValue.create_naming_value('x'))
result = [node.get_args(), [i.get_name() for i in node.get_inputs()], st.get_network()(x, y)]
""",
    "err_insert_int": _NET + "st.insert(st.after('relu'), 3)",
    "err_node_name": _NET + "st.get_node(3)",
    "err_after_none": _NET + "st.after(None)",
    "err_after_missing": _NET + "st.after('nope')",
    "err_set_arg": _NET + "st.get_node('dense2').set_arg(5, 'x')",
    "missing_node": _NET + "result = st.get_node('nope')",
}
CASES.update({
    # the Output node's name is left out: the wheel numbers it after the returns of the functions it inlines
    "flatten_nested": _NET2 + """
result = [(n.get_name(), str(n.get_node_type()), [str(a) for a in n.get_args()], [str(t) for t in n.get_targets()],
           [i.get_name() for i in n.get_inputs()]) for n in st.nodes() if n.get_node_type() != NodeType.Output]
""",
    "arg_providers": _NET2 + """
result = []
for n in st.nodes():
    result.append((n.get_name(), sorted((i, p.get_name(), k) for i, (p, k) in n.get_arg_providers().items()),
                   sorted((k, [(u.get_name(), i) for u, i in v]) for k, v in n.get_target_users().items())))
result = result[:7]  # from seq on, the wheel's users name the nodes inside the function it inlines (relu_opt_1)
""",
    "flatten_nested_net": _NET2 + "result = [st.get_network()(x, y), net(x, y)]",
    "call_function": _NET2 + """
from mindspore.rewrite import Node, ScopedValue
node = Node.create_call_function(ops.abs, targets=['x'], args=[ScopedValue.create_naming_value('x')])
got = st.insert(st.after('flatten'), node)
# the wheel numbers inlined functions across the trees of a process (relu_opt_3): those names are left out
names = [n.get_name() for n in st.nodes() if n.get_node_type() not in (NodeType.CallFunction, NodeType.Output) or n == got]
result = [got.get_name(), str(got.get_node_type()), names, st.get_network()(x, y)]
""",
    "unique_name": _NET2 + "result = [st.unique_name(), st.unique_name('relu'), st.unique_name('x'), st.unique_name('a')]",
    "sub_tree": _NET2 + """
sub = st.get_node('sub').get_sub_tree()
result = [type(sub).__name__, [(n.get_name(), str(n.get_node_type())) for n in sub.nodes()]]
""",
    "err_sub_tree": _NET2 + "st.get_node('relu').get_sub_tree()",
    "err_call_function": _NET2 + "from mindspore.rewrite import Node\nNode.create_call_function(3, ['x'])",
    "grad_rewritten": _NET + """
new = Node.create_call_cell(nn.Sigmoid(), targets=['x'], args=[ScopedValue.create_naming_value('x')], name='sig')
st.insert(st.after('relu'), new)
rewritten = st.get_network()
result = ms.grad(rewritten, grad_position=(0, 1))(x, y)
""",
})
OPTIONS = {name: {"message": True} for name in CASES if name.startswith("err_")}
