// The 16-bit float types as the AVX2 and AVX-512 chunk kernels of core/tensor_stats_chunk.h
// read them: eight elements at a time widened to floats (the same floats as the portable
// path's widened copy), or one, and their min and max keys (half_order_key) sixteen at a
// time. Compiled for AVX2 and F16C, which the
// AVX-512 kernels' target includes, so they inline into either.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/half.h"
#include "core/tensor_stats_chunk.h"

#define ONNXRUN_AVX2 __attribute__((target("avx2,f16c")))

namespace onnxrun::stats_load8 {

struct F16 {
  using T = uint16_t;
  ONNXRUN_AVX2 static __m256 eight(const T* x) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  }
  ONNXRUN_AVX2 static float one(const T* x) { return _cvtsh_ss(*x); }
  static constexpr float (*to_float)(uint16_t) = float16_to_float;
};

struct BF16 {
  using T = uint16_t;
  ONNXRUN_AVX2 static __m256 eight(const T* x) {
    const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(h, 16));
  }
  ONNXRUN_AVX2 static float one(const T* x) { return bfloat16_to_float(*x); }
  static constexpr float (*to_float)(uint16_t) = bfloat16_to_float;
};

// The running min and max of half_order_key over sixteen lanes of 16-bit floats.
struct Keys16 {
  __m256i lo, hi;

  ONNXRUN_AVX2 explicit Keys16(uint16_t first) : lo(_mm256_set1_epi16(half_order_key(first))), hi(lo) {}

  // Sixteen elements' bits.
  ONNXRUN_AVX2 void add(__m256i bits) {
    const __m256i flip = _mm256_and_si256(_mm256_srai_epi16(bits, 15), _mm256_set1_epi16(0x7FFF));
    const __m256i key = _mm256_xor_si256(bits, flip);
    lo = _mm256_min_epi16(lo, key);
    hi = _mm256_max_epi16(hi, key);
  }

  // The lanes reduced: the least and greatest key.
  ONNXRUN_AVX2 void reduce(int16_t& least, int16_t& greatest) const {
    alignas(32) int16_t l[16], h[16];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), lo);
    _mm256_store_si256(reinterpret_cast<__m256i*>(h), hi);
    least = l[0];
    greatest = h[0];
    for (int i = 1; i < 16; ++i) {
      least = l[i] < least ? l[i] : least;
      greatest = h[i] > greatest ? h[i] : greatest;
    }
  }
};

ONNXRUN_AVX2 inline __m256i load_bits16(const uint16_t* x) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x));
}

}  // namespace onnxrun::stats_load8
