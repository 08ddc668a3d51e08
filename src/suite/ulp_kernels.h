// The ULP arithmetic of suite/ulp.h on values already loaded, for the typed comparison
// (suite/compare_fast.cc) and ulp_distance alike: one definition, so the fast and the
// reference comparison report the same distances by construction.
#pragma once

#include <cstdint>
#include <type_traits>

namespace onnxrun::ulp_kernels {

inline constexpr uint64_t kInfinite = UINT64_MAX;  // suite/ulp.h's kUlpInfinite

// Two floats of an IEEE type whose bits are held in U, with `mantissa_bits` of fraction.
template <typename U>
inline uint64_t float_ulps(U a, U b, int mantissa_bits) {
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  const uint64_t sign = uint64_t{1} << (kBits - 1);
  const uint64_t exponent = (sign - 1) & ~((uint64_t{1} << mantissa_bits) - 1);
  const uint64_t ua = a, ub = b;
  const uint64_t ma = ua & ~sign, mb = ub & ~sign;  // magnitudes
  auto is_nan = [&](uint64_t m) { return (m & exponent) == exponent && (m & ~exponent) != 0; };
  auto is_inf = [&](uint64_t m) { return m == exponent; };
  if (is_nan(ma) || is_nan(mb)) return is_nan(ma) && is_nan(mb) ? 0 : kInfinite;
  if (is_inf(ma) || is_inf(mb)) return ua == ub ? 0 : kInfinite;
  // Sign and magnitude: on one side of zero the distance is the magnitudes' difference;
  // across it, their sum (each below 2^63, so the sum fits).
  if ((ua & sign) == (ub & sign)) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

// Two integers: their difference, exact in the unsigned type of the width; for 64-bit
// ones up to 2^64 - 1, kInfinite's own bits, which a comparison of integers reads as
// that number (Comparison::integers).
template <typename T>
inline uint64_t integer_ulps(T va, T vb) {
  using U = std::make_unsigned_t<T>;
  return va > vb ? static_cast<U>(static_cast<U>(va) - static_cast<U>(vb))
                 : static_cast<U>(static_cast<U>(vb) - static_cast<U>(va));
}

// bool: 0 or 1, whatever nonzero byte stands for true.
inline uint64_t bool_ulps(uint8_t a, uint8_t b) { return (a != 0) != (b != 0); }

}  // namespace onnxrun::ulp_kernels
