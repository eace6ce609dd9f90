"""Cells of notebooks/03_cpp_operators.ipynb: CustomOpBuilder, the Function interface, AOT.

The cells show the seed tutorials' code (tests/seeds/) as a user writes it, and some kernels that the
tests and benchmarks also use: a tutorial must show its code in full, so `duplicates` pairs between
these cells and tests/seeds, tests or benchmarks are intended.
"""

CELLS = [
    ("md", """
# C++ operators: CustomOpBuilder, the Function interface, AOT kernels

MindSpore's `Function` interface (forward and backward in one C++ class, with an
`AutogradContext`) ships for Ascend only, and its `CustomOpBuilder` caches by name, so an edited
source needs a process restart. mskernel builds the same source on any CPU, records the op in
the same autograd graph as Python ops, reloads edits in place, and shows compile errors at your
line.
"""),
    ("code", """
import os, tempfile
import numpy as np
import mskernel as ms
from mskernel import Tensor, Parameter, nn, ops
from mskernel.ops import CustomOpBuilder

# the tutorial's C++ (its <...> template arguments restored), copied to ./custom_src as in the tutorial
with open(os.path.join("..", "tests", "seeds", "function_ops.cpp")) as f:
    SEED_CPP = f.read()
workdir = tempfile.mkdtemp()
os.makedirs(os.path.join(workdir, "custom_src"))
with open(os.path.join(workdir, "custom_src", "function_ops.cpp"), "w") as f:
    f.write(SEED_CPP)
os.chdir(workdir)
print(SEED_CPP[SEED_CPP.index("class CustomMul"):SEED_CPP.index("BaseTensorPtr run_custom_mul")])
"""),
    ("md", """
## The tutorial, unchanged

The C++ above is from the tutorial's `function_ops.cpp` (`class CustomMul : public Function<CustomMul>`,
`custom::CustomLaunchAclnn("aclnnMul", ...)`). Its Python runs with `mindspore` replaced by
`mskernel`; `backend="Ascend"` builds for the CPU (with a one-time warning), and the aclnn call
runs mskernel's CPU implementation.
"""),
    ("code", """
class MyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(2.0, requires_grad=True)
        self.my_ops = CustomOpBuilder("my_ops", ['./custom_src/function_ops.cpp'], backend="Ascend").load()

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
## C++ and Python ops in one graph

`CustomMul::Apply` records a node in mskernel's engine — the same graph built-in and Custom ops
join — so gradients flow through mixed chains and `gradcheck` verifies the C++ backward.
"""),
    ("code", """
my_ops = net.my_ops
snap, _ = ms.autograd.trace(lambda a, b: ops.sin(my_ops.mul(a * 2, b)).sum(),
                            Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), grad_position=(0, 1))
for n in snap.nodes:
    print(n["id"], n["op"], n["kind"])
print(ms.gradcheck(lambda a, b: my_ops.mul(a, b) * a, (Tensor([0.5, 1.5]), Tensor([2.0, -1.0]))))
"""),
    ("md", """
## Edit, re-run, no restart

Change the source and call `load()` again: the new code is built (into a content-addressed
cache) and loaded as a new module in the same process. Building an unchanged source again loads
from the cache without calling the compiler.
"""),
    ("code", """
scaled = SEED_CPP.replace('custom::CustomLaunchAclnn("aclnnMul", {x, y}, {output});',
                          'custom::CustomLaunchAclnn("aclnnMul", {x, y}, {output});\\n'
                          '    custom::CustomLaunchAclnn("aclnnAdd", {output, output}, {output});')
with open("custom_src/function_ops.cpp", "w") as f:
    f.write(scaled)
doubled = CustomOpBuilder("my_ops", ['./custom_src/function_ops.cpp']).load()
print(doubled.mul(Tensor([2.0]), Tensor([3.0])), my_ops.mul(Tensor([2.0]), Tensor([3.0])))
again = CustomOpBuilder("my_ops", ['./custom_src/function_ops.cpp']).load()
print("same module object:", again is doubled)
"""),
    ("md", """
## Compile errors point at your line

A build failure raises `BuildError`: the first error mapped to your file and line, the line
itself, and (in `e.log`) the compiler's full output. Sources can also be given inline.
"""),
    ("code", """
from mskernel.toolchain import BuildError

broken = '''#include "ms_extension/api.h"
ms::Tensor twice(const ms::Tensor &x) {
  return x * 2;
}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("twice", &twice); }
'''
try:
    CustomOpBuilder("broken_op", broken).load()
except BuildError as e:
    print(e.location.file, "line", e.location.line)
    print(e.location.source_line)
"""),
    ("md", """
## MindSpore 2.7's `ms::Tensor` and `PyboostRunner`

MindSpore's CPU example: a runner with a workspace, launched through `PyboostRunner::Call`.
"""),
    ("code", """
add3_src = '''#include "ms_extension/api.h"
class CustomAdd3 : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(int32_t); }
  void LaunchKernel() override {
    auto &x = inputs()[0], &y = inputs()[1], &z = inputs()[2], &out = outputs()[0];
    auto *tmp = static_cast<int32_t *>(workspace_ptr());
    const int32_t *xp = static_cast<const int32_t *>(x.GetDataPtr());
    const int32_t *yp = static_cast<const int32_t *>(y.GetDataPtr());
    const int32_t *zp = static_cast<const int32_t *>(z.GetDataPtr());
    int32_t *op = static_cast<int32_t *>(out.GetDataPtr());
    for (size_t i = 0; i < x.numel(); ++i) tmp[i] = xp[i] + yp[i];
    for (size_t i = 0; i < x.numel(); ++i) op[i] = tmp[i] + zp[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &z) {
    auto out = ms::Tensor(x.data_type(), x.shape());
    auto runner = std::make_shared<CustomAdd3>("Add3");
    runner->Run({x, y, z}, {out});
    return out;
  }
};
py::object pyboost_add3(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &z) {
  return ms::pynative::PyboostRunner::Call<1>(CustomAdd3::Eval, x, y, z);
}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("add3", &pyboost_add3, "x + y + z"); }
'''
my_add = CustomOpBuilder("cpu_add", add3_src, backend="CPU").load()
print(my_add.add3(Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32), Tensor([5, 6], ms.int32)))
"""),
    ("md", """
## AOT kernels: MindSpore's C ABI

`ops.Custom("file.cc:Func", ..., func_type="aot")` builds the source through the same build
layer. Attributes come from the operator information (`value=`) or from the call (after the
tensors), and reach the kernel through `AotExtra`.
"""),
    ("code", """
aot_src = '''#include <cstdint>
#include "custom_aot_extra.h"
extern "C" int ScaledAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
                         void *stream, void *extra) {
  float scale = static_cast<AotExtra *>(extra)->Attr<float>("scale");
  float *x = static_cast<float *>(params[0]), *y = static_cast<float *>(params[1]);
  float *out = static_cast<float *>(params[2]);
  int64_t n = 1;
  for (int i = 0; i < ndims[0]; ++i) n *= shapes[0][i];
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] + scale * y[i];
  return 0;
}
'''
with open("scaled_add.cc", "w") as f:
    f.write(aot_src)
info = (ops.CustomRegOp("scaled_add").input(0, "x").input(1, "y").output(0, "out")
        .attr("scale", "required", "float")
        .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default, ops.DataType.F32_Default)
        .target("CPU").get_op_info())
scaled_add = ops.Custom("./scaled_add.cc:ScaledAdd", lambda x, y, s: x, lambda x, y, s: x, "aot", reg_info=info)
print(scaled_add(Tensor([1.0, 2.0]), Tensor([10.0, 20.0]), 0.5))
"""),
]
