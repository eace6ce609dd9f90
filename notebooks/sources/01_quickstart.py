"""Cells of notebooks/01_quickstart.ipynb: tensors, grad, value_and_grad, Cell and Parameter."""

CELLS = [
    ("md", """
# mskernel quickstart: tensors, gradients, Cells

mskernel speaks MindSpore's API on an ordinary CPU: MindSpore code runs when `mindspore` is
replaced by `mskernel` in its imports, and prints what MindSpore prints. This notebook tours the
foundation every custom operator stands on: `Tensor`, the autograd engine behind `grad` and
`value_and_grad`, and `nn.Cell` with `Parameter`s.
"""),
    ("code", """
import numpy as np
import mskernel as ms
from mskernel import nn, ops

x = ms.Tensor(2.0, ms.float32)
print(ms.grad(lambda a: a * a)(x))
"""),
    ("md", """
## Tensors

A `Tensor` holds a numpy buffer and a MindSpore dtype. `print` shows numpy's text; the repr is
MindSpore's, exactly (scientific notation, `value=` on its own line for matrices).
"""),
    ("code", """
t = ms.Tensor([[1.5, 2.25], [3.0, 4.0]], ms.float64)
print(t)
t
"""),
    ("code", """
print(ms.Tensor(1.0, ms.float32) * 2)
print(repr(ms.Tensor(1.0, ms.float32) * 2))
print(ms.Tensor([1, 2, 3], dtype=ms.int32).dtype, repr(ms.float32))
a = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(a.shape, a.dtype, a.ndim, a.size)
"""),
    ("md", """
Slicing gives strided views that share memory, like numpy — and indexing is differentiable.
Operators follow MindSpore's type promotion (`Int32 + Float16 -> Float16`, `Int32 / 2 -> Float32`).
"""),
    ("code", """
v = a[:, 1::2]
print(v)
print("shares memory:", np.shares_memory(v.asnumpy(), a.asnumpy()), "| stride:", v.stride())
print((ms.Tensor([1, 2], ms.int32) + ms.Tensor([0.5, 0.5], ms.float16)).dtype, (ms.Tensor([1, 2], ms.int32) / 2).dtype)
print(a.sum(), a.mean(axis=0), a.max(), (a @ a.T).shape)
"""),
    ("md", """
## Gradients

`ms.grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False)` returns a function
computing gradients. An int position gives one Tensor, a tuple gives a tuple. Non-scalar outputs
are weighted by ones.
"""),
    ("code", """
f = lambda x, y: (x * y + ops.sin(x)).sum()
x = ms.Tensor([0.0, 1.0, 2.0])
y = ms.Tensor([3.0, 4.0, 5.0])
print(ms.grad(f)(x, y))
dx, dy = ms.grad(f, grad_position=(0, 1))(x, y)
print(dx, dy)
value, grads = ms.value_and_grad(f, grad_position=(0, 1))(x, y)
print(value, grads[1])
"""),
    ("md", """
Gradient functions nest: the engine records the backward pass itself when an outer `grad` is
running, so higher-order derivatives come for free.
"""),
    ("code", """
cube = lambda a: a * a * a
x = ms.Tensor(2.0)
print(ms.grad(cube)(x), ms.grad(ms.grad(cube))(x), ms.grad(ms.grad(ms.grad(cube)))(x))
"""),
    ("md", """
`has_aux=True` differentiates only the first output and hands back the rest;
`return_ids=True` labels each gradient with its position (or parameter name) for `ms.get_grad`.
"""),
    ("code", """
def loss_and_metrics(x):
    loss = (x * x).sum()
    return loss, x.max()

g, aux = ms.grad(loss_and_metrics, has_aux=True)(ms.Tensor([1.0, -3.0]))
print(g, aux)
g = ms.grad(lambda a, b: a * b, (0, 1), return_ids=True)(ms.Tensor(2.0), ms.Tensor(5.0))
print(g)
print(ms.get_grad(g, 1))
"""),
    ("md", """
## Cells and Parameters

`nn.Cell` registers `Parameter`s and sub-cells assigned as attributes. Pass
`net.trainable_params()` as `weights` to get parameter gradients: with positions too, the result
is `(input_grads, weight_grads)`.
"""),
    ("code", """
class WeightedSquare(nn.Cell):
    \"\"\"w * (x - y)**2, with w a Parameter.\"\"\"
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(0.5, ms.float32), name="w")

    def construct(self, x, y):
        d = x - y
        return self.w * d * d

net = WeightedSquare()
value, (input_grads, weight_grads) = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())(
    ms.Tensor(3.0, ms.float32), ms.Tensor(1.0, ms.float32))
print("value:", value)
print("input grads:", input_grads)
print("weight grads:", weight_grads)
"""),
    ("code", """
print(net.w)
print([name for name, _ in net.parameters_and_names()])
"""),
    ("md", """
## Looking at the graph

Every op application is a node in one graph. `ms.autograd.trace` runs a function forward and
backward and returns a plain-data snapshot (ops, shapes, dtypes, gradient statistics) — what the
graph widget draws.
"""),
    ("code", """
w = ms.Parameter(ms.Tensor([0.5, -1.0]), name="w")
snap, grads = ms.autograd.trace(lambda x: (ops.tanh(x * w)).sum(), ms.Tensor([1.0, 2.0]), weights=[w])
print(snap)
for n in snap.nodes:
    if n["stats"]:
        print(f"{n['op']:>10}: |grad| = {n['stats']['douts'][0]['norm']:.4f}")
"""),
    ("md", """
## Errors name the op, the argument, what was expected and what was got
"""),
    ("code", """
for bad in (lambda: ms.Tensor([1.0, 2.0]) + ms.Tensor([1.0, 2.0, 3.0]),
            lambda: ops.exp(ms.Tensor([1, 2])),
            lambda: ms.grad(lambda a: a, grad_position=(0, 0))):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
"""),
]
