// pybind11 features custom ops use, each in one function, plus a bound class and a numpy array.
// tests/cpp/test_cpp_split.py builds this file twice -- split (the default) and full pybind11
// (-DMSKERNEL_FULL_PYBIND11) -- and checks that both modules behave identically.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "ms_extension.h"
#include <pybind11/numpy.h>

namespace {
int64_t sum(const std::vector<int64_t> &v) {
  int64_t s = 0;
  for (int64_t x : v) s += x;
  return s;
}

std::vector<double> scale(const std::vector<double> &v, double k) {
  std::vector<double> out;
  for (double x : v) out.push_back(k * x);
  return out;
}

std::string greet(const std::string &name, std::optional<int> times) {
  std::string out;
  for (int i = 0; i < times.value_or(1); ++i) out += "hi " + name + ";";
  return out;
}

std::optional<double> maybe(bool give) { return give ? std::optional<double>(1.5) : std::nullopt; }

std::map<std::string, int> counts(const std::vector<std::string> &words) {
  std::map<std::string, int> out;
  for (const auto &w : words) ++out[w];
  return out;
}

std::set<int> unique(const std::vector<int> &v) { return std::set<int>(v.begin(), v.end()); }

std::vector<std::vector<int>> nested(int n) { return std::vector<std::vector<int>>(n, std::vector<int>(n, n)); }

int64_t count_defined(const std::vector<ms::Tensor> &ts) {
  int64_t n = 0;
  for (const auto &t : ts) n += t.is_defined() ? 1 : 0;
  return n;
}

mskernel::BaseTensorPtrList pair(const mskernel::BaseTensorPtr &x, const std::optional<mskernel::BaseTensorPtr> &y) {
  return {x, y ? *y : x};
}

double add(double a, double b) { return a + b; }
int kwonly(int a, int b) { return 10 * a + b; }

void raise_invalid(const std::string &msg) { throw std::invalid_argument(msg); }
void raise_out_of_range() { throw std::out_of_range("index 7 is out of range"); }
void raise_runtime() { throw std::runtime_error("runtime trouble"); }
void raise_py_value_error() { throw py::value_error("pybind11 value error"); }
void raise_py_key_error() { throw py::key_error("missing"); }
struct CustomError : std::exception {
  const char *what() const noexcept override { return "a custom std::exception"; }
};
void raise_custom() { throw CustomError(); }
void raise_int() { throw 42; }
py::object call(const py::object &f) { return f(); }  // a Python exception comes back unchanged
py::dict invert(const py::dict &d) {
  py::dict out;
  for (auto item : d) out[item.second] = item.first;
  return out;
}
py::tuple info(const py::args &args, const py::kwargs &kwargs) { return py::make_tuple(args.size(), kwargs.size()); }
int64_t spin(int64_t n) {  // runs without the GIL (py::call_guard<py::gil_scoped_release>)
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += i;
  return s;
}
struct Counter {
  int n = 0;
  int inc(int by) { return n += by; }
};
double array_sum(py::array_t<double, py::array::c_style | py::array::forcecast> a) {
  double s = 0;
  for (py::ssize_t i = 0; i < a.size(); ++i) s += a.data()[i];
  return s;
}
}  // namespace

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.doc() = "pybind11 features";
  m.attr("answer") = 42;
  m.def("sum", &sum, "Sum of ints.");
  m.def("scale", &scale, py::arg("v"), py::arg("k") = 2.0);
  m.def("greet", &greet, py::arg("name"), py::arg("times") = py::none());
  m.def("maybe", &maybe);
  m.def("counts", &counts);
  m.def("unique", &unique);
  m.def("nested", &nested);
  m.def("count_defined", &count_defined);
  m.def("pair", &pair, py::arg("x"), py::arg("y") = py::none());
  m.def("add", &add, "a + b", py::arg("a"), py::arg("b") = 2.0);
  m.def("kwonly", &kwonly, py::arg("a"), py::kw_only(), py::arg("b"));
  m.def("over", [](int x) { return "int " + std::to_string(x); });
  m.def("over", [](const std::string &s) { return "str " + s; }, "the string overload");
  m.def("raise_invalid", &raise_invalid);
  m.def("raise_out_of_range", &raise_out_of_range);
  m.def("raise_runtime", &raise_runtime);
  m.def("raise_py_value_error", &raise_py_value_error);
  m.def("raise_py_key_error", &raise_py_key_error);
  m.def("raise_custom", &raise_custom);
  m.def("raise_int", &raise_int);
  m.def("call", &call);
  m.def("invert", &invert);
  m.def("info", &info);
  m.def("spin", &spin, py::call_guard<py::gil_scoped_release>());
  py::class_<Counter>(m, "Counter", py::module_local()).def(py::init<>()).def("inc", &Counter::inc, py::arg("by") = 1);
  m.def("array_sum", &array_sum);
  m.def("lambda_capture", [k = std::string("captured")](int n) { return k + std::to_string(n); });
}
