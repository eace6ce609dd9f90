// ms_extension.h -- MindSpore's custom-op header name (2.6 style), backed by mskernel on the CPU.
//
// The same API as mskernel/extension.h: BaseTensor/BaseTensorPtr/ShapeVector/TypeId,
// Function<T> and AutogradContext (in mindspore::pynative::autograd), custom::CustomLaunchAclnn,
// plus the 2.7+ ms::Tensor and ms::pynative::PyboostRunner, pybind11 and `namespace py`.
//
// Example (MindSpore's tutorial, compiled unchanged):
//   #include "ms_extension.h"
//   namespace mindspore::pynative {
//   namespace autograd {
//   class CustomMul : public Function<CustomMul> { /* static Forward / Backward */ };
//   BaseTensorPtr run_custom_mul(const tensor::BaseTensorPtr &x, const tensor::BaseTensorPtr &y) {
//     return CustomMul::Apply(x, y);
//   }
//   }  // namespace autograd
//   }  // namespace mindspore::pynative
//   PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("mul", &mindspore::pynative::autograd::run_custom_mul); }
#ifndef MSKERNEL_MS_EXTENSION_H_
#define MSKERNEL_MS_EXTENSION_H_

#include "mskernel/extension.h"

#endif  // MSKERNEL_MS_EXTENSION_H_
