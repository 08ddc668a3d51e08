// Edge values of a floating-point type T (float or double) for kernel tests: both
// zeros, infinities, NaNs (quiet, signaling, with a payload, negative), the normal and
// subnormal limits and values just around them, values whose product with alpha lands
// on a rounding tie or underflows, then random values of every magnitude and random bit
// patterns (every exponent, NaN payloads too). Always the same list (fixed seeds).
// It is the union of the three lists the LeakyRelu tests used to keep apart.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace onnxrun::test {

template <typename T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      -T(0),
                      L::infinity(),
                      -L::infinity(),
                      L::quiet_NaN(),
                      -L::quiet_NaN(),
                      L::signaling_NaN(),
                      L::denorm_min(),
                      -L::denorm_min(),
                      -3 * L::denorm_min(),
                      L::min(),
                      -L::min(),
                      L::min() / 2,
                      -L::min() / 2,
                      -L::min() * 3,
                      L::min() * T(0.75),
                      L::max(),
                      -L::max(),
                      L::lowest(),
                      T(1),
                      T(-1),
                      T(-0.5),
                      T(-0.1),
                      T(1e-3),
                      T(-1e-3),
                      T(1e-30),
                      T(-1e-30),
                      T(-12345.678),
                      L::epsilon(),
                      -L::epsilon()};
  // A NaN with a payload and a negative one.
  uint64_t bits = 0;
  const T quiet = L::quiet_NaN();
  std::memcpy(&bits, &quiet, sizeof(T));
  bits |= 0x5;
  T nan_payload;
  std::memcpy(&nan_payload, &bits, sizeof(T));
  v.push_back(nan_payload);
  v.push_back(-nan_payload);
  // Values whose product with alpha lands on a rounding tie or underflows.
  for (int k = -20; k <= 20; ++k) v.push_back(-std::ldexp(T(1) + L::epsilon(), L::min_exponent - k));
  // Random values, then random values of every magnitude.
  {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> uni(-4.0, 4.0);
    std::uniform_int_distribution<int> ex(L::min_exponent - L::digits - 2, L::max_exponent);
    for (int i = 0; i < 300; ++i) v.push_back(static_cast<T>(uni(rng)));
    for (int i = 0; i < 300; ++i) v.push_back(static_cast<T>(std::ldexp(uni(rng), ex(rng))));
  }
  // Normally distributed values, then random bit patterns.
  {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(0, 10);
    for (int k = 0; k < 4000; ++k) v.push_back(static_cast<T>(normal(rng)));
    for (int k = 0; k < 4000; ++k) {
      uint64_t r = rng();
      T x;
      std::memcpy(&x, &r, sizeof x);
      v.push_back(x);
    }
  }
  return v;
}

}  // namespace onnxrun::test
