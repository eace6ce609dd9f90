// mskernel's side of the AOT custom-operator ABI: an AotExtra implementation holding the op's attributes,
// and extern "C" entry points (called from mskernel/kernels/aot.py through ctypes) that invoke a user's kernel,
// Init, InferShape and InferType functions through their pointers, turning C++ exceptions into messages.
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "custom_aot_extra.h"

namespace {
using Value = std::variant<bool, int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
                           std::vector<std::vector<int64_t>>, std::vector<std::vector<float>>>;
const char *kKindNames[] = {"bool", "int", "float", "str", "listInt", "listFloat", "listListInt", "listListFloat"};

class AotExtraImpl : public AotExtra {
 public:
  std::string op_name = "Custom";
  std::map<std::string, Value> attrs;
  bool HasAttr(std::string name) override { return attrs.count(name) > 0; }

 private:
  template <typename T>
  T Get(const std::string &name, int kind) {
    auto it = attrs.find(name);
    if (it == attrs.end()) throw std::runtime_error("For '" + op_name + "', there is no attribute called " + name + "! ");
    if (auto *v = std::get_if<T>(&it->second)) return *v;
    throw std::runtime_error("For '" + op_name + "', the attribute '" + name + "' is a " +
                             kKindNames[it->second.index()] + ", but the kernel reads it as " + kKindNames[kind] + ".");
  }
  bool ReadBool(std::string name) override { return Get<bool>(name, 0); }
  int64_t ReadInt(std::string name) override { return Get<int64_t>(name, 1); }
  float ReadFloat(std::string name) override { return Get<float>(name, 2); }
  std::string ReadString(std::string name) override { return Get<std::string>(name, 3); }
  std::vector<int64_t> ReadInts(std::string name) override { return Get<std::vector<int64_t>>(name, 4); }
  std::vector<float> ReadFloats(std::string name) override { return Get<std::vector<float>>(name, 5); }
  std::vector<std::vector<int64_t>> ReadIntRows(std::string name) override {
    return Get<std::vector<std::vector<int64_t>>>(name, 6);
  }
  std::vector<std::vector<float>> ReadFloatRows(std::string name) override {
    return Get<std::vector<std::vector<float>>>(name, 7);
  }
};

void put_error(char *err, int errlen, const char *msg) {
  if (err == nullptr || errlen <= 0) return;
  std::strncpy(err, msg, static_cast<size_t>(errlen - 1));
  err[errlen - 1] = '\0';
}

// Runs f; returns 0, or 1 with the message in err when user code threw anything (an exception must
// never cross the extern "C" boundary: that would terminate the process).
template <typename F>
int guarded(char *err, int errlen, F &&f) {
  try {
    f();
    return 0;
  } catch (const std::exception &e) {
    put_error(err, errlen, e.what());
  } catch (...) {
    put_error(err, errlen, "it threw a C++ value that is not a std::exception (e.g. `throw 42`), which carries no message");
  }
  return 1;
}

using KernelFn = int (*)(int, void **, int *, int64_t **, const char **, void *, void *);
using InitFn = int (*)(int *, int64_t **, const char **, AotExtra *);
using ShapeFn = std::vector<int64_t> (*)(int *, int64_t **, AotExtra *);
using ShapesFn = std::vector<std::vector<int64_t>> (*)(int *, int64_t **, AotExtra *);
using TypeFn = int (*)(std::vector<int>, AotExtra *);
using TypesFn = std::vector<int> (*)(std::vector<int>, AotExtra *);

AotExtraImpl *impl(void *h) { return static_cast<AotExtraImpl *>(h); }
}  // namespace

extern "C" {
void *mk_aot_extra_new(const char *op_name) {
  auto *e = new AotExtraImpl();
  e->op_name = op_name;
  return e;
}
void mk_aot_extra_free(void *h) {
  auto *e = impl(h);
  e->DestructKernelData();
  delete e;
}
void mk_aot_destruct_kernel_data(void *h) { impl(h)->DestructKernelData(); }
void mk_aot_set_bool(void *h, const char *n, int v) { impl(h)->attrs[n] = static_cast<bool>(v); }
void mk_aot_set_int(void *h, const char *n, int64_t v) { impl(h)->attrs[n] = v; }
void mk_aot_set_float(void *h, const char *n, double v) { impl(h)->attrs[n] = static_cast<float>(v); }
void mk_aot_set_str(void *h, const char *n, const char *v) { impl(h)->attrs[n] = std::string(v); }
void mk_aot_set_int_vec(void *h, const char *n, const int64_t *v, int64_t len) {
  impl(h)->attrs[n] = std::vector<int64_t>(v, v + len);
}
void mk_aot_set_float_vec(void *h, const char *n, const double *v, int64_t len) {
  impl(h)->attrs[n] = std::vector<float>(v, v + len);
}
void mk_aot_set_int_2d(void *h, const char *n, const int64_t *flat, const int64_t *lens, int64_t rows) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t r = 0; r < rows; ++r) {
    out.emplace_back(flat, flat + lens[r]);
    flat += lens[r];
  }
  impl(h)->attrs[n] = out;
}
void mk_aot_set_float_2d(void *h, const char *n, const double *flat, const int64_t *lens, int64_t rows) {
  std::vector<std::vector<float>> out;
  for (int64_t r = 0; r < rows; ++r) {
    out.emplace_back(flat, flat + lens[r]);
    flat += lens[r];
  }
  impl(h)->attrs[n] = out;
}
int64_t mk_aot_workspace_count(void *h) { return static_cast<int64_t>(impl(h)->WorkSpace().size()); }
uint64_t mk_aot_workspace_size(void *h, int64_t i) { return impl(h)->WorkSpace()[static_cast<size_t>(i)]; }

// Each entry returns 0, or 1 when the user code threw (message in err).
int mk_aot_call(void *fn, int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *h,
                int *ret, char *err, int errlen) {
  return guarded(err, errlen,
                 [&] { *ret = reinterpret_cast<KernelFn>(fn)(nparam, params, ndims, shapes, dtypes, nullptr, h); });
}
int mk_aot_init(void *fn, int *ndims, int64_t **shapes, const char **dtypes, void *h, int *ret, char *err,
                int errlen) {
  return guarded(err, errlen, [&] { *ret = reinterpret_cast<InitFn>(fn)(ndims, shapes, dtypes, impl(h)); });
}
// Shapes are written row after row into out (capacity cap); out_ranks gets each output's rank.
int mk_aot_infer_shape(void *fn, int multi, int *ndims, int64_t **shapes, void *h, int64_t *out, int64_t cap,
                       int64_t *out_ranks, int64_t max_outputs, int64_t *n_outputs, char *err, int errlen) {
  return guarded(err, errlen, [&] {
    std::vector<std::vector<int64_t>> rows;
    if (multi) {
      rows = reinterpret_cast<ShapesFn>(fn)(ndims, shapes, impl(h));
    } else {
      rows.push_back(reinterpret_cast<ShapeFn>(fn)(ndims, shapes, impl(h)));
    }
    int64_t k = 0;
    if (static_cast<int64_t>(rows.size()) > max_outputs) throw std::runtime_error("too many output shapes");
    for (size_t r = 0; r < rows.size(); ++r) {
      out_ranks[r] = static_cast<int64_t>(rows[r].size());
      for (int64_t d : rows[r]) {
        if (k >= cap) throw std::runtime_error("output shapes too large");
        out[k++] = d;
      }
    }
    *n_outputs = static_cast<int64_t>(rows.size());
  });
}
int mk_aot_infer_type(void *fn, int multi, const int *types, int n, void *h, int *out, int max_outputs,
                      int *n_outputs, char *err, int errlen) {
  return guarded(err, errlen, [&] {
    std::vector<int> in(types, types + n);
    std::vector<int> res;
    if (multi) {
      res = reinterpret_cast<TypesFn>(fn)(in, impl(h));
    } else {
      res.push_back(reinterpret_cast<TypeFn>(fn)(in, impl(h)));
    }
    if (static_cast<int>(res.size()) > max_outputs) throw std::runtime_error("too many output types");
    for (size_t i = 0; i < res.size(); ++i) out[i] = res[i];
    *n_outputs = static_cast<int>(res.size());
  });
}
}
