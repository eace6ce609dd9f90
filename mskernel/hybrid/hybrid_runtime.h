// mskernel.hybrid runtime helpers, included by every generated hybrid kernel.
//
// Each helper reproduces what numpy does for the same operation on scalars, so a compiled
// kernel computes what the kernel computes when it runs as Python on numpy arrays:
// floor division and modulo round like Python (toward -inf) for ints and floats, integer
// division by zero gives 0 (numpy's result), max/min are Python's (NaN-propagation included),
// round() rounds half to even.
#pragma once
// Only <cstdint>: math comes from GCC builtins, so a kernel compiles in a fraction of a
// second (<cmath> alone costs ~0.2 s, <immintrin.h> ~1 s with -march=native).
#include <cstdint>

namespace mskh {

// ---- type traits and libm through GCC builtins (float and double overloads)
template <class T> constexpr bool is_float = false;
template <> constexpr bool is_float<float> = true;
template <> constexpr bool is_float<double> = true;
template <class T> constexpr bool is_signed = T(-1) < T(0);

#define MSKH_UNARY(name)                                               \
  inline float name(float x) { return __builtin_##name##f(x); }        \
  inline double name(double x) { return __builtin_##name(x); }
MSKH_UNARY(sqrt) MSKH_UNARY(exp) MSKH_UNARY(expm1) MSKH_UNARY(log) MSKH_UNARY(sin)
MSKH_UNARY(cos) MSKH_UNARY(tanh) MSKH_UNARY(atan) MSKH_UNARY(erf) MSKH_UNARY(fabs)
MSKH_UNARY(nearbyint)
#undef MSKH_UNARY
#define MSKH_BINARY(name)                                                        \
  inline float name(float x, float y) { return __builtin_##name##f(x, y); }     \
  inline double name(double x, double y) { return __builtin_##name(x, y); }
MSKH_BINARY(atan2) MSKH_BINARY(fmod) MSKH_BINARY(copysign) MSKH_BINARY(pow)
#undef MSKH_BINARY
inline float floor_(float x) { return __builtin_floorf(x); }
inline double floor_(double x) { return __builtin_floor(x); }
inline float ceil_(float x) { return __builtin_ceilf(x); }
inline double ceil_(double x) { return __builtin_ceil(x); }
inline float trunc_(float x) { return __builtin_truncf(x); }
inline double trunc_(double x) { return __builtin_trunc(x); }

// One scalar attribute as passed by the dispatcher (ints and bools in i, floats in f).
union Attr {
  int64_t i;
  double f;
};

template <class T>
inline T floordiv(T a, T b) {
  if constexpr (is_float<T>) {
    if (b == 0) return a / b;
    T mod = fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
    if (div == 0) return copysign(T(0), a / b);
    T fl = floor_(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  } else {
    if (b == 0) return T(0);
    if constexpr (is_signed<T>) {
      if (b == T(-1)) return T(T(0) - a);
      T q = T(a / b);
      if ((a % b != 0) && ((a < 0) != (b < 0))) q = T(q - 1);
      return q;
    } else {
      return T(a / b);
    }
  }
}

template <class T>
inline T mod(T a, T b) {
  if constexpr (is_float<T>) {
    T m = fmod(a, b);
    if (b == 0) return m;
    if (m != 0) {
      if ((b < 0) != (m < 0)) m += b;
    } else {
      m = copysign(T(0), b);
    }
    return m;
  } else {
    if (b == 0) return T(0);
    if constexpr (is_signed<T>) {
      if (b == T(-1)) return T(0);
      T r = T(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
      return r;
    } else {
      return T(a % b);
    }
  }
}

template <class T>
inline T power(T base, T exp) {
  if constexpr (is_float<T>) {
    return pow(base, exp);
  } else {
    if constexpr (is_signed<T>) {
      if (exp < 0) return T(base == 1 ? 1 : base == T(-1) ? ((exp & 1) ? -1 : 1) : 0);
    }
    T r = T(1);
    while (exp) {
      if (exp & 1) r = T(r * base);
      base = T(base * base);
      exp = T(exp >> 1);
    }
    return r;
  }
}

// Number of iterations of range(start, stop, step).
inline int64_t trip(int64_t start, int64_t stop, int64_t step) {
  if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

template <class T>
inline T ceil_div(T a, T b) { return floordiv<T>(T(a + b - 1), b); }

template <class T>
inline T pymax(T a, T b) { return (b > a) ? b : a; }  // Python's max(a, b)
template <class T>
inline T pymin(T a, T b) { return (b < a) ? b : a; }  // Python's min(a, b)

// ---- reduce loops (mskernel/hybrid/reduction.py): identities of max/min, float sums blocked and added pairwise.
// The smallest and largest value of T (-inf and +inf for floats): what a max / min accumulation starts from.
template <class T>
constexpr T lowest() {
  if constexpr (is_float<T>) return T(-__builtin_inf());
  else if constexpr (is_signed<T>) return static_cast<T>(uint64_t(1) << (sizeof(T) * 8 - 1));
  else return T(0);
}
template <class T>
constexpr T highest() {
  if constexpr (is_float<T>) return T(__builtin_inf());
  else if constexpr (is_signed<T>) return static_cast<T>(~lowest<T>());
  else return static_cast<T>(~T(0));
}
// The end of the block of a reduce loop that starts at lo: lo + span, or hi if that is nearer (span's sign is the
// loop step's).
inline int64_t block_end(int64_t lo, int64_t hi, int64_t span) {
  if (span > 0) return hi - lo > span ? lo + span : hi;
  return lo - hi > -span ? lo + span : hi;
}
// Block sums added pairwise, in order: a binary counter of partial sums (block k merges with its left neighbour
// while k is odd), so each block sum goes through at most log2(blocks) + 1 additions.
template <class T>
struct PairwiseSum {
  T part[64];
  int64_t count = 0;
  int top = 0;
  void add(T v) {
    for (int64_t c = count++; c & 1; c >>= 1) v = part[--top] + v;
    part[top++] = v;
  }
  T total() const {  // -0.0 (the identity of +) when nothing was added
    if (!top) return T(-0.0);
    T s = part[top - 1];
    for (int k = top - 2; k >= 0; --k) s = part[k] + s;
    return s;
  }
};

template <class T>
inline T abs(T x) {
  if constexpr (is_float<T>) return fabs(x);
  else if constexpr (is_signed<T>) return x < 0 ? T(T(0) - x) : x;
  else return x;
}

template <class T>
inline T sign(T x) {
  if constexpr (is_float<T>) return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
  else return T((x > 0) - (x < 0));
}

template <class T> inline T floor(T x) { if constexpr (is_float<T>) return floor_(x); else return x; }
template <class T> inline T ceil(T x) { if constexpr (is_float<T>) return ceil_(x); else return x; }
template <class T> inline T trunc(T x) { if constexpr (is_float<T>) return trunc_(x); else return x; }
template <class T> inline T round(T x) { if constexpr (is_float<T>) return nearbyint(x); else return x; }
template <class T> inline bool isnan(T x) { if constexpr (is_float<T>) return __builtin_isnan(x); else return false; }
template <class T> inline bool isinf(T x) { if constexpr (is_float<T>) return __builtin_isinf(x); else return false; }
template <class T> inline bool isfinite(T x) { if constexpr (is_float<T>) return __builtin_isfinite(x); else return true; }
template <class T> inline T rsqrt(T x) { return T(1) / sqrt(x); }

// Return codes of a generated kernel (kIndexError, kBadSize and kNoMemory fill err).
enum : int { kOk = 0, kIndexError = 1, kZeroStep = 2, kNoMemory = 3, kBadSize = 4 };

// Failure report shared by checked accesses and allocations: the first failure (claimed atomically, so
// checks inside parallel loops are race-free) records [site, rank, indices..., extents...] in err and its
// return code; the kernel returns dbg.code after the statement (or after the parallel loop).
struct Debug {
  int64_t* err;
  bool failed = false;
  int code = kOk;
  bool claim(int c) {
    if (__atomic_exchange_n(&failed, true, __ATOMIC_RELAXED)) return false;
    code = c;
    return true;
  }
  void fail(int c, int64_t site, int rank, const int64_t* idx, const int64_t* extent) {
    if (!claim(c)) return;
    err[0] = site;
    err[1] = rank;
    for (int m = 0; m < rank; ++m) {
      err[2 + m] = idx[m];
      err[2 + rank + m] = extent[m];
    }
  }
};

// A zero-filled temporary tensor (allocate(...)). A negative extent (kBadSize) or a size that cannot be
// allocated (kNoMemory) leaves data null and reports the extents; at least one element is allocated, so a
// failed checked access can always be redirected to element 0.
template <class T>
struct Buffer {
  T* data = nullptr;
  Buffer(Debug& d, int64_t site, int rank, const int64_t* n) {
    for (int k = 0; k < rank; ++k) {
      if (n[k] < 0) { d.fail(kBadSize, site, rank, n, n); return; }
    }
    int64_t total = 1, bytes = 0;
    for (int k = 0; k < rank; ++k) {
      if (__builtin_mul_overflow(total, n[k], &total)) { d.fail(kNoMemory, site, rank, n, n); return; }
    }
    if (__builtin_mul_overflow(total, static_cast<int64_t>(sizeof(T)), &bytes)) {
      d.fail(kNoMemory, site, rank, n, n);
      return;
    }
    data = static_cast<T*>(__builtin_calloc(total > 0 ? static_cast<__SIZE_TYPE__>(total) : 1, sizeof(T)));
    if (!data) d.fail(kNoMemory, site, rank, n, n);
  }
  ~Buffer() { __builtin_free(data); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// A checked access: every index against its extent. On failure the report is recorded and offset 0 is
// returned (the kernel stops after the statement). Used for every access in debug mode, for the accesses
// a loop nest's bounds proof does not cover (mskernel/hybrid/bounds.py), and in the checked version of a
// nest whose proof fails at run time.
__attribute__((noinline, cold)) inline int64_t out_of_bounds(Debug& d, int64_t site, int rank, const int64_t* idx,
                                                             const int64_t* shape) {
  d.fail(kIndexError, site, rank, idx, shape);
  return 0;
}

template <int R, class... I>
inline int64_t at(Debug& d, int64_t site, const int64_t* shape, const int64_t* stride, I... index) {
  const int64_t idx[R] = {static_cast<int64_t>(index)...};
  int64_t off = 0;
  for (int k = 0; k < R; ++k) {
    // one unsigned comparison per index: a negative index becomes huge
    if (__builtin_expect(static_cast<uint64_t>(idx[k]) >= static_cast<uint64_t>(shape[k]), 0))
      return out_of_bounds(d, site, R, idx, shape);
    off += idx[k] * stride[k];
  }
  return off;
}

// Interval arithmetic of bounds proofs: exact, or it sets the sticky flag o and the proof fails. (If no bound
// overflows, no intermediate value of the proved accesses can: each lies between the bounds.)
inline int64_t add_ovf(bool& o, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) o = true;
  return r;
}
inline int64_t sub_ovf(bool& o, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) o = true;
  return r;
}
inline int64_t mul_ovf(bool& o, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) o = true;
  return r;
}
// Bounds of a product of two integer intervals [alo, ahi] * [blo, bhi].
inline int64_t mul_lo(bool& o, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
  return pymin(pymin(mul_ovf(o, alo, blo), mul_ovf(o, alo, bhi)), pymin(mul_ovf(o, ahi, blo), mul_ovf(o, ahi, bhi)));
}
inline int64_t mul_hi(bool& o, int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
  return pymax(pymax(mul_ovf(o, alo, blo), mul_ovf(o, alo, bhi)), pymax(mul_ovf(o, ahi, blo), mul_ovf(o, ahi, bhi)));
}

// ---- parallel loops: chunks of iterations on mskernel's thread pool (thread_pool.h, one per process, in
// the dispatcher). A `parallel` loop becomes parallel_for(enough, n, body) with body(lo, hi) running
// iterations [lo, hi) (codegen.py). Below PARALLEL_MIN_WORK (enough == false), or while no pool is
// attached, the body runs here in one call, inlined: the same code as a plain loop.
}  // namespace mskh
extern "C" {
typedef void (*mskh_chunk_fn)(void* ctx, int64_t lo, int64_t hi);
typedef void (*mskh_parallel_fn)(int64_t n, mskh_chunk_fn body, void* ctx);
// The pool's entry, stored by the loader (compiler.load_generated) in each kernel library it opens; null in
// a library opened some other way. (Every kernel is one translation unit, so the header may define it.)
__attribute__((visibility("default"))) mskh_parallel_fn mskh_parallel_runtime = nullptr;
}
namespace mskh {
template <class F>
inline void parallel_for(bool enough, int64_t n, const F& body) {
  const mskh_parallel_fn run = __atomic_load_n(&mskh_parallel_runtime, __ATOMIC_RELAXED);
  if (!enough || run == nullptr || n < 2) {
    body(int64_t(0), n);
    return;
  }
  run(n, [](void* ctx, int64_t lo, int64_t hi) { (*static_cast<const F*>(ctx))(lo, hi); },
      const_cast<void*>(static_cast<const void*>(&body)));
}

// Streaming stores (see mskernel/hybrid/stream.py): 32-byte vectors written around the cache.
typedef float vf32 __attribute__((vector_size(32)));
typedef double vf64 __attribute__((vector_size(32)));
inline vf32 vload(const float* p) { vf32 v; __builtin_memcpy(&v, p, sizeof v); return v; }
inline vf64 vload(const double* p) { vf64 v; __builtin_memcpy(&v, p, sizeof v); return v; }
inline bool aligned(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 31) == 0; }
// (GCC builtins rather than <immintrin.h>, which alone takes ~1 s to parse with -march=native)
inline void stream(float* p, vf32 v) {
#if defined(__AVX__)
  __builtin_ia32_movntps256(p, v);
#else
  __builtin_memcpy(p, &v, sizeof v);
#endif
}
inline void stream(double* p, vf64 v) {
#if defined(__AVX__)
  __builtin_ia32_movntpd256(p, v);
#else
  __builtin_memcpy(p, &v, sizeof v);
#endif
}
inline void stream(float* p, float s) { stream(p, vf32{} + s); }
inline void stream(double* p, double s) { stream(p, vf64{} + s); }
inline void fence() {
#if defined(__SSE__)
  __builtin_ia32_sfence();
#endif
}

}  // namespace mskh
