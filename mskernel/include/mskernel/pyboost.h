// mskernel/pyboost.h -- MindSpore 2.7+'s `ms::pynative::PyboostRunner` on the CPU.
//
// Provides `PyboostRunner` (derive, override `LaunchKernel()` and optionally `CalcWorkspace()`
// (bytes) / `ProcessWithWorkspace()`; create with std::make_shared and call `Run(inputs, outputs)`),
// `PyboostRunner::Call<OUT_NUM>(func, args...)` (runs `func` and converts its result: a Tensor for
// OUT_NUM == 1, a tuple for more, None for 0) and the `PYBOOST_CALLER(OUT_NUM, FUNC)` macro.
// MindSpore runs these asynchronously on a device; here everything runs at once on the calling
// thread: `stream()` is nullptr and `stream_id()` 0, and `workspace_ptr()` is a host buffer alive
// during LaunchKernel.
//
// Contiguity: Run hands LaunchKernel contiguous copies of strided (non-contiguous) inputs and
// outputs, and writes the copies of outputs back into the original views afterwards -- unless
// `SetNeedContiguous(false)` was called on the tensor, in which case the kernel gets the view and
// must use `stride()` (or `accessor<T, N>()`). A tensor passed as both input and output (an
// in-place op such as swap) gets one shared copy. PyboostRunner ops are not differentiable
// (use Function<T> for that).
//
// Example (MindSpore's CPU tutorial, unchanged):
//   class CustomAdd3 : public ms::pynative::PyboostRunner {
//    public:
//     using PyboostRunner::PyboostRunner;
//     size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(int32_t); }
//     void LaunchKernel() override { /* x + y into workspace_ptr(), then + z into outputs()[0] */ }
//     static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &z) {
//       auto out = ms::Tensor(x.data_type(), x.shape());
//       std::make_shared<CustomAdd3>("Add3")->Run({x, y, z}, {out});
//       return out;
//     }
//   };
//   PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("add3", PYBOOST_CALLER(1, CustomAdd3::Eval)); }
#ifndef MSKERNEL_PYBOOST_H_
#define MSKERNEL_PYBOOST_H_

#include <cstddef>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "mskernel/ms_tensor.h"

namespace ms {
namespace inner {
/// The demangled name of a mangled symbol or type name.
inline std::string GetFunctionName(const char *name) { return mskernel::detail::Demangle(name); }
}  // namespace inner

namespace pynative {
namespace detail {
MSKERNEL_GLUE inline pybind11::object ToPyObject(const Tensor &t) {
  if (!t.is_defined()) return pybind11::none();
  return pybind11::reinterpret_steal<pybind11::object>(t.tensor()->ToPython().release());
}

MSKERNEL_GLUE inline void CheckCount(size_t got, int expected, const char *func_type) {
  if (got != static_cast<size_t>(expected)) {
    throw std::runtime_error("For op " + inner::GetFunctionName(func_type) + ", the output size should be equal to " +
                             std::to_string(expected) + ", but got " + std::to_string(got));
  }
}

MSKERNEL_GLUE inline pybind11::object PackOutputs(const Tensor &out, int expected, const char *func_type) {
  CheckCount(1, expected, func_type);
  return ToPyObject(out);
}

MSKERNEL_GLUE inline pybind11::object PackOutputs(const std::vector<Tensor> &outs, int expected, const char *func_type) {
  CheckCount(outs.size(), expected, func_type);
  if (expected == 1) return ToPyObject(outs[0]);
  pybind11::tuple t(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) t[i] = ToPyObject(outs[i]);
  return std::move(t);
}
}  // namespace detail

/// Runs a custom CPU kernel: subclass it, override LaunchKernel, create it with std::make_shared.
class PyboostRunner : public std::enable_shared_from_this<PyboostRunner> {
 public:
  explicit PyboostRunner(const std::string &op_name) : _op_name_(op_name) {}
  virtual ~PyboostRunner() = default;

  /// Runs `func(args...)` and returns its outputs to Python (OUT_NUM == 0: returns None).
  template <int OUT_NUM, typename FuncType, typename... Args>
  static pybind11::object Call(FuncType func, Args &&...args) {
    if constexpr (OUT_NUM == 0) {
      func(args...);
      return pybind11::none();
    } else {
      return detail::PackOutputs(func(args...), OUT_NUM, typeid(FuncType).name());
    }
  }

  /// Computes the workspace size, then calls ProcessWithWorkspace() and LaunchKernel().
  MSKERNEL_GLUE void Run(const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs) {
    std::vector<std::pair<Tensor, Tensor>> staged;  // (original strided tensor, contiguous copy)
    auto stage = [&staged](const Tensor &t) -> Tensor {
      if (!t.is_defined() || !t.need_contiguous() || t.is_contiguous()) return t;
      for (auto &s : staged) {
        if (s.first.tensor()->array() == t.tensor()->array() && s.first.tensor()->data_c() == t.tensor()->data_c()) {
          return s.second;
        }
      }
      Tensor copy = t.contiguous();
      staged.emplace_back(t, copy);
      return copy;
    };
    _inputs_.clear();
    _outputs_.clear();
    for (const auto &t : inputs) _inputs_.push_back(stage(t));
    for (const auto &t : outputs) _outputs_.push_back(stage(t));
    const size_t bytes = CalcWorkspace();
    std::unique_ptr<std::max_align_t[]> workspace;
    if (bytes > 0) {
      const size_t n = (bytes + 64 + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);  // with slack
      workspace.reset(new std::max_align_t[n]());  // zeroed: a kernel that reads it first is deterministic
      _workspace_ptr_ = workspace.get();
    }
    struct ResetWorkspace {
      void *&p;
      ~ResetWorkspace() { p = nullptr; }
    } reset{_workspace_ptr_};
    ProcessWithWorkspace();
    LaunchKernel();
    for (auto &s : staged) {
      for (const auto &o : outputs) {
        if (o.is_defined() && o.tensor()->array() == s.first.tensor()->array()) {
          s.first.AssignTensor(s.second);
          break;
        }
      }
    }
  }

  /// Workspace bytes LaunchKernel needs (default 0).
  virtual size_t CalcWorkspace() { return 0; }
  /// Called after the workspace is allocated, before LaunchKernel.
  virtual void ProcessWithWorkspace() {}
  /// The kernel: read inputs(), write outputs().
  virtual void LaunchKernel() = 0;

  const std::string &op_name() const { return _op_name_; }
  const std::vector<Tensor> &inputs() const { return _inputs_; }
  const std::vector<Tensor> &outputs() const { return _outputs_; }
  uint32_t stream_id() const { return static_cast<uint32_t>(_stream_id_); }
  void *stream() { return _stream_; }
  void *workspace_ptr() { return _workspace_ptr_; }

 protected:
  std::string _op_name_;
  std::vector<Tensor> _inputs_;
  std::vector<Tensor> _outputs_;
  size_t _stream_id_{0};
  void *_stream_{nullptr};
  void *_workspace_ptr_{nullptr};
};

namespace detail {
/// `func` called with each Python positional argument converted to the type of its parameter.
template <int OUT_NUM, typename Ret, typename... Args, size_t... I>
pybind11::object CallConverted(Ret (*func)(Args...), const pybind11::args &args, std::index_sequence<I...>) {
  return PyboostRunner::Call<OUT_NUM>(func, pybind11::cast<std::decay_t<Args>>(args[I])...);
}
}  // namespace detail

/// What PYBOOST_CALLER binds: checks the number of Python arguments, then calls `func` with them.
template <int OUT_NUM, typename Ret, typename... Args>
pybind11::object CallFromPyArgs(Ret (*func)(Args...), const pybind11::args &args) {
  if (args.size() == sizeof...(Args)) {
    return detail::CallConverted<OUT_NUM>(func, args, std::index_sequence_for<Args...>{});
  }
  throw std::runtime_error("Argument count mismatch: expected " + std::to_string(sizeof...(Args)) + ", got " +
                           std::to_string(args.size()));
}
}  // namespace pynative
}  // namespace ms

/// `m.def("add3", PYBOOST_CALLER(1, CustomAdd3::Eval))`: binds FUNC taking Python positional args.
#define PYBOOST_CALLER(OUT_NUM, FUNC) \
  ([](const pybind11::args &args) -> pybind11::object { return ms::pynative::CallFromPyArgs<OUT_NUM>(FUNC, args); })

#endif  // MSKERNEL_PYBOOST_H_
