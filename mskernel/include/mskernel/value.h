// mskernel/value.h -- MindSpore's `Value`/`ValuePtr`: a small polymorphic value type.
//
// Provides `Value` (base of scalars, tuples and tensors; `isa<T>()`, `cast<TPtr>()`,
// `ToString()`), `ScalarValue<T>` (with MindSpore's aliases Int64Imm, Int32Imm, FP32Imm,
// FP64Imm, BoolImm, StringImm), `ValueTuple`, `MakeValue(v)` / `MakeValue<T>(v)` and
// `GetValue<T>(value)` (numbers convert between integer and floating kinds). A tensor is a Value
// too, so `AutogradContext::saved_data` (a map string -> ValuePtr) holds numbers, strings, int
// vectors and tensors, and `custom::CustomLaunchAclnn` takes `{x, y, MakeValue<int64_t>(1)}`.
//
// Example:
//   ctx->saved_data["axis"] = MakeValue<int64_t>(1);
//   ctx->saved_data["mode"] = MakeValue(std::string("mean"));
//   int64_t axis = GetValue<int64_t>(ctx->saved_data["axis"]);
//   auto t = ctx->saved_data["t"]->cast<BaseTensorPtr>();   // nullptr unless it holds a tensor
#ifndef MSKERNEL_VALUE_H_
#define MSKERNEL_VALUE_H_

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mskernel/bridge.h"

namespace mskernel {

class Value;
using ValuePtr = std::shared_ptr<Value>;
using ValuePtrList = std::vector<ValuePtr>;

/// Base class of every value that crosses the C++/Python boundary.
class Value : public std::enable_shared_from_this<Value> {
 public:
  virtual ~Value() = default;
  /// A readable description ("3", "(1, 2)", "Tensor(shape=[2], dtype=kNumberTypeFloat32)").
  virtual std::string ToString() const = 0;
  /// A new Python object for this value (int, float, bool, str, tuple, mskernel Tensor).
  virtual detail::PyRef ToPython() const = 0;
  /// The value as a number, if it is one.
  virtual bool AsNumber(double *d, int64_t *i) const {
    (void)d;
    (void)i;
    return false;
  }

  template <typename T>
  bool isa() const {
    return dynamic_cast<const T *>(this) != nullptr;
  }
  /// This value as `P` (a shared_ptr type such as BaseTensorPtr), or nullptr if it is not one.
  template <typename P>
  P cast() const {
    return std::dynamic_pointer_cast<typename P::element_type>(std::const_pointer_cast<Value>(shared_from_this()));
  }
};

namespace detail {
inline PyRef ToPy(bool v) { return Bool(v); }
inline PyRef ToPy(const std::string &v) { return Str(v); }
inline PyRef ToPy(const ValuePtr &v) { return v ? v->ToPython() : PyRef::Borrow(Py_None); }
template <typename T>
PyRef ToPy(const T &v) {
  if constexpr (std::is_integral_v<T>) {
    return Int(static_cast<int64_t>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return Float(static_cast<double>(v));
  } else {
    PyRef t = PyRef::Steal(Check(PyTuple_New(static_cast<Py_ssize_t>(v.size()))));
    for (size_t i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(t.get(), i, ToPy(v[i]).release());
    return t;
  }
}

template <typename T>
std::string ToStr(const T &v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return std::to_string(v);
  } else {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + ToStr(v[i]);
    return s + ")";
  }
}
}  // namespace detail

/// A value holding one `T` (a number, bool, string or vector of those).
template <typename T>
class ScalarValue final : public Value {
 public:
  explicit ScalarValue(T v) : value_(std::move(v)) {}
  const T &value() const { return value_; }
  std::string ToString() const override { return detail::ToStr(value_); }
  detail::PyRef ToPython() const override { return detail::ToPy(value_); }
  bool AsNumber(double *d, int64_t *i) const override {
    if constexpr (std::is_arithmetic_v<T>) {
      *d = static_cast<double>(value_);
      *i = static_cast<int64_t>(value_);
      return true;
    } else {
      return Value::AsNumber(d, i);
    }
  }

 private:
  T value_;
};

using Int64Imm = ScalarValue<int64_t>;
using Int32Imm = ScalarValue<int32_t>;
using FP32Imm = ScalarValue<float>;
using FP64Imm = ScalarValue<double>;
using BoolImm = ScalarValue<bool>;
using StringImm = ScalarValue<std::string>;

/// A tuple of values (MindSpore's ValueTuple / ValueSequence).
class ValueTuple final : public Value {
 public:
  explicit ValueTuple(ValuePtrList elements) : elements_(std::move(elements)) {}
  const ValuePtrList &value() const { return elements_; }
  size_t size() const { return elements_.size(); }
  std::string ToString() const override {
    std::string s = "(";
    for (size_t i = 0; i < elements_.size(); ++i) s += (i ? ", " : "") + (elements_[i] ? elements_[i]->ToString() : "None");
    return s + ")";
  }
  detail::PyRef ToPython() const override { return detail::ToPy(elements_); }

 private:
  ValuePtrList elements_;
};
using ValueSequence = ValueTuple;
using ValueTuplePtr = std::shared_ptr<ValueTuple>;

/// Wraps a number, bool, string (or const char*), or a vector of those as a ValuePtr.
template <typename T>
ValuePtr MakeValue(T v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, const char *> || std::is_same_v<D, char *>) {
    return std::make_shared<StringImm>(std::string(v));
  } else if constexpr (std::is_same_v<D, ValuePtrList>) {
    return std::make_shared<ValueTuple>(std::move(v));
  } else {
    return std::make_shared<ScalarValue<D>>(std::move(v));
  }
}

/// The `T` held by `value`; numbers convert between integer and floating kinds. Throws
/// std::runtime_error when the value holds something else (or is null).
template <typename T>
T GetValue(const ValuePtr &value) {
  if (value == nullptr) throw std::runtime_error("GetValue: the value is null (was it saved in saved_data?)");
  if (auto *p = dynamic_cast<const ScalarValue<T> *>(value.get())) return p->value();
  if constexpr (std::is_arithmetic_v<T>) {
    double d = 0;
    int64_t i = 0;
    if (value->AsNumber(&d, &i)) return std::is_integral_v<T> ? static_cast<T>(i) : static_cast<T>(d);
  }
  throw std::runtime_error("GetValue: the value " + value->ToString() + " does not hold the requested type");
}

}  // namespace mskernel

#endif  // MSKERNEL_VALUE_H_
