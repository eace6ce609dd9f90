// custom::CustomLaunchAclnn from C++ with caller-chosen tensors: its native elementwise path (dense float
// tensors of one shape and dtype) and the numpy path for everything else (tests/cpp/test_cpp_aclnn_native.py).
#include <string>

#include "ms_extension.h"

using mindspore::tensor::BaseTensorPtr;

void launch(const std::string &name, const BaseTensorPtr &x, const BaseTensorPtr &y, const BaseTensorPtr &out) {
  custom::CustomLaunchAclnn(name, {x, y}, {out});
}

BaseTensorPtr fresh(const std::string &name, const BaseTensorPtr &x, const BaseTensorPtr &y) {
  auto out = std::make_shared<mindspore::tensor::BaseTensor>(x->data_type(), x->shape());
  custom::CustomLaunchAclnn(name, {x, y}, {out});
  return out;
}

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("launch", &launch);
  m.def("fresh", &fresh);
}
