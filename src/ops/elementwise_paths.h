// The contiguous loops of Less, Mul, Where and Cast, for operands laid out like the
// output (same shape up to leading 1s) or one of them a single element: vectorized,
// chosen at run time for the CPU at hand, as LeakyRelu's are (leaky_relu_paths.h). The
// general broadcast walk (elementwise.h) stays for every other layout and type.
//
//   scalar  baseline x86-64 (SSE2 where the compiler vectorizes)
//   avx2    the same loops compiled for AVX2, and float16 / bfloat16 with F16C and
//           AVX2 intrinsics (elementwise_avx2.cc)
//
// Every path computes the bits the portable loops of elementwise.h do: a compare, one
// IEEE product or conversion per element, a select of bits; no fast-math. The path
// follows the hardware configuration (core/hardware.h, ONNXRUN_ISA included): scalar at
// the scalar level, else avx2, which every wider level has. Thread safe (no state).
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxrun {

// Which operand of a binary loop is a single element, repeated.
enum class Repeat { kNone, kA, kB };

struct ElementwisePath {
  const char* name;
  void (*less_f32)(const float* a, const float* b, uint8_t* out, size_t n, Repeat r);
  void (*less_f64)(const double* a, const double* b, uint8_t* out, size_t n, Repeat r);
  void (*mul_f32)(const float* a, const float* b, float* out, size_t n, Repeat r);
  void (*mul_f64)(const double* a, const double* b, double* out, size_t n, Repeat r);
  // out[i] = c[i] ? x[i] : y[i], every operand of n elements; out may equal x or y.
  void (*where_16)(const uint8_t* c, const uint16_t* x, const uint16_t* y, uint16_t* out, size_t n);
  void (*where_32)(const uint8_t* c, const uint32_t* x, const uint32_t* y, uint32_t* out, size_t n);
  void (*where_64)(const uint8_t* c, const uint64_t* x, const uint64_t* y, uint64_t* out, size_t n);
  // float16 and bfloat16 as their bits, compared and multiplied as the float32 values they
  // denote; a product rounds once to the type (exact in float32 first: mul.cc says why).
  void (*less_f16)(const uint16_t* a, const uint16_t* b, uint8_t* out, size_t n, Repeat r);
  void (*less_bf16)(const uint16_t* a, const uint16_t* b, uint8_t* out, size_t n, Repeat r);
  void (*mul_f16)(const uint16_t* a, const uint16_t* b, uint16_t* out, size_t n, Repeat r);
  void (*mul_bf16)(const uint16_t* a, const uint16_t* b, uint16_t* out, size_t n, Repeat r);
  void (*cast_f32_f64)(const float* in, double* out, size_t n);
  void (*cast_f64_f32)(const double* in, float* out, size_t n);
};

// The path in use (hardware_config()'s; throws as it does).
const ElementwisePath& elementwise_active_path();
// Both paths, scalar first, and whether this CPU runs the second (for tests).
const ElementwisePath& elementwise_scalar_path();
const ElementwisePath* elementwise_avx2_path();  // null when the CPU has no AVX2

}  // namespace onnxrun
