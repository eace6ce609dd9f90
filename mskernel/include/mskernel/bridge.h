// mskernel/bridge.h -- the small layer between mskernel's C++ headers and its Python side.
//
// Provides `mskernel::detail::PyRef` (an owning PyObject* that is safe to destroy on a thread
// without the GIL: the decref is deferred to the next bridge call on a Python thread),
// `Bridge(name)` (a cached attribute of the Python module `mskernel.cpp`, where tensor
// allocation, graph recording and the aclnn CPU implementations live), `CallBridge(...)`,
// `ThrowIfError()` (a pending Python error -> pybind11::error_already_set, which pybind11 turns
// back into the original Python exception), and `SetPythonError()` (a C++ exception -> a Python
// exception, for the few raw CPython entry points), and `Engine()` (the engine core's C API,
// mskernel/engine_api.h: Tensor fields, Tensor._wrap and grad mode as C calls; GradEnabled(),
// SetGradEnabled() and GradModeGuard use it). Every function here needs the GIL, which
// is held whenever Python calls into an extension module.
//
// Users rarely include this directly; it is what lets the headers stay small (no numpy headers,
// little template code: the heavy work is done once, in Python or numpy).
//
// Example:
//   #include "mskernel/bridge.h"
//   using mskernel::detail::PyRef;
//   PyRef shape = PyRef::Steal(Py_BuildValue("(ii)", 2, 3));
//   PyRef arr = mskernel::detail::CallBridge("empty", {shape.get(), PyRef::Steal(PyUnicode_FromString("float32")).get()});
#ifndef MSKERNEL_BRIDGE_H_
#define MSKERNEL_BRIDGE_H_

#include <pybind11/pybind11.h>

#include "mskernel/engine_api.h"

#include <atomic>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#ifndef _MSC_VER
#include <cxxabi.h>
#endif

// Glue code (Python calls, graph recording, conversions) runs once per op call, never inside a
// kernel loop: MSKERNEL_GLUE keeps it out of line, so it is compiled once per module instead of
// being inlined at every call site.
#ifdef MSKERNEL_GLUE
// defined by the user (e.g. -DMSKERNEL_GLUE= to compile the glue like everything else)
#elif defined(__GNUC__) || defined(__clang__)
#define MSKERNEL_GLUE __attribute__((noinline))
#else
#define MSKERNEL_GLUE
#endif

namespace mskernel {
namespace detail {

/// References released on a thread without the GIL, dropped at the next bridge call.
inline std::mutex &DeferredMutex() {
  static std::mutex *mu = new std::mutex();  // never destroyed: outlives interpreter teardown
  return *mu;
}

inline std::vector<PyObject *> &DeferredObjects() {
  static std::vector<PyObject *> *objs = new std::vector<PyObject *>();
  return *objs;
}

/// Whether DeferredObjects() may hold something (read without the mutex on every bridge call).
inline std::atomic<bool> &DeferredPending() {
  static std::atomic<bool> pending{false};
  return pending;
}

/// Drops references that were released on worker threads (call with the GIL held).
MSKERNEL_GLUE inline void DrainDeferred() {
  if (!DeferredPending().load(std::memory_order_acquire)) return;  // the usual case: no lock taken
  std::vector<PyObject *> objs;
  {
    std::lock_guard<std::mutex> lock(DeferredMutex());
    DeferredPending().store(false, std::memory_order_relaxed);
    if (DeferredObjects().empty()) return;
    objs.swap(DeferredObjects());
  }
  for (PyObject *o : objs) Py_DECREF(o);
}

/// Whether this thread holds the GIL: the thread state running Python code is this thread's. (What
/// PyGILState_Check answers for a thread's usual thread state, without its thread-specific-storage lookup.)
inline bool HoldsGil() {
#if PY_VERSION_HEX >= 0x030D0000
  PyThreadState *ts = PyThreadState_GetUnchecked();
#else
  PyThreadState *ts = _PyThreadState_UncheckedGet();
#endif
  return ts != nullptr && ts->thread_id == PyThread_get_thread_ident();
}

/// Decref now if this thread holds the GIL, else later (never deadlocks a ParallelFor worker).
MSKERNEL_GLUE inline void DecRefSafe(PyObject *o) {
  if (o == nullptr) return;
  if (Py_IsInitialized() && HoldsGil()) {
    Py_DECREF(o);
  } else {
    std::lock_guard<std::mutex> lock(DeferredMutex());
    DeferredObjects().push_back(o);
    DeferredPending().store(true, std::memory_order_release);
  }
}

/// An owning reference to a Python object.
class PyRef {
 public:
  PyRef() = default;
  static PyRef Steal(PyObject *o) { return PyRef(o); }
  static PyRef Borrow(PyObject *o) {
    Py_XINCREF(o);
    return PyRef(o);
  }
  PyRef(const PyRef &other) : p_(other.p_) { Py_XINCREF(p_); }
  PyRef(PyRef &&other) noexcept : p_(other.p_) { other.p_ = nullptr; }
  PyRef &operator=(PyRef other) noexcept {
    std::swap(p_, other.p_);
    return *this;
  }
  ~PyRef() {
    if (p_ != nullptr) DecRefSafe(p_);  // moved-from references (most of them) cost no call
  }
  PyObject *get() const { return p_; }
  PyObject *release() {
    PyObject *o = p_;
    p_ = nullptr;
    return o;
  }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  explicit PyRef(PyObject *o) : p_(o) {}
  PyObject *p_ = nullptr;
};

/// Throws the pending Python error as pybind11::error_already_set (which pybind11 turns back into
/// the original Python exception).
[[noreturn]] inline void ThrowPythonError() { throw pybind11::error_already_set(); }

/// Throws pybind11::error_already_set if a Python error is pending.
inline void ThrowIfError() {
  if (PyErr_Occurred()) ThrowPythonError();
}

/// `o` itself, or throws the pending Python error if `o` is null.
inline PyObject *Check(PyObject *o) {
  if (o == nullptr) ThrowPythonError();
  return o;
}

/// `make()` (a new reference) computed once per process and kept, without a C++ static-initialization
/// guard: a thread holding the GIL that waits on such a guard while the initializing thread waits for
/// the GIL (an import or a Python call releases it) deadlocks the first call of an op from two
/// threads. Here both threads may run `make()`; the first result is kept and the other released.
/// Call with the GIL held; `slot` must be a constant-initialized `static std::atomic<PyObject *>`.
template <typename Make>
PyObject *Once(std::atomic<PyObject *> &slot, Make make) {
  if (PyObject *p = slot.load(std::memory_order_acquire)) return p;
  PyObject *made = make();
  PyObject *expected = nullptr;
  if (slot.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) return made;
  Py_DECREF(made);
  return expected;
}

/// The Python module `mskernel.cpp` (borrowed; lives as long as the process). The first call
/// imports it.
inline PyObject *BridgeModule() {
  static std::atomic<PyObject *> slot{nullptr};
  return Once(slot, [] { return Check(PyImport_ImportModule("mskernel.cpp")); });
}

MSKERNEL_GLUE inline PyObject *BridgeAttr(const char *name) { return Check(PyObject_GetAttrString(BridgeModule(), name)); }

/// Calls `fn(*args)`; a Python exception becomes pybind11::error_already_set.
MSKERNEL_GLUE inline PyRef Call(PyObject *fn, std::initializer_list<PyObject *> args) {
  DrainDeferred();
  constexpr size_t kMaxArgs = 16;
  if (args.size() > kMaxArgs) throw std::length_error("mskernel::detail::Call: at most 16 arguments");
  PyObject *stack[kMaxArgs];
  size_t n = 0;
  for (PyObject *a : args) stack[n++] = a;
  return PyRef::Steal(Check(PyObject_Vectorcall(fn, stack, n, nullptr)));
}

/// Calls `mskernel.cpp.<name>(*args)` (the function object is looked up every time:
/// call sites on hot paths cache it with a function-local static).
MSKERNEL_GLUE inline PyRef CallBridge(const char *name, std::initializer_list<PyObject *> args) {
  PyRef fn = PyRef::Steal(BridgeAttr(name));
  return Call(fn.get(), args);
}

MSKERNEL_GLUE inline PyRef Int(int64_t v) { return PyRef::Steal(Check(PyLong_FromLongLong(v))); }
MSKERNEL_GLUE inline PyRef Float(double v) { return PyRef::Steal(Check(PyFloat_FromDouble(v))); }
MSKERNEL_GLUE inline PyRef Str(const std::string &s) {
  return PyRef::Steal(Check(PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()))));
}
inline PyRef Bool(bool v) { return PyRef::Borrow(v ? Py_True : Py_False); }

/// A Python tuple of ints.
MSKERNEL_GLUE inline PyRef IntTuple(const std::vector<int64_t> &v) {
  PyRef t = PyRef::Steal(Check(PyTuple_New(static_cast<Py_ssize_t>(v.size()))));
  for (size_t i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(t.get(), i, Int(v[i]).release());
  return t;
}

/// A Python sequence of ints -> std::vector<int64_t>.
MSKERNEL_GLUE inline std::vector<int64_t> ToIntVector(PyObject *seq) {
  PyRef fast = PyRef::Steal(Check(PySequence_Fast(seq, "expected a sequence of ints")));
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.get());
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast.get(), i));
    ThrowIfError();
  }
  return out;
}

/// The demangled C++ name of a typeid name ("mindspore::pynative::autograd::CustomMul").
MSKERNEL_GLUE inline std::string Demangle(const char *name) {
#ifdef _MSC_VER
  return name;
#else
  int status = -1;
  char *res = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = (status == 0 && res != nullptr) ? std::string(res) : std::string(name);
  std::free(res);
  return out;
#endif
}

/// "CustomMul" for "mindspore::pynative::autograd::CustomMul" (template arguments kept).
MSKERNEL_GLUE inline std::string UnqualifiedName(const std::string &qualified) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i + 1 < qualified.size(); ++i) {
    char c = qualified[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth == 0 && c == ':' && qualified[i + 1] == ':') start = i + 2;
  }
  return qualified.substr(start);
}

/// The message for a thrown value that is not a std::exception (`throw 42`): it carries no text.
MSKERNEL_GLUE inline std::string NonStdExceptionMessage(const std::string &where) {
  return where + " threw a C++ value that is not a std::exception (e.g. `throw 42`), so it carries no message; "
                 "throw std::runtime_error(\"...\") (or another std::exception) to say what went wrong";
}

/// Sets the Python error for the C++ exception being handled (call inside `catch (...)`):
/// invalid_argument -> ValueError, out_of_range -> IndexError, anything else -> RuntimeError;
/// a pybind11::error_already_set is restored as the original Python exception. ``where`` names
/// the code that threw, for a thrown value that is not a std::exception.
MSKERNEL_GLUE inline void SetPythonError(const std::string &where = "C++ code") {
  try {
    throw;
  } catch (pybind11::error_already_set &e) {
    e.restore();
  } catch (const pybind11::builtin_exception &e) {
    e.set_error();
  } catch (const std::invalid_argument &e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::out_of_range &e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, NonStdExceptionMessage(where).c_str());
  }
}

/// An interned Python string kept in `slot` (attribute names read on every call are made once).
inline PyObject *Interned(std::atomic<PyObject *> &slot, const char *text) {
  return Once(slot, [text] { return Check(PyUnicode_InternFromString(text)); });
}

/// The engine core's C API (mskernel/engine_api.h: Tensor fields, Tensor._wrap, grad mode), loaded on first use
/// from `mskernel.autograd._cengine._C_API` (after importing `mskernel.cpp`, which binds the engine to the Tensor
/// and GradState classes). Throws the import's error, or a RuntimeError for a capsule of another version (headers
/// and engine core of different mskernel installs).
MSKERNEL_GLUE inline const MkEngineApi *LoadEngine() {
  BridgeModule();
  PyRef core = PyRef::Steal(Check(PyImport_ImportModule("mskernel.autograd._cengine")));
  PyRef cap = PyRef::Steal(Check(PyObject_GetAttrString(core.get(), "_C_API")));
  auto *api = static_cast<const MkEngineApi *>(PyCapsule_GetPointer(cap.get(), MK_ENGINE_API_CAPSULE));
  if (api == nullptr) ThrowPythonError();
  if (api->version != MK_ENGINE_API_VERSION) {
    throw std::runtime_error("mskernel's C++ headers expect version " + std::to_string(MK_ENGINE_API_VERSION) +
                             " of the engine core's C API, but mskernel.autograd._cengine has version " +
                             std::to_string(api->version) + ": rebuild the op against the installed mskernel");
  }
  return api;  // static data of the engine core, which stays loaded
}

/// The engine core's C API (see LoadEngine). Several threads may load it at once: they get the same pointer.
inline const MkEngineApi *Engine() {
  static std::atomic<const MkEngineApi *> api{nullptr};
  const MkEngineApi *a = api.load(std::memory_order_acquire);
  if (a == nullptr) {
    a = LoadEngine();
    api.store(a, std::memory_order_release);
  }
  return a;
}

/// This thread's grad mode (`mskernel.autograd.node.STATE.enabled`).
inline bool GradEnabled() {
  const int on = Engine()->grad_enabled();
  if (on < 0) ThrowPythonError();
  return on != 0;
}

/// Sets this thread's grad mode (`STATE.enabled = on`).
inline void SetGradEnabled(bool on) {
  if (Engine()->set_grad_enabled(on ? 1 : 0) != 0) ThrowPythonError();
}

/// Turns mskernel's grad mode off (or on) for a scope; restores it even on exceptions. Nothing is
/// written when the mode already is the one asked for.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : GradModeGuard(enabled, GradEnabled()) {}
  /// The same when the caller has just read the current mode (`current`).
  GradModeGuard(bool enabled, bool current) : prev_(current), set_(current != enabled) {
    if (set_) SetGradEnabled(enabled);
  }
  ~GradModeGuard() {
    if (!set_) return;
    const MkEngineApi *api = Engine();  // loaded when the mode was set
    if (!PyErr_Occurred()) {
      if (api->set_grad_enabled(prev_ ? 1 : 0) != 0) PyErr_Clear();  // a failed restore cannot be reported here
      return;
    }
    PyObject *type, *value, *tb;  // keep a pending error intact while restoring
    PyErr_Fetch(&type, &value, &tb);
    if (api->set_grad_enabled(prev_ ? 1 : 0) != 0) PyErr_Clear();
    PyErr_Restore(type, value, tb);
  }
  GradModeGuard(const GradModeGuard &) = delete;
  GradModeGuard &operator=(const GradModeGuard &) = delete;

 private:
  bool prev_, set_;
};

}  // namespace detail
}  // namespace mskernel

#endif  // MSKERNEL_BRIDGE_H_
