"""Cells of notebooks/07_training_with_a_custom_op.ipynb: a custom activation trains inside a network."""

CELLS = [
    ("md", """
# Training with a custom op

A custom operator is written to live inside a network. This tutorial writes an activation as a
`%%custom_op` hybrid cell — no backward written: mskernel derives it from the kernel — puts it in a
MindSpore network next to the built-in activation it imitates, trains both on the same data, checks
the op's gradient inside the network, and saves and reloads a checkpoint in MindSpore's own format —
then carries the op, with the backward mskernel derived, to a file that real MindSpore runs.
Everything below is MindSpore code with `mindspore` replaced by `mskernel` in the imports.
"""),
    ("code", """
import numpy as np
import matplotlib.pyplot as plt
import mskernel as ms
from mskernel import nn, ops, Tensor
import mskernel.dataset as ds

%load_ext mskernel
"""),
    ("md", """
## The op: a smooth ReLU, written in the hybrid DSL

`softrelu(x) = log(1 + exp(x))` computed stably: for large `x` it is `x`, for very negative `x` it is
`exp(x)`. The branch makes the backward interesting to derive.
"""),
    ("code", """
%%custom_op softrelu --quiet
def softrelu(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            v = x[i, j]
            if v > 15.0:
                y[i, j] = v
            else:
                y[i, j] = log(1.0 + exp(v))
    return y
"""),
    ("code", """
print(softrelu.backward_source(Tensor(np.zeros((2, 3), np.float32))))
"""),
    ("md", """
## Two networks that differ only in their activation

The same layers, the same initial weights (seeded), the same data: a noisy three-class problem in
two dimensions.
"""),
    ("code", """
class SoftReLU(nn.Cell):
    def construct(self, x):
        return softrelu(x)

class Softplus(nn.Cell):  # the built-in functional op it imitates
    def construct(self, x):
        return ops.softplus(x)

def make_net(activation):
    ms.set_seed(1)
    return nn.SequentialCell([nn.Dense(2, 32), activation, nn.Dense(32, 32), activation, nn.Dense(32, 3)])

rng = np.random.default_rng(0)
angles = rng.uniform(0, 2 * np.pi, 600)
radius = rng.uniform(0.2, 1.0, 600)
labels = (angles // (2 * np.pi / 3)).astype(np.int32)
features = np.stack([radius * np.cos(angles), radius * np.sin(angles)], 1).astype(np.float32)
features += rng.normal(0, 0.05, features.shape).astype(np.float32)
train = ds.NumpySlicesDataset({"x": features[:500], "y": labels[:500]}, shuffle=False).batch(50)
test = ds.NumpySlicesDataset({"x": features[500:], "y": labels[500:]}, shuffle=False).batch(100)
print(train.get_dataset_size(), "batches of", train.get_batch_size())
"""),
    ("code", """
# NBVAL_IGNORE_OUTPUT
import ipywidgets as widgets
from IPython.display import display

def fit(net, epochs=20):
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    bar = widgets.IntProgress(min=0, max=epochs, description="epochs")
    display(bar)
    history = []
    for epoch in range(epochs):
        total = 0.0
        for x, y in train.create_tuple_iterator():
            loss, grads = grad_fn(x, y)
            opt(grads)
            total += float(loss.asnumpy())
        history.append(total / train.get_dataset_size())
        bar.value = epoch + 1
    return history

custom_net, builtin_net = make_net(SoftReLU()), make_net(Softplus())
custom_loss = fit(custom_net)
builtin_loss = fit(builtin_net)
"""),
    ("code", """
print("final loss  custom %.4f  built-in %.4f" % (custom_loss[-1], builtin_loss[-1]))
print("same curve to 1e-4:", np.allclose(custom_loss, builtin_loss, atol=1e-4))
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(custom_loss, label="softrelu (%%custom_op, derived backward)")
ax.plot(builtin_loss, "--", label="ops.softplus (built-in)")
ax.set_xlabel("epoch"); ax.set_ylabel("training loss"); ax.legend(); plt.show()
"""),
    ("md", """
The two curves lie on top of each other: the derived backward of the hybrid kernel is the built-in
`ops.softplus`'s gradient. Accuracy on held-out points:
"""),
    ("code", """
def accuracy(net):
    x, y = next(test.create_tuple_iterator())
    return float((net(x).argmax(axis=1) == y).astype(ms.float32).mean().asnumpy())

print("accuracy  custom %.3f  built-in %.3f" % (accuracy(custom_net), accuracy(builtin_net)))
"""),
    ("md", """
## The op's gradient, checked inside the trained network

`ms.gradcheck` compares the engine's gradient of the whole network's loss (through the custom op)
with central differences, in float64.
"""),
    ("code", """
x0 = Tensor(features[:4].astype(np.float64))
w = custom_net[0].weight
report = ms.gradcheck(lambda x: custom_net[1](ops.matmul(x, ops.cast(w, ms.float64).T)), (x0,))
print(report.passed, report)
"""),
    ("md", """
## Save, reload, same predictions

`save_checkpoint` writes MindSpore's `.ckpt` (protobuf) format: real MindSpore loads this file too.
"""),
    ("code", """
import os
import tempfile
path = os.path.join(tempfile.mkdtemp(), "softrelu_net.ckpt")
ms.save_checkpoint(custom_net, path)
params = ms.load_checkpoint(path)
print(sorted(params))
fresh = make_net(SoftReLU())
print(ms.load_param_into_net(fresh, params))
x, _ = next(test.create_tuple_iterator())
print("same predictions:", np.array_equal(fresh(x).asnumpy(), custom_net(x).asnumpy()))
"""),
    ("md", """
## Carry the op to MindSpore

The prototype is not the goal: the op must end up in a MindSpore model on a GPU. First the derived
backward, checked once more with the gradcheck view (analytic against numerical Jacobian, in
float64):
"""),
    ("code", """
from mskernel.widgets import GradCheckView
x64 = Tensor(np.linspace(-6.0, 20.0, 12).reshape(3, 4))  # both branches of the kernel
view = GradCheckView(lambda a: softrelu(a), (x64,))
view
"""),
    ("md", """
`%custom_op_export NAME PATH` (or `ms.export_mindspore(op, path)`) writes one Python file that
imports only `mindspore`: the kernel as `forward` (your code under MindSpore's `@kernel`), the
backward mskernel derived as `backward` (a `# line N:` comment above each part quotes the forward
line it comes from), and `op = ops.Custom(forward, ..., func_type="hybrid", bprop=...)` with a
`CustomRegOp` registration. The backward is made for one signature (dtypes and ranks): `softrelu`
ran with float32 (training) and float64 (the check), so `--example` picks float32. What cannot
carry over -- `--debug`, an intrinsic MindSpore's DSL lacks on a target, a loop over several names --
is refused with its line and what to write instead.
"""),
    ("code", """
export_dir = tempfile.mkdtemp()
%custom_op_export softrelu {export_dir} --example "(Tensor(np.zeros((2, 3), np.float32)),)"
"""),
    ("code", """
print(open(os.path.join(export_dir, "softrelu.py")).read())
"""),
    ("md", """
In MindSpore the file is imported like any module (`from softrelu import op`) and `op` trains as
`softrelu` did here. This repository's tests run such exported files in MindSpore 2.10's own CPU
wheel -- `forward` and `backward` through its `@kernel` emulator, `op` with its bprop through its
autograd -- and compare with mskernel (`tests/golden/export`).
"""),
]
