#include "ops/leaky_relu_kernels.h"

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

// Portable: element by element, each alpha in turn (the vector paths keep a vector in
// registers through every alpha instead).
void leaky_relu_chain_float(const float* x, float* y, size_t n, const float* alphas, size_t k) {
  for (size_t i = 0; i < n; ++i) {
    float v = x[i];
    for (size_t j = 0; j < k; ++j) v = v < 0 ? v * alphas[j] : v;
    y[i] = v;
  }
}

void leaky_relu_chain_double(const double* x, double* y, size_t n, const double* alphas, size_t k) {
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    for (size_t j = 0; j < k; ++j) v = v < 0 ? v * alphas[j] : v;
    y[i] = v;
  }
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

// bfloat16 in float32, also rounded once. Two bfloat16 factors have 8 significant bits
// each, so their product m * 2^e (m < 2^16 an integer) is exact in float32 wherever that
// is normal. Below FLT_MIN float32 keeps only multiples of 2^-149, yet the bfloat16
// result never changes: if e >= -149 the product is such a multiple (exact); if not, it
// is below 2^-134, half of bfloat16's least subnormal, so it rounds to zero, and so does
// its float32 rounding (at most 2^-134, a tie that goes to the even zero). Checked for
// every pair of factors by tests/unit/ops/bfloat16_products_test.cc.
uint16_t leaky_relu_bfloat16_one(uint16_t x, uint16_t alpha_bits) {
  const float v = bfloat16_to_float(x);
  return v < 0 ? float_to_bfloat16(v * bfloat16_to_float(alpha_bits)) : x;
}

void leaky_relu_bfloat16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  for (size_t i = 0; i < n; ++i) y[i] = leaky_relu_bfloat16_one(x[i], alpha_bits);
}

}  // namespace onnxrun
