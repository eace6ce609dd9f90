// mskernel/ms_tensor.h -- MindSpore 2.7+'s `ms::Tensor` handle, TensorAccessor, ms::tensor/ones/zeros.
//
// Provides `ms::Tensor`: a cheap, copyable handle on a `BaseTensor` (copies share the tensor),
// with MindSpore's API: is_defined, data_type, shape, numel, stride, storage_offset,
// is_contiguous, SetNeedContiguous, GetDataPtr (already includes the storage offset),
// data_ptr<T>(), accessor<T, N>(), and the operator methods cast, contiguous, reshape, flatten,
// chunk, repeat, repeat_interleave, index_select (numpy does these: views where numpy gives views,
// not recorded by autograd). Free functions `ms::tensor(value[, dtype])`, `ms::ones(shape[, dtype])`,
// `ms::zeros(shape[, dtype])`. A pybind11 type caster converts mskernel Tensors (and None -> an
// undefined Tensor) zero-copy, so `ms::Tensor` works as an argument and result of `m.def`.
//
// Example:
//   #include "ms_extension/api.h"
//   ms::Tensor scale(const ms::Tensor &x) {                   // strided views work as is
//     auto out = ms::Tensor(x.data_type(), x.shape());
//     auto in = x.accessor<float, 2>();
//     auto o = out.accessor<float, 2>();
//     for (int64_t i = 0; i < x.shape()[0]; ++i)
//       for (int64_t j = 0; j < x.shape()[1]; ++j) o[i][j] = 2 * in[i][j];
//     return out;
//   }
#ifndef MSKERNEL_MS_TENSOR_H_
#define MSKERNEL_MS_TENSOR_H_

#include <optional>
#include <string>
#include <vector>

#include "mskernel/tensor.h"

namespace ms {
using TypeId = mskernel::TypeId;
using ShapeVector = mskernel::ShapeVector;

namespace detail {
/// What every TensorAccessor holds: the first element, and per-dimension sizes and strides.
template <typename T>
class AccessorBase {
 public:
  AccessorBase(T *data, const int64_t *sizes, const int64_t *strides) : data_(data), sizes_(sizes), strides_(strides) {}
  int64_t size(size_t d) const { return sizes_[d]; }
  const int64_t *sizes() const { return sizes_; }
  const int64_t *strides() const { return strides_; }
  T *data() const { return data_; }

 protected:
  T *data_;
  const int64_t *sizes_;
  const int64_t *strides_;
};
}  // namespace detail

/// Indexes a strided tensor like a nested array: `acc[i][j]` or `acc(i, j)`.
template <typename T, size_t N>
class TensorAccessor : public detail::AccessorBase<T> {
 public:
  using detail::AccessorBase<T>::AccessorBase;
  TensorAccessor<T, N - 1> operator[](int64_t i) const {
    return TensorAccessor<T, N - 1>(this->data_ + i * this->strides_[0], this->sizes_ + 1, this->strides_ + 1);
  }
  template <typename... I>
  T &operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "TensorAccessor: give one index per dimension");
    const int64_t index[] = {static_cast<int64_t>(idx)...};
    int64_t off = 0;
    for (size_t k = 0; k < N; ++k) off += index[k] * this->strides_[k];
    return this->data_[off];
  }
};

template <typename T>
class TensorAccessor<T, 1> : public detail::AccessorBase<T> {
 public:
  using detail::AccessorBase<T>::AccessorBase;
  T &operator[](int64_t i) const { return this->data_[i * this->strides_[0]]; }
  T &operator()(int64_t i) const { return this->data_[i * this->strides_[0]]; }
};

/// MindSpore's tensor handle (2.7+ custom-op API). Copies share the same tensor.
class Tensor {
 public:
  /// An undefined placeholder (is_defined() is false).
  Tensor() = default;
  /// A new, uninitialized tensor.
  Tensor(TypeId type_id, const ShapeVector &shape) : t_(std::make_shared<mskernel::BaseTensor>(type_id, shape)) {}
  /// A handle on an existing BaseTensor (nullptr gives an undefined Tensor).
  explicit Tensor(const mskernel::BaseTensorPtr &t) : t_(t) {}

  bool is_defined() const { return t_ != nullptr; }
  TypeId data_type() const { return get()->data_type(); }
  std::string format() const { return "DefaultFormat"; }
  void set_format(const std::string &) const {}
  const ShapeVector &shape() const { return get()->shape(); }
  size_t numel() const { return get()->DataSize(); }
  std::vector<int64_t> stride() const { return get()->strides(); }
  int64_t storage_offset() const { return get()->storage_offset(); }
  bool is_contiguous() const { return get()->is_contiguous(); }
  /// false: PyboostRunner::Run hands this tensor to LaunchKernel as is, even if strided.
  void SetNeedContiguous(bool flag) const { get()->set_need_contiguous(flag); }
  bool need_contiguous() const { return get()->need_contiguous(); }
  /// Pointer to the first element (the storage offset is already applied).
  void *GetDataPtr() const { return get()->data_c(); }
  template <typename T>
  T *data_ptr() const {
    return static_cast<T *>(GetDataPtr());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const {
    if (shape().size() != N) {
      throw std::runtime_error("TensorAccessor error: The tensor's shape or stride does not match the specified "
                               "dimension N. Expected dimension: " + std::to_string(N) + ", but got shape size: " +
                               std::to_string(shape().size()) + ".");
    }
    return TensorAccessor<T, N>(data_ptr<T>(), get()->shape().data(), get()->strides().data());
  }

  // -- operators (numpy; not recorded by autograd) ---------------------------------------------
  Tensor cast(TypeId dtype) const { return Bridge("cast", {Str(mskernel::RequireNumpyName(dtype)).get()}); }
  Tensor contiguous() const { return is_contiguous() ? *this : Bridge("contiguous", {}); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const {
    return Bridge("flatten", {Int(start_dim).get(), Int(end_dim).get()});
  }
  Tensor reshape(const std::vector<int64_t> &shape) const { return Bridge("reshape", {IntTuple(shape).get()}); }
  Tensor repeat(const std::vector<int64_t> &repeats) const { return Bridge("repeat", {IntTuple(repeats).get()}); }
  Tensor index_select(int64_t dim, const Tensor &index) const {
    return Bridge("index_select", {Int(dim).get(), index.get()->array()});
  }
  MSKERNEL_GLUE std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const {
    using namespace mskernel::detail;
    PyRef lst = CallBridge("chunk", {get()->array(), Int(chunks).get(), Int(dim).get()});
    std::vector<Tensor> out;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lst.get()); ++i) {
      out.emplace_back(mskernel::BaseTensor::FromArray(PyRef::Borrow(PyList_GET_ITEM(lst.get(), i))));
    }
    return out;
  }
  Tensor repeat_interleave(const Tensor &repeats, const std::optional<int64_t> &dim = std::nullopt,
                           const std::optional<int64_t> &output_size = std::nullopt) const {
    return Bridge("repeat_interleave", {repeats.get()->array(), Opt(dim).get(), Opt(output_size).get()});
  }
  Tensor repeat_interleave(int64_t repeats, const std::optional<int64_t> &dim = std::nullopt,
                           const std::optional<int64_t> &output_size = std::nullopt) const {
    return Bridge("repeat_interleave", {Int(repeats).get(), Opt(dim).get(), Opt(output_size).get()});
  }

  // -- internal (public in MindSpore too) -------------------------------------------------------
  /// The underlying tensor (throws, as MindSpore does, if this Tensor is not defined).
  const mskernel::BaseTensorPtr &tensor() const { return get(); }
  /// Copies the values of `src` into this tensor (broadcasting, casting).
  void AssignTensor(const Tensor &src) const {
    mskernel::detail::CallBridge("copy_into", {get()->array(), src.get()->array()});
  }
  void ConvertStubNodeToTensor() const {}  // mskernel has no stub nodes: calls run synchronously

 private:
  const mskernel::BaseTensorPtr &get() const {
    if (!t_) {
      throw pybind11::type_error("ms::Tensor: The Tensor is not defined: None was passed for a tensor argument (or "
                                 "the Tensor was default-constructed); check is_defined() before using it");
    }
    return t_;
  }
  static mskernel::detail::PyRef Str(const std::string &s) { return mskernel::detail::Str(s); }
  static mskernel::detail::PyRef Int(int64_t v) { return mskernel::detail::Int(v); }
  static mskernel::detail::PyRef IntTuple(const std::vector<int64_t> &v) { return mskernel::detail::IntTuple(v); }
  static mskernel::detail::PyRef Opt(const std::optional<int64_t> &v) {
    return v ? Int(*v) : mskernel::detail::PyRef::Borrow(Py_None);
  }
  MSKERNEL_GLUE Tensor Bridge(const char *fn, std::initializer_list<PyObject *> extra) const {
    PyObject *stack[6];
    size_t n = 0;
    stack[n++] = get()->array();
    for (PyObject *o : extra) stack[n++] = o;
    mskernel::detail::PyRef f = mskernel::detail::PyRef::Steal(mskernel::detail::BridgeAttr(fn));
    mskernel::detail::DrainDeferred();
    mskernel::detail::PyRef r =
        mskernel::detail::PyRef::Steal(mskernel::detail::Check(PyObject_Vectorcall(f.get(), stack, n, nullptr)));
    return Tensor(mskernel::BaseTensor::FromArray(std::move(r)));
  }

  mskernel::BaseTensorPtr t_;
};

namespace detail {
MSKERNEL_GLUE inline Tensor FromValues(mskernel::detail::PyRef values, TypeId dtype) {
  return Tensor(mskernel::BaseTensor::FromArray(mskernel::detail::CallBridge(
      "from_values", {values.get(), mskernel::detail::Str(mskernel::RequireNumpyName(dtype)).get()})));
}
MSKERNEL_GLUE inline Tensor Filled(const char *fn, const ShapeVector &shape, TypeId dtype) {
  return Tensor(mskernel::BaseTensor::FromArray(mskernel::detail::CallBridge(
      fn, {mskernel::detail::IntTuple(shape).get(), mskernel::detail::Str(mskernel::RequireNumpyName(dtype)).get()})));
}
}  // namespace detail

/// A 0-d tensor holding `value`.
inline Tensor tensor(int64_t value, TypeId dtype = mskernel::kNumberTypeInt64) {
  return detail::FromValues(mskernel::detail::Int(value), dtype);
}
/// A 1-d tensor holding `value`.
inline Tensor tensor(const std::vector<int64_t> &value, TypeId dtype = mskernel::kNumberTypeInt64) {
  return detail::FromValues(mskernel::detail::IntTuple(value), dtype);
}
inline Tensor tensor(double value, TypeId dtype = mskernel::kNumberTypeFloat64) {
  return detail::FromValues(mskernel::detail::Float(value), dtype);
}
inline Tensor tensor(const std::vector<double> &value, TypeId dtype = mskernel::kNumberTypeFloat64) {
  return detail::FromValues(mskernel::detail::ToPy(value), dtype);
}
inline Tensor ones(const ShapeVector &shape, TypeId dtype = mskernel::kNumberTypeFloat32) {
  return detail::Filled("ones", shape, dtype);
}
inline Tensor zeros(const ShapeVector &shape, TypeId dtype = mskernel::kNumberTypeFloat32) {
  return detail::Filled("zeros", shape, dtype);
}
}  // namespace ms

namespace pybind11 {
namespace detail {
/// mskernel Tensor (or None -> undefined) <-> ms::Tensor, zero-copy both ways.
template <>
struct type_caster<ms::Tensor> {
  PYBIND11_TYPE_CASTER(ms::Tensor, const_name("Tensor"));
  bool load(handle src, bool) {
    mskernel::detail::RegisterNonStdExceptionTranslator();
    if (!src) return false;
    if (src.is_none()) {  // an undefined Tensor, as in MindSpore: its methods raise, is_defined() is false
      value = ms::Tensor();
      return true;
    }
    if (!mskernel::BaseTensor::IsTensor(src.ptr())) return false;
    value = ms::Tensor(mskernel::BaseTensor::FromTensor(src.ptr()));
    return true;
  }
  static handle cast(const ms::Tensor &src, return_value_policy, handle) {
    if (!src.is_defined()) return none().release();
    return src.tensor()->ToPython().release();
  }
};
}  // namespace detail
}  // namespace pybind11

#endif  // MSKERNEL_MS_TENSOR_H_
