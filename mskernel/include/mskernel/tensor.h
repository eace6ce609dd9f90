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

namespace detail {

/// mskernel's Python Tensor class (borrowed; imported on first use).
inline PyObject *TensorClass() {
  static std::atomic<PyObject *> cls_slot{nullptr};
  return Once(cls_slot, [] { return BridgeAttr("Tensor"); });
}

/// The C array helpers of mskernel/cpp/arrays.c (`mskernel.cpp.array_api()`): the same layout as its
/// MkArrayView / MkArrayApi, version kArrayApiVersion.
struct ArrayView {
  void *data;
  int ndim;
  int readonly;
  const Py_ssize_t *shape;
  const Py_ssize_t *strides;  // bytes
  Py_ssize_t itemsize;
  const char *format;  // the buffer protocol's format without its byte-order prefix
  int c_contiguous;    // the buffer protocol reports row-major strides for it (not `strides`)
};
struct ArrayApi {
  int version;
  PyObject *(*empty)(PyObject *descr, int nd, const int64_t *dims, void **data);
  int (*view)(PyObject *obj, ArrayView *out);
};
constexpr int kArrayApiVersion = 1;

MSKERNEL_GLUE inline const ArrayApi *LoadArrayApi() {
  PyRef fn = PyRef::Steal(BridgeAttr("array_api"));
  PyRef cap = Call(fn.get(), {});  // builds the helpers the first time (None when they cannot be built)
  if (!PyCapsule_CheckExact(cap.get())) return nullptr;
  auto *api = static_cast<const ArrayApi *>(PyCapsule_GetPointer(cap.get(), "mskernel.cpp.array_api"));
  if (api == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  return api->version == kArrayApiVersion ? api : nullptr;  // the capsule's module stays loaded
}

/// The C array helpers, or nullptr: numpy is then used through Python (numpy.empty, the buffer protocol).
inline const ArrayApi *GetArrayApi() {
  static std::atomic<int> state{0};  // 0: not asked yet, 1: available, 2: not available
  static std::atomic<const ArrayApi *> api{nullptr};
  const int s = state.load(std::memory_order_acquire);
  if (s == 1) return api.load(std::memory_order_relaxed);
  if (s == 2) return nullptr;
  const ArrayApi *a = LoadArrayApi();
  api.store(a, std::memory_order_relaxed);
  state.store(a ? 1 : 2, std::memory_order_release);
  return a;
}

/// The fields of a Python Tensor that the C++ side reads on every call (the engine core's slot numbers).
enum TensorFieldId { kTensorData = MK_TENSOR_DATA, kTensorRequiresGrad = MK_TENSOR_RG };

inline const char *TensorFieldName(TensorFieldId f) { return f == kTensorData ? "_data" : "_rg"; }

/// `getattr(obj, "_data" / "_rg")` (a new reference; raises as getattr does). For an object whose type is
/// exactly Tensor this is the slot's value as the engine core reads it (what getattr finds, without the
/// attribute lookup on every call).
MSKERNEL_GLUE inline PyObject *TensorField(PyObject *obj, TensorFieldId f) {
  if (PyObject *v = Engine()->tensor_slot(obj, f)) return (Py_INCREF(v), v);
  static std::atomic<PyObject *> names[2] = {{nullptr}, {nullptr}};
  return Check(PyObject_GetAttr(obj, Interned(names[f], TensorFieldName(f))));
}

}  // namespace detail

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
  BaseTensor(TypeId type, const ShapeVector &shape) {
    void *ptr = nullptr;
    detail::PyRef arr = Allocate(type, shape, &ptr);
    InitAllocated(std::move(arr), ptr, type, shape);
  }

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
    return FromTensor(obj);
  }

  /// A view of `obj`, known to be an mskernel Tensor (IsTensor(obj) is true).
  MSKERNEL_GLUE static BaseTensorPtr FromTensor(PyObject *obj) {
    auto t = std::make_shared<BaseTensor>(Private{});  // the tensor and its reference counts: one allocation
    detail::PyRef arr = detail::PyRef::Steal(detail::TensorField(obj, detail::kTensorData));
    t->InitFromArray(std::move(arr), obj);
    return t;
  }

  /// A tensor viewing the numpy array `arr` (no Python Tensor object until one is needed).
  MSKERNEL_GLUE static BaseTensorPtr FromArray(detail::PyRef arr) {
    auto t = std::make_shared<BaseTensor>(Private{});
    t->InitFromArray(std::move(arr), nullptr);
    return t;
  }

  /// True if `obj` is an mskernel Tensor (or Parameter).
  MSKERNEL_GLUE static bool IsTensor(PyObject *obj) {
    PyObject *cls = detail::TensorClass();
    if (Py_TYPE(obj) == reinterpret_cast<PyTypeObject *>(cls)) return true;
    int r = PyObject_IsInstance(obj, cls);
    if (r < 0) detail::ThrowPythonError();
    return r == 1;
  }

  /// For std::make_shared only (BaseTensor's own factories): an empty tensor to initialize.
  struct Private {
    explicit Private() = default;
  };
  explicit BaseTensor(Private) {}

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
    if (PyObject *rg = detail::Engine()->tensor_slot(py_tensor_.get(), MK_TENSOR_RG)) {  // borrowed
      if (rg == Py_True || rg == Py_False) return rg == Py_True;
      return PyObject_IsTrue(rg) == 1;
    }
    detail::PyRef rg = detail::PyRef::Steal(detail::TensorField(py_tensor_.get(), detail::kTensorRequiresGrad));
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
      detail::DrainDeferred();
      py_tensor_ = detail::PyRef::Steal(detail::Check(detail::Engine()->wrap(data_->array())));  // Tensor._wrap
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

  /// numpy.empty(shape, dtype) and its first element (through the C array helpers when they are built).
  MSKERNEL_GLUE static detail::PyRef Allocate(TypeId type, const ShapeVector &shape, void **data) {
    for (int64_t d : shape) {
      if (d < 0) throw std::invalid_argument("BaseTensor: shape dimensions must be >= 0");
    }
    // the dtype object is made once per type (this runs for every tensor a custom op creates)
    static std::atomic<PyObject *> numpy_slot{nullptr}, empty_slot{nullptr};
    static std::atomic<PyObject *> dtype_slots[kNumberTypeEnd] = {};
    PyObject *numpy = detail::Once(numpy_slot, [] { return detail::Check(PyImport_ImportModule("numpy")); });
    const char *np_name = RequireNumpyName(type);  // throws for a type numpy cannot hold
    PyObject *dt = detail::Once(dtype_slots[static_cast<int>(type)], [numpy, np_name] {
      detail::PyRef make = detail::PyRef::Steal(detail::Check(PyObject_GetAttrString(numpy, "dtype")));
      return detail::Call(make.get(), {detail::Str(np_name).get()}).release();
    });
    if (const detail::ArrayApi *api = detail::GetArrayApi()) {
      PyObject *arr = api->empty(dt, static_cast<int>(shape.size()), shape.data(), data);
      if (arr != nullptr) return detail::PyRef::Steal(arr);
      detail::ThrowIfError();  // else a shape it leaves to numpy.empty (e.g. too many dimensions)
    }
    PyObject *empty = detail::Once(empty_slot, [numpy] { return detail::Check(PyObject_GetAttrString(numpy, "empty")); });
    detail::PyRef shp = detail::IntTuple(shape);
    detail::PyRef arr = detail::Call(empty, {shp.get(), dt});
    // a fresh C-contiguous array of a known type and shape: only its address is asked of the buffer protocol
    Py_buffer view;
    if (PyObject_GetBuffer(arr.get(), &view, PyBUF_WRITABLE) != 0) detail::ThrowPythonError();
    *data = view.buf;
    PyBuffer_Release(&view);
    return arr;
  }

  /// This tensor owns `arr`, a fresh C-contiguous array of `type` and `shape` whose first element is `ptr`.
  MSKERNEL_GLUE void InitAllocated(detail::PyRef arr, void *ptr, TypeId type, const ShapeVector &shape) {
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

  /// This tensor views `arr` (any numpy array: strided, read-only, ...) as the buffer protocol describes it.
  MSKERNEL_GLUE void InitFromArray(detail::PyRef arr, PyObject *py_tensor) {
    detail::ArrayView fast;
    const detail::ArrayApi *api = detail::GetArrayApi();
    if (api != nullptr && api->view(arr.get(), &fast) == 1) {  // an ndarray of a plain dtype: read directly
      InitView(fast.data, fast.ndim, fast.shape, fast.c_contiguous ? nullptr : fast.strides,
               static_cast<size_t>(fast.itemsize), fast.format, fast.readonly != 0, std::move(arr), py_tensor);
      return;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arr.get(), &view, PyBUF_RECORDS_RO) != 0) detail::ThrowPythonError();
    struct Release {
      Py_buffer *v;
      ~Release() { PyBuffer_Release(v); }
    } release{&view};
    InitView(view.buf, view.ndim, view.shape, view.strides, static_cast<size_t>(view.itemsize), view.format,
             view.readonly != 0, std::move(arr), py_tensor);
  }

  /// `strides` in bytes, or nullptr for row-major ones.
  MSKERNEL_GLUE void InitView(void *ptr, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides, size_t itemsize,
                              const char *format, bool ro, detail::PyRef arr, PyObject *py_tensor) {
    type_ = TypeIdFromBufferFormat(format, itemsize);
    if (type_ == kTypeUnknown) {
      throw std::invalid_argument("mskernel cannot view a numpy buffer of format '" + std::string(format ? format : "B") +
                                  "' as a tensor");
    }
    shape_.assign(shape, shape + ndim);
    strides_.resize(static_cast<size_t>(ndim));
    size_t n = 1;
    if (strides == nullptr) {  // row-major, as the buffer protocol reports a C-contiguous array
      for (int i = ndim; i-- > 0;) {
        strides_[i] = itemsize ? static_cast<int64_t>(n) : 0;
        n *= static_cast<size_t>(shape[i]);
      }
    } else {
      for (int i = 0; i < ndim; ++i) {
        strides_[i] = itemsize ? strides[i] / static_cast<Py_ssize_t>(itemsize) : 0;
        n *= static_cast<size_t>(shape[i]);
      }
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
    value = mskernel::BaseTensor::FromTensor(src.ptr());
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
