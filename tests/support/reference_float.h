// A plainly written reference for the 16-bit float formats, independent of
// src/core/half.cc: values are decoded with ldexp from the definition, and rounding
// searches a sorted table of every representable value for the nearest one (ties to
// the even bit pattern). Slow and obvious on purpose.
#pragma once

#include <cstdint>
#include <vector>

namespace onnxrun::test {

struct SmallFloatFormat {
  int exp_bits;
  int man_bits;
};
inline constexpr SmallFloatFormat kF16{5, 10};
inline constexpr SmallFloatFormat kBF16{8, 7};

// The value a bit pattern denotes (NaN for NaN patterns).
double ref_decode(SmallFloatFormat f, uint16_t bits);
bool ref_is_nan(SmallFloatFormat f, uint16_t bits);

// Rounds v to the nearest value of format f, ties to even; beyond the largest finite
// value by half an ulp or more gives infinity; NaN gives some NaN.
uint16_t ref_round(SmallFloatFormat f, double v);

}  // namespace onnxrun::test
