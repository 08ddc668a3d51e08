// The loops behind elementwise_paths.h, written once and compiled twice: for the
// baseline (elementwise_scalar.cc) and for AVX2 (elementwise_avx2.cc). Plain loops the
// compiler vectorizes: both select operands are loaded whatever the condition, so that
// the select becomes a blend. In an unnamed namespace, so that each file's copies stay its
// own (one shared instantiation would let the linker keep either file's code for both).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/half.h"
#include "ops/elementwise_paths.h"

namespace onnxrun::elementwise_loops {
namespace {

template <typename T>
void less(const T* a, const T* b, uint8_t* out, size_t n, Repeat r) {
  if (r == Repeat::kB) {
    const T s = b[0];
    for (size_t i = 0; i < n; ++i) out[i] = a[i] < s;
  } else if (r == Repeat::kA) {
    const T s = a[0];
    for (size_t i = 0; i < n; ++i) out[i] = s < b[i];
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = a[i] < b[i];
  }
}

template <typename T>
void mul(const T* a, const T* b, T* out, size_t n, Repeat r) {
  if (r == Repeat::kB) {
    const T s = b[0];
    for (size_t i = 0; i < n; ++i) out[i] = a[i] * s;
  } else if (r == Repeat::kA) {
    const T s = a[0];
    for (size_t i = 0; i < n; ++i) out[i] = s * b[i];
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
  }
}

template <typename T>
void where(const uint8_t* c, const T* x, const T* y, T* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const T xv = x[i], yv = y[i];
    out[i] = c[i] ? xv : yv;
  }
}

// The 16-bit float types, element by element: what the general loops of less.cc and
// mul.cc compute, and the tails of the vector loops.
struct F16 {
  static float widen(uint16_t h) { return float16_to_float(h); }
  static uint16_t narrow(float f) { return float_to_float16(f); }
};
struct BF16 {
  static float widen(uint16_t h) { return bfloat16_to_float(h); }
  static uint16_t narrow(float f) { return float_to_bfloat16(f); }
};

template <typename H>
void less_half(const uint16_t* a, const uint16_t* b, uint8_t* out, size_t n, Repeat r) {
  for (size_t i = 0; i < n; ++i)
    out[i] = H::widen(r == Repeat::kA ? a[0] : a[i]) < H::widen(r == Repeat::kB ? b[0] : b[i]);
}

template <typename H>
void mul_half(const uint16_t* a, const uint16_t* b, uint16_t* out, size_t n, Repeat r) {
  for (size_t i = 0; i < n; ++i)
    out[i] = H::narrow(H::widen(r == Repeat::kA ? a[0] : a[i]) * H::widen(r == Repeat::kB ? b[0] : b[i]));
}

template <typename From, typename To>
void cast(const From* in, To* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<To>(in[i]);  // one rounding to nearest, or exact
}

}  // namespace
}  // namespace onnxrun::elementwise_loops

// A path's table: addresses only, so a constant initializer that runs no code (the AVX2
// file's must run none at start-up). The 16-bit loops are given by the including file.
#define ONNXRUN_ELEMENTWISE_PATH(name, less_f16, less_bf16, mul_f16, mul_bf16)                                  \
  ElementwisePath {                                                                                             \
    name, elementwise_loops::less<float>, elementwise_loops::less<double>, elementwise_loops::mul<float>,       \
        elementwise_loops::mul<double>, elementwise_loops::where<uint16_t>, elementwise_loops::where<uint32_t>, \
        elementwise_loops::where<uint64_t>, less_f16, less_bf16, mul_f16, mul_bf16,                             \
        elementwise_loops::cast<float, double>, elementwise_loops::cast<double, float>                          \
  }
