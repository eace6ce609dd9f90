// The support library of lite pybind11 builds (see mskernel/include/mskernel/pybind11_lite.h).
//
// Compiled once per toolchain/pybind11/Python/flags with the full pybind11 headers by
// mskernel.toolchain.support, then linked statically into every lite module. It holds what
// pybind11.h would otherwise emit into each module: cpp_function::initialize_generic (signature,
// docstring, overload chain), the dispatcher with its exception translation, pybind11's
// internals, error_already_set's out-of-line members and PYBIND11_MODULE's init code.
#ifdef MSKERNEL_LITE_SUPPORT_TEST_FAILURE  // tests: a support build that fails (at once)
#error "MSKERNEL_LITE_SUPPORT_TEST_FAILURE is defined: this support library build fails on purpose"
#endif

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <typeinfo>

#define MSKERNEL_LITE_SUPPORT_LIBRARY  // keep pybind11's PYBIND11_MODULE
#include <mskernel/pybind11_lite.h>  // the declarations implemented below

namespace py = pybind11;
namespace pyd = pybind11::detail;

namespace mskernel {
namespace lite {
namespace {
/// Reaches cpp_function's protected initialize_generic and destruct.
class LiteFunction : public py::cpp_function {
 public:
  LiteFunction(pyd::function_record *rec, const char *signature, const std::type_info *const *types, size_t nargs) {
    unique_function_record owned(rec);  // freed here if initialize_generic throws before taking it
    initialize_generic(std::move(owned), signature, types, nargs);
  }
  static void Destroy(pyd::function_record *rec) { destruct(rec, false); }
};

void (*g_fill)(PyObject *) = nullptr;  // the module's init function (one module per shared library)

// Inline functions that lite headers declare but only pybind11.h defines: emit them here, so a
// lite module never references a symbol nothing defines.
__attribute__((used)) void *const kEmitted[] = {
    reinterpret_cast<void *>(static_cast<void (*)(size_t, size_t, pyd::function_call &, py::handle)>(
        &pyd::keep_alive_impl)),
    reinterpret_cast<void *>(static_cast<void (*)(py::handle, py::handle)>(&pyd::keep_alive_impl)),
    reinterpret_cast<void *>(&pyd::all_type_info_get_cache),
};
}  // namespace

PyObject *register_function(pyd::function_record *rec, const char *signature, const std::type_info *const *types,
                            size_t nargs) {
  LiteFunction fn(rec, signature, types, nargs);
  return fn.release().ptr();
}

void destroy_record(pyd::function_record *rec) { LiteFunction::Destroy(rec); }

void throw_error_already_set() { throw py::error_already_set(); }

void set_python_error() {
#include <mskernel/set_python_error.inc>
}

}  // namespace lite
}  // namespace mskernel

// pybind11's own PYBIND11_MODULE entry point and exec slot, under a fixed name and not exported:
// init_module below is what every lite module's PyInit_<name> returns. (Multi-phase init names the
// module after its import spec, so the fixed name never shows.)
#undef PYBIND11_EXPORT
#define PYBIND11_EXPORT __attribute__((visibility("hidden")))
PYBIND11_MODULE(mskernel_lite_module, m) { mskernel::lite::g_fill(m.ptr()); }

namespace mskernel {
namespace lite {
PyObject *init_module(void (*fill)(PyObject *)) {
  g_fill = fill;
  return PyInit_mskernel_lite_module();
}
}  // namespace lite
}  // namespace mskernel
