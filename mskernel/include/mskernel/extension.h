// mskernel/extension.h -- mskernel's C++ extension API, all of it (mskernel's own name for it).
//
// Includes: mskernel/tensor.h (BaseTensor, zero-copy views of mskernel Tensors), ms_tensor.h
// (ms::Tensor), function.h (Function<T>, AutogradContext -- differentiable C++ ops recorded in
// mskernel's autograd graph), pyboost.h (ms::pynative::PyboostRunner), aclnn_cpu.h
// (custom::CustomLaunchAclnn on the CPU), kernels.h (ParallelFor, broadcasting Map) and compat.h
// (MindSpore's names: mindspore::tensor::BaseTensor, mindspore::pynative::autograd::Function, ...).
// MindSpore sources include "ms_extension.h" or "ms_extension/api.h" instead; all three are the same.
// Build with mskernel.toolchain / CustomOpBuilder, which add `-I <this directory>/..` and
// `-DMS_EXTENSION_NAME=<module name>`.
//
// Compile time: everything that is not per-element arithmetic (allocation, conversions, graph
// recording, the aclnn implementations) runs in Python/numpy via mskernel.cpp -- the per-call array
// work (a new tensor's array, a tensor argument's layout) in mskernel.cpp.arrays, a small numpy C
// extension built once on first use, and the per-call steps shared with the autograd engine (a
// Tensor's fields, wrapping an array into a Tensor, grad mode) in the engine core, through its C
// API (mskernel/engine_api.h) -- so a module only compiles its own kernels, a little
// out-of-line glue (MSKERNEL_GLUE) and its bindings. The
// build layer compiles pybind11 modules "split" (mskernel.toolchain.split): pybind11's runtime --
// most of a pybind11 module's compile time, emitted into every module that includes pybind11.h --
// comes from a support object compiled once, and these headers come precompiled.
//
// Example:
//   #include <mskernel/extension.h>
//   using namespace mskernel;
//   struct Twice : Function<Twice> {
//     static BaseTensorPtr Forward(AutogradContext *, const BaseTensorPtr &x) {
//       auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//       custom::CustomLaunchAclnn("aclnnMuls", {x, MakeValue<double>(2.0)}, {out});
//       return out;
//     }
//     static BaseTensorPtrList Backward(AutogradContext *, BaseTensorPtrList g) {
//       auto dx = std::make_shared<BaseTensor>(g[0]->data_type(), g[0]->shape());
//       custom::CustomLaunchAclnn("aclnnMuls", {g[0], MakeValue<double>(2.0)}, {dx});
//       return {dx};
//     }
//   };
//   PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("twice", [](const BaseTensorPtr &x) { return Twice::Apply(x); }); }
#ifndef MSKERNEL_EXTENSION_H_
#define MSKERNEL_EXTENSION_H_

#include "mskernel/compat.h"
#include "mskernel/kernels.h"

#endif  // MSKERNEL_EXTENSION_H_
