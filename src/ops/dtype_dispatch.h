// Element types as C++ storage types, for kernels written once as templates.
// visit_dtype(t, fn) calls fn(DTypeTag<T>{}) for the computable types below and throws
// Error(kUnsupported) for any other. bool is stored as uint8_t and read as "nonzero"
// (a file may hold any byte there; reading it as C++ bool would be undefined).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/dtype.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/half.h"

namespace onnxrun {

struct BoolByte {
  uint8_t v;
};
static_assert(sizeof(BoolByte) == 1);

template <DType D>
struct DTypeStorage;
template <>
struct DTypeStorage<DType::kFloat> {
  using type = float;
};
template <>
struct DTypeStorage<DType::kDouble> {
  using type = double;
};
template <>
struct DTypeStorage<DType::kFloat16> {
  using type = Float16;
};
template <>
struct DTypeStorage<DType::kBFloat16> {
  using type = BFloat16;
};
template <>
struct DTypeStorage<DType::kInt8> {
  using type = int8_t;
};
template <>
struct DTypeStorage<DType::kInt16> {
  using type = int16_t;
};
template <>
struct DTypeStorage<DType::kInt32> {
  using type = int32_t;
};
template <>
struct DTypeStorage<DType::kInt64> {
  using type = int64_t;
};
template <>
struct DTypeStorage<DType::kUInt8> {
  using type = uint8_t;
};
template <>
struct DTypeStorage<DType::kUInt16> {
  using type = uint16_t;
};
template <>
struct DTypeStorage<DType::kUInt32> {
  using type = uint32_t;
};
template <>
struct DTypeStorage<DType::kUInt64> {
  using type = uint64_t;
};
template <>
struct DTypeStorage<DType::kBool> {
  using type = BoolByte;
};

template <DType D>
struct DTypeTag {
  static constexpr DType dtype = D;
  using type = typename DTypeStorage<D>::type;
};

// The element types onnx-run computes with (the storage types above).
inline const std::vector<DType> kFloatTypes = {DType::kFloat, DType::kDouble, DType::kFloat16};
inline const std::vector<DType> kSignedIntTypes = {DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64};
inline const std::vector<DType> kUnsignedIntTypes = {DType::kUInt8, DType::kUInt16, DType::kUInt32, DType::kUInt64};

// Concatenation of type lists, for building type constraints.
inline std::vector<DType> join_types(std::initializer_list<std::vector<DType>> lists) {
  std::vector<DType> out;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  return out;
}

// True for the types ONNX defines but onnx-run has no arithmetic for: float8 variants,
// 4- and 2-bit types, float4, string and complex.
bool dtype_out_of_scope(DType t);

template <typename Fn>
decltype(auto) visit_dtype(DType t, Fn&& fn) {
  switch (t) {
    case DType::kFloat: return fn(DTypeTag<DType::kFloat>{});
    case DType::kDouble: return fn(DTypeTag<DType::kDouble>{});
    case DType::kFloat16: return fn(DTypeTag<DType::kFloat16>{});
    case DType::kBFloat16: return fn(DTypeTag<DType::kBFloat16>{});
    case DType::kInt8: return fn(DTypeTag<DType::kInt8>{});
    case DType::kInt16: return fn(DTypeTag<DType::kInt16>{});
    case DType::kInt32: return fn(DTypeTag<DType::kInt32>{});
    case DType::kInt64: return fn(DTypeTag<DType::kInt64>{});
    case DType::kUInt8: return fn(DTypeTag<DType::kUInt8>{});
    case DType::kUInt16: return fn(DTypeTag<DType::kUInt16>{});
    case DType::kUInt32: return fn(DTypeTag<DType::kUInt32>{});
    case DType::kUInt64: return fn(DTypeTag<DType::kUInt64>{});
    case DType::kBool: return fn(DTypeTag<DType::kBool>{});
    default: break;
  }
  fail(ErrorKind::kUnsupported, "onnx-run does not implement {} tensors", dtype_name(t));
}

}  // namespace onnxrun
