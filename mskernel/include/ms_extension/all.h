// ms_extension/all.h -- MindSpore's all-in-one custom-op header name, backed by mskernel on the CPU.
//
// The same API as ms_extension/api.h and mskernel/extension.h (ms::Tensor, PyboostRunner,
// Function<T>, custom::CustomLaunchAclnn, MS_LOG, pybind11).
#ifndef MSKERNEL_MS_EXTENSION_ALL_H_
#define MSKERNEL_MS_EXTENSION_ALL_H_

#include "mskernel/extension.h"

#endif  // MSKERNEL_MS_EXTENSION_ALL_H_
