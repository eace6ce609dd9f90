"""Cells of notebooks/03_cpp_operators.ipynb: CustomOpBuilder, the Function interface, AOT.

Every kernel here is this project's own (MindSpore's tutorials are run by tests/seeds, which reads them from
../shared/seeds). The C++ Function op is docs/howto/examples/ratio_ops.cpp, read from there when the notebook
is built; a tutorial must show its code in full, so the AOT kernel (docs/howto/examples/scaled_add.cc) appears
here again: such `duplicates` pairs with docs, tests or benchmarks are intended.
"""

from pathlib import Path

RATIO_CPP = (Path(__file__).resolve().parents[2] / "docs" / "howto" / "examples" / "ratio_ops.cpp").read_text()

CELLS = [
    ("md", """
# C++ operators: CustomOpBuilder, the Function interface, AOT kernels

MindSpore's `Function` interface puts an op's forward and backward in one C++ class, with an
`AutogradContext` carrying what the backward needs; MindSpore ships it for Ascend only, and its
`CustomOpBuilder` caches by name, so an edited source needs a process restart. mskernel builds the
same kind of source on any CPU, records the op in the same autograd graph as Python ops, reloads edits
in place, and shows compile errors at your line.
"""),
    ("code", """
import os
import tempfile
import mskernel as ms
from mskernel import Tensor, Parameter, nn, ops
from mskernel.ops import CustomOpBuilder

os.chdir(tempfile.mkdtemp())  # a scratch directory for the sources this notebook writes
os.makedirs("custom_src")
"""),
    ("md", """
## A `Function` op: `x / y` and its gradient

`Ratio` divides elementwise. `Forward` computes the quotient with an aclnn call (on Ascend a device
kernel; here mskernel's CPU implementation of the same API) and saves what the backward reads, but only
when some input needs a gradient (`NeedGrad`). `Backward` receives the gradient of the output and
returns one gradient per input, `nullptr` where `NeedsInputGrad` says none is wanted. `Ratio::Apply`
runs `Forward` and records the op; pybind11 binds the function that calls it. The cell writes the source
to `custom_src/ratio_ops.cpp`.
"""),
    ("code", "ratio_src = r\'\'\'" + RATIO_CPP + "\'\'\'\n"  # docs/howto/examples/ratio_ops.cpp
             'with open("custom_src/ratio_ops.cpp", "w") as f:\n'
             "    f.write(ratio_src)\n"),
    ("md", """
## Built and used as in MindSpore

`CustomOpBuilder(name, sources, backend=...).load()` compiles the source and imports the module.
`backend="Ascend"` is accepted and builds for the CPU (with a one-time warning), so code written for
Ascend runs unchanged. Below, a Cell divides by a `Parameter`; `value_and_grad` with input positions and
the Cell's weights returns the value, then the input gradients and the weight gradients.
"""),
    ("code", """
class Normalised(nn.Cell):
    \"\"\"(x / y) / w, with w a trainable Parameter.\"\"\"
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(0.5, ms.float32), name="w")
        self.ratio_ops = CustomOpBuilder("ratio_ops", ["custom_src/ratio_ops.cpp"], backend="Ascend").load()

    def construct(self, x, y):
        return self.ratio_ops.ratio(self.ratio_ops.ratio(x, y), self.w)

net = Normalised()
value, (input_grads, weight_grads) = ms.value_and_grad(net, (0, 1), net.trainable_params())(
    Tensor(3.0, ms.float32), Tensor(2.0, ms.float32))
print("value:", value)
print("d/dx, d/dy:", input_grads)
print("d/dw:", weight_grads)
"""),
    ("md", """
## C++ and Python ops in one graph

`Ratio::Apply` records a node in mskernel's engine — the same graph built-in and Custom ops join —
so gradients flow through mixed chains, and `gradcheck` verifies the C++ backward against finite
differences.
"""),
    ("code", """
ratio_ops = net.ratio_ops
snap, _ = ms.autograd.trace(lambda a, b: ops.sin(ratio_ops.ratio(a * 2, b)).sum(),
                            Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), grad_position=(0, 1))
for n in snap.nodes:
    print(n["id"], n["op"], n["kind"])
print(ms.gradcheck(lambda a, b: ratio_ops.ratio(a, b) * a, (Tensor([0.5, 1.5]), Tensor([2.0, -1.0]))))
"""),
    ("md", """
## Edit, re-run, no restart

Change the source and call `load()` again: the new code is built (into a content-addressed
cache) and loaded as a new module in the same process. Building an unchanged source again loads
from the cache without calling the compiler.
"""),
    ("code", """
doubled_source = ratio_src.replace('custom::CustomLaunchAclnn("aclnnDiv", {x, y}, {out});',
                                'custom::CustomLaunchAclnn("aclnnDiv", {x, y}, {out});\\n'
                                '    custom::CustomLaunchAclnn("aclnnAdd", {out, out}, {out});  // now 2 * x / y')
with open("custom_src/ratio_ops.cpp", "w") as f:
    f.write(doubled_source)
doubled = CustomOpBuilder("ratio_ops", ["custom_src/ratio_ops.cpp"]).load()
print(doubled.ratio(Tensor([6.0]), Tensor([3.0])), ratio_ops.ratio(Tensor([6.0]), Tensor([3.0])))
again = CustomOpBuilder("ratio_ops", ["custom_src/ratio_ops.cpp"]).load()
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

A `PyboostRunner` is a kernel object: `CalcWorkspace` asks for scratch memory, `LaunchKernel` reads
`inputs()` and writes `outputs()`, and `PyboostRunner::Call` runs it from Python. Here the op subtracts
the median, which `std::nth_element` finds by reordering a scratch copy of the input (the workspace), so
the input itself is left alone.
"""),
    ("code", """
median_src = '''#include <algorithm>
#include "ms_extension/api.h"

// out = x - median(x), float32 (the upper median when x has an even number of elements).
class MedianCenter : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(float); }
  void LaunchKernel() override {
    const ms::Tensor &x = inputs()[0];
    size_t n = x.numel();
    if (n == 0) return;
    const float *src = static_cast<const float *>(x.GetDataPtr());
    float *scratch = static_cast<float *>(workspace_ptr());
    float *dst = static_cast<float *>(outputs()[0].GetDataPtr());
    std::copy(src, src + n, scratch);
    std::nth_element(scratch, scratch + n / 2, scratch + n);
    const float median = scratch[n / 2];
    for (size_t i = 0; i < n; ++i) dst[i] = src[i] - median;
  }
  static ms::Tensor Eval(const ms::Tensor &x) {
    ms::Tensor out(x.data_type(), x.shape());
    std::make_shared<MedianCenter>("MedianCenter")->Run({x}, {out});
    return out;
  }
};

py::object median_center(const ms::Tensor &x) { return ms::pynative::PyboostRunner::Call<1>(MedianCenter::Eval, x); }
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("median_center", &median_center, "x - median(x)"); }
'''
stats = CustomOpBuilder("median_ops", median_src, backend="CPU").load()
x = Tensor([3.0, 1.0, 10.0, 2.0, 4.0], ms.float32)
print(stats.median_center(x), x)
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
