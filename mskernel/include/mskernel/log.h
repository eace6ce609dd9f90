// mskernel/log.h -- MindSpore's `MS_LOG(level) << ...` and `MS_EXCEPTION_IF_NULL`, through Python logging.
//
// `MS_LOG(DEBUG|INFO|WARNING|ERROR) << "text " << value;` sends one record to Python's logger
// "mskernel.cpp" at that level (with the C++ file and line), so notebook users see it like any
// Python log message and can silence it with `logging.getLogger("mskernel.cpp").setLevel(...)`.
// `MS_LOG(EXCEPTION) << ...` throws std::runtime_error with the text (a RuntimeError in Python).
// `MS_EXCEPTION_IF_NULL(p)` throws std::runtime_error naming the null expression.
//
// Example:
//   #include "ms_extension/all.h"
//   ms::Tensor checked(const ms::Tensor &x) {
//     if (x.numel() == 0) MS_LOG(WARNING) << "empty input of shape " << x.shape().size() << "-d";
//     if (x.data_type() != ms::TypeId::kNumberTypeFloat32) MS_LOG(EXCEPTION) << "checked() takes float32";
//     return x;
//   }
#ifndef MSKERNEL_LOG_H_
#define MSKERNEL_LOG_H_

#include <Python.h>

#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mskernel {
namespace detail {
constexpr int kLogDEBUG = 10, kLogINFO = 20, kLogWARNING = 30, kLogERROR = 40, kLogEXCEPTION = 50;

/// One MS_LOG statement: collects the streamed text, then logs (or throws) when the statement ends.
class LogMessage {
 public:
  LogMessage(int level, const char *file, int line) : level_(level), file_(file), line_(line) {}
  LogMessage(const LogMessage &) = delete;
  LogMessage &operator=(const LogMessage &) = delete;
  ~LogMessage() noexcept(false) {
    if (level_ == kLogEXCEPTION) {
      if (std::uncaught_exceptions() == 0) throw std::runtime_error(text_.str());
      return;
    }
    Emit();
  }
  template <typename T>
  LogMessage &operator<<(const T &value) {
    text_ << value;
    return *this;
  }

 private:
  void Emit() noexcept {
    PyGILState_STATE gil = PyGILState_Ensure();  // MS_LOG may run on a worker thread
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);  // keep a pending Python error intact
    PyObject *logging = PyImport_ImportModule("logging");
    PyObject *logger = logging ? PyObject_CallMethod(logging, "getLogger", "s", "mskernel.cpp") : nullptr;
    if (logger != nullptr) {
      std::string msg = text_.str() + " (" + file_ + ":" + std::to_string(line_) + ")";
      PyObject *r = PyObject_CallMethod(logger, "log", "is", level_, msg.c_str());
      Py_XDECREF(r);
    }
    PyErr_Clear();  // logging must never turn into an error of the op
    Py_XDECREF(logger);
    Py_XDECREF(logging);
    PyErr_Restore(type, value, tb);
    PyGILState_Release(gil);
  }

  int level_;
  const char *file_;
  int line_;
  std::ostringstream text_;
};
}  // namespace detail
}  // namespace mskernel

#define MS_LOG(level) ::mskernel::detail::LogMessage(::mskernel::detail::kLog##level, __FILE__, __LINE__)
#define MS_EXCEPTION_IF_NULL(ptr)                                                            \
  do {                                                                                       \
    if ((ptr) == nullptr) throw std::runtime_error("The pointer [" #ptr "] is null.");       \
  } while (0)

#endif  // MSKERNEL_LOG_H_
