// Custom ops written the way MindSpore's Ascend custom C++ ops are (PyBoost staging, LAUNCH_ACLNN,
// kernel::pyboost::OpRunner), compiled unchanged against mskernel's CPU stand-ins.
#include <optional>
#include <vector>

#include "ms_extension.h"

using BaseTensor = mindspore::tensor::BaseTensor;
using BaseTensorPtr = mindspore::tensor::BaseTensorPtr;
using PyBoostUtils = mindspore::kernel::pyboost::PyBoostUtils;

namespace mindspore {
BaseTensorPtr scaled_add(const BaseTensorPtr &x, const BaseTensorPtr &y, double alpha) {
  runtime::ProfilerRecorder profiler(runtime::ProfilerModule::kPynative, runtime::ProfilerEvent::kRunOp,
                                     "scaled_add");
  auto stream_id = PyBoostUtils::cur_stream_id();
  device::DeviceContext *device_context = runtime::OpRunner::GetDeviceContext("Ascend");
  auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
  PyBoostUtils::PrepareOpInputs(device_context, stream_id, x, y);
  PyBoostUtils::PrepareOpOutputs(device_context, stream_id, std::vector<BaseTensorPtr>{out});
  PyBoostUtils::DispatchRun(std::make_shared<runtime::PyBoostDeviceTask>([=]() {
    PyBoostUtils::MallocOpInputs(device_context, x, y);
    PyBoostUtils::MallocOpOutputs(device_context, std::vector<BaseTensorPtr>{out});
    LAUNCH_ACLNN(aclnnAdd, device_context, stream_id, x, y, alpha, out);
  }));
  return out;
}

// an OpRunner carries the primitive, the device and the outputs
BaseTensorPtr runner_mul(const BaseTensorPtr &x, const BaseTensorPtr &y) {
  auto prim = std::make_shared<Primitive>("CustomMul");
  prim->AddAttr("note", MakeValue(std::string("runs on the CPU")));
  auto op = std::make_shared<kernel::pyboost::OpRunner>(prim, runtime::OpRunner::GetDeviceContext(
                                                                   device::DeviceType::kAscend));
  std::vector<BaseTensorPtr> outputs;
  PyBoostUtils::CreateOutputTensor(x->data_type(), x->shape(), &outputs);
  op->set_outputs(outputs);
  PyBoostUtils::DispatchRun(std::make_shared<runtime::PyBoostDeviceTask>([op, x, y]() {
    LAUNCH_ACLNN(aclnnMul, op->device_context(), op->stream_id(), x, y, op->output(0));
  }));
  return op->output(0);
}

void zero_in_place(const BaseTensorPtr &x) {
  auto device_context = runtime::OpRunner::GetDeviceContext("CPU");
  LAUNCH_ACLNN(aclnnInplaceZero, device_context, PyBoostUtils::cur_stream_id(), x);
}

BaseTensorPtr unsupported(const BaseTensorPtr &x) {
  auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
  LAUNCH_ACLNN(aclnnFlashAttentionScore, runtime::OpRunner::GetDeviceContext("Ascend"), 0, x, out);
  return out;
}

std::string prim_info() {
  Primitive p("MyOp");
  p.AddAttr("axis", MakeValue<int64_t>(2));
  return p.name() + ":" + std::to_string(GetValue<int64_t>(p.GetAttr("axis"))) + ":" +
         (p.HasAttr("missing") ? "yes" : "no");
}

namespace pynative {
namespace autograd {
// a Function whose forward and backward are PyBoost-style launches
class StagedMul : public Function<StagedMul> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    ctx->SaveForBackward({x, y});
    return runner_mul(x, y);
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grad_outputs) {
    auto saved = ctx->GetSavedTensors();
    return {runner_mul(grad_outputs[0], saved[1]), runner_mul(grad_outputs[0], saved[0])};
  }
};
BaseTensorPtr staged_mul(const BaseTensorPtr &x, const BaseTensorPtr &y) { return StagedMul::Apply(x, y); }
}  // namespace autograd
}  // namespace pynative
}  // namespace mindspore

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("scaled_add", &mindspore::scaled_add);
  m.def("runner_mul", &mindspore::runner_mul);
  m.def("zero_in_place", &mindspore::zero_in_place);
  m.def("unsupported", &mindspore::unsupported);
  m.def("prim_info", &mindspore::prim_info);
  m.def("staged_mul", &mindspore::pynative::autograd::staged_mul);
}
