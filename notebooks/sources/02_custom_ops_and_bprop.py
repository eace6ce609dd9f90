"""Cells of notebooks/02_custom_ops_and_bprop.ipynb: pyfunc Custom ops, bprop, CustomRegOp, gradcheck.

Every op here is this project's own (MindSpore's tutorials are run by tests/seeds, which reads them from
../shared/seeds); a tutorial must show its code in full, so `duplicates` pairs with tests or docs are intended.
"""

CELLS = [
    ("md", """
# Custom operators: pyfunc, bprop, operator information, gradcheck

`ops.Custom` is the heart of MindSpore's custom-operator workflow. This notebook defines an op with a
backward written as another Custom op, the way MindSpore's *Defining the bprop Function for Operators*
does, then goes further: several outputs, attributes, operator information, and checking gradients.
"""),
    ("code", """
import numpy as np
import mskernel as ms
from mskernel import nn, ops
from mskernel.ops import CustomRegOp, DataType, custom_info_register
"""),
    ("md", """
## A pyfunc op and its bprop

A `pyfunc` op runs a Python function on numpy arrays. Its `bprop(x, out, dout)` returns a tuple with one
gradient per input, and may itself call Custom ops (created once, outside the bprop): here the cube's
gradient `3x² · dout` is a second pyfunc op. `GRAPH_MODE` is accepted and runs eagerly.
"""),
    ("code", """
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_device(device_target="CPU")

def cube(x):
    return x ** 3

def cube_slope_times(x, dout):
    return 3.0 * x ** 2 * dout

cube_slope_op = ops.Custom(cube_slope_times, lambda x, _: x, lambda x, _: x, func_type="pyfunc")

def cube_bprop(x, out, dout):
    return (cube_slope_op(x, dout),)

class Cube(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.Custom(cube, lambda x: x, lambda x: x, bprop=cube_bprop, func_type="pyfunc")

    def construct(self, x):
        return self.op(x)

x = np.array([1.0, 2.0, 3.0], np.float32)
print(ms.grad(Cube())(ms.Tensor(x)))
"""),
    ("md", """
`out_shape` and `out_dtype` are infer functions taking one argument per call input (the input's
shape as a list, its dtype) — or fixed values. The op is one node in the same graph as built-in
ops:
"""),
    ("code", """
net = Cube()
snap, _ = ms.autograd.trace(lambda t: ops.tanh(net(t)).sum(), ms.Tensor(x))
for n in snap.nodes:
    print(n["id"], n["op"], n["kind"], n["info"])
"""),
    ("md", """
## Several outputs

A tuple of shapes and a tuple of dtypes mean several outputs. The bprop then receives `out` and
`dout` as tuples (an unused output's `dout` is zeros).
"""),
    ("code", """
def sum_and_product(a, b):
    return a + b, a * b

def sum_and_product_bprop(a, b, out, dout):
    d_sum, d_prod = dout
    return d_sum + d_prod * b, d_sum + d_prod * a

sp = ops.Custom(sum_and_product, lambda a, b: (a, a), lambda a, b: (a, a),
                func_type="pyfunc", bprop=sum_and_product_bprop)
a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 5.0])
s, p = sp(a, b)
print(s, p)
print(ms.grad(lambda a, b: (sp(a, b)[1] * 2).sum(), grad_position=(0, 1))(a, b))
"""),
    ("md", """
## Operator information and attributes

`CustomRegOp` declares inputs, outputs, attributes and the supported dtype combinations.
At call time the row matching the inputs is selected; a mismatch raises a `TypeError` that lists
what is supported. Attributes reach the kernel as trailing arguments: from the call (after the
tensors), from `value=`, or from `default_value`.
"""),
    ("code", """
scale_info = (CustomRegOp("scale_shift")
              .input(0, "x").output(0, "y")
              .attr("scale", "required", "float")
              .attr("shift", "optional", "float", default_value="1.0")
              .dtype_format(DataType.F32_Default, DataType.F32_Default)
              .target("CPU").get_op_info())

@custom_info_register(scale_info)
def scale_shift(x, scale, shift):
    return (x * scale + shift).astype(x.dtype)

op = ops.Custom(scale_shift, lambda x, *attrs: x, lambda x, *attrs: x, func_type="pyfunc")
print(op(ms.Tensor([1.0, 2.0], ms.float32), 10.0))
print(op(ms.Tensor([1.0, 2.0], ms.float32), 10.0, -1.0))
try:
    op(ms.Tensor([1.0, 2.0], ms.float64), 10.0)
except TypeError as e:
    print("TypeError:", e)
"""),
    ("md", """
`reg_info=` passed to `Custom` wins over the decorator (they are not merged):
"""),
    ("code", """
f64_info = (CustomRegOp("scale_shift").input(0, "x").output(0, "y")
            .attr("scale", "required", "float").attr("shift", "optional", "float", default_value="0.0")
            .dtype_format(DataType.F64_Default, DataType.F64_Default).target("CPU").get_op_info())
op64 = ops.Custom(scale_shift, lambda x, *a: x, lambda x, *a: x, func_type="pyfunc", reg_info=f64_info)
print(op64(ms.Tensor([1.0, 2.0], ms.float64), 3.0))
"""),
    ("md", """
## Checking gradients

`ms.gradcheck(fn, inputs)` compares the engine's Jacobian with central differences in float64
and returns a report (text, or a table in a notebook). Here is a bprop with a bug: it is wrong
for the last element only.
"""),
    ("code", """
def square(x):
    return x * x

def buggy_bprop(x, out, dout):
    w = np.full(x.shape, 2.0, dtype=np.float64)
    w[-1] = 2.5                      # <- the bug
    return (x * ms.Tensor(w) * dout,)

buggy = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc", bprop=buggy_bprop)
report = ms.gradcheck(buggy, (ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float64),), raise_exception=False)
print(report)
"""),
    ("code", """
report
"""),
    ("md", """
The report names the worst element: the derivative of output 3 with respect to input 3. The
correct bprop passes; `gradgradcheck` also checks second derivatives (a bprop written with ops is
differentiable; one computed in numpy is not, and gradgradcheck says so).
"""),
    ("code", """
good = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc",
                  bprop=lambda x, out, dout: (2 * x * dout,))
print(ms.gradcheck(good, (ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float64),)))
print(ms.gradgradcheck(good, (ms.Tensor([1.0, 2.0], ms.float64),)))
numpy_bprop = ops.Custom(square, lambda x: x, lambda x: x, func_type="pyfunc",
                         bprop=lambda x, out, dout: (ms.Tensor(2 * x.asnumpy() * dout.asnumpy()),))
print(ms.gradgradcheck(numpy_bprop, (ms.Tensor([1.0, 2.0], ms.float64),), raise_exception=False))
"""),
    ("md", """
For large inputs gradcheck uses a fast mode by default: it compares random projections
`vᵀ J u` first (one backward and two forward passes) and builds full Jacobians only when they
disagree, so a failure is reported in full detail.
"""),
    ("code", """
big = ms.Tensor(np.random.default_rng(0).random((30, 30)) + 0.5)
print(ms.gradcheck(good, (big,)).mode, ms.gradcheck(buggy, (big,), raise_exception=False).worst.worst_input)
"""),
]
