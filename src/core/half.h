// float16 (IEEE binary16) and bfloat16 as 16-bit storage types, with conversions that
// are exact where the value fits and round to nearest, ties to even, where it does not.
// NaN stays NaN (quieted, sign and top payload bits kept), infinities keep their sign,
// and a finite value beyond the largest finite 16-bit value becomes infinity, as IEEE
// conversion and ONNX's Cast do.
#pragma once

#include <cstdint>
#include <cstring>

namespace onnxrun {

struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
static_assert(sizeof(Float16) == 2 && sizeof(BFloat16) == 2);

// Exact widening.
float float16_to_float(uint16_t bits);
inline float bfloat16_to_float(uint16_t bits) {
  uint32_t w = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &w, sizeof f);
  return f;
}

// One correct rounding from double. A float argument widens to double exactly, so these
// also round floats correctly (no double rounding through an intermediate type).
uint16_t double_to_float16(double v);
uint16_t double_to_bfloat16(double v);
inline uint16_t float_to_float16(float v) { return double_to_float16(v); }
inline uint16_t float_to_bfloat16(float v) { return double_to_bfloat16(v); }

}  // namespace onnxrun
