// mskernel/kernels.h -- CPU helpers for writing your own kernels: ParallelFor and broadcasting maps.
//
// Provides, in namespace `mskernel::cpu`:
//   ParallelFor(begin, end, grain, f)   calls f(lo, hi) on disjoint chunks covering [begin, end),
//                                       on up to NumThreads() threads (OpenMP when the module is
//                                       built with openmp=True, else std::thread; inline when the
//                                       range is smaller than `grain`). Exceptions are rethrown.
//   NumThreads()                        MSKERNEL_NUM_THREADS, else the hardware concurrency.
//   BroadcastShape(a, b)                numpy's broadcast of two shapes (throws if incompatible).
//   Map<T>(f, out, a)  /  Map<T>(f, out, a, b)
//                                       out[i] = f(a[i]) / f(a[i], b[i]) for element type T, with
//                                       inputs broadcast to out's shape; any strides (views) work;
//                                       tensors may be BaseTensor or ms::Tensor.
//   DispatchFloating(type, f)           calls f(float{}) or f(double{}) for the tensor's type id;
//   DispatchNumeric(type, f)            the same over bool, int8..int64, uint8..uint64, float, double.
// Only what you call is instantiated, so including this costs little compile time. Tensors must be
// created (and destroyed) on the calling thread; ParallelFor bodies should only touch raw data.
//
// Example:
//   BaseTensorPtr axpy(const BaseTensorPtr &x, const BaseTensorPtr &y, double a) {
//     auto out = std::make_shared<BaseTensor>(x->data_type(), mskernel::cpu::BroadcastShape(x->shape(), y->shape()));
//     mskernel::cpu::DispatchFloating(x->data_type(), [&](auto zero) {
//       using T = decltype(zero);
//       mskernel::cpu::Map<T>([a](T u, T v) { return static_cast<T>(a) * u + v; }, *out, *x, *y);
//     });
//     return out;
//   }
#ifndef MSKERNEL_KERNELS_H_
#define MSKERNEL_KERNELS_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "mskernel/ms_tensor.h"

namespace mskernel {
namespace cpu {

/// Threads ParallelFor may use: $MSKERNEL_NUM_THREADS, else std::thread::hardware_concurrency().
inline int NumThreads() {
  static const int n = [] {
    const char *env = std::getenv("MSKERNEL_NUM_THREADS");
    int v = env ? std::atoi(env) : static_cast<int>(std::thread::hardware_concurrency());
    return v > 0 ? v : 1;
  }();
  return n;
}

/// Calls f(lo, hi) for disjoint chunks of [begin, end), in parallel when the range is >= grain.
template <typename F>
void ParallelFor(int64_t begin, int64_t end, int64_t grain, const F &f) {
  const int64_t n = end - begin;
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t chunks = std::min<int64_t>(NumThreads(), (n + grain - 1) / grain);
  if (chunks <= 1) {
    f(begin, end);
    return;
  }
  const int64_t step = (n + chunks - 1) / chunks;
#ifdef _OPENMP
  std::exception_ptr error = nullptr;
#pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static, 1)
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t lo = begin + c * step, hi = std::min(end, lo + step);
    if (lo >= hi) continue;
    try {
      f(lo, hi);
    } catch (...) {
#pragma omp critical(mskernel_parallel_for)
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
#else
  std::vector<std::exception_ptr> errors(static_cast<size_t>(chunks));
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(chunks - 1));
  for (int64_t c = 1; c < chunks; ++c) {
    const int64_t lo = begin + c * step, hi = std::min(end, lo + step);
    if (lo >= hi) break;
    workers.emplace_back([&f, &errors, c, lo, hi] {
      try {
        f(lo, hi);
      } catch (...) {
        errors[static_cast<size_t>(c)] = std::current_exception();
      }
    });
  }
  try {
    f(begin, std::min(end, begin + step));
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto &w : workers) w.join();
  for (auto &e : errors) {
    if (e) std::rethrow_exception(e);
  }
#endif
}

/// numpy's broadcast of two shapes.
inline ShapeVector BroadcastShape(const ShapeVector &a, const ShapeVector &b) {
  ShapeVector out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) {
      throw std::invalid_argument("BroadcastShape: shapes cannot be broadcast (dimension " + std::to_string(da) +
                                  " vs " + std::to_string(db) + ")");
    }
    out[out.size() - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

/// The TypeId of a C++ element type (kTypeUnknown if none).
template <typename T>
constexpr TypeId TypeIdOf() {
  if constexpr (std::is_same_v<T, bool>) return kNumberTypeBool;
  else if constexpr (std::is_same_v<T, float>) return kNumberTypeFloat32;
  else if constexpr (std::is_same_v<T, double>) return kNumberTypeFloat64;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return sizeof(T) == 1 ? kNumberTypeInt8 : sizeof(T) == 2 ? kNumberTypeInt16 : sizeof(T) == 4 ? kNumberTypeInt32 : kNumberTypeInt64;
  else if constexpr (std::is_integral_v<T>)
    return sizeof(T) == 1 ? kNumberTypeUInt8 : sizeof(T) == 2 ? kNumberTypeUInt16 : sizeof(T) == 4 ? kNumberTypeUInt32 : kNumberTypeUInt64;
  else return kTypeUnknown;
}

namespace detail {
inline const BaseTensor &Ref(const BaseTensor &t) { return t; }
inline const BaseTensor &Ref(const ms::Tensor &t) {
  if (!t.is_defined()) throw std::invalid_argument("mskernel::cpu::Map: undefined tensor");
  return *t.tensor();
}

/// Element strides of `t` broadcast to `shape` (0 along broadcast dimensions).
inline std::vector<int64_t> BroadcastStrides(const BaseTensor &t, const ShapeVector &shape) {
  const ShapeVector &s = t.shape();
  if (s.size() > shape.size()) throw std::invalid_argument("mskernel::cpu::Map: an input has more dimensions than out");
  std::vector<int64_t> st(shape.size(), 0);
  const size_t lead = shape.size() - s.size();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == shape[lead + i]) {
      st[lead + i] = t.strides()[i];
    } else if (s[i] != 1) {
      throw std::invalid_argument("mskernel::cpu::Map: an input of shape " + t.ToString() +
                                  " does not broadcast to the output shape");
    }
  }
  return st;
}

template <typename T>
void CheckType(const BaseTensor &t) {
  if (t.data_type() != TypeIdOf<T>()) {
    throw std::invalid_argument(std::string("mskernel::cpu::Map: expected ") + TypeIdName(TypeIdOf<T>()) +
                                " data, but a tensor holds " + TypeIdName(t.data_type()));
  }
}

/// out[idx] = f(in_0[idx], ...) over out's shape, rows of the last dimension in parallel.
template <typename T, size_t K, typename F>
void MapImpl(const F &f, const BaseTensor &out, const BaseTensor *const (&ins)[K]) {
  CheckType<T>(out);
  const ShapeVector &shape = out.shape();
  const size_t nd = shape.size();
  std::vector<int64_t> st[K];
  for (size_t k = 0; k < K; ++k) {
    CheckType<T>(*ins[k]);
    st[k] = BroadcastStrides(*ins[k], shape);
  }
  const std::vector<int64_t> &ost = out.strides();
  const int64_t inner = nd ? shape[nd - 1] : 1;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < nd; ++d) rows *= shape[d];
  if (inner == 0 || rows == 0) return;
  T *obase = out.data_ptr_as<T>();
  const T *ibase[K];
  for (size_t k = 0; k < K; ++k) ibase[k] = static_cast<const T *>(ins[k]->data_c());
  const int64_t grain = std::max<int64_t>(1, 32768 / inner);
  ParallelFor(0, rows, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      int64_t rem = r, ooff = 0, ioff[K] = {};
      for (size_t d = nd ? nd - 1 : 0; d-- > 0;) {  // the row's multi-index, last dimension excluded
        const int64_t i = rem % shape[d];
        rem /= shape[d];
        ooff += i * ost[d];
        for (size_t k = 0; k < K; ++k) ioff[k] += i * st[k][d];
      }
      const int64_t os = nd ? ost[nd - 1] : 0;
      for (int64_t j = 0; j < inner; ++j) {
        if constexpr (K == 1) {
          obase[ooff + j * os] = static_cast<T>(f(ibase[0][ioff[0] + j * (nd ? st[0][nd - 1] : 0)]));
        } else {
          obase[ooff + j * os] = static_cast<T>(
              f(ibase[0][ioff[0] + j * (nd ? st[0][nd - 1] : 0)], ibase[1][ioff[1] + j * (nd ? st[1][nd - 1] : 0)]));
        }
      }
    }
  });
}
}  // namespace detail

/// out[i] = f(a[i]) (a broadcast to out's shape); all tensors hold T.
template <typename T, typename F, typename TOut, typename TA>
void Map(const F &f, const TOut &out, const TA &a) {
  const BaseTensor *ins[1] = {&detail::Ref(a)};
  detail::MapImpl<T, 1>(f, detail::Ref(out), ins);
}

/// out[i] = f(a[i], b[i]) (a, b broadcast to out's shape); all tensors hold T.
template <typename T, typename F, typename TOut, typename TA, typename TB>
void Map(const F &f, const TOut &out, const TA &a, const TB &b) {
  const BaseTensor *ins[2] = {&detail::Ref(a), &detail::Ref(b)};
  detail::MapImpl<T, 2>(f, detail::Ref(out), ins);
}

/// f(float{}) or f(double{}) according to `type`; throws for other types.
template <typename F>
void DispatchFloating(TypeId type, F &&f) {
  switch (CanonicalTypeId(type)) {
    case kNumberTypeFloat32:
      f(float{});
      return;
    case kNumberTypeFloat64:
      f(double{});
      return;
    default:
      throw std::invalid_argument(std::string("expected float32 or float64 data, but got ") + TypeIdName(type));
  }
}

/// f(T{}) for T the C++ type of `type` (bool, int8..int64, uint8..uint64, float, double).
template <typename F>
void DispatchNumeric(TypeId type, F &&f) {
  switch (CanonicalTypeId(type)) {
    case kNumberTypeBool: f(bool{}); return;
    case kNumberTypeInt8: f(int8_t{}); return;
    case kNumberTypeInt16: f(int16_t{}); return;
    case kNumberTypeInt32: f(int32_t{}); return;
    case kNumberTypeInt64: f(int64_t{}); return;
    case kNumberTypeUInt8: f(uint8_t{}); return;
    case kNumberTypeUInt16: f(uint16_t{}); return;
    case kNumberTypeUInt32: f(uint32_t{}); return;
    case kNumberTypeUInt64: f(uint64_t{}); return;
    case kNumberTypeFloat32: f(float{}); return;
    case kNumberTypeFloat64: f(double{}); return;
    default:
      throw std::invalid_argument(std::string("mskernel::cpu has no C++ element type for ") + TypeIdName(type));
  }
}

}  // namespace cpu
}  // namespace mskernel

#endif  // MSKERNEL_KERNELS_H_
