// The AVX2 (+F16C) chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight
// lanes held in two vectors of doubles per sum, element i of a chunk in lane i % 8 as
// there, and no fused multiply-add (the target has none), so both give the same bits.
#include <immintrin.h>

#include <cmath>
#include <cstring>

#include "core/tensor_stats_chunk.h"

#define ONNXRUN_AVX2 __attribute__((target("avx2,f16c")))

namespace onnxrun::stats_avx2 {
namespace {

constexpr size_t L = kStatsLanes;
static_assert(L == 8, "two vectors of four doubles");

// Lanes 0-3 and 4-7 of 8 consecutive elements, as doubles.
struct Pair {
  __m256d lo, hi;
};

ONNXRUN_AVX2 inline Pair widen(__m256 a) {
  return {_mm256_cvtps_pd(_mm256_castps256_ps128(a)), _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1))};
}

ONNXRUN_AVX2 inline Pair widen(const double* x) { return {_mm256_loadu_pd(x), _mm256_loadu_pd(x + 4)}; }

// The lanes' sums after the loop, for finish_lanes.
struct Sums {
  __m256d s0, s1, q0, q1;
};

ONNXRUN_AVX2 inline void accumulate(Sums& a, const Pair& w, __m256d k) {
  const __m256d d0 = _mm256_sub_pd(w.lo, k), d1 = _mm256_sub_pd(w.hi, k);
  a.s0 = _mm256_add_pd(a.s0, d0);
  a.s1 = _mm256_add_pd(a.s1, d1);
  a.q0 = _mm256_add_pd(a.q0, _mm256_mul_pd(d0, d0));
  a.q1 = _mm256_add_pd(a.q1, _mm256_mul_pd(d1, d1));
}

template <class T>
ONNXRUN_AVX2 StatsPart finish(const T* x, size_t n, size_t i, double k, const Sums& a, T* lo, T* hi) {
  alignas(32) double s[L], q[L];
  _mm256_store_pd(s, a.s0);
  _mm256_store_pd(s + 4, a.s1);
  _mm256_store_pd(q, a.q0);
  _mm256_store_pd(q + 4, a.q1);
  return finish_lanes(x, n, i, k, s, q, lo, hi);
}

}  // namespace

bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }

ONNXRUN_AVX2 StatsPart f32(const float* x, size_t n) {
  const double k = static_cast<double>(x[0]);
  const __m256d kv = _mm256_set1_pd(k);
  Sums a{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  __m256 mn = _mm256_set1_ps(x[0]), mx = mn;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const __m256 v = _mm256_loadu_ps(x + i);
    accumulate(a, widen(v), kv);
    mn = _mm256_min_ps(v, mn);  // v < mn ? v : mn, as the portable loop
    mx = _mm256_max_ps(v, mx);
  }
  alignas(32) float lo[L], hi[L];
  _mm256_store_ps(lo, mn);
  _mm256_store_ps(hi, mx);
  return finish<float>(x, n, i, k, a, lo, hi);
}

ONNXRUN_AVX2 StatsPart f64(const double* x, size_t n) {
  const double k = x[0];
  const __m256d kv = _mm256_set1_pd(k);
  Sums a{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  __m256d mn0 = _mm256_set1_pd(x[0]), mn1 = mn0, mx0 = mn0, mx1 = mn0;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const Pair w = widen(x + i);
    accumulate(a, w, kv);
    mn0 = _mm256_min_pd(w.lo, mn0);
    mn1 = _mm256_min_pd(w.hi, mn1);
    mx0 = _mm256_max_pd(w.lo, mx0);
    mx1 = _mm256_max_pd(w.hi, mx1);
  }
  alignas(32) double lo[L], hi[L];
  _mm256_store_pd(lo, mn0);
  _mm256_store_pd(lo + 4, mn1);
  _mm256_store_pd(hi, mx0);
  _mm256_store_pd(hi + 4, mx1);
  return finish<double>(x, n, i, k, a, lo, hi);
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
