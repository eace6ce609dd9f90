// An AOT kernel with MindSpore's C ABI: out = x + scale * y (float32), scale an operator attribute.
#include <cstdint>
#include "custom_aot_extra.h"

extern "C" int ScaledAdd(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
                         void *stream, void *extra) {
  float scale = static_cast<AotExtra *>(extra)->Attr<float>("scale");
  float *x = static_cast<float *>(params[0]), *y = static_cast<float *>(params[1]);
  float *out = static_cast<float *>(params[2]);
  int64_t n = 1;
  for (int i = 0; i < ndims[0]; ++i) n *= shapes[0][i];
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] + scale * y[i];
  return 0;
}
