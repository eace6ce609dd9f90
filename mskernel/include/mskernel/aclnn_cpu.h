// mskernel/aclnn_cpu.h -- `custom::CustomLaunchAclnn`: Ascend aclnn calls, run on the CPU.
//
// Provides `custom::CustomLaunchAclnn(name, inputs, outputs)` (also reachable as
// `mindspore::custom::CustomLaunchAclnn`), so custom ops written for Ascend run unchanged on a
// CPU. `inputs` are tensors and values (`{x, y, MakeValue<int64_t>(1)}`), `outputs` tensors;
// an `aclnnInplace*` op writes its first input. Inputs broadcast against the output (numpy
// rules), strided views work, results are cast to the output's dtype. The implementations are
// numpy calls made through mskernel.cpp (nothing is compiled into your module, which keeps
// builds fast); `mskernel.cpp.ACLNN_OPS` lists them: aclnnAdd/Adds/Sub/Subs (with alpha),
// Mul/Muls, Div/Divs, Maximum, Minimum, PowTensorTensor/PowTensorScalar, Neg, Exp, Log, Sqrt,
// Rsqrt, Abs, Reciprocal, Sin, Cos, Tanh, Sigmoid, Relu, Silu, Sign, Floor, Ceil, Cast, Expand,
// Matmul/Mm/BatchMatMul/Bmm, ReduceSum, Mean, Softmax, InplaceCopy/Zero/FillScalar/Add/Adds/Sub/
// Mul/Muls/Div. Any other name throws a RuntimeError that names the op and lists these.
// One common case runs here without Python (a custom op's call path is then as fast as a built-in
// op's): aclnnAdd/Sub/Mul of float32/float64 tensors of the output's shape and dtype, each dense or one
// value broadcast (all strides 0, as the gradient of a sum is).
//
// Example:
//   auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//   custom::CustomLaunchAclnn("aclnnAdd", {x, y, MakeValue<int64_t>(2)}, {out});   // x + 2*y
//   custom::CustomLaunchAclnn("aclnnInplaceZero", {out}, {});
#ifndef MSKERNEL_ACLNN_CPU_H_
#define MSKERNEL_ACLNN_CPU_H_

#include <cstring>
#include <initializer_list>
#include <string>
#include <typeinfo>
#include <vector>

#include "mskernel/ms_tensor.h"

namespace mskernel {
namespace aclnn {

/// The inputs or outputs of a CustomLaunchAclnn call as they were written: a std::vector, or a braced list
/// (`{x, y}`, read in place, without building a vector).
template <typename T>
struct List {
  List(const std::vector<T> &v) : data(v.data()), size(v.size()) {}  // NOLINT: implicit on purpose
  List(const T *first, size_t n) : data(first), size(n) {}
  const T &operator[](size_t i) const { return data[i]; }
  const T *begin() const { return data; }
  const T *end() const { return data + size; }
  const T *data;
  size_t size;
};

/// `v` as a BaseTensor, or nullptr (dynamic_cast, with the usual case -- exactly a BaseTensor -- checked first).
inline const BaseTensor *AsTensor(const Value *v) {
  if (v != nullptr && typeid(*v) == typeid(BaseTensor)) return static_cast<const BaseTensor *>(v);
  return dynamic_cast<const BaseTensor *>(v);
}

namespace native {
#if defined(__GNUC__) || defined(__clang__)
// z[i] = f(x[i], y[i]) for i in [0, n rounded down to 2 vectors), in 16-byte vectors (what -O2 does not
// vectorize by itself: n is not known, and z may be x or y). SA/SB false: that input is one broadcast
// value. Every vector is loaded before its result is stored, so z == x or z == y stays exact. Returns
// the first index left to the scalar loop.
template <bool SA, bool SB, typename T, typename F>
inline size_t Apply2Vectors(F f, const T *x, const T *y, T *z, size_t n) {
  typedef T V __attribute__((vector_size(16)));
  constexpr size_t kLanes = sizeof(V) / sizeof(T);
  size_t i = 0;
  if (n < 2 * kLanes) return 0;
  const V xs = V{} + x[0], ys = V{} + y[0];
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    V a0 = xs, a1 = xs, b0 = ys, b1 = ys;
    if (SA) {
      std::memcpy(&a0, x + i, sizeof(V));
      std::memcpy(&a1, x + i + kLanes, sizeof(V));
    }
    if (SB) {
      std::memcpy(&b0, y + i, sizeof(V));
      std::memcpy(&b1, y + i + kLanes, sizeof(V));
    }
    const V r0 = f(a0, b0), r1 = f(a1, b1);
    std::memcpy(z + i, &r0, sizeof(V));
    std::memcpy(z + i + kLanes, &r1, sizeof(V));
  }
  return i;
}
#else
template <bool SA, bool SB, typename T, typename F>
inline size_t Apply2Vectors(F, const T *, const T *, T *, size_t) {
  return 0;
}
#endif

// z = f(x, y) over n elements, where an input with step 0 is one broadcast value (loops without a
// runtime stride, so the compiler can vectorize them); f takes elements or vectors of them
template <typename T, typename F>
inline void Apply2(F f, const T *x, size_t sa, const T *y, size_t sb, T *z, size_t n) {
  if (sa == 1 && sb == 1) {
    for (size_t i = Apply2Vectors<true, true>(f, x, y, z, n); i < n; ++i) z[i] = f(x[i], y[i]);
  } else if (sa == 1) {
    const T v = y[0];
    for (size_t i = Apply2Vectors<true, false>(f, x, y, z, n); i < n; ++i) z[i] = f(x[i], v);
  } else if (sb == 1) {
    const T v = x[0];
    for (size_t i = Apply2Vectors<false, true>(f, x, y, z, n); i < n; ++i) z[i] = f(v, y[i]);
  } else if (n > 0) {
    const T v = f(x[0], y[0]);
    for (size_t i = 0; i < n; ++i) z[i] = v;
  }
}

template <typename T>
inline void ElementwiseLoop(char op, const BaseTensor &a, size_t sa, const BaseTensor &b, size_t sb,
                            const BaseTensor &out) {
  const T *x = a.data_ptr_as<T>(), *y = b.data_ptr_as<T>();
  T *z = out.data_ptr_as<T>();
  const size_t n = out.DataSize();
  if (op == '+') {
    Apply2([](auto u, auto v) { return u + v; }, x, sa, y, sb, z, n);
  } else if (op == '-') {
    Apply2([](auto u, auto v) { return u - v; }, x, sa, y, sb, z, n);
  } else {
    Apply2([](auto u, auto v) { return u * v; }, x, sa, y, sb, z, n);
  }
}

/// An input's elements either are exactly the output's or do not overlap them (an elementwise loop is
/// then what numpy computes). `dense`: whether `a` is contiguous (else it is one broadcast value).
inline bool SameOrApart(const BaseTensor &a, bool dense, const BaseTensor &out) {
  const char *p = static_cast<const char *>(a.data_c()), *q = static_cast<const char *>(out.data_c());
  const size_t a_bytes = a.DataSize() ? a.DataItemSize() : 0;  // a broadcast value spans one element
  return p == q || p + (dense ? a.Size() : a_bytes) <= q || q + out.Size() <= p;
}

/// The element step of an input in a loop over the output: 1 when dense, 0 when every stride is 0 (one
/// value broadcast, such as the gradient of a sum); -1 for any other layout.
inline long Step(const BaseTensor &a) {
  if (a.is_contiguous()) return 1;
  for (int64_t s : a.strides()) {
    if (s != 0) return -1;
  }
  return 0;
}

/// `name == literal`, compared as a few words (the literal's length is known here).
template <size_t N>
inline bool NameIs(const std::string &name, const char (&literal)[N]) {
  return name.size() == N - 1 && std::memcmp(name.data(), literal, N - 1) == 0;
}

/// aclnnAdd/Sub/Mul (no alpha) on float tensors of the output's shape and dtype, each dense or one broadcast
/// value, in C++; false when the call is not that case (numpy runs it).
inline bool NativeElementwise(const std::string &name, List<ValuePtr> inputs, List<BaseTensorPtr> outputs) {
  char op = NameIs(name, "aclnnMul") ? '*' : NameIs(name, "aclnnAdd") ? '+' : NameIs(name, "aclnnSub") ? '-' : 0;
  if (op == 0 || inputs.size != 2 || outputs.size != 1 || !outputs[0] || !inputs[0] || !inputs[1]) return false;
  const BaseTensor *a = AsTensor(inputs[0].get());
  const BaseTensor *b = AsTensor(inputs[1].get());
  const BaseTensor &out = *outputs[0];
  if (a == nullptr || b == nullptr || out.readonly()) return false;
  const TypeId t = out.data_type();
  if ((t != kNumberTypeFloat32 && t != kNumberTypeFloat64) || a->data_type() != t || b->data_type() != t) return false;
  if (a->shape() != out.shape() || b->shape() != out.shape() || !out.is_contiguous()) return false;
  const long sa = Step(*a), sb = Step(*b);
  if (sa < 0 || sb < 0 || !SameOrApart(*a, sa == 1, out) || !SameOrApart(*b, sb == 1, out)) return false;
  if (t == kNumberTypeFloat32) {
    ElementwiseLoop<float>(op, *a, static_cast<size_t>(sa), *b, static_cast<size_t>(sb), out);
  } else {
    ElementwiseLoop<double>(op, *a, static_cast<size_t>(sa), *b, static_cast<size_t>(sb), out);
  }
  return true;
}
}  // namespace native

/// Runs the CPU implementation of the aclnn API `aclnn_name` (inputs and outputs in vectors or braced lists).
MSKERNEL_GLUE inline void LaunchAclnn(const std::string &aclnn_name, List<ValuePtr> inputs,
                                      List<BaseTensorPtr> outputs) {
  using namespace detail;
  if (native::NativeElementwise(aclnn_name, inputs, outputs)) return;
  PyRef ins = PyRef::Steal(Check(PyList_New(static_cast<Py_ssize_t>(inputs.size))));
  for (size_t i = 0; i < inputs.size; ++i) {
    PyObject *o;
    if (!inputs[i]) {
      o = (Py_INCREF(Py_None), Py_None);
    } else if (const BaseTensor *t = AsTensor(inputs[i].get())) {
      o = (Py_INCREF(t->array()), t->array());
    } else {
      o = inputs[i]->ToPython().release();
    }
    PyList_SET_ITEM(ins.get(), i, o);
  }
  PyRef outs = PyRef::Steal(Check(PyList_New(static_cast<Py_ssize_t>(outputs.size))));
  for (size_t i = 0; i < outputs.size; ++i) {
    if (!outputs[i]) throw std::invalid_argument("CustomLaunchAclnn(" + aclnn_name + "): output " + std::to_string(i) + " is null");
    PyObject *a = outputs[i]->array();
    Py_INCREF(a);
    PyList_SET_ITEM(outs.get(), i, a);
  }
  static std::atomic<PyObject *> launch_slot{nullptr};
  PyObject *launch = Once(launch_slot, [] { return BridgeAttr("launch_aclnn"); });
  Call(launch, {Str(aclnn_name).get(), ins.get(), outs.get()});
}

/// Runs the CPU implementation of the aclnn API `aclnn_name`.
inline void CustomLaunchAclnn(const std::string &aclnn_name, const ValuePtrList &inputs,
                              const BaseTensorPtrList &outputs) {
  LaunchAclnn(aclnn_name, inputs, outputs);
}

/// The same for braced lists, `CustomLaunchAclnn("aclnnMul", {x, y}, {out})` (no vectors built for them).
inline void CustomLaunchAclnn(const std::string &aclnn_name, std::initializer_list<ValuePtr> inputs,
                              std::initializer_list<BaseTensorPtr> outputs) {
  LaunchAclnn(aclnn_name, {inputs.begin(), inputs.size()}, {outputs.begin(), outputs.size()});
}

/// The same for ms::Tensor inputs and outputs.
MSKERNEL_GLUE inline void CustomLaunchAclnn(const std::string &aclnn_name, const std::vector<ms::Tensor> &inputs,
                              const std::vector<ms::Tensor> &outputs) {
  ValuePtrList ins;
  for (const auto &t : inputs) ins.push_back(t.tensor());
  BaseTensorPtrList outs;
  for (const auto &t : outputs) outs.push_back(t.tensor());
  CustomLaunchAclnn(aclnn_name, ins, outs);
}

}  // namespace aclnn
}  // namespace mskernel

namespace custom {
using ::mskernel::aclnn::CustomLaunchAclnn;
}  // namespace custom

#endif  // MSKERNEL_ACLNN_CPU_H_
