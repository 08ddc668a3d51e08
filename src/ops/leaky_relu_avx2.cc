// LeakyRelu with AVX2 and F16C. Compiled for that ISA by the target pragma below and
// called only when cpuid reports it (leaky_relu_paths.cc). Bit-exact with
// leaky_relu_kernels.cc for the reasons given in leaky_relu_avx512.cc: negative lanes
// take the product, other lanes keep x's bits (blend); float16 rounds once with
// vcvtps2ph; bfloat16 rounds with integer arithmetic. Tails (fewer than one vector)
// use the portable loops.
#include <cstdint>

#include <immintrin.h>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "ops/leaky_relu_paths.h"

#pragma GCC push_options
#pragma GCC target("avx2,f16c,fma")

namespace onnxrun::leaky_relu_avx2 {
namespace {

template <typename T>
size_t head_to_align(const T* y, size_t n) {
  const uintptr_t mis = reinterpret_cast<uintptr_t>(y) & 31;
  if (mis == 0) return 0;
  const size_t k = (32 - mis) / sizeof(T);
  return k < n ? k : n;
}

template <typename T>
bool should_stream(const T* x, const T* y, size_t n) {
  return static_cast<const void*>(x) != static_cast<const void*>(y) && n * sizeof(T) >= kLeakyReluStreamBytes &&
         reinterpret_cast<uintptr_t>(y) % sizeof(T) == 0;
}

inline __m256 f32_block(__m256 v, __m256 a) {
  const __m256 neg = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
  return _mm256_blendv_ps(v, _mm256_mul_ps(v, a), neg);
}

template <bool kStream>
void f32_run(const float* x, float* y, size_t n, float alpha) {
  const __m256 a = _mm256_set1_ps(alpha);
  size_t i = 0;
  if (kStream) {
    i = head_to_align(y, n);
    leaky_relu_float(x, y, i, alpha);
  }
  for (; i + 16 <= n; i += 16) {
    const __m256 r0 = f32_block(_mm256_loadu_ps(x + i), a);
    const __m256 r1 = f32_block(_mm256_loadu_ps(x + i + 8), a);
    if (kStream) {
      _mm256_stream_ps(y + i, r0);
      _mm256_stream_ps(y + i + 8, r1);
    } else {
      _mm256_storeu_ps(y + i, r0);
      _mm256_storeu_ps(y + i + 8, r1);
    }
  }
  if (kStream) _mm_sfence();
  leaky_relu_float(x + i, y + i, n - i, alpha);
}

inline __m256d f64_block(__m256d v, __m256d a) {
  const __m256d neg = _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_LT_OQ);
  return _mm256_blendv_pd(v, _mm256_mul_pd(v, a), neg);
}

template <bool kStream>
void f64_run(const double* x, double* y, size_t n, double alpha) {
  const __m256d a = _mm256_set1_pd(alpha);
  size_t i = 0;
  if (kStream) {
    i = head_to_align(y, n);
    leaky_relu_double(x, y, i, alpha);
  }
  for (; i + 8 <= n; i += 8) {
    const __m256d r0 = f64_block(_mm256_loadu_pd(x + i), a);
    const __m256d r1 = f64_block(_mm256_loadu_pd(x + i + 4), a);
    if (kStream) {
      _mm256_stream_pd(y + i, r0);
      _mm256_stream_pd(y + i + 4, r1);
    } else {
      _mm256_storeu_pd(y + i, r0);
      _mm256_storeu_pd(y + i + 4, r1);
    }
  }
  if (kStream) _mm_sfence();
  leaky_relu_double(x + i, y + i, n - i, alpha);
}

// 8 float32 lane masks (all ones / zero) narrowed to 8 16-bit lane masks.
inline __m128i narrow_mask(__m256 m) {
  const __m256i mi = _mm256_castps_si256(m);
  return _mm_packs_epi32(_mm256_castsi256_si128(mi), _mm256_extracti128_si256(mi, 1));
}

// 8 float16 lanes.
inline __m128i f16_block(__m128i xh, __m256 a) {
  const __m256 v = _mm256_cvtph_ps(xh);
  const __m256 neg = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
  const __m128i ph = _mm256_cvtps_ph(_mm256_mul_ps(v, a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm_blendv_epi8(xh, ph, narrow_mask(neg));
}

template <bool kStream>
void f16_run(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m256 a = _mm256_set1_ps(float16_to_float(alpha_bits));
  size_t i = 0;
  if (kStream) {
    i = head_to_align(y, n);
    leaky_relu_float16(x, y, i, alpha_bits);
  }
  for (; i + 16 <= n; i += 16) {
    const __m128i r0 = f16_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)), a);
    const __m128i r1 = f16_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i + 8)), a);
    const __m256i r = _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1);
    if (kStream)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i), r);
    else
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), r);
  }
  if (kStream) _mm_sfence();
  leaky_relu_float16(x + i, y + i, n - i, alpha_bits);
}

// 8 bfloat16 lanes: the product in float32, rounded once (exact, leaky_relu_kernels.cc).
inline __m128i bf16_block(__m128i xh, __m256 a) {
  const __m256 v = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(xh), 16));
  const __m256 neg = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
  const __m256 p = _mm256_and_ps(_mm256_mul_ps(v, a), neg);  // 0 in the other lanes
  // Nearest, ties to even, carrying into the exponent; NaN quieted with its payload.
  const __m256i u = _mm256_castps_si256(p);
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
  const __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
  const __m256i r = _mm256_blendv_epi8(rounded, quiet, _mm256_castps_si256(_mm256_cmp_ps(p, p, _CMP_UNORD_Q)));
  const __m128i ph = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
  return _mm_blendv_epi8(xh, ph, narrow_mask(neg));
}

void bf16_run(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m256 a = _mm256_set1_ps(bfloat16_to_float(alpha_bits));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i r = bf16_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), r);
  }
  leaky_relu_bfloat16(x + i, y + i, n - i, alpha_bits);
}

}  // namespace

void f32(const float* x, float* y, size_t n, float alpha) {
  if (should_stream(x, y, n))
    f32_run<true>(x, y, n, alpha);
  else
    f32_run<false>(x, y, n, alpha);
}

void f64(const double* x, double* y, size_t n, double alpha) {
  if (should_stream(x, y, n))
    f64_run<true>(x, y, n, alpha);
  else
    f64_run<false>(x, y, n, alpha);
}

void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  if (should_stream(x, y, n))
    f16_run<true>(x, y, n, alpha_bits);
  else
    f16_run<false>(x, y, n, alpha_bits);
}

void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) { bf16_run(x, y, n, alpha_bits); }

}  // namespace onnxrun::leaky_relu_avx2

#pragma GCC pop_options

namespace onnxrun::leaky_relu_avx2 {

// __builtin_cpu_supports checks XCR0 too, so the OS saves the AVX state.
bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }

}  // namespace onnxrun::leaky_relu_avx2
