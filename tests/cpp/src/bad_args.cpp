// Probes for bad arguments and odd exceptions at every C++ entry path (tests/cpp/test_cpp_bad_args.py).
#include <optional>
#include <stdexcept>

#include "ms_extension.h"

using mindspore::pynative::autograd::AutogradContext;
using mindspore::pynative::autograd::Function;
using mskernel::BaseTensorPtr;
using mskernel::BaseTensorPtrList;

// BaseTensorPtr arguments: the function dereferences its input.
int64_t base_numel(const BaseTensorPtr &x) { return static_cast<int64_t>(x->DataSize()); }
bool base_optional_is_none(const std::optional<BaseTensorPtr> &x) { return !x.has_value(); }

// ms::Tensor arguments: None is an undefined Tensor (MindSpore's rule); using it raises.
int64_t ms_numel(const ms::Tensor &x) { return static_cast<int64_t>(x.numel()); }
bool ms_requires_grad(const ms::Tensor &x) { return x.tensor()->requires_grad(); }
bool ms_is_defined(const ms::Tensor &x) { return x.is_defined(); }

// A Function whose Forward uses both inputs, and ones that throw a non-std::exception value.
class Mul2 : public Function<Mul2> {
 public:
  static BaseTensorPtr Forward(AutogradContext *ctx, const BaseTensorPtr &x, const BaseTensorPtr &y) {
    auto out = std::make_shared<mskernel::BaseTensor>(x->data_type(), x->shape());
    custom::CustomLaunchAclnn("aclnnMul", {x, y}, {out});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *ctx, BaseTensorPtrList grads) { return {grads[0], grads[0]}; }
};
BaseTensorPtr mul2(const BaseTensorPtr &x, const BaseTensorPtr &y) { return Mul2::Apply(x, y); }

class ThrowsInForward : public Function<ThrowsInForward> {
 public:
  static BaseTensorPtr Forward(AutogradContext *, const BaseTensorPtr &x) { throw 42; }
  static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList grads) { return grads; }
};
BaseTensorPtr throws_in_forward(const BaseTensorPtr &x) { return ThrowsInForward::Apply(x); }

class ThrowsInBackward : public Function<ThrowsInBackward> {
 public:
  static BaseTensorPtr Forward(AutogradContext *, const BaseTensorPtr &x) {
    auto out = std::make_shared<mskernel::BaseTensor>(x->data_type(), x->shape());
    custom::CustomLaunchAclnn("aclnnMuls", {x, mskernel::MakeValue<double>(2.0)}, {out});
    return out;
  }
  static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList) { throw 42; }
};
BaseTensorPtr throws_in_backward(const BaseTensorPtr &x) { return ThrowsInBackward::Apply(x); }

int64_t throws_int(const ms::Tensor &x) { throw 42; }
int64_t throws_message(const ms::Tensor &x) { throw std::runtime_error("a clear message"); }

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("base_numel", &base_numel);
  m.def("base_optional_is_none", &base_optional_is_none);
  m.def("ms_numel", &ms_numel);
  m.def("ms_requires_grad", &ms_requires_grad);
  m.def("ms_is_defined", &ms_is_defined);
  m.def("mul2", &mul2);
  m.def("throws_in_forward", &throws_in_forward);
  m.def("throws_in_backward", &throws_in_backward);
  m.def("throws_int", &throws_int);
  m.def("throws_message", &throws_message);
}
