// The AVX2 (+F16C) chunk kernels of core/tensor_stats_chunk.h: the portable loops' sixteen
// lanes held in four vectors of doubles, element i of a chunk in lane i % 16 as there, and
// no fused multiply-add (the target has none), so both give the same bits.
#include <immintrin.h>

#include <cmath>
#include <cstring>

#include "core/tensor_stats_chunk.h"

#define ONNXRUN_AVX2 __attribute__((target("avx2,f16c")))

namespace onnxrun::stats_avx2 {
namespace {

constexpr size_t L = kStatsLanes;
static_assert(L == 16, "four vectors of four doubles");

// Lanes 0-3, 4-7, 8-11, 12-15 of 16 consecutive elements, as doubles.
struct Quad {
  __m256d v0, v1, v2, v3;
};

ONNXRUN_AVX2 inline Quad widen(const float* x) {
  const __m256 a = _mm256_loadu_ps(x), b = _mm256_loadu_ps(x + 8);
  return {_mm256_cvtps_pd(_mm256_castps256_ps128(a)), _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)),
          _mm256_cvtps_pd(_mm256_castps256_ps128(b)), _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1))};
}

ONNXRUN_AVX2 inline Quad widen(const double* x) {
  return {_mm256_loadu_pd(x), _mm256_loadu_pd(x + 4), _mm256_loadu_pd(x + 8), _mm256_loadu_pd(x + 12)};
}

// Pass 2: the sum of squared deviations from `mean`, lane by lane as the portable loop.
// (Four named accumulators, not an array: GCC at -O2 keeps an array on the stack.)
template <class T>
ONNXRUN_AVX2 double squares(const T* x, size_t n, double mean) {
  const __m256d m = _mm256_set1_pd(mean);
  __m256d q0 = _mm256_setzero_pd(), q1 = q0, q2 = q0, q3 = q0;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const Quad w = widen(x + i);
    const __m256d d0 = _mm256_sub_pd(w.v0, m), d1 = _mm256_sub_pd(w.v1, m);
    const __m256d d2 = _mm256_sub_pd(w.v2, m), d3 = _mm256_sub_pd(w.v3, m);
    q0 = _mm256_add_pd(q0, _mm256_mul_pd(d0, d0));
    q1 = _mm256_add_pd(q1, _mm256_mul_pd(d1, d1));
    q2 = _mm256_add_pd(q2, _mm256_mul_pd(d2, d2));
    q3 = _mm256_add_pd(q3, _mm256_mul_pd(d3, d3));
  }
  alignas(32) double lanes[L];
  _mm256_store_pd(lanes, q0);
  _mm256_store_pd(lanes + 4, q1);
  _mm256_store_pd(lanes + 8, q2);
  _mm256_store_pd(lanes + 12, q3);
  return finish_pass_two(x, n, i, mean, lanes);
}

// Pass 1 done for whole groups of 16: the tail into the same lanes, the lanes reduced in
// order, then pass 2 (or the plain loop when a value was not finite).
template <class T>
ONNXRUN_AVX2 StatsPart finish(const T* x, size_t n, size_t i, const Quad& sums, T* mn, T* mx) {
  alignas(32) double s[L];
  _mm256_store_pd(s, sums.v0);
  _mm256_store_pd(s + 4, sums.v1);
  _mm256_store_pd(s + 8, sums.v2);
  _mm256_store_pd(s + 12, sums.v3);
  const PassOne<T> one = finish_pass_one(x, n, i, s, mn, mx);
  if (!std::isfinite(one.sum)) return plain_stats(x, n);
  return finite_part(n, one.sum, one.lo, one.hi, squares(x, n, one.sum / static_cast<double>(n)));
}

}  // namespace

bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }

ONNXRUN_AVX2 StatsPart f32(const float* x, size_t n) {
  __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
  __m256 mn0 = _mm256_set1_ps(x[0]), mn1 = mn0, mx0 = mn0, mx1 = mn0;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const Quad w = widen(x + i);
    s0 = _mm256_add_pd(s0, w.v0);
    s1 = _mm256_add_pd(s1, w.v1);
    s2 = _mm256_add_pd(s2, w.v2);
    s3 = _mm256_add_pd(s3, w.v3);
    const __m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(x + i + 8);
    mn0 = _mm256_min_ps(a, mn0);  // a < mn ? a : mn, as the portable loop
    mn1 = _mm256_min_ps(b, mn1);
    mx0 = _mm256_max_ps(a, mx0);
    mx1 = _mm256_max_ps(b, mx1);
  }
  alignas(32) float lo[L], hi[L];
  _mm256_store_ps(lo, mn0);
  _mm256_store_ps(lo + 8, mn1);
  _mm256_store_ps(hi, mx0);
  _mm256_store_ps(hi + 8, mx1);
  return finish<float>(x, n, i, Quad{s0, s1, s2, s3}, lo, hi);
}

ONNXRUN_AVX2 StatsPart f64(const double* x, size_t n) {
  __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
  __m256d mn0 = _mm256_set1_pd(x[0]), mn1 = mn0, mn2 = mn0, mn3 = mn0;
  __m256d mx0 = mn0, mx1 = mn0, mx2 = mn0, mx3 = mn0;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const Quad w = widen(x + i);
    s0 = _mm256_add_pd(s0, w.v0);
    s1 = _mm256_add_pd(s1, w.v1);
    s2 = _mm256_add_pd(s2, w.v2);
    s3 = _mm256_add_pd(s3, w.v3);
    mn0 = _mm256_min_pd(w.v0, mn0);
    mn1 = _mm256_min_pd(w.v1, mn1);
    mn2 = _mm256_min_pd(w.v2, mn2);
    mn3 = _mm256_min_pd(w.v3, mn3);
    mx0 = _mm256_max_pd(w.v0, mx0);
    mx1 = _mm256_max_pd(w.v1, mx1);
    mx2 = _mm256_max_pd(w.v2, mx2);
    mx3 = _mm256_max_pd(w.v3, mx3);
  }
  alignas(32) double lo[L], hi[L];
  _mm256_store_pd(lo, mn0);
  _mm256_store_pd(lo + 4, mn1);
  _mm256_store_pd(lo + 8, mn2);
  _mm256_store_pd(lo + 12, mn3);
  _mm256_store_pd(hi, mx0);
  _mm256_store_pd(hi + 4, mx1);
  _mm256_store_pd(hi + 8, mx2);
  _mm256_store_pd(hi + 12, mx3);
  return finish<double>(x, n, i, Quad{s0, s1, s2, s3}, lo, hi);
}

ONNXRUN_AVX2 StatsPart f16(const uint16_t* x, size_t n) {
  alignas(32) float w[kStatsChunk];
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_store_ps(w + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
  for (; i < n; ++i) w[i] = _cvtsh_ss(x[i]);
  return f32(w, n);
}

ONNXRUN_AVX2 StatsPart bf16(const uint16_t* x, size_t n) {
  alignas(32) float w[kStatsChunk];
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    _mm256_store_ps(w + i, _mm256_castsi256_ps(_mm256_slli_epi32(h, 16)));
  }
  for (; i < n; ++i) {
    const uint32_t b = static_cast<uint32_t>(x[i]) << 16;
    std::memcpy(w + i, &b, sizeof b);
  }
  return f32(w, n);
}

}  // namespace onnxrun::stats_avx2
