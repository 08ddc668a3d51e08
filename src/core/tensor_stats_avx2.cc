// The AVX2 (+F16C) chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight
// lanes held in two vectors of doubles per sum, element i of a chunk in lane i % 8 as
// there, and no fused multiply-add (the target has none), so both give the same bits.
#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <optional>

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

// finish_lanes over the lanes in vectors: nullopt when a sum is not finite.
template <class T>
ONNXRUN_AVX2 std::optional<StatsPart> finish(const T* tail, size_t tail_n, size_t n, double k, const Sums& a, T* lo,
                                             T* hi) {
  alignas(32) double s[L], q[L];
  _mm256_store_pd(s, a.s0);
  _mm256_store_pd(s + 4, a.s1);
  _mm256_store_pd(q, a.q0);
  _mm256_store_pd(q + 4, a.q1);
  return finish_lanes(tail, tail_n, n, k, s, q, lo, hi);
}

// The float lanes over 8 floats a step, as `load(i)` gives elements [i, i + 8); then the
// tail, as `widen_tail` writes the last n % 8 elements as floats; nullopt as finish.
template <class Load, class WidenTail>
ONNXRUN_AVX2 std::optional<StatsPart> float_lanes(size_t n, float first, const Load& load,
                                                  const WidenTail& widen_tail) {
  const double k = static_cast<double>(first);
  const __m256d kv = _mm256_set1_pd(k);
  Sums a{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  __m256 mn = _mm256_set1_ps(first), mx = mn;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const __m256 v = load(i);
    accumulate(a, widen(v), kv);
    mn = _mm256_min_ps(v, mn);  // v < mn ? v : mn, as the portable loop
    mx = _mm256_max_ps(v, mx);
  }
  alignas(32) float lo[L], hi[L], tail[L];
  _mm256_store_ps(lo, mn);
  _mm256_store_ps(hi, mx);
  widen_tail(i, tail);
  return finish<float>(tail, n - i, n, k, a, lo, hi);
}

// A 16-bit chunk as floats, for the plain loop.
template <class ToFloat>
StatsPart plain_16bit(const uint16_t* x, size_t n, const ToFloat& to_float) {
  float w[kStatsChunk];
  for (size_t i = 0; i < n; ++i) w[i] = to_float(x[i]);
  return plain_stats(w, n);
}

float bf16_to_f32(uint16_t h) {
  const uint32_t b = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

}  // namespace

bool supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }

ONNXRUN_AVX2 StatsPart f32(const float* x, size_t n) {
  const std::optional<StatsPart> p = float_lanes(
      n, x[0], [x](size_t i) ONNXRUN_AVX2 { return _mm256_loadu_ps(x + i); },
      [x, n](size_t i, float* tail) ONNXRUN_AVX2 { std::memcpy(tail, x + i, (n - i) * sizeof(float)); });
  return p ? *p : plain_stats(x, n);
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
  if (const std::optional<StatsPart> p = finish<double>(x + i, n - i, n, k, a, lo, hi)) return *p;
  return plain_stats(x, n);
}

// The 16-bit types widened to float as they are loaded, 8 at a time: the same floats,
// in the same lanes, as the portable path's widened copy.
ONNXRUN_AVX2 StatsPart f16(const uint16_t* x, size_t n) {
  const std::optional<StatsPart> p = float_lanes(
      n, _cvtsh_ss(x[0]),
      [x](size_t i) ONNXRUN_AVX2 { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))); },
      [x, n](size_t i, float* tail) ONNXRUN_AVX2 {
        for (size_t l = 0; i + l < n; ++l) tail[l] = _cvtsh_ss(x[i + l]);
      });
  return p ? *p : plain_16bit(x, n, [](uint16_t h) ONNXRUN_AVX2 { return _cvtsh_ss(h); });
}

ONNXRUN_AVX2 StatsPart bf16(const uint16_t* x, size_t n) {
  const std::optional<StatsPart> p = float_lanes(
      n, bf16_to_f32(x[0]),
      [x](size_t i) ONNXRUN_AVX2 {
        const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
        return _mm256_castsi256_ps(_mm256_slli_epi32(h, 16));
      },
      [x, n](size_t i, float* tail) ONNXRUN_AVX2 {
        for (size_t l = 0; i + l < n; ++l) tail[l] = bf16_to_f32(x[i + l]);
      });
  return p ? *p : plain_16bit(x, n, bf16_to_f32);
}

}  // namespace onnxrun::stats_avx2
