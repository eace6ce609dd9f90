// mskernel/pybind11_lite.h -- the pybind11 subset custom ops use, without pybind11/pybind11.h.
//
// Why: pybind11 3 defines error_already_set::what() inline in pybind11.h, which makes every
// translation unit that includes pybind11.h emit pybind11's whole runtime (dispatcher, internals,
// error handling: ~110 KB of code, most of a module's compile time, even for an empty module).
// A "lite" build (what mskernel.toolchain picks for sources that only use the subset below; it defines
// MSKERNEL_PYBIND11_LITE) includes only pybind11's type-caster headers (cast.h/attr.h: templates
// and inline functions that emit nothing unless used), and links a support library compiled once
// with full pybind11 (mskernel/toolchain/lite_support.cpp) that holds the runtime.
//
// The subset (what MindSpore's custom-op tutorials use):
//   PYBIND11_MODULE(name, m) { ... }     (two arguments; here it makes a lite module)
//   m.def(name, f[, doc][, py::arg(...)[ = default]...][, py::kw_only()/py::pos_only()]
//         [, py::return_value_policy])     f: function pointer or lambda; overloads chain as usual
//   m.doc() = "...", m.attr("x") = ..., and the rest of pybind11::object's API on m
//   arguments/results: everything with a caster in cast.h (scalars, std::string, bool, py::object,
//   py::list, py::args/kwargs, ...), BaseTensorPtr / ms::Tensor (mskernel's casters) and the
//   standard containers of pybind11/stl.h (ported in mskernel/pybind11_lite_stl.h).
// Behaviour is pybind11's own: `def` runs a copy of cpp_function::initialize's template part
// (argument loaders, attributes, signature) and hands the record to pybind11's
// cpp_function::initialize_generic in the support library, so docstrings, signatures, overload
// chains, keyword arguments, TypeErrors for wrong arguments and C++ exception translation
// (std::invalid_argument -> ValueError, ...) are exactly what a full pybind11 module does.
// Module init also runs pybind11's own PYBIND11_MODULE code, in the support library.
//
// Anything else from pybind11 (py::class_, py::enum_, py::init, numpy.h, functional.h,
// def_submodule, PYBIND11_MODULE options, ...) needs the full headers: the build layer detects it
// and builds those sources with <pybind11/pybind11.h> as before; -DMSKERNEL_FULL_PYBIND11 forces it.
//
// Supported pybind11 versions: 3.0.x and 3.1.x (the template logic copied below is theirs; the
// build layer only selects lite builds for those).
#ifndef MSKERNEL_PYBIND11_LITE_H_
#define MSKERNEL_PYBIND11_LITE_H_

#include <pybind11/detail/class.h>  // defines inline helpers internals.h declares (no code emitted)
#include <pybind11/attr.h>

#include <memory>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "mskernel/pybind11_lite_stl.h"

#if PYBIND11_VERSION_MAJOR != 3 || PYBIND11_VERSION_MINOR > 1
#error "mskernel/pybind11_lite.h supports pybind11 3.0 and 3.1 only: build with -DMSKERNEL_FULL_PYBIND11"
#endif

namespace mskernel {
namespace lite {
namespace pyd = ::pybind11::detail;

// ---- implemented by the support library (mskernel/toolchain/lite_support.cpp) ----------------------
/// cpp_function::initialize_generic(rec, ...) -> the new function object (a new reference); takes
/// ownership of `rec` (destroys it if registering fails).
PyObject *register_function(pyd::function_record *rec, const char *signature, const std::type_info *const *types,
                            size_t nargs);
/// Frees a record that never reached register_function (cpp_function::destruct(rec, false)).
void destroy_record(pyd::function_record *rec);
/// PyInit_<name>'s body: pybind11's multi-phase module init; `init` fills the module.
PyObject *init_module(void (*init)(PyObject *module));
/// `throw pybind11::error_already_set()`, compiled once.
[[noreturn]] void throw_error_already_set();
/// mskernel::detail::SetPythonError's body (sets the Python error for the C++ exception being
/// handled; call inside `catch (...)`), compiled once: error_already_set::restore() alone would
/// otherwise emit ~15 KB of pybind11's error formatting into every module.
void set_python_error();

// ---- cpp_function::initialize's template part (pybind11 3.1.0 pybind11.h), unchanged logic ----
template <typename cast_in, typename cast_out>
struct FunctionSignature {
  using sig_type =
      decltype(pyd::const_name("(") + cast_in::arg_names + pyd::const_name(") -> ") + cast_out::name);
  static constexpr sig_type sig() {
    return pyd::const_name("(") + cast_in::arg_names + pyd::const_name(") -> ") + cast_out::name;
  }
  static constexpr sig_type kSig = sig();
  using types_type = decltype(sig_type::types());
  static constexpr types_type kTypes = sig_type::types();
};

struct RecordDeleter {
  void operator()(pyd::function_record *rec) const { destroy_record(rec); }
};

/// A Python function object calling `f` (what `pybind11::cpp_function(f, extra...)` makes).
template <typename Func, typename Return, typename... Args, typename... Extra>
::pybind11::object make_function(Func &&f, Return (*)(Args...), const Extra &...extra) {
  using namespace ::pybind11::detail;
  using ::pybind11::handle;
  struct capture {
    remove_reference_t<Func> f;
    static capture *from_data(void **data) { return PYBIND11_STD_LAUNDER(reinterpret_cast<capture *>(data)); }
  };
  std::unique_ptr<function_record, RecordDeleter> unique_rec(new function_record());
  function_record *rec = unique_rec.get();
  if (sizeof(capture) <= sizeof(rec->data)) {  // the capture lives in the record itself
    PYBIND11_WARNING_PUSH
#if defined(__GNUG__) && __GNUC__ >= 6
    PYBIND11_WARNING_DISABLE_GCC("-Wplacement-new")
#endif
    new (capture::from_data(rec->data)) capture{std::forward<Func>(f)};
#if !PYBIND11_HAS_STD_LAUNDER
    PYBIND11_WARNING_DISABLE_GCC("-Wstrict-aliasing")
#endif
    if (!std::is_trivially_destructible<capture>::value) {
      rec->free_data = [](function_record *r) {
        auto data = capture::from_data(r->data);
        (void)data;
        data->~capture();
      };
    }
    PYBIND11_WARNING_POP
  } else {
    rec->data[0] = new capture{std::forward<Func>(f)};
    rec->free_data = [](function_record *r) { delete ((capture *)r->data[0]); };
  }

  using cast_in = argument_loader<Args...>;
  using cast_out = make_caster<conditional_t<std::is_void<Return>::value, void_type, Return>>;
  static_assert(expected_num_args<Extra...>(sizeof...(Args), cast_in::args_pos >= 0, cast_in::has_kwargs),
                "The number of argument annotations does not match the number of function arguments");

  rec->impl = [](function_call &call) -> handle {
    process_attributes<Extra...>::precall(call);
    const auto *data = (sizeof(capture) <= sizeof(call.func.data) ? &call.func.data : call.func.data[0]);
    auto *cap = const_cast<capture *>(reinterpret_cast<const capture *>(data));
    cast_in args_converter;
    if (!args_converter.load_args(call)) return PYBIND11_TRY_NEXT_OVERLOAD;
    ::pybind11::return_value_policy policy = return_value_policy_override<Return>::policy(call.func.policy);
    using Guard = extract_guard_t<Extra...>;
    handle result;
    if (call.func.is_setter) {
      (void)std::move(args_converter).template call<Return, Guard>(cap->f);
      result = ::pybind11::none().release();
    } else {
      result = cast_out::cast(std::move(args_converter).template call<Return, Guard>(cap->f), policy, call.parent);
    }
    process_attributes<Extra...>::postcall(call, result);
    return result;
  };

  rec->nargs_pos = cast_in::args_pos >= 0 ? static_cast<std::uint16_t>(cast_in::args_pos)
                                          : sizeof...(Args) - cast_in::has_kwargs;  // reduced by a kw_only
  rec->has_args = cast_in::args_pos >= 0;
  rec->has_kwargs = cast_in::has_kwargs;
  process_attributes<Extra...>::init(extra..., rec);
  {
    constexpr bool has_kw_only_args = any_of<std::is_same<::pybind11::kw_only, Extra>...>::value,
                   has_pos_only_args = any_of<std::is_same<::pybind11::pos_only, Extra>...>::value,
                   has_arg_annotations = any_of<is_keyword<Extra>...>::value;
    static_assert(has_arg_annotations || !has_kw_only_args, "py::kw_only requires the use of argument annotations");
    static_assert(has_arg_annotations || !has_pos_only_args,
                  "py::pos_only requires the use of argument annotations (for docstrings "
                  "and aligning the annotations to the argument)");
    static_assert(constexpr_sum(is_kw_only<Extra>::value...) <= 1, "py::kw_only may be specified only once");
    static_assert(constexpr_sum(is_pos_only<Extra>::value...) <= 1, "py::pos_only may be specified only once");
    constexpr auto kw_only_pos = constexpr_first<is_kw_only, Extra...>();
    constexpr auto pos_only_pos = constexpr_first<is_pos_only, Extra...>();
    static_assert(!(has_kw_only_args && has_pos_only_args) || pos_only_pos < kw_only_pos,
                  "py::pos_only must come before py::kw_only");
  }
  static constexpr const auto &signature = FunctionSignature<cast_in, cast_out>::kSig;
  static constexpr const auto &types = FunctionSignature<cast_in, cast_out>::kTypes;
  auto fn = ::pybind11::reinterpret_steal<::pybind11::object>(
      register_function(unique_rec.release(), signature.text, types.data(), sizeof...(Args)));
  // `rec` now belongs to the function object (or its overload chain): stash what functional.h reads.
  using FunctionType = Return (*)(Args...);
  constexpr bool is_function_ptr =
      std::is_convertible<Func, FunctionType>::value && sizeof(capture) == sizeof(void *);
  if (is_function_ptr) {
    rec->is_stateless = true;
    rec->data[1] = const_cast<void *>(reinterpret_cast<const void *>(&typeid(FunctionType)));
  }
  return fn;
}

/// The `m` of a lite PYBIND11_MODULE: a pybind11::object (attr, doc, ...) with pybind11's `def`.
class module_ : public ::pybind11::object {
 public:
  PYBIND11_OBJECT_DEFAULT(module_, object, PyModule_Check)

  /// Binds a function pointer (pybind11's module_::def: name, scope, sibling, then `extra`).
  template <typename Return, typename... Args, typename... Extra>
  module_ &def(const char *name_, Return (*f)(Args...), const Extra &...extra) {
    add_object(name_, make_function(f, f, ::pybind11::name(name_), ::pybind11::scope(*this),
                                     ::pybind11::sibling(::pybind11::getattr(*this, name_, ::pybind11::none())),
                                     extra...),
               true);
    return *this;
  }

  /// Binds a lambda or another callable object with a unique call operator.
  template <typename Func, typename... Extra, typename = pyd::enable_if_t<pyd::is_lambda<Func>::value>>
  module_ &def(const char *name_, Func &&f, const Extra &...extra) {
    add_object(name_, make_function(std::forward<Func>(f), (pyd::function_signature_t<Func> *)nullptr,
                                     ::pybind11::name(name_), ::pybind11::scope(*this),
                                     ::pybind11::sibling(::pybind11::getattr(*this, name_, ::pybind11::none())),
                                     extra...),
               true);
    return *this;
  }

  /// Adds `obj` as attribute `name` (pybind11's module_::add_object).
  void add_object(const char *name, ::pybind11::handle obj, bool overwrite = false) {
    if (!overwrite && ::pybind11::hasattr(*this, name)) {
      ::pybind11::pybind11_fail("Error during initialization: multiple incompatible definitions with name \"" +
                                std::string(name) + "\"");
    }
    PyModule_AddObject(ptr(), name, obj.inc_ref().ptr() /* steals a reference */);
  }
};
}  // namespace lite
}  // namespace mskernel

// PYBIND11_MODULE(name, m) { ... } for lite builds: the same entry point pybind11 makes (PyInit_<name>,
// multi-phase init, the module cache, ImportError on exceptions), run by the support library.
// (The support library itself, which includes pybind11.h, keeps pybind11's macro.)
#ifndef MSKERNEL_LITE_SUPPORT_LIBRARY
#undef PYBIND11_MODULE
#define PYBIND11_MODULE(name, variable)                                                               \
  static void PYBIND11_CONCAT(mskernel_lite_init_, name)(::mskernel::lite::module_ &);                \
  static void PYBIND11_CONCAT(mskernel_lite_fill_, name)(PyObject * pm) {                             \
    auto mod = ::pybind11::reinterpret_borrow<::mskernel::lite::module_>(pm);                         \
    PYBIND11_CONCAT(mskernel_lite_init_, name)(mod);                                                  \
  }                                                                                                   \
  extern "C" PYBIND11_EXPORT PyObject *PYBIND11_CONCAT(PyInit_, name)();                              \
  extern "C" PYBIND11_EXPORT PyObject *PYBIND11_CONCAT(PyInit_, name)() {                             \
    return ::mskernel::lite::init_module(&PYBIND11_CONCAT(mskernel_lite_fill_, name));                \
  }                                                                                                   \
  void PYBIND11_CONCAT(mskernel_lite_init_, name)(::mskernel::lite::module_ & variable)  // NOLINT
#endif  // MSKERNEL_LITE_SUPPORT_LIBRARY

#endif  // MSKERNEL_PYBIND11_LITE_H_
