// mskernel/pyboost_internal.h -- CPU stand-ins for the MindSpore PyBoost internals that custom C++ ops
// written for Ascend name: Primitive, kernel::pyboost::OpRunner, kernel::pyboost::PyBoostUtils,
// runtime::OpRunner::GetDeviceContext, runtime::PyBoostDeviceTask, device::DeviceContext,
// runtime::ProfilerRecorder and the LAUNCH_ACLNN macro.
//
// On a device these stage a kernel: make device addresses, dispatch a task to a launch queue, allocate,
// launch an aclnn kernel on a stream. Here there is one CPU "device", memory is the tensors' numpy
// buffers (already there), a dispatched task runs at once, and LAUNCH_ACLNN runs the aclnn op's CPU
// version through custom::CustomLaunchAclnn (mskernel.cpp.ACLNN_OPS lists them; any other name throws
// a RuntimeError naming the op). So a file in MindSpore's PyBoost style compiles unchanged and runs
// wherever its aclnn ops have a CPU version here.
//
// LAUNCH_ACLNN(aclnnX, device_context, stream_id, args...): the args are the aclnn API's, in its
// order -- inputs and scalar attributes, then the output tensor last; an aclnnInplace* op has no
// output (it writes its first argument). Scalars (numbers, bools), strings, int vectors, ValuePtr and
// std::optional of those convert as MakeValue does.
//
// Example:
//   BaseTensorPtr mul(const BaseTensorPtr &x, const BaseTensorPtr &y) {
//     auto stream_id = PyBoostUtils::cur_stream_id();
//     auto device_context = runtime::OpRunner::GetDeviceContext("Ascend");   // the CPU, here
//     auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//     PyBoostUtils::PrepareOpInputs(device_context, stream_id, x, y);
//     PyBoostUtils::PrepareOpOutputs(device_context, stream_id, {out});
//     PyBoostUtils::DispatchRun(std::make_shared<runtime::PyBoostDeviceTask>([=]() {
//       PyBoostUtils::MallocOpInputs(device_context, x, y);
//       PyBoostUtils::MallocOpOutputs(device_context, {out});
//       LAUNCH_ACLNN(aclnnMul, device_context, stream_id, x, y, out);
//     }));
//     return out;
//   }
#ifndef MSKERNEL_PYBOOST_INTERNAL_H_
#define MSKERNEL_PYBOOST_INTERNAL_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mskernel/aclnn_cpu.h"
#include "mskernel/tensor.h"
#include "mskernel/value.h"

namespace mindspore {

/// An operator's name and attributes (MindSpore's Primitive, without its inference machinery).
class Primitive {
 public:
  explicit Primitive(std::string name) : name_(std::move(name)) {}
  const std::string &name() const { return name_; }
  Primitive &AddAttr(const std::string &key, const ::mskernel::ValuePtr &value) {
    attrs_[key] = value;
    return *this;
  }
  ::mskernel::ValuePtr GetAttr(const std::string &key) const {
    auto it = attrs_.find(key);
    return it == attrs_.end() ? nullptr : it->second;
  }
  bool HasAttr(const std::string &key) const { return attrs_.count(key) != 0; }

 private:
  std::string name_;
  std::map<std::string, ::mskernel::ValuePtr> attrs_;
};
using PrimitivePtr = std::shared_ptr<Primitive>;

namespace device {
enum class DeviceType { kUnknown = 0, kCPU = 1, kAscend = 2, kGPU = 3 };

/// The one device here: the CPU (the name a kernel asked for is kept for messages).
struct DeviceContext {
  std::string device_name = "CPU";
  uint32_t device_id = 0;
};
}  // namespace device

namespace runtime {
/// A unit of device work; DispatchRun runs it at once.
class PyBoostDeviceTask {
 public:
  explicit PyBoostDeviceTask(std::function<void()> run) : run_(std::move(run)) {}
  void Run() const {
    if (run_) run_();
  }

 private:
  std::function<void()> run_;
};

class OpRunner {
 public:
  /// The CPU's context, whichever device is named ("Ascend", "GPU", "CPU", or a DeviceType).
  static device::DeviceContext *GetDeviceContext(const std::string &device_name) {
    static device::DeviceContext cpu;
    (void)device_name;
    return &cpu;
  }
  static device::DeviceContext *GetDeviceContext(device::DeviceType type) {
    (void)type;
    return GetDeviceContext(std::string("CPU"));
  }
};

enum class ProfilerModule { kPynative, kKernel, kRuntime, kOther };
enum class ProfilerEvent { kRunOp, kKernelLaunch, kKernelInfer, kWaitTaskFinish, kDefault };
/// Profiling scopes record nothing here.
struct ProfilerRecorder {
  template <typename... Args>
  explicit ProfilerRecorder(Args &&...) {}
};
}  // namespace runtime

namespace kernel {
namespace pyboost {
/// A staged operator: its primitive, device and outputs (MindSpore's kernel::pyboost::OpRunner).
class OpRunner : public std::enable_shared_from_this<OpRunner> {
 public:
  OpRunner(PrimitivePtr primitive, const device::DeviceContext *device_context)
      : primitive_(std::move(primitive)), device_context_(device_context) {}
  virtual ~OpRunner() = default;
  const PrimitivePtr &primitive() const { return primitive_; }
  const std::string &op_name() const { return primitive_->name(); }
  const device::DeviceContext *device_context() const { return device_context_; }
  uint32_t stream_id() const { return stream_id_; }
  void set_stream_id(uint32_t id) { stream_id_ = id; }
  const std::vector<::mskernel::BaseTensorPtr> &outputs() const { return outputs_; }
  void set_outputs(const std::vector<::mskernel::BaseTensorPtr> &outputs) { outputs_ = outputs; }
  const ::mskernel::BaseTensorPtr &output(size_t i) const { return outputs_.at(i); }

 private:
  PrimitivePtr primitive_;
  const device::DeviceContext *device_context_;
  uint32_t stream_id_ = 0;
  std::vector<::mskernel::BaseTensorPtr> outputs_;
};

/// The staging steps of a PyBoost kernel; on the CPU memory already exists, so only DispatchRun
/// (run the task now) and CreateOutputTensor (make tensors) do anything.
struct PyBoostUtils {
  static uint32_t cur_stream_id() { return 0; }
  template <typename... Args>
  static void PrepareOpInputs(const device::DeviceContext *, uint32_t, const Args &...) {}
  template <typename... Args>
  static void PrepareOpOutputs(const device::DeviceContext *, uint32_t, const Args &...) {}
  template <typename... Args>
  static void MallocOpInputs(const device::DeviceContext *, const Args &...) {}
  template <typename... Args>
  static void MallocOpOutputs(const device::DeviceContext *, const Args &...) {}
  static void DispatchRun(const std::shared_ptr<runtime::PyBoostDeviceTask> &task) {
    if (task) task->Run();
  }
  static void CreateOutputTensor(::mskernel::TypeId type, const ::mskernel::ShapeVector &shape,
                                 std::vector<::mskernel::BaseTensorPtr> *outputs) {
    outputs->push_back(std::make_shared<::mskernel::BaseTensor>(type, shape));
  }
};
}  // namespace pyboost
}  // namespace kernel

using kernel::pyboost::PyBoostUtils;
}  // namespace mindspore

namespace mskernel {
namespace aclnn {
namespace launch {
template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

/// One LAUNCH_ACLNN argument as a ValuePtr (nullptr for an empty optional or a null tensor).
template <typename T>
ValuePtr ToValue(const T &arg) {
  using D = std::decay_t<T>;
  if constexpr (IsOptional<D>::value) {
    return arg.has_value() ? ToValue(*arg) : nullptr;
  } else if constexpr (std::is_convertible_v<D, ValuePtr>) {
    return arg;
  } else if constexpr (std::is_same_v<D, std::vector<int64_t>>) {
    ValuePtrList items;
    for (int64_t v : arg) items.push_back(MakeValue<int64_t>(v));
    return MakeValue(std::move(items));
  } else if constexpr (std::is_same_v<D, bool>) {
    return MakeValue<bool>(arg);
  } else if constexpr (std::is_integral_v<D>) {
    return MakeValue<int64_t>(static_cast<int64_t>(arg));
  } else if constexpr (std::is_floating_point_v<D>) {
    return MakeValue<double>(static_cast<double>(arg));
  } else {
    return MakeValue(arg);
  }
}

/// Runs `name` with MindSpore's LAUNCH_ACLNN argument order (inputs..., output; no output for Inplace).
template <typename... Args>
void Launch(const std::string &name, const Args &...args) {
  ValuePtrList all{ToValue(args)...};
  BaseTensorPtrList outputs;
  if (name.rfind("aclnnInplace", 0) != 0) {
    if (all.empty()) throw std::invalid_argument("LAUNCH_ACLNN(" + name + "): no arguments");
    auto out = std::dynamic_pointer_cast<BaseTensor>(all.back());
    if (!out) throw std::invalid_argument("LAUNCH_ACLNN(" + name + "): the last argument must be the output tensor");
    outputs.push_back(out);
    all.pop_back();
  }
  CustomLaunchAclnn(name, all, outputs);
}
}  // namespace launch
}  // namespace aclnn
}  // namespace mskernel

/// MindSpore's LAUNCH_ACLNN(aclnn_api, device_context, stream_id, args...), run on the CPU.
#define LAUNCH_ACLNN(aclnn_api, device_context, stream_id, ...)                 \
  do {                                                                          \
    (void)(device_context);                                                     \
    (void)(stream_id);                                                          \
    ::mskernel::aclnn::launch::Launch(#aclnn_api, __VA_ARGS__);                 \
  } while (0)

#endif  // MSKERNEL_PYBOOST_INTERNAL_H_
