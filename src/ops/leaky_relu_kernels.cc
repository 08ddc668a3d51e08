#include "ops/leaky_relu_kernels.h"

#include <cfloat>
#include <cmath>

#include "core/half.h"

namespace onnxrun {

// Where(X < 0, alpha * X, X): NaN and -0.0 fail `x < 0` and pass through unchanged, bit
// for bit; -inf * 0 gives NaN as the multiply defines.

void leaky_relu_float(const float* x, float* y, size_t n, float alpha) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] < 0 ? x[i] * alpha : x[i];
}

void leaky_relu_double(const double* x, double* y, size_t n, double alpha) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] < 0 ? x[i] * alpha : x[i];
}

// float16 in float32: both factors have 11 significant bits and exponents >= -24, so
// their product (22 bits, exponent >= -48) is exact in float32 and the one rounding
// back to float16 is the only rounding.
void leaky_relu_float16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const float a = float16_to_float(alpha_bits);
  for (size_t i = 0; i < n; ++i) {
    const float v = float16_to_float(x[i]);
    y[i] = v < 0 ? float_to_float16(v * a) : x[i];
  }
}

// bfloat16 has float32's exponent range, so a product of two bfloat16 values can fall
// below float32's normal range, where float32 has fewer than the 16 bits needed and
// would round once before the rounding to bfloat16 (double rounding). Such products
// (|p| <= FLT_MIN after the float32 multiply) are redone in double, where every product
// of two bfloat16 values is exact.
uint16_t leaky_relu_bfloat16_one(uint16_t x, uint16_t alpha_bits) {
  const float v = bfloat16_to_float(x);
  if (!(v < 0)) return x;
  const float a = bfloat16_to_float(alpha_bits);
  const float p = v * a;
  if (std::fabs(p) > FLT_MIN) return float_to_bfloat16(p);
  return double_to_bfloat16(static_cast<double>(v) * static_cast<double>(a));
}

void leaky_relu_bfloat16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  for (size_t i = 0; i < n; ++i) y[i] = leaky_relu_bfloat16_one(x[i], alpha_bits);
}

}  // namespace onnxrun
