"""Cells of notebooks/05_custom_op_magics.ipynb: the %%custom_op cell magics.

Every kernel here is this project's own (MindSpore's tutorials are run by tests/seeds, which reads them from
../shared/seeds). The C++ Function op is docs/howto/examples/ratio_ops.cpp, read from there when the notebook
is built; a tutorial must show its code in full, so kernels that docs or tests also use appear here again:
such `duplicates` pairs are intended.
"""
from pathlib import Path

RATIO_CPP = (Path(__file__).resolve().parents[2] / "docs" / "howto" / "examples" / "ratio_ops.cpp").read_text()

CELLS = [
    ("md", """
# Kernels in cells: the `%%custom_op` magics

`%load_ext mskernel` gives three magics:

* `%%custom_op NAME [options]` — write a kernel in a cell (the hybrid DSL, or C++), get a
  differentiable op `NAME` in place. Re-running an edited cell replaces `NAME`; an unchanged
  cell comes from the build cache; a failing edit shows the error at the cell's line and leaves
  the previous `NAME` working. With `--example INPUTS` its gradients are checked as it is bound.
* `%custom_op_info NAME` — what `NAME` is, its signature, its cache entry, its source.
* `%gradcheck op(x, y)` — the op's gradients against finite differences.

`%%custom_op?` lists every option. Line numbers in errors are the cell's: the `%%custom_op` line
is line 1.
"""),
    ("code", """
%load_ext mskernel
import numpy as np
import mskernel as ms
from mskernel import Parameter, Tensor, nn
"""),
    ("md", """
## A hybrid kernel and its bprop

`smoothstep` eases from 0 at `x = 0` to 1 at `x = 1` (the cubic `3x² − 2x³`), and `smoothstep_grad`
is its derivative times the incoming gradient — both kernels in one cell. No decorator, no
`ops.Custom(...)`: the cell's kernel named like the op becomes the op, and `--bprop` names the
gradient: a kernel of the cell taking `(x, dout)` (or `(x, out, dout)`), or a Python
`bprop(x, out, dout)`. The summary's timing changes from run to run, so this cell's output is not
compared.
"""),
    ("code", """
%%custom_op smoothstep --bprop smoothstep_grad
# NBVAL_IGNORE_OUTPUT
def smoothstep(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * (3.0 - 2.0 * x[i])
    return y

def smoothstep_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 6.0 * x[i] * (1.0 - x[i]) * dout[i]
    return dx
"""),
    ("code", """
x = ms.Tensor(np.array([0.0, 0.25, 0.5, 1.0], np.float32))
print(smoothstep(x))
print(ms.grad(smoothstep)(x))
print(smoothstep_grad(np.array([0.5, 2.0], np.float32), np.ones(2, np.float32)))  # kernels stay Python on numpy
"""),
    ("code", """
x64 = np.array([0.5, -1.5, 2.0])
%gradcheck smoothstep(x64)
"""),
    ("md", """
## Gradients checked as the op is bound

Give a cell `--example` inputs and its op's gradients are checked the moment it is bound: the
summary's second line says so. A hybrid kernel is dtype-generic, so the check compiles it for
float64 too and compares its gradients with central differences there, with tight tolerances; for
inputs in float32 or float16 it then compares the run in your dtype with the float64 run. The
expression needs no quotes: everything after `--example` up to the next option is one expression
(a name from the notebook works too). `softclip` has no `--bprop`: its backward is derived from the
kernel, and checked the same way.
"""),
    ("code", """
%%custom_op softclip --example (ms.Tensor(np.linspace(-3, 3, 7).astype(np.float32)),)
def softclip(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] / (1.0 + abs(x[i]))
    return y
"""),
    ("md", """
A bprop that is wrong is named at once: the input, the worst element, both values, and that it is
wrong at every step size tried (a disagreement that goes away at a smaller or larger step is
truncation or rounding, not a wrong gradient). The op stays bound, so you can look into it: under the
summary, the gate's report opens in a compact gradient-check view (move its eps slider, or fix the
cell and run it again). `ease` is `smoothstep` again, and `ease_grad` forgot the factor 6.
"""),
    ("code", """
%%custom_op ease --bprop ease_grad --example np.array([0.2, 0.5, 0.9], np.float32)
def ease(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[i] * (3.0 - 2.0 * x[i])
    return y

def ease_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = x[i] * (1.0 - x[i]) * dout[i]
    return dx
"""),
    ("md", """
Right in float64 is not yet right in float16. This root mean square adds the squares first; its
gradients pass in float64, but with float16 inputs around 20 the sum of squares passes float16's
largest number, 65504, and the result is `inf`: the gate compares the float16 run with the float64
one and says where.
"""),
    ("code", """
%%custom_op rms --example ms.Tensor(np.linspace(10, 30, 300).astype(np.float16))
def rms(x):
    y = output_tensor((1,), x.dtype)
    s = 0.0
    for i in range(x.shape[0]):
        s = s + x[i] * x[i]
    y[0] = sqrt(s / x.shape[0])
    return y
"""),
    ("md", """
Dividing each square by the count as it is added keeps every partial sum in range; the same cell,
edited, passes in both dtypes. (`--no-gradcheck` turns the gate off for a cell; without `--example`
the summary says the gradients are unchecked and how to check them.)
"""),
    ("code", """
%%custom_op rms --example ms.Tensor(np.linspace(10, 30, 300).astype(np.float16))
def rms(x):
    y = output_tensor((1,), x.dtype)
    s = 0.0
    for i in range(x.shape[0]):
        s = s + x[i] * x[i] / x.shape[0]
    y[0] = sqrt(s)
    return y
"""),
    ("md", """
## A failing edit

An edit that breaks the kernel is reported at the cell's own line, before anything is compiled,
and `smoothstep` stays the op of the last run that worked. `%tb` right after shows the full
traceback, for those who want it.
"""),
    ("code", """
%%custom_op smoothstep --bprop smoothstep_grad
# NBVAL_RAISES_EXCEPTION
def smoothstep(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = x[i] * x[k] * (3.0 - 2.0 * x[i])
    return y

def smoothstep_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        dx[i] = 6.0 * x[i] * (1.0 - x[i]) * dout[i]
    return dx
"""),
    ("code", """
print(ms.grad(smoothstep)(x))  # still the working op
"""),
    ("md", """
## A C++ `Function` op as a cell

A cell holding a `Function<T>` class and a `PYBIND11_MODULE` is built as a module and bound to the
cell's name: here `Ratio` (`x / y`, its backward in C++) from notebook 03, as module `ratio_ops`, used
by a Cell with a `Parameter`. `--backend Ascend` is accepted and builds for the CPU. A cold build takes
a few seconds and shows its stage and elapsed time while it runs (`--quiet` here keeps the stored
notebook free of timings); interrupting the kernel stops the compiler, and the next run works.
"""),
    ("code", "%%custom_op ratio_ops --backend Ascend --quiet\n" + RATIO_CPP),
    ("code", """
class Normalised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(0.5, ms.float32), name="w")

    def construct(self, x, y):
        return ratio_ops.ratio(ratio_ops.ratio(x, y), self.w)

net = Normalised()
value, (input_grads, weight_grads) = ms.value_and_grad(net, (0, 1), net.trainable_params())(
    Tensor(3.0, ms.float32), Tensor(2.0, ms.float32))
print("value:", value)
print("d/dx, d/dy:", input_grads)
print("d/dw:", weight_grads)
"""),
    ("md", """
## Two plain C++ functions, one differentiable op

Without writing `Function<T>`: `--forward F --backward B` binds two functions of the cell
(`ms::Tensor` in, `ms::Tensor` out) into one op. `B` receives the inputs, the output and the
output's gradient, like a bprop. With no `PYBIND11_MODULE` in the cell, the bindings are added for
you.
"""),
    ("code", """
%%custom_op cube --forward cube --backward cube_grad --quiet
#include "ms_extension.h"

ms::Tensor cube(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>();
  double *o = out.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) o[i] = a[i] * a[i] * a[i];
  return out;
}

ms::Tensor cube_grad(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  ms::Tensor dx(x.data_type(), x.shape());
  const double *a = x.data_ptr<double>(), *d = dout.data_ptr<double>();
  double *g = dx.data_ptr<double>();
  for (size_t i = 0; i < x.numel(); ++i) g[i] = 3.0 * a[i] * a[i] * d[i];
  return dx;
}
"""),
    ("code", """
xd = ms.Tensor(np.array([1.0, 2.0, -3.0]))
print(cube(xd))
print(ms.grad(cube)(xd))
%gradcheck cube(xd)
"""),
    ("md", """
## What is bound

`%custom_op_info` shows the kind, the signature, the cache entry (an unchanged cell is loaded from
it without running the compiler; `--force` rebuilds) and the source. Its paths and keys depend
on the machine, so this output is not compared.
"""),
    ("code", """
# NBVAL_IGNORE_OUTPUT
%custom_op_info cube
"""),
]
