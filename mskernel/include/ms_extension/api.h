// ms_extension/api.h -- MindSpore 2.7+'s custom-op header name, backed by mskernel on the CPU.
//
// Provides ms::Tensor, ms::tensor/ones/zeros, ms::pynative::PyboostRunner, PYBOOST_CALLER,
// Function<T>/AutogradContext, custom::CustomLaunchAclnn and pybind11 -- the same API as
// mskernel/extension.h (see there, and mskernel/pyboost.h for how kernels run on the CPU).
//
// Example (MindSpore's CPU tutorial, compiled unchanged):
//   #include "ms_extension/api.h"
//   class CustomSwap : public ms::pynative::PyboostRunner { ... };
//   auto pyboost_swap(const ms::Tensor &x, const ms::Tensor &y) {
//     return ms::pynative::PyboostRunner::Call<0>(custom_swap, x, y);
//   }
//   PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("swap", &pyboost_swap); }
#ifndef MSKERNEL_MS_EXTENSION_API_H_
#define MSKERNEL_MS_EXTENSION_API_H_

#include "mskernel/extension.h"

#endif  // MSKERNEL_MS_EXTENSION_API_H_
