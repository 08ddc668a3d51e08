#include "suite/ulp.h"

#include <cstring>
#include <type_traits>

#include <fmt/format.h>

namespace onnxrun {
namespace {

template <typename T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// IEEE layout of a float type held in U: the sign bit and the exponent mask.
template <typename U>
uint64_t float_ulps(const void* a, const void* b, int mantissa_bits) {
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  const uint64_t sign = uint64_t{1} << (kBits - 1);
  const uint64_t exponent = (sign - 1) & ~((uint64_t{1} << mantissa_bits) - 1);
  const uint64_t ua = load<U>(a), ub = load<U>(b);
  const uint64_t ma = ua & ~sign, mb = ub & ~sign;  // magnitudes
  auto is_nan = [&](uint64_t m) { return (m & exponent) == exponent && (m & ~exponent) != 0; };
  auto is_inf = [&](uint64_t m) { return m == exponent; };
  if (is_nan(ma) || is_nan(mb)) return is_nan(ma) && is_nan(mb) ? 0 : kUlpInfinite;
  if (is_inf(ma) || is_inf(mb)) return ua == ub ? 0 : kUlpInfinite;
  // Sign and magnitude: on one side of zero the distance is the magnitudes' difference;
  // across it, their sum (each below 2^63, so the sum fits).
  if ((ua & sign) == (ub & sign)) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

template <typename T>
uint64_t integer_ulps(const void* a, const void* b) {
  const T va = load<T>(a), vb = load<T>(b);
  // The difference in the unsigned type of the width: exact for any two values.
  using U = std::make_unsigned_t<T>;
  const uint64_t d = va > vb ? static_cast<U>(static_cast<U>(va) - static_cast<U>(vb))
                             : static_cast<U>(static_cast<U>(vb) - static_cast<U>(va));
  return d == kUlpInfinite ? kUlpInfinite - 1 : d;
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
    case DType::kBool: return (load<uint8_t>(a) != 0) != (load<uint8_t>(b) != 0);
    case DType::kInt16: return integer_ulps<int16_t>(a, b);
    case DType::kUInt16: return integer_ulps<uint16_t>(a, b);
    case DType::kInt32: return integer_ulps<int32_t>(a, b);
    case DType::kUInt32: return integer_ulps<uint32_t>(a, b);
    case DType::kInt64: return integer_ulps<int64_t>(a, b);
    case DType::kUInt64: return integer_ulps<uint64_t>(a, b);
    default: return std::memcmp(a, b, dtype_size(dtype)) == 0 ? 0 : kUlpInfinite;
  }
}

std::string ulp_text(uint64_t ulps) { return ulps == kUlpInfinite ? "inf" : fmt::format("{}", ulps); }

}  // namespace onnxrun
