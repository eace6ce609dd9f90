// mskernel/tensor.h -- BaseTensor: a zero-copy C++ view of an mskernel Tensor's numpy buffer.
//
// Provides `BaseTensor` (MindSpore's `tensor::BaseTensor`/`tensor::Tensor`), `BaseTensorPtr`,
// `BaseTensorPtrList`, `ShapeVector`, and the pybind11 type caster that turns an mskernel Tensor
// argument into a `BaseTensorPtr` (and back) without copying. A BaseTensor received from Python
// reads and writes the Tensor's own memory -- sliced (strided) views included: `data_c()` points
// at the first element and `strides()` (in elements) says how to walk it. A BaseTensor created
// in C++ (`std::make_shared<BaseTensor>(type, shape)`, uninitialized like MindSpore's) owns a
// fresh numpy array, so returning it to Python is zero-copy too; returning a tensor that came
// from Python gives back the very same Python object.
//
// MindSpore accessors: data_type(), data_type_c(), shape(), shape_c(), data_c(), Size() (bytes),
// DataSize()/ElementsNum() (elements), DataDim(), DataItemSize(), data() (TensorData), data_sync()
// (a no-op), ToString().
// mskernel additions: strides(), storage_offset(), is_contiguous(), requires_grad(),
// data_ptr_as<T>(), readonly().
//
// All of it needs the GIL (held whenever Python calls an extension function); BaseTensors may be
// *read* from ParallelFor workers, but create and destroy them on the calling thread.
//
// Example:
//   #include "ms_extension.h"
//   BaseTensorPtr twice(const BaseTensorPtr &x) {          // m.def("twice", &twice)
//     auto out = std::make_shared<BaseTensor>(x->data_type(), x->shape());
//     auto *src = static_cast<const float *>(x->data_c());  // assumes float32, contiguous
//     auto *dst = static_cast<float *>(out->data_c());
//     for (size_t i = 0; i < x->DataSize(); ++i) dst[i] = 2 * src[i];
//     return out;
//   }
#ifndef MSKERNEL_TENSOR_H_
#define MSKERNEL_TENSOR_H_

#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "mskernel/bridge.h"
#include "mskernel/dtype.h"
#include "mskernel/value.h"

namespace mskernel {

using ShapeVector = std::vector<int64_t>;

class BaseTensor;
using BaseTensorPtr = std::shared_ptr<BaseTensor>;
using BaseTensorPtrList = std::vector<BaseTensorPtr>;

/// The storage behind a tensor: a numpy array (kept alive here) and its first element.
class TensorData {
 public:
  TensorData(detail::PyRef array, void *data, size_t size, size_t itemsize, size_t ndim, bool readonly)
      : array_(std::move(array)), data_(data), size_(size), itemsize_(itemsize), ndim_(ndim), readonly_(readonly) {}
  void *data() { return data_; }
  const void *const_data() const { return data_; }
  size_t size() const { return size_; }  ///< elements
  size_t itemsize() const { return itemsize_; }
  size_t nbytes() const { return size_ * itemsize_; }
  ssize_t ndim() const { return static_cast<ssize_t>(ndim_); }
  bool readonly() const { return readonly_; }
  PyObject *array() const { return array_.get(); }  ///< borrowed numpy array

 private:
  detail::PyRef array_;
  void *data_;
  size_t size_, itemsize_, ndim_;
  bool readonly_;
};
using TensorDataPtr = std::shared_ptr<TensorData>;

/// A tensor on the CPU: dtype, shape, element strides, and a numpy buffer it shares.
class BaseTensor : public Value {
 public:
  /// A new, uninitialized tensor (a fresh numpy array) of `type` and `shape`.
  BaseTensor(TypeId type, const ShapeVector &shape) { InitAllocated(Allocate(type, shape), type, shape); }

  /// A new tensor holding a copy of `nbytes` bytes at `data` (MindSpore's data constructor).
  BaseTensor(TypeId type, const ShapeVector &shape, const void *data, size_t nbytes) : BaseTensor(type, shape) {
    if (nbytes > Size()) throw std::invalid_argument("BaseTensor: more data bytes than the shape holds");
    if (nbytes > 0) std::memcpy(data_c(), data, nbytes);
  }

  /// A shallow copy: same storage, shape and dtype, but a new identity (no autograd history).
  BaseTensor(const BaseTensor &other)
      : Value(),
        type_(other.type_),
        shape_(other.shape_),
        strides_(other.strides_),
        data_(other.data_),
        py_tensor_(),
        offset_(other.offset_) {}

  /// A view of the mskernel Tensor `obj` (nullptr for None). Raises TypeError for other objects.
  MSKERNEL_GLUE static BaseTensorPtr FromPython(PyObject *obj) {
    if (obj == Py_None) return nullptr;
    if (!IsTensor(obj)) {
      PyErr_Format(PyExc_TypeError, "expected an mskernel Tensor, but got %s", Py_TYPE(obj)->tp_name);
      detail::ThrowPythonError();
    }
    auto t = std::shared_ptr<BaseTensor>(new BaseTensor());
    static std::atomic<PyObject *> name{nullptr};
    PyObject *data = detail::Check(PyObject_GetAttr(obj, detail::Interned(name, "_data")));
    detail::PyRef arr = detail::PyRef::Steal(data);
    t->InitFromArray(std::move(arr), obj);
    return t;
  }

  /// A tensor viewing the numpy array `arr` (no Python Tensor object until one is needed).
  MSKERNEL_GLUE static BaseTensorPtr FromArray(detail::PyRef arr) {
    auto t = std::shared_ptr<BaseTensor>(new BaseTensor());
    t->InitFromArray(std::move(arr), nullptr);
    return t;
  }

  /// True if `obj` is an mskernel Tensor (or Parameter).
  MSKERNEL_GLUE static bool IsTensor(PyObject *obj) {
    static std::atomic<PyObject *> cls_slot{nullptr};
    PyObject *cls = detail::Once(cls_slot, [] { return detail::BridgeAttr("Tensor"); });
    if (Py_TYPE(obj) == reinterpret_cast<PyTypeObject *>(cls)) return true;
    int r = PyObject_IsInstance(obj, cls);
    if (r < 0) detail::ThrowPythonError();
    return r == 1;
  }

  // -- MindSpore's accessors ----------------------------------------------------------------
  TypeId data_type() const { return type_; }
  int data_type_c() const { return static_cast<int>(type_); }
  const ShapeVector &shape() const { return shape_; }
  ShapeVector shape_c() const { return shape_; }
  /// Pointer to the first element (of this view: a slice's offset is already applied).
  void *data_c() const { return data_->data(); }
  size_t DataSize() const { return data_->size(); }  ///< number of elements
  size_t ElementsNum() const { return data_->size(); }
  size_t Size() const { return data_->nbytes(); }  ///< bytes of the elements
  size_t DataItemSize() const { return data_->itemsize(); }
  int DataDim() const { return static_cast<int>(shape_.size()); }
  /// No-op (MindSpore copies device data to the host here; mskernel tensors live on the host).
  void data_sync(bool need_wait = true) const { (void)need_wait; }
  TensorData &data() { return *data_; }
  const TensorData &data() const { return *data_; }
  const TensorDataPtr &data_ptr() const { return data_; }

  // -- strides, contiguity, autograd (mskernel) --------------------------------------------
  /// The first element as `T*` (no dtype check: see data_type()).
  template <typename T>
  T *data_ptr_as() const {
    return static_cast<T *>(data_->data());
  }
  /// Strides in elements (numpy's byte strides / itemsize); 0 for broadcast dimensions.
  const std::vector<int64_t> &strides() const { return strides_; }
  /// Element offset of this view's first element inside its root numpy buffer.
  MSKERNEL_GLUE int64_t storage_offset() const {
    if (offset_ < 0) {
      detail::PyRef r = detail::CallBridge("storage_offset", {data_->array()});
      offset_ = PyLong_AsLongLong(r.get());
      detail::ThrowIfError();
    }
    return offset_;
  }
  /// True when the elements are laid out densely in row-major order.
  bool is_contiguous() const {
    int64_t expected = 1;
    for (size_t i = shape_.size(); i-- > 0;) {
      if (shape_[i] == 1) continue;
      if (shape_[i] == 0) return true;
      if (strides_[i] != expected) return false;
      expected *= shape_[i];
    }
    return true;
  }
  /// True when the buffer may not be written (e.g. a numpy array with writeable=False).
  bool readonly() const { return data_->readonly(); }
  /// True when this tensor came from Python and autograd tracks it (`Tensor.requires_grad`).
  MSKERNEL_GLUE bool requires_grad() const {
    if (!py_tensor_) return false;
    static std::atomic<PyObject *> name{nullptr};
    PyObject *v = detail::Check(PyObject_GetAttr(py_tensor_.get(), detail::Interned(name, "_rg")));
    detail::PyRef rg = detail::PyRef::Steal(v);
    return PyObject_IsTrue(rg.get()) == 1;
  }
  /// The numpy array this tensor views (borrowed).
  PyObject *array() const { return data_->array(); }
  /// The Python Tensor this BaseTensor stands for, if one exists yet (borrowed, may be null).
  PyObject *py_tensor() const { return py_tensor_.get(); }

  // -- Value -----------------------------------------------------------------------------------
  std::string ToString() const override {
    std::string s = "Tensor(shape=[";
    for (size_t i = 0; i < shape_.size(); ++i) s += (i ? ", " : "") + std::to_string(shape_[i]);
    return s + "], dtype=" + TypeIdName(type_) + ")";
  }
  /// The Python Tensor for this tensor: the original object for tensors that came from Python,
  /// else a new Tensor sharing the buffer (created once, then returned again).
  MSKERNEL_GLUE detail::PyRef ToPython() const override {
    if (!py_tensor_) {
      static std::atomic<PyObject *> wrap_slot{nullptr};
      PyObject *wrap = detail::Once(wrap_slot, [] { return detail::BridgeAttr("wrap"); });
      py_tensor_ = detail::Call(wrap, {data_->array()});
    }
    return py_tensor_;
  }

  /// Makes `obj` (a Python Tensor viewing the same buffer) the Python identity of this tensor.
  void BindPython(detail::PyRef obj) const { py_tensor_ = std::move(obj); }
  /// Forgets the Python identity (used for saved outputs, to avoid reference cycles).
  void UnbindPython() const { py_tensor_ = detail::PyRef(); }

  // mskernel::ms::Tensor keeps its "need contiguous" flag here, so copies of a handle share it.
  bool need_contiguous() const { return need_contiguous_; }
  void set_need_contiguous(bool flag) const { need_contiguous_ = flag; }

 private:
  BaseTensor() = default;

  MSKERNEL_GLUE static detail::PyRef Allocate(TypeId type, const ShapeVector &shape) {
    for (int64_t d : shape) {
      if (d < 0) throw std::invalid_argument("BaseTensor: shape dimensions must be >= 0");
    }
    // numpy.empty(shape, dtype) with the dtype object made once per type (what mskernel.cpp.empty does,
    // without a Python frame: this runs for every tensor a custom op creates)
    static std::atomic<PyObject *> numpy_slot{nullptr}, empty_slot{nullptr};
    static std::atomic<PyObject *> dtype_slots[kNumberTypeEnd] = {};
    PyObject *numpy = detail::Once(numpy_slot, [] { return detail::Check(PyImport_ImportModule("numpy")); });
    PyObject *empty = detail::Once(empty_slot, [numpy] { return detail::Check(PyObject_GetAttrString(numpy, "empty")); });
    const char *np_name = RequireNumpyName(type);  // throws for a type numpy cannot hold
    PyObject *dt = detail::Once(dtype_slots[static_cast<int>(type)], [numpy, np_name] {
      detail::PyRef make = detail::PyRef::Steal(detail::Check(PyObject_GetAttrString(numpy, "dtype")));
      return detail::Call(make.get(), {detail::Str(np_name).get()}).release();
    });
    detail::PyRef shp = detail::IntTuple(shape);
    return detail::Call(empty, {shp.get(), dt});
  }

  /// A fresh C-contiguous array of a known type and shape: only its address is asked of the buffer
  /// protocol (no format, shape or strides to build and parse, as for arrays of unknown layout).
  MSKERNEL_GLUE void InitAllocated(detail::PyRef arr, TypeId type, const ShapeVector &shape) {
    Py_buffer view;
    if (PyObject_GetBuffer(arr.get(), &view, PyBUF_WRITABLE) != 0) detail::ThrowPythonError();
    void *ptr = view.buf;
    PyBuffer_Release(&view);
    type_ = type;
    shape_ = shape;
    strides_.assign(shape.size(), 0);
    size_t n = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides_[i] = static_cast<int64_t>(n);
      n *= static_cast<size_t>(shape[i]);
    }
    data_ = std::make_shared<TensorData>(std::move(arr), ptr, n, TypeIdSize(type), shape_.size(), false);
  }

  MSKERNEL_GLUE void InitFromArray(detail::PyRef arr, PyObject *py_tensor) {
    Py_buffer view;
    if (PyObject_GetBuffer(arr.get(), &view, PyBUF_RECORDS_RO) != 0) detail::ThrowPythonError();
    const size_t itemsize = static_cast<size_t>(view.itemsize);
    type_ = TypeIdFromBufferFormat(view.format, itemsize);
    shape_.assign(view.shape, view.shape + view.ndim);
    strides_.resize(static_cast<size_t>(view.ndim));
    size_t n = 1;
    for (int i = 0; i < view.ndim; ++i) {
      strides_[i] = itemsize ? view.strides[i] / static_cast<Py_ssize_t>(itemsize) : 0;
      n *= static_cast<size_t>(view.shape[i]);
    }
    void *ptr = view.buf;
    const bool ro = view.readonly != 0;
    const std::string fmt = view.format ? view.format : "B";
    PyBuffer_Release(&view);
    if (type_ == kTypeUnknown) {
      throw std::invalid_argument("mskernel cannot view a numpy buffer of format '" + fmt + "' as a tensor");
    }
    data_ = std::make_shared<TensorData>(std::move(arr), ptr, n, itemsize, shape_.size(), ro);
    if (py_tensor != nullptr) py_tensor_ = detail::PyRef::Borrow(py_tensor);
  }

  TypeId type_ = kTypeUnknown;
  ShapeVector shape_;
  std::vector<int64_t> strides_;
  TensorDataPtr data_;
  mutable detail::PyRef py_tensor_;
  mutable int64_t offset_ = -1;
  mutable bool need_contiguous_ = true;
};

/// Python objects for a list of tensors (None for nullptr entries), as a new list.
MSKERNEL_GLUE inline detail::PyRef TensorsToPython(const BaseTensorPtrList &ts) {
  detail::PyRef lst = detail::PyRef::Steal(detail::Check(PyList_New(static_cast<Py_ssize_t>(ts.size()))));
  for (size_t i = 0; i < ts.size(); ++i) {
    PyObject *o = ts[i] ? ts[i]->ToPython().release() : (Py_INCREF(Py_None), Py_None);
    PyList_SET_ITEM(lst.get(), i, o);
  }
  return lst;
}

}  // namespace mskernel

namespace mskernel {
namespace detail {
/// Once per process: a C++ function bound with pybind11 that throws a value that is not a
/// std::exception (`throw 42`) raises a RuntimeError saying so, not "Caught an unknown exception!".
/// Registered by the tensor casters, i.e. the first time a function with a tensor argument runs.
MSKERNEL_GLUE inline void RegisterNonStdExceptionTranslator() {
  static const bool registered = [] {
    pybind11::register_exception_translator([](std::exception_ptr p) {
      if (!p) return;
      try {
        std::rethrow_exception(p);
      } catch (const std::exception &) {
        throw;  // pybind11's own translators handle these
      } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, NonStdExceptionMessage("A C++ function").c_str());
      }
    });
    return true;
  }();
  (void)registered;
}
}  // namespace detail
}  // namespace mskernel

namespace pybind11 {
namespace detail {
/// mskernel Tensor <-> std::shared_ptr<mskernel::BaseTensor>, zero-copy both ways. None is not a
/// tensor: the call fails with pybind11's TypeError naming the function and its signature, instead
/// of handing the function a nullptr to crash on (declare `std::optional<BaseTensorPtr>` to take
/// None). A nullptr result converts to None.
template <>
struct type_caster<std::shared_ptr<mskernel::BaseTensor>> {
  PYBIND11_TYPE_CASTER(std::shared_ptr<mskernel::BaseTensor>, const_name("Tensor"));
  bool load(handle src, bool) {
    mskernel::detail::RegisterNonStdExceptionTranslator();
    if (!src || src.is_none()) return false;
    if (!mskernel::BaseTensor::IsTensor(src.ptr())) return false;
    value = mskernel::BaseTensor::FromPython(src.ptr());
    return true;
  }
  static handle cast(const std::shared_ptr<mskernel::BaseTensor> &src, return_value_policy, handle) {
    if (!src) return none().release();
    return src->ToPython().release();
  }
};
}  // namespace detail
}  // namespace pybind11

#endif  // MSKERNEL_TENSOR_H_
