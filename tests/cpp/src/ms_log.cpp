// ms_extension/all.h, a global ShapeVector, MS_LOG and MS_EXCEPTION_IF_NULL, and the CPU aclnn ops
// custom-op code launches most (tests/cpp/test_cpp_headers.py).
#include "ms_extension/all.h"

ShapeVector row_shape(const ms::Tensor &x) {  // the global name, as MindSpore's headers declare it
  ShapeVector s = x.shape();
  s.erase(s.begin());
  return s;
}

int64_t logged(const ms::Tensor &x) {
  MS_LOG(DEBUG) << "debug " << x.numel();
  MS_LOG(INFO) << "info " << x.numel();
  MS_LOG(WARNING) << "warning: " << x.numel() << " elements";
  MS_LOG(ERROR) << "error " << 3.5;
  return static_cast<int64_t>(x.numel());
}

int64_t must_be_float32(const ms::Tensor &x) {
  if (x.data_type() != ms::TypeId::kNumberTypeFloat32) MS_LOG(EXCEPTION) << "must_be_float32 got another dtype";
  return 0;
}

int64_t null_check(bool null) {
  mskernel::BaseTensorPtr p = null ? nullptr : std::make_shared<mskernel::BaseTensor>(mskernel::kNumberTypeFloat32,
                                                                                      ShapeVector{1});
  MS_EXCEPTION_IF_NULL(p);
  return 1;
}

ms::Tensor select_rows(const ms::Tensor &x, const ms::Tensor &index) {
  ShapeVector shape = x.shape();
  shape[0] = index.shape()[0];
  ms::Tensor out(x.data_type(), shape);
  custom::CustomLaunchAclnn("aclnnIndexSelect", {x.tensor(), mskernel::MakeValue<int64_t>(0), index.tensor()},
                            {out.tensor()});
  return out;
}

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("row_shape", &row_shape);
  m.def("logged", &logged);
  m.def("must_be_float32", &must_be_float32);
  m.def("null_check", &null_check);
  m.def("select_rows", &select_rows);
}
