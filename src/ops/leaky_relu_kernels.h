// LeakyRelu's element loops, one per type: y = x < 0 ? alpha * x : x, with alpha already
// in the tensor's type and one correct rounding of the product (DESIGN.md, numerics).
// Each reads x[0..n) and writes y[0..n); y may equal x (in place), other overlap is not
// allowed. These are the portable loops; faster ones must give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxrun {

void leaky_relu_float(const float* x, float* y, size_t n, float alpha);
void leaky_relu_double(const double* x, double* y, size_t n, double alpha);
// alpha_bits: alpha rounded to float16 / bfloat16.
void leaky_relu_float16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);
void leaky_relu_bfloat16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits);

// A chain of LeakyRelus in one pass, alphas[0] first: each element goes through every
// alpha in registers, with what leaky_relu_float / _double would give alpha by alpha
// (each step the same compare, product and select in the same type).
void leaky_relu_chain_float(const float* x, float* y, size_t n, const float* alphas, size_t k);
void leaky_relu_chain_double(const double* x, double* y, size_t n, const double* alphas, size_t k);

// One bfloat16 element: used by the avx512bf16 path to redo the lanes its conversion
// instruction cannot round (float32 denormal products).
uint16_t leaky_relu_bfloat16_one(uint16_t x, uint16_t alpha_bits);

}  // namespace onnxrun
