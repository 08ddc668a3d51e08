#include "ops/cast_kernels.h"

#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/half.h"
#include "ops/dtype_dispatch.h"

namespace onnxrun {
namespace {

template <typename T>
constexpr bool kIsFloatLike = std::is_floating_point_v<T> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <typename T>
double widen(T v) {
  if constexpr (std::is_same_v<T, Float16>) return float16_to_float(v.bits);
  else if constexpr (std::is_same_v<T, BFloat16>) return bfloat16_to_float(v.bits);
  else return static_cast<double>(v);
}

// Truncates toward zero and saturates; NaN gives 0.
template <typename To>
To float_to_int(double d) {
  if (std::isnan(d)) return 0;
  const double t = std::trunc(d);
  using L = std::numeric_limits<To>;
  const double hi = std::ldexp(1.0, L::digits);  // 2^digits, one past the largest value
  const double lo = L::is_signed ? -hi : 0.0;    // the smallest value, exactly
  if (t >= hi) return L::max();
  if (t < lo) return L::min();
  return static_cast<To>(t);
}

template <typename To>
To from_double(double d) {
  if constexpr (std::is_same_v<To, float>) return static_cast<float>(d);
  else if constexpr (std::is_same_v<To, double>) return d;
  else if constexpr (std::is_same_v<To, Float16>) return Float16{double_to_float16(d)};
  else if constexpr (std::is_same_v<To, BFloat16>) return BFloat16{double_to_bfloat16(d)};
  else if constexpr (std::is_same_v<To, BoolByte>) return BoolByte{static_cast<uint8_t>(d != 0)};
  else return float_to_int<To>(d);
}

// An integer as a double that rounds like the integer would: exact below 2^53; above,
// the bits below the 53 kept are folded into the last one (round to odd), so a later
// rounding to any format with at most 51 significant bits is the correct one.
double int_to_double_sticky(bool negative, uint64_t mag) {
  double d;
  if (mag < (uint64_t{1} << 53)) {
    d = static_cast<double>(mag);
  } else {
    const int shift = 64 - std::countl_zero(mag) - 53;
    uint64_t kept = mag >> shift;
    if (mag & ((uint64_t{1} << shift) - 1)) kept |= 1;
    d = std::ldexp(static_cast<double>(kept), shift);
  }
  return negative ? -d : d;
}

template <typename To, typename I>
To from_int(I v) {
  if constexpr (std::is_same_v<To, float> || std::is_same_v<To, double>) {
    return static_cast<To>(v);  // one correct rounding
  } else if constexpr (std::is_same_v<To, Float16> || std::is_same_v<To, BFloat16>) {
    bool neg = false;
    if constexpr (std::is_signed_v<I>) neg = v < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return from_double<To>(int_to_double_sticky(neg, mag));
  } else if constexpr (std::is_same_v<To, BoolByte>) {
    return BoolByte{static_cast<uint8_t>(v != 0)};
  } else {
    return static_cast<To>(v);  // modular (C++20)
  }
}

template <typename To, typename From>
To convert_one(From v) {
  if constexpr (kIsFloatLike<From>) return from_double<To>(widen(v));
  else if constexpr (std::is_same_v<From, BoolByte>) return from_int<To>(static_cast<uint8_t>(v.v != 0));
  else return from_int<To>(v);
}

}  // namespace

void cast_elements(const Tensor& in, Tensor& out) {
  const int64_t n = in.numel();
  visit_dtype(in.dtype(), [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    visit_dtype(out.dtype(), [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      const From* src = in.data<From>();
      To* dst = out.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) dst[i] = convert_one<To>(src[i]);
    });
  });
}

}  // namespace onnxrun
