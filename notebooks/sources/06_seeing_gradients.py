"""Cells of notebooks/06_seeing_gradients.ipynb: the gradient-check view and the graph view."""

CELLS = [
    ("md", """
# Seeing gradients: where numerical and analytic gradients disagree, and the graph behind a result

Two views in `mskernel.widgets`:

* `GradCheckView(fn, inputs)` runs `ms.gradcheck` and draws, per input, the analytic and the
  numerical Jacobian and their error relative to the tolerance (white to grey while an element
  passes, red when it fails, so round-off on a passing check stays calm), a table of the worst
  elements that differ and a pass/fail badge. The eps slider and the tolerance fields
  recompute the check; *re-run* checks again after you edited the op.
* `ms.show_graph(fn, *inputs)` runs `fn` (a function or Cell) once and draws its autograd graph:
  built-in ops, Custom ops, C++ `Function` ops, inputs and the Parameters it reads, with shapes,
  dtypes and gradient statistics (every float input and Parameter is traced; no `requires_grad`
  needed); NaN/Inf and all-zero gradients are flagged in colour.
  Pick a node in the list (or click it) to see its details; a long label wraps inside its box.

Both are widgets in Jupyter, and render as HTML (and text) where no widget front end runs.
"""),
    ("code", """
import os
import numpy as np
import mskernel as ms
from mskernel import Tensor, Parameter, nn, ops
from mskernel.widgets import GradCheckView
"""),
    ("md", """
## A wrong bprop, found

`softplus(x) = log(1 + exp(x))` as a `pyfunc` Custom op. Its derivative is the logistic sigmoid
`1 / (1 + exp(-x))`; the bprop below returns `exp(x) / (1 + exp(x))**2` instead (the sigmoid's
own derivative, a slip that is easy to make and hard to spot by reading).
"""),
    ("code", """
def softplus_np(x):
    return np.log1p(np.exp(x))

def wrong_bprop(x, out, dout):
    e = ops.exp(x)
    return (dout * e / ((1 + e) * (1 + e)),)

softplus = ops.Custom(softplus_np, lambda s: s, lambda d: d, func_type="pyfunc", bprop=wrong_bprop)
x = Tensor(np.array([-2.0, -0.5, 0.0, 0.5, 2.0]))
view = GradCheckView(lambda a: softplus(a), (x,))
view
"""),
    ("md", """
The badge says FAILED, and by which tolerances: the row of `mskernel.gradcheck.TOLERANCES` for the
dtype the check ran in (float64 here: torch's eps 1e-6, atol 1e-5, rtol 1e-3), with each failing
element tried again at steps from eps/4 to 4 eps before it is called wrong. The heatmaps show the
Jacobian is diagonal (each output depends on its own input) and the error panel is red on every
diagonal element: each is far over the tolerance, at every step. The table lists them worst first;
the worst element in numbers:
"""),
    ("code", """
print("elements over tolerance:", view.bad_elements())
worst = view.report.worst
print(f"worst: d out{list(worst.worst_output[1])} / d x{list(worst.worst_input)}: "
      f"analytic {worst.analytic_value:.6f}, numerical {worst.numerical_value:.6f}")
"""),
    ("md", """
## Fixed, and re-run

Redefine the op with the right bprop and press *re-run* (here: `view.rerun.click()`); the view's
function looks `softplus` up again, so the fix is picked up without building a new view.
"""),
    ("code", """
def right_bprop(x, out, dout):
    return (dout / (1 + ops.exp(-x)),)

softplus = ops.Custom(softplus_np, lambda s: s, lambda d: d, func_type="pyfunc", bprop=right_bprop)
view.rerun.click()
print(view.report)
"""),
    ("md", """
Moving the eps slider recomputes the numerical side at that step alone (no sweep around it: the
slider is a lens on one step): a step of 1e-2 still passes, with an error that grows like eps² (the
central difference's truncation error).
"""),
    ("code", """
view.eps.value = 1e-2
print(view.report)
print("checks run by this view:", view.runs)
"""),
    ("md", """
## The graph of a network with a C++ `Function` op

`Ratio` (`x / y` with its backward in C++: `docs/howto/examples/ratio_ops.cpp`, written in notebook 03)
twice in a Cell, `(x / y) / w`, traced with gradient statistics. The two `Ratio` nodes are C++
`Function` ops; `w` is the Cell's Parameter.
"""),
    ("code", """
from mskernel.ops import CustomOpBuilder

class Normalised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(0.5, ms.float32), name="w")
        self.ratio_ops = CustomOpBuilder("ratio_ops", [os.path.join("..", "docs", "howto", "examples",
                                                                    "ratio_ops.cpp")]).load()

    def construct(self, x, y):
        return self.ratio_ops.ratio(self.ratio_ops.ratio(x, y), self.w)

net = Normalised()
snap, grads = ms.autograd.trace(net, Tensor(3.0), Tensor(2.0), grad_position=(0, 1), weights=net.trainable_params())
print("grads:", [float(g.asnumpy()) for g in grads])
ms.show_graph(snap)
"""),
    ("md", """
## A small Cell with Parameters

A dense layer with a ReLU: the Parameters appear by name. The ReLU is dead for some units here,
so part of `w`'s gradient is zero — a zero gradient on a whole tensor would be flagged in orange.
"""),
    ("code", """
class Dense(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = Parameter(Tensor(rng.standard_normal((3, 4)).astype(np.float32)), name="w")
        self.b = Parameter(Tensor(np.zeros(4, np.float32)), name="b")

    def construct(self, x):
        return ops.relu(ops.matmul(x, self.w) + self.b)

dense = Dense()
inp = Tensor(np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32))
graph = ms.show_graph(lambda v: (dense(v) ** 2).mean(), inp)
graph
"""),
    ("md", """
Selecting a node (in the list, or with `select`) shows its details: kinds, shapes, op facts and
gradient statistics.
"""),
    ("code", """
graph.select("n1")
print(graph.selected, graph.nodes.label)
"""),
    ("md", """
## Big graphs stay readable

A residual tanh layer applied 100 times gives about 400 nodes; the view collapses linear chains and
repeated ops in a layer, then bands of layers (dashed boxes say how many nodes they hold), so at
most `max_nodes` boxes are drawn.
"""),
    ("code", """
square_dense = Dense()
square_dense.w = Parameter(Tensor(np.eye(3, 4, dtype=np.float32) * 0.9), name="w")

def deep(v):
    w3 = square_dense.w[:, :3]
    h = v
    for _ in range(100):
        h = h + ops.tanh(ops.matmul(h, w3)) * 0.1
    return h.sum()

snap, _ = ms.autograd.trace(deep, inp, weights=[square_dense.w])
big = ms.show_graph(snap, max_nodes=60)  # the default is 150
print(len(snap.nodes), "nodes drawn as", len(big.graph_layout.boxes), "boxes;", big.graph_layout.collapsed)
big
"""),
]
