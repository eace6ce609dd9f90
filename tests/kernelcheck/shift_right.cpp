#include <pybind11/pybind11.h>
#include "ms_extension.h"
ms::Tensor shift_right(const ms::Tensor &x) {
  ms::Tensor y(x.data_type(), x.shape());
  const float *px = x.data_ptr<float>();
  float *py = y.data_ptr<float>();
  for (size_t i = 0; i < x.numel(); ++i) py[i + 1] = px[i];  // writes y one past its end
  return y;
}
PYBIND11_MODULE(MS_EXTENSION_NAME, m) { m.def("shift_right", &shift_right); }
