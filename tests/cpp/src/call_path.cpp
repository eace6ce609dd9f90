// The C++ call path's fast paths (tests/cpp/test_cpp_call_path.py): tensor arguments read through the C
// array helpers or the buffer protocol, tensors allocated in C++, and Function::Apply without a graph node.
#include <cstdint>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ms_extension.h"

using mindspore::pynative::autograd::AutogradContext;
using mindspore::pynative::autograd::Function;
using mskernel::BaseTensor;
using mskernel::BaseTensorPtr;
using mskernel::BaseTensorPtrList;

namespace {
std::vector<bool> g_probe;  // what ForwardProbe's Forward saw

BaseTensorPtr Mul(const BaseTensorPtr &x, const BaseTensorPtr &y) {
  auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
  custom::CustomLaunchAclnn("aclnnMul", {x, y}, {out});
  return out;
}
}  // namespace

// What a tensor argument is seen as: shape, strides (elements), dtype, read-only, first element, requires_grad.
std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::string, bool, uintptr_t, bool> view(const BaseTensorPtr &x) {
  return {x->shape(), x->strides(), mskernel::TypeIdName(x->data_type()), x->readonly(),
          reinterpret_cast<uintptr_t>(x->data_c()), x->requires_grad()};
}

// A new float32 tensor of `shape`, made in C++.
BaseTensorPtr empty(const std::vector<int64_t> &shape) {
  return std::make_shared<BaseTensor>(mskernel::kNumberTypeFloat32, shape);
}

class NullOutput : public Function<NullOutput> {
 public:
  static BaseTensorPtr Forward(AutogradContext *, const BaseTensorPtr &) { return nullptr; }
  static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList g) { return g; }
};

class NoOutputs : public Function<NoOutputs> {
 public:
  static BaseTensorPtrList Forward(AutogradContext *, const BaseTensorPtr &) { return {}; }
  static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList g) { return g; }
};

// x * y with an int in the middle; Forward records grad mode, NeedGrad and NeedsInputGrad, then asks
// NeedsInputGrad(k) when k >= 0 (out of range for k >= 2).
class ForwardProbe : public Function<ForwardProbe> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, int64_t k, const BaseTensorPtr &y) {
    g_probe = {mskernel::detail::GradEnabled(), ctx->NeedGrad(x), ctx->NeedGrad(y), ctx->NeedsInputGrad(0),
               ctx->NeedsInputGrad(1)};
    if (k >= 0) ctx->NeedsInputGrad(static_cast<size_t>(k));
    ctx->SaveForBackward({y, x});
    return Mul(x, y);
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList g) {
    auto s = ctx->GetSavedTensors();
    return {Mul(g[0], s[0]), nullptr, Mul(g[0], s[1])};
  }
};

// Grad mode read and set from a thread Python did not start, in two GIL sessions one after the other: each
// session has a new thread state, hence its own GradState (starting with grad mode on).
std::vector<int> grad_mode_in_c_thread() {
  std::vector<int> seen;
  {
    pybind11::gil_scoped_release release;
    std::thread t([&seen] {
      for (int session = 0; session < 2; ++session) {
        PyGILState_STATE st = PyGILState_Ensure();
        try {
          seen.push_back(mskernel::detail::GradEnabled());
          mskernel::detail::SetGradEnabled(false);
          seen.push_back(mskernel::detail::GradEnabled());
        } catch (...) {
          PyErr_Clear();
          seen.push_back(-1);
        }
        PyGILState_Release(st);
      }
    });
    t.join();
  }
  return seen;
}

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("view", &view);
  m.def("empty", &empty);
  m.def("null_output", [](const BaseTensorPtr &x) { return NullOutput::Apply(x); });
  m.def("no_outputs", [](const BaseTensorPtr &x) { return NoOutputs::Apply(x); });
  m.def("forward_probe", [](const BaseTensorPtr &x, int64_t k, const BaseTensorPtr &y) {
    return ForwardProbe::Apply(x, k, y);
  });
  m.def("probe", [] { return g_probe; });
  m.def("grad_mode_in_c_thread", &grad_mode_in_c_thread);
}
