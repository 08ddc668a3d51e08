// LeakyRelu with AVX2 and F16C. Compiled for that ISA by the target pragma below and
// called only when the hardware configuration has it (core/hardware.h). Bit-exact with
// leaky_relu_kernels.cc for the reasons given in leaky_relu_avx512.cc: negative lanes
// take the product, other lanes keep x's bits (blend); float16 rounds once with
// vcvtps2ph; bfloat16 rounds with integer arithmetic. Tails (fewer than one vector)
// use the portable loops.
#include <cstdint>

#include <immintrin.h>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "ops/leaky_relu_paths.h"
#include "ops/leaky_relu_simd.h"

#pragma GCC push_options
#pragma GCC target("avx2,f16c,fma")
#if defined(__clang__)  // clang ignores GCC's target pragma (the fuzz build is clang's)
#pragma clang attribute push(__attribute__((target("avx2,f16c,fma"))), apply_to = function)
#endif

namespace onnxrun::leaky_relu_avx2 {
namespace {

using leaky_relu_simd::head_to_align;

// One 256-bit vector type and what the float and double loops need of it: negative
// lanes take the product, the others keep x's bits (blend).
struct F32 {
  using T = float;
  using V = __m256;
  static constexpr size_t kLanes = 8;
  static V set1(T a) { return _mm256_set1_ps(a); }
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static void stream(T* p, V v) { _mm256_stream_ps(p, v); }
  static V block(V v, V a) {
    return _mm256_blendv_ps(v, _mm256_mul_ps(v, a), _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ));
  }
  static void portable(const T* x, T* y, size_t n, T a) { leaky_relu_float(x, y, n, a); }
};

struct F64 {
  using T = double;
  using V = __m256d;
  static constexpr size_t kLanes = 4;
  static V set1(T a) { return _mm256_set1_pd(a); }
  static V load(const T* p) { return _mm256_loadu_pd(p); }
  static void store(T* p, V v) { _mm256_storeu_pd(p, v); }
  static void stream(T* p, V v) { _mm256_stream_pd(p, v); }
  static V block(V v, V a) {
    return _mm256_blendv_pd(v, _mm256_mul_pd(v, a), _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_LT_OQ));
  }
  static void portable(const T* x, T* y, size_t n, T a) { leaky_relu_double(x, y, n, a); }
};

// Two vectors a step; head (to align streamed stores) and tail by the portable loop.
template <typename L, bool kStream>
void float_run(const typename L::T* x, typename L::T* y, size_t n, typename L::T alpha) {
  const typename L::V a = L::set1(alpha);
  size_t i = 0;
  if (kStream) {
    i = head_to_align<32>(y, n);
    L::portable(x, y, i, alpha);
  }
  for (; i + 2 * L::kLanes <= n; i += 2 * L::kLanes) {
    const typename L::V r0 = L::block(L::load(x + i), a);
    const typename L::V r1 = L::block(L::load(x + i + L::kLanes), a);
    if (kStream) {
      L::stream(y + i, r0);
      L::stream(y + i + L::kLanes, r1);
    } else {
      L::store(y + i, r0);
      L::store(y + i + L::kLanes, r1);
    }
  }
  if (kStream) _mm_sfence();
  L::portable(x + i, y + i, n - i, alpha);
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
    i = head_to_align<32>(y, n);
    leaky_relu_float16(x, y, i, alpha_bits);
  }
  for (; i + 16 <= n; i += 16) {
    const __m128i r0 = f16_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)), a);
    const __m128i r1 = f16_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i + 8)), a);
    const __m256i r = _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1);
    if (kStream) _mm256_stream_si256(reinterpret_cast<__m256i*>(y + i), r);
    else _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), r);
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

// Each element through every alpha in turn, as the nodes would run (the same roundings,
// in order).
template <typename T>
void chain_portable(const T* x, T* y, size_t n, const T* alphas, size_t k) {
  for (size_t i = 0; i < n; ++i) {
    T v = x[i];
    for (size_t j = 0; j < k; ++j) v = v < 0 ? v * alphas[j] : v;
    y[i] = v;
  }
}

// Four vectors a step, each through every alpha in registers: one alpha's multiply and
// blend wait on the previous alpha's, so four independent vectors keep the units busy
// where two left the chain latency-bound. Large outputs are streamed, as float_run's.
template <typename L, bool kStream>
void chain_run(const typename L::T* x, typename L::T* y, size_t n, const typename L::T* alphas, size_t k) {
  constexpr size_t kStep = 4 * L::kLanes;
  size_t i = 0;
  if (kStream) {
    i = head_to_align<32>(y, n);
    chain_portable(x, y, i, alphas, k);
  }
  // Four named vectors, not an array: GCC keeps an array indexed in loops on the stack.
  for (; i + kStep <= n; i += kStep) {
    typename L::V v0 = L::load(x + i), v1 = L::load(x + i + L::kLanes);
    typename L::V v2 = L::load(x + i + 2 * L::kLanes), v3 = L::load(x + i + 3 * L::kLanes);
    for (size_t j = 0; j < k; ++j) {
      const typename L::V a = L::set1(alphas[j]);
      v0 = L::block(v0, a);
      v1 = L::block(v1, a);
      v2 = L::block(v2, a);
      v3 = L::block(v3, a);
    }
    if (kStream) {
      L::stream(y + i, v0), L::stream(y + i + L::kLanes, v1);
      L::stream(y + i + 2 * L::kLanes, v2), L::stream(y + i + 3 * L::kLanes, v3);
    } else {
      L::store(y + i, v0), L::store(y + i + L::kLanes, v1);
      L::store(y + i + 2 * L::kLanes, v2), L::store(y + i + 3 * L::kLanes, v3);
    }
  }
  if (kStream) _mm_sfence();
  chain_portable(x + i, y + i, n - i, alphas, k);
}

}  // namespace

using leaky_relu_simd::with_stream_choice;

void chain_f32(const float* x, float* y, size_t n, const float* alphas, size_t k) {
  with_stream_choice(x, y, n, [&](auto stream) { chain_run<F32, decltype(stream)::value>(x, y, n, alphas, k); });
}

void chain_f64(const double* x, double* y, size_t n, const double* alphas, size_t k) {
  with_stream_choice(x, y, n, [&](auto stream) { chain_run<F64, decltype(stream)::value>(x, y, n, alphas, k); });
}

void f32(const float* x, float* y, size_t n, float alpha) {
  with_stream_choice(x, y, n, [&](auto stream) { float_run<F32, decltype(stream)::value>(x, y, n, alpha); });
}

void f64(const double* x, double* y, size_t n, double alpha) {
  with_stream_choice(x, y, n, [&](auto stream) { float_run<F64, decltype(stream)::value>(x, y, n, alpha); });
}

void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  with_stream_choice(x, y, n, [&](auto stream) { f16_run<decltype(stream)::value>(x, y, n, alpha_bits); });
}

void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) { bf16_run(x, y, n, alpha_bits); }

}  // namespace onnxrun::leaky_relu_avx2

#pragma GCC pop_options
#if defined(__clang__)
#pragma clang attribute pop
#endif
