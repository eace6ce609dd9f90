#include "ms_extension/api.h"

// y = x^3 and its gradient 3 x^2 dout, float64, as MindSpore's CPU examples write kernels: a PyboostRunner
// launched through PyboostRunner::Call (MindSpore allocates the outputs before LaunchKernel).
class Cube : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const auto *x = static_cast<const double *>(inputs()[0].GetDataPtr());
    auto *y = static_cast<double *>(outputs()[0].GetDataPtr());
    for (int64_t i = 0; i < inputs()[0].numel(); ++i) y[i] = x[i] * x[i] * x[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x) {
    auto y = ms::Tensor(x.data_type(), x.shape());
    std::make_shared<Cube>("Cube")->Run({x}, {y});
    return y;
  }
};

class CubeGrad : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const auto *x = static_cast<const double *>(inputs()[0].GetDataPtr());
    const auto *d = static_cast<const double *>(inputs()[1].GetDataPtr());
    auto *g = static_cast<double *>(outputs()[0].GetDataPtr());
    for (int64_t i = 0; i < inputs()[0].numel(); ++i) g[i] = 3.0 * x[i] * x[i] * d[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &dout) {
    auto g = ms::Tensor(x.data_type(), x.shape());
    std::make_shared<CubeGrad>("CubeGrad")->Run({x, dout}, {g});
    return g;
  }
};

py::object cube(const ms::Tensor &x) { return ms::pynative::PyboostRunner::Call<1>(Cube::Eval, x); }

py::object cube_grad(const ms::Tensor &x, const ms::Tensor &out, const ms::Tensor &dout) {
  return ms::pynative::PyboostRunner::Call<1>(CubeGrad::Eval, x, dout);
}
