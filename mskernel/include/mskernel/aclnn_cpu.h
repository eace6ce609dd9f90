// mskernel/aclnn_cpu.h -- `custom::CustomLaunchAclnn`: Ascend aclnn calls, run on the CPU.
//
// Provides `custom::CustomLaunchAclnn(name, inputs, outputs)` (also reachable as
// `mindspore::custom::CustomLaunchAclnn`), so custom ops written for Ascend run unchanged on a
// CPU. `inputs` are tensors and values (`{x, y, MakeValue<int64_t>(1)}`), `outputs` tensors;
// an `aclnnInplace*` op writes its first input. Inputs broadcast against the output (numpy
// rules), strided views work, results are cast to the output's dtype. The implementations are
// numpy calls made through mskernel.cpp (nothing is compiled into your module, which keeps
// builds fast); `mskernel.cpp.ACLNN_OPS` lists them: aclnnAdd/Adds/Sub/Subs (with alpha),
// Mul/Muls, Div/Divs, Maximum, Minimum, PowTensorTensor/PowTensorScalar, Neg, Exp, Log, Sqrt,
// Rsqrt, Abs, Reciprocal, Sin, Cos, Tanh, Sigmoid, Relu, Silu, Sign, Floor, Ceil, Cast, Expand,
// Matmul/Mm/BatchMatMul/Bmm, ReduceSum, Mean, Softmax, InplaceCopy/Zero/FillScalar/Add/Adds/Sub/
// Mul/Muls/Div. Any other name throws a RuntimeError that names the op and lists these.
//
// Example:
//   auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//   custom::CustomLaunchAclnn("aclnnAdd", {x, y, MakeValue<int64_t>(2)}, {out});   // x + 2*y
//   custom::CustomLaunchAclnn("aclnnInplaceZero", {out}, {});
#ifndef MSKERNEL_ACLNN_CPU_H_
#define MSKERNEL_ACLNN_CPU_H_

#include <string>
#include <vector>

#include "mskernel/ms_tensor.h"

namespace mskernel {
namespace aclnn {

/// Runs the CPU implementation of the aclnn API `aclnn_name`.
MSKERNEL_GLUE inline void CustomLaunchAclnn(const std::string &aclnn_name, const ValuePtrList &inputs,
                              const BaseTensorPtrList &outputs) {
  using namespace detail;
  PyRef ins = PyRef::Steal(Check(PyList_New(static_cast<Py_ssize_t>(inputs.size()))));
  for (size_t i = 0; i < inputs.size(); ++i) {
    PyObject *o;
    if (!inputs[i]) {
      o = (Py_INCREF(Py_None), Py_None);
    } else if (auto *t = dynamic_cast<const BaseTensor *>(inputs[i].get())) {
      o = (Py_INCREF(t->array()), t->array());
    } else {
      o = inputs[i]->ToPython().release();
    }
    PyList_SET_ITEM(ins.get(), i, o);
  }
  PyRef outs = PyRef::Steal(Check(PyList_New(static_cast<Py_ssize_t>(outputs.size()))));
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]) throw std::invalid_argument("CustomLaunchAclnn(" + aclnn_name + "): output " + std::to_string(i) + " is null");
    PyObject *a = outputs[i]->array();
    Py_INCREF(a);
    PyList_SET_ITEM(outs.get(), i, a);
  }
  static std::atomic<PyObject *> launch_slot{nullptr};
  PyObject *launch = Once(launch_slot, [] { return BridgeAttr("launch_aclnn"); });
  Call(launch, {Str(aclnn_name).get(), ins.get(), outs.get()});
}

/// The same for ms::Tensor inputs and outputs.
MSKERNEL_GLUE inline void CustomLaunchAclnn(const std::string &aclnn_name, const std::vector<ms::Tensor> &inputs,
                              const std::vector<ms::Tensor> &outputs) {
  ValuePtrList ins;
  for (const auto &t : inputs) ins.push_back(t.tensor());
  BaseTensorPtrList outs;
  for (const auto &t : outputs) outs.push_back(t.tensor());
  CustomLaunchAclnn(aclnn_name, ins, outs);
}

}  // namespace aclnn
}  // namespace mskernel

namespace custom {
using ::mskernel::aclnn::CustomLaunchAclnn;
}  // namespace custom

#endif  // MSKERNEL_ACLNN_CPU_H_
