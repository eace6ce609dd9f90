// MindSpore's CPU CustomOpBuilder example (tests/st/.../pyboost_cpu_add.cpp and pyboost_cpu_swap.cpp),
// rewritten for mskernel's tests with the same entry points and behaviour, plus ms::Tensor,
// BaseTensor-view and kernels.h checks.
#include <cstdint>
#include <string>
#include <vector>

#include "ms_extension/api.h"

// out = x + y over strided 3-d int32 views, using stride() (inputs keep their layout).
class AddStrided : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const auto &x = inputs()[0], &y = inputs()[1], &z = outputs()[0];
    const auto *xp = x.data_ptr<int32_t>();
    const auto *yp = y.data_ptr<int32_t>();
    auto *zp = z.data_ptr<int32_t>();
    const auto xs = x.stride(), ys = y.stride(), zs = z.stride();
    const auto &shape = x.shape();
    if (shape.size() != 3 || shape != y.shape() || shape != z.shape()) {
      throw std::invalid_argument("add_uncontiguous: expected three 3-d tensors of one shape");
    }
    for (int64_t i = 0; i < shape[0]; ++i)
      for (int64_t j = 0; j < shape[1]; ++j)
        for (int64_t k = 0; k < shape[2]; ++k)
          zp[i * zs[0] + j * zs[1] + k * zs[2]] = xp[i * xs[0] + j * xs[1] + k * xs[2]] + yp[i * ys[0] + j * ys[1] + k * ys[2]];
  }
};

ms::Tensor add_uncontiguous(const ms::Tensor &x, const ms::Tensor &y) {
  if (x.is_contiguous() || y.is_contiguous()) {
    throw std::invalid_argument("For add_uncontiguous, the inputs should be uncontiguous tensor.");
  }
  auto out = ms::Tensor(x.data_type(), x.shape());
  std::make_shared<AddStrided>("Add1")->Run({x, y}, {out});
  return out;
}

auto pyboost_add1(const ms::Tensor &x, const ms::Tensor &y) {
  x.SetNeedContiguous(false);
  y.SetNeedContiguous(false);
  return ms::pynative::PyboostRunner::Call<1>(add_uncontiguous, x, y);
}

// The same through TensorAccessor, with the default contiguity handling.
class AddFlat : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const auto &x = inputs()[0], &y = inputs()[1], &z = outputs()[0];
    g_contiguous = x.is_contiguous() && y.is_contiguous() && z.is_contiguous();
    const auto *xp = x.data_ptr<int32_t>();
    const auto *yp = y.data_ptr<int32_t>();
    auto *zp = z.data_ptr<int32_t>();
    for (size_t i = 0; i < x.numel(); ++i) zp[i] = xp[i] + yp[i];
  }
  static inline bool g_contiguous = false;
};

ms::Tensor add_contiguous(const ms::Tensor &x, const ms::Tensor &y) {
  if (!x.is_contiguous() || !y.is_contiguous()) {
    throw std::invalid_argument("For add_contiguous, the inputs should be contiguous tensor.");
  }
  auto out = ms::Tensor(x.data_type(), x.shape());
  std::make_shared<AddFlat>("Add2")->Run({x, y}, {out});
  return out;
}

auto pyboost_add2(const ms::Tensor &x, const ms::Tensor &y) { return ms::pynative::PyboostRunner::Call<1>(add_contiguous, x, y); }

// Strided inputs without SetNeedContiguous(false): Run hands the kernel contiguous copies.
ms::Tensor add_any(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &out) {
  std::make_shared<AddFlat>("AddAny")->Run({x, y}, {out});
  return out;
}
bool last_kernel_saw_contiguous() { return AddFlat::g_contiguous; }

// out = x + y + z through an int32 workspace of numel * 4 bytes.
class CustomAdd3 : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(int32_t); }
  void LaunchKernel() override {
    auto *ws = static_cast<int32_t *>(workspace_ptr());
    if (ws == nullptr) throw std::runtime_error("add3: no workspace");
    if (stream() != nullptr || stream_id() != 0 || (op_name() != "Add3" && op_name() != "Add6")) {
      throw std::runtime_error("add3: unexpected stream or op name " + op_name());
    }
    const auto *xp = inputs()[0].data_ptr<int32_t>();
    const auto *yp = inputs()[1].data_ptr<int32_t>();
    const auto *zp = inputs()[2].data_ptr<int32_t>();
    auto *op = outputs()[0].data_ptr<int32_t>();
    for (size_t i = 0; i < inputs()[0].numel(); ++i) ws[i] = xp[i] + yp[i];
    for (size_t i = 0; i < inputs()[0].numel(); ++i) op[i] = zp[i] + ws[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &z) {
    auto out = ms::Tensor(x.data_type(), x.shape());
    std::make_shared<CustomAdd3>("Add3")->Run({x, y, z}, {out});
    return out;
  }
};

struct CustomAdd4 {
  static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &y, const std::vector<ms::Tensor> &z) {
    return CustomAdd3::Eval(x, y, z[0]);
  }
};

struct CustomAdd6 {
  static void Eval(const ms::Tensor &x, const ms::Tensor &y, const ms::Tensor &z, const std::vector<ms::Tensor> &out) {
    std::make_shared<CustomAdd3>("Add6")->Run({x, y, z}, {out[0]});
  }
};

// Two outputs (x + y, x - y) from one Call<2>.
std::vector<ms::Tensor> add_sub(const ms::Tensor &x, const ms::Tensor &y) {
  ms::Tensor a(x.data_type(), x.shape()), b(x.data_type(), x.shape());
  custom::CustomLaunchAclnn("aclnnAdd", {x, y}, {a});
  custom::CustomLaunchAclnn("aclnnSub", {x, y}, {b});
  return {a, b};
}
auto pyboost_add_sub(const ms::Tensor &x, const ms::Tensor &y) { return ms::pynative::PyboostRunner::Call<2>(add_sub, x, y); }
auto pyboost_add_sub_wrong(const ms::Tensor &x, const ms::Tensor &y) {
  return ms::pynative::PyboostRunner::Call<3>(add_sub, x, y);
}

// swap(x, y) in place through a workspace; Call<0> returns None.
class CustomSwap : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(int32_t); }
  void LaunchKernel() override {
    auto *xp = inputs()[0].data_ptr<int32_t>();
    auto *yp = inputs()[1].data_ptr<int32_t>();
    auto *ws = static_cast<int32_t *>(workspace_ptr());
    const size_t n = inputs()[0].numel();
    for (size_t i = 0; i < n; ++i) ws[i] = xp[i];
    for (size_t i = 0; i < n; ++i) xp[i] = yp[i];
    for (size_t i = 0; i < n; ++i) yp[i] = ws[i];
  }
};

void custom_swap(const ms::Tensor &x, const ms::Tensor &y) { std::make_shared<CustomSwap>("Swap")->Run({x, y}, {x, y}); }
auto pyboost_swap(const ms::Tensor &x, const ms::Tensor &y) { return ms::pynative::PyboostRunner::Call<0>(custom_swap, x, y); }

// -- ms::Tensor / BaseTensor views ---------------------------------------------------------------
py::tuple describe(const ms::Tensor &x) {
  return py::make_tuple(x.shape(), x.stride(), x.storage_offset(), x.is_contiguous(), std::string(mskernel::TypeIdName(x.data_type())),
                        x.numel(), x.tensor()->requires_grad());
}

// Writes value into every element of a (possibly strided) float32 view, in place.
void fill_(const mskernel::BaseTensorPtr &x, float value) {
  const auto &shape = x->shape();
  const auto &st = x->strides();
  auto *p = static_cast<float *>(x->data_c());
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t n = 0; n < x->DataSize(); ++n) {
    int64_t off = 0;
    for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * st[d];
    p[off] = value;
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

ms::Tensor identity(const ms::Tensor &x) { return x; }
ms::Tensor make(const std::vector<int64_t> &shape) { return ms::zeros(shape, ms::TypeId::kNumberTypeFloat64); }
py::list methods(const ms::Tensor &x) {
  py::list out;
  out.append(x.cast(ms::TypeId::kNumberTypeInt32));
  out.append(x.reshape({-1}));
  out.append(x.flatten(1));
  py::list chunks;
  for (const auto &c : x.chunk(2, 1)) chunks.append(c);
  out.append(chunks);
  out.append(x.repeat({2, 1}));
  out.append(x.index_select(1, ms::tensor(std::vector<int64_t>{2, 0})));
  out.append(x.repeat_interleave(2, 0));
  out.append(x.contiguous());
  out.append(ms::ones({2}, ms::TypeId::kNumberTypeInt8));
  out.append(ms::tensor(std::vector<double>{1.5, 2.5}));
  out.append(ms::tensor(int64_t{7}));
  return out;
}
bool undefined_is_none(const ms::Tensor &x) { return !x.is_defined(); }
ms::Tensor accessor_double(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  auto in = x.accessor<float, 2>();
  auto o = out.accessor<float, 2>();
  for (int64_t i = 0; i < x.shape()[0]; ++i)
    for (int64_t j = 0; j < x.shape()[1]; ++j) o(i, j) = 2 * in[i][j];
  return out;
}
void aclnn(const std::string &name, const std::vector<ms::Tensor> &ins, const std::vector<ms::Tensor> &outs) {
  custom::CustomLaunchAclnn(name, ins, outs);
}

// -- kernels.h --------------------------------------------------------------------------------
ms::Tensor axpy(const ms::Tensor &x, const ms::Tensor &y, double a) {
  ms::Tensor out(x.data_type(), mskernel::cpu::BroadcastShape(x.shape(), y.shape()));
  mskernel::cpu::DispatchFloating(x.data_type(), [&](auto zero) {
    using T = decltype(zero);
    mskernel::cpu::Map<T>([a](T u, T v) { return static_cast<T>(a) * u + v; }, out, x, y);
  });
  return out;
}
ms::Tensor negate(const ms::Tensor &x) {
  ms::Tensor out(x.data_type(), x.shape());
  mskernel::cpu::DispatchNumeric(x.data_type(), [&](auto zero) {
    using T = decltype(zero);
    mskernel::cpu::Map<T>([](T u) { return static_cast<T>(-u); }, out, x);
  });
  return out;
}
py::tuple parallel_sum(int64_t n, int64_t grain) {
  std::vector<int64_t> part(static_cast<size_t>(n), 0);
  std::vector<int> seen(static_cast<size_t>(n), 0);
  mskernel::cpu::ParallelFor(0, n, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      part[static_cast<size_t>(i)] = i;
      seen[static_cast<size_t>(i)] += 1;
    }
  });
  int64_t total = 0;
  bool once = true;
  for (int64_t i = 0; i < n; ++i) {
    total += part[static_cast<size_t>(i)];
    once = once && seen[static_cast<size_t>(i)] == 1;
  }
  return py::make_tuple(total, once, mskernel::cpu::NumThreads());
}
void parallel_throw(int64_t n) {
  mskernel::cpu::ParallelFor(0, n, 1, [](int64_t lo, int64_t) {
    if (lo > 0) throw std::out_of_range("worker failed");
  });
}

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("add_uncontiguous", &pyboost_add1, "add, support uncontiguous", pybind11::arg("x"), pybind11::arg("y"));
  m.def("add_contiguous", &pyboost_add2, "add, only support contiguous", pybind11::arg("x"), pybind11::arg("y"));
  m.def("add_any", &add_any);
  m.def("last_kernel_saw_contiguous", &last_kernel_saw_contiguous);
  m.def("add3", PYBOOST_CALLER(1, CustomAdd3::Eval));
  m.def("add4", PYBOOST_CALLER(1, CustomAdd4::Eval));
  m.def("add6", PYBOOST_CALLER(0, CustomAdd6::Eval));
  m.def("add_sub", &pyboost_add_sub);
  m.def("add_sub_wrong", &pyboost_add_sub_wrong);
  m.def("swap", &pyboost_swap);
  m.def("describe", &describe);
  m.def("fill_", &fill_);
  m.def("identity", &identity);
  m.def("make", &make);
  m.def("methods", &methods);
  m.def("undefined_is_none", &undefined_is_none);
  m.def("accessor_double", &accessor_double);
  m.def("aclnn", &aclnn);
  m.def("axpy", &axpy);
  m.def("negate", &negate);
  m.def("parallel_sum", &parallel_sum);
  m.def("parallel_throw", &parallel_throw);
}
