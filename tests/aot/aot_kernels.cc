// AOT kernels for tests/aot: MindSpore's C ABI (see mskernel/include/custom_aot_extra.h).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include "custom_aot_extra.h"

static int64_t numel(int nd, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < nd; ++i) n *= shape[i];
  return n;
}

// z = x + y, with the same checks as MindSpore's add.cc test.
extern "C" int CustomAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                         void *extra) {
  if (nparam != 3) return 1;
  for (int i = 0; i < nparam; ++i) {
    if (std::string(dtypes[i]) != "float32") return 2;
  }
  auto *x = static_cast<float *>(params[0]);
  auto *y = static_cast<float *>(params[1]);
  auto *z = static_cast<float *>(params[2]);
  for (int64_t i = 0, n = numel(ndims[2], shapes[2]); i < n; ++i) z[i] = x[i] + y[i];
  return 0;
}
extern "C" std::vector<int64_t> CustomAddInferShape(int *ndims, int64_t **shapes, AotExtra *extra) {
  return std::vector<int64_t>(shapes[0], shapes[0] + ndims[0]);
}

// out = x + y * scale * 2 + paddings[0] + paddings[1], computed through a workspace (attrs read in Init).
class ScaleData : public AotKernelData {
 public:
  float scale = 0;
  std::vector<float> paddings;
};
extern "C" int ScaleAddInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra) {
  auto *d = new ScaleData;
  d->scale = extra->Attr<float>("scale");
  d->paddings = extra->Attr<std::vector<float>>("paddings");
  extra->SetKernelData(d);
  extra->SetWorkSpace({static_cast<size_t>(numel(ndims[0], shapes[0])) * sizeof(float)});
  return 0;
}
extern "C" int ScaleAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                        void *extra_void) {
  auto *extra = static_cast<AotExtra *>(extra_void);
  auto *d = static_cast<ScaleData *>(extra->KernelData());
  auto *x = static_cast<float *>(params[0]);
  auto *y = static_cast<float *>(params[1]);
  auto *out = static_cast<float *>(params[2]);
  auto *tmp = static_cast<float *>(params[3]);
  int64_t n = numel(ndims[2], shapes[2]);
  for (int64_t i = 0; i < n; ++i) tmp[i] = x[i] + y[i] * d->scale + d->paddings[0];
  for (int64_t i = 0; i < n; ++i) out[i] = tmp[i] + y[i] * d->scale + d->paddings[1];
  return 0;
}

// Row or column sums of x + y (attrs axis: int, keep_dim: bool), with C++ InferShape and InferType.
enum TypeId : int {};
extern "C" std::vector<int64_t> AddReduceInferShape(int *ndims, int64_t **shapes, AotExtra *extra) {
  int64_t axis = extra->Attr<int64_t>("axis");
  bool keep = extra->Attr<bool>("keep_dim");
  if (keep) return axis == 0 ? std::vector<int64_t>{1, shapes[0][1]} : std::vector<int64_t>{shapes[0][0], 1};
  return std::vector<int64_t>{shapes[0][1 - axis]};
}
extern "C" TypeId AddReduceInferType(std::vector<TypeId> type_ids, AotExtra *extra) { return type_ids[0]; }
extern "C" int AddReduceInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra) {
  extra->SetWorkSpace({static_cast<size_t>(numel(ndims[0], shapes[0])) * sizeof(float)});
  return 0;
}
extern "C" int AddReduce(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                         void *extra_void) {
  auto *extra = static_cast<AotExtra *>(extra_void);
  int64_t axis = extra->Attr<int64_t>("axis");
  auto *x = static_cast<float *>(params[0]);
  auto *y = static_cast<float *>(params[1]);
  auto *out = static_cast<float *>(params[2]);
  auto *tmp = static_cast<float *>(params[3]);
  int64_t rows = shapes[0][0], cols = shapes[0][1];
  for (int64_t i = 0; i < rows * cols; ++i) tmp[i] = x[i] + y[i];
  int64_t n_out = axis == 0 ? cols : rows;
  for (int64_t o = 0; o < n_out; ++o) {
    float s = 0;
    for (int64_t k = 0; k < (axis == 0 ? rows : cols); ++k) s += axis == 0 ? tmp[k * cols + o] : tmp[o * cols + k];
    out[o] = s;
  }
  return 0;
}

// Two outputs (sum, product) and a string + 2-D attribute.
extern "C" int SumProd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                       void *extra_void) {
  auto *extra = static_cast<AotExtra *>(extra_void);
  if (extra->Attr<std::string>("mode") != "sum_prod") return 7;
  auto grid = extra->Attr<std::vector<std::vector<int64_t>>>("grid");
  auto *a = static_cast<double *>(params[0]);
  auto *b = static_cast<double *>(params[1]);
  auto *s = static_cast<double *>(params[2]);
  auto *p = static_cast<double *>(params[3]);
  for (int64_t i = 0, n = numel(ndims[0], shapes[0]); i < n; ++i) {
    s[i] = a[i] + b[i] + static_cast<double>(grid[1][0]);
    p[i] = a[i] * b[i];
  }
  return 0;
}

// Failure modes.
extern "C" int Fails(int, void **, int *, int64_t **, const char **, void *, void *) { return 3; }
extern "C" int Throws(int, void **, int *, int64_t **, const char **, void *, void *) {
  throw std::runtime_error("boom in user kernel");
}
extern "C" int MissingAttr(int, void **, int *, int64_t **, const char **, void *, void *extra) {
  return static_cast<int>(static_cast<AotExtra *>(extra)->Attr<int64_t>("nope"));
}
// A C++ InferShape that throws something that is not a std::exception (must not terminate the process).
extern "C" int OddThrow(int, void **, int *, int64_t **, const char **, void *, void *) { return 0; }
extern "C" std::vector<int64_t> OddThrowInferShape(int *, int64_t **, AotExtra *) { throw 42; }

// out = x + (the workspace as it arrives): a kernel that reads its workspace before writing it sees zeros.
extern "C" int ReadWorkspaceInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra) {
  extra->SetWorkSpace({static_cast<size_t>(numel(ndims[0], shapes[0])) * sizeof(float)});
  return 0;
}
extern "C" int ReadWorkspace(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
                             void *stream, void *extra_void) {
  auto *x = static_cast<float *>(params[0]);
  auto *out = static_cast<float *>(params[1]);
  auto *ws = static_cast<float *>(params[2]);
  int64_t n = numel(ndims[0], shapes[0]);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = x[i] + ws[i];
    ws[i] = 1e30f;  // dirty it: the next call must get a fresh zeroed workspace again
  }
  return 0;
}
