"""Cells of notebooks/05_custom_op_magics.ipynb: the %%custom_op cell magics.

The cells show the seed tutorials' code (tests/seeds/) as a user writes it, and some kernels that the
tests and benchmarks also use: a tutorial must show its code in full, so `duplicates` pairs between
these cells and tests/seeds, tests or benchmarks are intended.
"""

SEED_CPP = r"""
#include <string>
#include "ms_extension.h"

namespace mindspore::pynative {
namespace autograd {
ShapeVector BroadcastInferShape(const BaseTensorPtr &t1, const BaseTensorPtr &t2) {
  ShapeVector s1 = t1->shape();
  ShapeVector s2 = t2->shape();
  ShapeVector out_shape(std::max(s1.size(), s2.size()), 1LL);
  if (out_shape.empty()) {
    return out_shape;
  }
  for (size_t i = out_shape.size(); i > 0; i--) {
    if (i <= s1.size() && s1[s1.size() - i] > 1) {
      out_shape[out_shape.size() - i] = s1[s1.size() - i];
    } else if (i <= s2.size() && s2[s2.size() - i] > 1) {
      out_shape[out_shape.size() - i] = s2[s2.size() - i];
    }
  }
  return out_shape;
}

class CustomMul : public Function<CustomMul> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    auto output = std::make_shared<BaseTensor>(x->data_type(), BroadcastInferShape(x, y));
    custom::CustomLaunchAclnn("aclnnMul", {x, y}, {output});
    bool x_require_grad = ctx->NeedGrad(x);
    bool y_require_grad = ctx->NeedGrad(y);
    if (x_require_grad || y_require_grad) {
      ctx->SaveForBackward({x_require_grad ? y : nullptr, y_require_grad ? x : nullptr});
    }
    return output;
  }

  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grad_outputs) {
    auto saved = ctx->GetSavedTensors();
    auto dout = grad_outputs[0];
    BaseTensorPtr grad_x = nullptr;
    BaseTensorPtr grad_y = nullptr;
    if (ctx->NeedsInputGrad(0)) {
      grad_x = std::make_shared<BaseTensor>(dout->data_type(), BroadcastInferShape(dout, saved[0]));
      custom::CustomLaunchAclnn("aclnnMul", {dout, saved[0]}, {grad_x});
    }
    if (ctx->NeedsInputGrad(1)) {
      grad_y = std::make_shared<BaseTensor>(dout->data_type(), BroadcastInferShape(dout, saved[1]));
      custom::CustomLaunchAclnn("aclnnMul", {dout, saved[1]}, {grad_y});
    }
    return {grad_x, grad_y};
  }
};

BaseTensorPtr run_custom_mul(const tensor::BaseTensorPtr &x, const tensor::BaseTensorPtr &y) {
  return CustomMul::Apply(x, y);
}
}  // namespace autograd
}  // namespace mindspore::pynative

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("mul", &mindspore::pynative::autograd::run_custom_mul, "Calculate the value x multiplied by y.");
}
""".strip("\n")

CELLS = [
    ("md", """
# Kernels in cells: the `%%custom_op` magics

`%load_ext mskernel` gives three magics:

* `%%custom_op NAME [options]` — write a kernel in a cell (the hybrid DSL, or C++), get a
  differentiable op `NAME` in place. Re-running an edited cell replaces `NAME`; an unchanged
  cell comes from the build cache; a failing edit shows the error at the cell's line and leaves
  the previous `NAME` working.
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

The tutorial's akg `square` and its gradient kernel, as one cell. No decorator, no
`ops.Custom(...)`: the cell's kernel named like the op becomes the op, and `--bprop` names the
gradient — a kernel of the cell taking `(x, dout)` as in the tutorial (or `(x, out, dout)`), or a
Python `bprop(x, out, dout)`. (The tutorial's forward reads its own uninitialised output; this
one squares `x`.) The summary's timing changes from run to run, so this cell's output is not
compared.
"""),
    ("code", """
%%custom_op square --bprop square_grad
# NBVAL_IGNORE_OUTPUT
def square(x):
    y = output_tensor(x.shape, x.dtype)
    for i0 in range(x.shape[0]):
        y[i0] = x[i0] * x[i0]
    return y

def square_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i0 in range(x.shape[0]):
        dx[i0] = 2.0 * x[i0]
    for i0 in range(x.shape[0]):
        dx[i0] = dx[i0] * dout[i0]
    return dx
"""),
    ("code", """
x = ms.Tensor(np.array([1.0, 4.0, 9.0]).astype(np.float32))
print(square(x))
print(ms.grad(square)(x))
print(square_grad(np.array([1.0, 2.0], np.float32), np.ones(2, np.float32)))  # kernels stay Python on numpy
"""),
    ("code", """
x64 = np.array([0.5, -1.5, 2.0])
%gradcheck square(x64)
"""),
    ("md", """
## A failing edit

An edit that breaks the kernel is reported at the cell's own line, before anything is compiled,
and `square` stays the op of the last run that worked. `%tb` right after shows the full
traceback, for those who want it.
"""),
    ("code", """
%%custom_op square --bprop square_grad
# NBVAL_RAISES_EXCEPTION
def square(x):
    y = output_tensor(x.shape, x.dtype)
    for i0 in range(x.shape[0]):
        y[i0] = x[i0] * x[k]
    return y

def square_grad(x, dout):
    dx = output_tensor(x.shape, x.dtype)
    for i0 in range(x.shape[0]):
        dx[i0] = 2.0 * x[i0] * dout[i0]
    return dx
"""),
    ("code", """
print(ms.grad(square)(x))  # still the working op
"""),
    ("md", """
## The C++ `Function` tutorial as a cell

The tutorial's `CustomMul` (forward and backward in one C++ class) is the cell; the module is
built as `my_ops` and bound to that name, so the tutorial's network runs as written. A cold build
takes a few seconds and shows its stage and elapsed time while it runs (`--quiet` here keeps the
stored notebook free of timings); interrupting the kernel stops the compiler, and the next run
works.
"""),
    ("code", "%%custom_op my_ops --backend Ascend --quiet\n" + SEED_CPP),
    ("code", """
class MyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(2.0, requires_grad=True)
        self.my_ops = my_ops

    def construct(self, x, y):
        z = self.my_ops.mul(x, y)
        return self.my_ops.mul(z, self.p)


x = Tensor(1.0, ms.float32) * 2
y = Tensor(1.0, ms.float32) * 3
net = MyNet()
grad_op = ms.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())
out, grads = grad_op(x, y)
print('out:', out)
print('grads[0]:', grads[0])
print('grads[1]:', grads[1])
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
