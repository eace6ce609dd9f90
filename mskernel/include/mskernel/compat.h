// mskernel/compat.h -- MindSpore's C++ names for mskernel's types, so MindSpore sources compile unchanged.
//
// Maps, without new code:
//   mindspore::TypeId, kNumberType*          -> mskernel::TypeId (also reachable as ms::kNumberType*)
//   mindspore::ShapeVector, Value, ValuePtr, MakeValue, GetValue, ValueTuple, Int64Imm, ...
//   mindspore::tensor::{BaseTensor, Tensor}  -> mskernel::BaseTensor (Tensor = BaseTensor, as in
//                                               MindSpore 2.7 where "BaseTensor is deprecated")
//   mindspore::tensor::{BaseTensorPtr, TensorPtr, BaseTensorPtrList, TensorPtrList}
//   mindspore::pynative::autograd::{Function, AutogradContext, TensorPtr, TensorPtrList}
//   custom::CustomLaunchAclnn, mindspore::custom::CustomLaunchAclnn
//   namespace py = pybind11, ::ShapeVector (global, as MindSpore's headers), MS_LOG / MS_EXCEPTION_IF_NULL
// The names are also visible unqualified anywhere inside `namespace mindspore` (as the MindSpore
// tutorials write them, e.g. in `namespace mindspore::pynative { namespace autograd { ... } }`).
//
// Example:
//   #include "ms_extension.h"
//   namespace mindspore::pynative::autograd {
//   BaseTensorPtr make(const ShapeVector &s) { return std::make_shared<BaseTensor>(kNumberTypeFloat32, s); }
//   }
#ifndef MSKERNEL_COMPAT_H_
#define MSKERNEL_COMPAT_H_

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/stl.h>  // std::vector / std::string / std::optional arguments, as in MindSpore

#include "mskernel/aclnn_cpu.h"
#include "mskernel/function.h"
#include "mskernel/log.h"
#include "mskernel/ms_tensor.h"
#include "mskernel/pyboost.h"
#include "mskernel/pyboost_internal.h"

namespace py = pybind11;

using ShapeVector = ::mskernel::ShapeVector;  // MindSpore's headers declare it at global scope too

namespace mindspore {
using ::mskernel::TypeId;
using ::mskernel::kTypeUnknown;
using ::mskernel::kNumberTypeBegin;
using ::mskernel::kNumberTypeEnd;
#define MSKERNEL_X(S, NP, SZ, C) using ::mskernel::kNumberType##S;
MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X

using ::mskernel::ShapeVector;
using ::mskernel::Value;
using ::mskernel::ValuePtr;
using ::mskernel::ValuePtrList;
using ::mskernel::ValueTuple;
using ::mskernel::ValueTuplePtr;
using ::mskernel::ValueSequence;
using ::mskernel::ScalarValue;
using ::mskernel::Int64Imm;
using ::mskernel::Int32Imm;
using ::mskernel::FP32Imm;
using ::mskernel::FP64Imm;
using ::mskernel::BoolImm;
using ::mskernel::StringImm;
using ::mskernel::MakeValue;
using ::mskernel::GetValue;

namespace tensor {
using BaseTensor = ::mskernel::BaseTensor;
using Tensor = ::mskernel::BaseTensor;
using BaseTensorPtr = ::mskernel::BaseTensorPtr;
using TensorPtr = ::mskernel::BaseTensorPtr;
using BaseTensorPtrList = ::mskernel::BaseTensorPtrList;
using TensorPtrList = ::mskernel::BaseTensorPtrList;
using TensorData = ::mskernel::TensorData;
using TensorDataPtr = ::mskernel::TensorDataPtr;
}  // namespace tensor
using tensor::BaseTensor;
using tensor::BaseTensorPtr;
using tensor::BaseTensorPtrList;
using tensor::Tensor;
using tensor::TensorPtr;
using tensor::TensorPtrList;

using ::mskernel::AutogradContext;
using ::mskernel::Function;

namespace pynative {
namespace autograd {
using ::mskernel::AutogradContext;
using ::mskernel::Function;
using TensorPtr = ::mskernel::BaseTensorPtr;
using TensorPtrList = ::mskernel::BaseTensorPtrList;
using BaseTensorPtr = ::mskernel::BaseTensorPtr;
using BaseTensorPtrList = ::mskernel::BaseTensorPtrList;
}  // namespace autograd
}  // namespace pynative

namespace custom {
using ::mskernel::aclnn::CustomLaunchAclnn;
}  // namespace custom
}  // namespace mindspore

namespace ms {
using ::mskernel::kTypeUnknown;
#define MSKERNEL_X(S, NP, SZ, C) using ::mskernel::kNumberType##S;
MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
}  // namespace ms

#endif  // MSKERNEL_COMPAT_H_
