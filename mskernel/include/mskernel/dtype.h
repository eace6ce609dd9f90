// mskernel/dtype.h -- MindSpore's TypeId enum and how each id maps to a numpy dtype.
//
// Provides `mskernel::TypeId` (kNumberTypeBool ... kNumberTypeGLUInt, the full list of
// MindSpore's `mindspore/core/include/mindapi/base/type_id.h` number types), the numpy name and
// byte size of each id (`TypeIdNumpyName`, `TypeIdSize`), readable names (`TypeIdName`), and the
// id of a Python buffer format (`TypeIdFromBufferFormat`). mskernel tensors are numpy arrays, so
// ids without a numpy dtype (BFloat16, Int4) raise when a tensor of that type is created, and the
// "generic" ids are stored as their concrete width: Int -> int32, UInt/GLUInt -> uint32,
// Float -> float32, Double -> float64, Complex -> complex64 (`data_type()` then reports the
// concrete id, e.g. kNumberTypeInt32).
//
// Example:
//   #include "mskernel/dtype.h"
//   static_assert(sizeof(mskernel::TypeId) == sizeof(int));
//   size_t n = mskernel::TypeIdSize(mskernel::kNumberTypeFloat16);   // 2
//   const char *np = mskernel::TypeIdNumpyName(mskernel::kNumberTypeFloat); // "float32"
#ifndef MSKERNEL_DTYPE_H_
#define MSKERNEL_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

// X(suffix, numpy name or nullptr, bytes per element, canonical suffix)
#define MSKERNEL_NUMBER_TYPES(X)          \
  X(Bool, "bool", 1, Bool)                \
  X(Int, "int32", 4, Int32)               \
  X(Int8, "int8", 1, Int8)                \
  X(Int16, "int16", 2, Int16)             \
  X(Int32, "int32", 4, Int32)             \
  X(Int64, "int64", 8, Int64)             \
  X(UInt, "uint32", 4, UInt32)            \
  X(UInt8, "uint8", 1, UInt8)             \
  X(UInt16, "uint16", 2, UInt16)          \
  X(UInt32, "uint32", 4, UInt32)          \
  X(UInt64, "uint64", 8, UInt64)          \
  X(Float, "float32", 4, Float32)         \
  X(Float16, "float16", 2, Float16)       \
  X(Float32, "float32", 4, Float32)       \
  X(Float64, "float64", 8, Float64)       \
  X(BFloat16, nullptr, 2, BFloat16)       \
  X(Double, "float64", 8, Float64)        \
  X(Complex, "complex64", 8, Complex64)   \
  X(Complex64, "complex64", 8, Complex64) \
  X(Complex128, "complex128", 16, Complex128) \
  X(Int4, nullptr, 1, Int4)               \
  X(GLUInt, "uint32", 4, UInt32)

namespace mskernel {

/// MindSpore's type ids (the number types; values are mskernel's own, names are MindSpore's).
enum TypeId : int {
  kTypeUnknown = 0,
  kNumberTypeBegin = 29,
#define MSKERNEL_X(S, NP, SZ, C) kNumberType##S,
  MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
  kNumberTypeEnd
};

/// "kNumberTypeFloat32" for kNumberTypeFloat32 (and "kTypeUnknown" for anything else).
inline const char *TypeIdName(TypeId t) {
  switch (t) {
#define MSKERNEL_X(S, NP, SZ, C) \
  case kNumberType##S:           \
    return "kNumberType" #S;
    MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
    default:
      return "kTypeUnknown";
  }
}

/// The numpy dtype name storing `t`, or nullptr when numpy has none (BFloat16, Int4).
inline const char *TypeIdNumpyName(TypeId t) {
  switch (t) {
#define MSKERNEL_X(S, NP, SZ, C) \
  case kNumberType##S:           \
    return NP;
    MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
    default:
      return nullptr;
  }
}

/// Bytes per element (0 for non-number ids).
inline size_t TypeIdSize(TypeId t) {
  switch (t) {
#define MSKERNEL_X(S, NP, SZ, C) \
  case kNumberType##S:           \
    return SZ;
    MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
    default:
      return 0;
  }
}

/// The id a tensor of type `t` reports after creation (Float -> Float32, Double -> Float64, ...).
inline TypeId CanonicalTypeId(TypeId t) {
  switch (t) {
#define MSKERNEL_X(S, NP, SZ, C) \
  case kNumberType##S:           \
    return kNumberType##C;
    MSKERNEL_NUMBER_TYPES(MSKERNEL_X)
#undef MSKERNEL_X
    default:
      return kTypeUnknown;
  }
}

/// True for Float16/32/64, BFloat16 (and the generic Float/Double).
inline bool IsFloatType(TypeId t) {
  t = CanonicalTypeId(t);
  return t == kNumberTypeFloat16 || t == kNumberTypeFloat32 || t == kNumberTypeFloat64 || t == kNumberTypeBFloat16;
}

/// The numpy dtype name for `t`; throws std::invalid_argument when numpy cannot store it.
inline const char *RequireNumpyName(TypeId t) {
  const char *name = TypeIdNumpyName(t);
  if (name == nullptr) {
    throw std::invalid_argument(std::string("mskernel tensors are numpy arrays on the CPU and cannot hold ") +
                                TypeIdName(t) + " data (numpy has no such dtype).");
  }
  return name;
}

/// The type id of a Python buffer (PEP 3118) format such as "f", "<d", "?", "Zf" with `itemsize`
/// bytes per element; kTypeUnknown if mskernel has no such dtype.
inline TypeId TypeIdFromBufferFormat(const char *fmt, size_t itemsize) {
  if (fmt == nullptr) return kNumberTypeUInt8;  // "B" is implied by a missing format
  while (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '!' || *fmt == '>') ++fmt;
  const char c = fmt[0];
  if (c == 'Z') {
    return fmt[1] == 'f' ? kNumberTypeComplex64 : fmt[1] == 'd' ? kNumberTypeComplex128 : kTypeUnknown;
  }
  switch (c) {
    case '?':
      return kNumberTypeBool;
    case 'e':
      return kNumberTypeFloat16;
    case 'f':
      return kNumberTypeFloat32;
    case 'd':
      return kNumberTypeFloat64;
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n':
      return itemsize == 1 ? kNumberTypeInt8
             : itemsize == 2 ? kNumberTypeInt16
             : itemsize == 4 ? kNumberTypeInt32
             : itemsize == 8 ? kNumberTypeInt64
                             : kTypeUnknown;
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N':
      return itemsize == 1 ? kNumberTypeUInt8
             : itemsize == 2 ? kNumberTypeUInt16
             : itemsize == 4 ? kNumberTypeUInt32
             : itemsize == 8 ? kNumberTypeUInt64
                             : kTypeUnknown;
    default:
      return kTypeUnknown;
  }
}

}  // namespace mskernel

#endif  // MSKERNEL_DTYPE_H_
