#include "suite/ulp.h"

#include <cstring>

#include <fmt/format.h>

#include "suite/ulp_kernels.h"

namespace onnxrun {
namespace {

template <typename T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename U>
uint64_t float_ulps(const void* a, const void* b, int mantissa_bits) {
  return ulp_kernels::float_ulps<U>(load<U>(a), load<U>(b), mantissa_bits);
}

template <typename T>
uint64_t integer_ulps(const void* a, const void* b) {
  return ulp_kernels::integer_ulps<T>(load<T>(a), load<T>(b));
}

}  // namespace

uint64_t ulp_distance(DType dtype, const void* a, const void* b) {
  switch (dtype) {
    case DType::kFloat: return float_ulps<uint32_t>(a, b, 23);
    case DType::kDouble: return float_ulps<uint64_t>(a, b, 52);
    case DType::kFloat16: return float_ulps<uint16_t>(a, b, 10);
    case DType::kBFloat16: return float_ulps<uint16_t>(a, b, 7);
    case DType::kInt8: return integer_ulps<int8_t>(a, b);
    case DType::kUInt8: return integer_ulps<uint8_t>(a, b);
    case DType::kBool: return ulp_kernels::bool_ulps(load<uint8_t>(a), load<uint8_t>(b));
    case DType::kInt16: return integer_ulps<int16_t>(a, b);
    case DType::kUInt16: return integer_ulps<uint16_t>(a, b);
    case DType::kInt32: return integer_ulps<int32_t>(a, b);
    case DType::kUInt32: return integer_ulps<uint32_t>(a, b);
    case DType::kInt64: return integer_ulps<int64_t>(a, b);
    case DType::kUInt64: return integer_ulps<uint64_t>(a, b);
    default: return std::memcmp(a, b, dtype_size(dtype)) == 0 ? 0 : kUlpInfinite;
  }
}

bool has_integer_ulps(DType t) {
  switch (t) {
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kBool:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64: return true;
    default: return false;
  }
}

std::string ulp_text(uint64_t ulps, bool integers) {
  return ulps == kUlpInfinite && !integers ? "inf" : fmt::format("{}", ulps);
}

}  // namespace onnxrun
