// The float types the AVX2 and AVX-512 chunk kernels of core/tensor_stats_chunk.h read as
// floats: eight elements at a time into a vector, or one. 16-bit types are widened as they
// are loaded, to the same floats as the portable path's widened copy. Compiled for AVX2
// and F16C, which the AVX-512 kernels' target includes, so they inline into either.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/half.h"

#define ONNXRUN_AVX2 __attribute__((target("avx2,f16c")))

namespace onnxrun::stats_load8 {

struct F32 {
  using T = float;
  ONNXRUN_AVX2 static __m256 eight(const T* x) { return _mm256_loadu_ps(x); }
  ONNXRUN_AVX2 static float one(const T* x) { return *x; }
};

struct F16 {
  using T = uint16_t;
  ONNXRUN_AVX2 static __m256 eight(const T* x) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  }
  ONNXRUN_AVX2 static float one(const T* x) { return _cvtsh_ss(*x); }
};

struct BF16 {
  using T = uint16_t;
  ONNXRUN_AVX2 static __m256 eight(const T* x) {
    const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(h, 16));
  }
  ONNXRUN_AVX2 static float one(const T* x) { return bfloat16_to_float(*x); }
};

}  // namespace onnxrun::stats_load8
