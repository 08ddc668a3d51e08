// The AVX2 (+F16C) chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight
// lanes held in two vectors of doubles per sum, element i of a chunk in lane i % 8 as
// there (sixteen lanes in four vectors for the 16-bit types), and no fused multiply-add
// (the target has none, and the build has -ffp-contract=off), so every path gives the
// same bits.
#include <immintrin.h>

#include <optional>

#include "core/tensor_stats_chunk.h"
#include "core/tensor_stats_load8.h"

namespace onnxrun {
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

// The float lanes, 8 elements a step, then the tail of fewer than 8 one by one; nullopt
// as finish.
ONNXRUN_AVX2 std::optional<StatsPart> float_lanes(const float* x, size_t n) {
  const float first = x[0];
  const double k = static_cast<double>(first);
  const __m256d kv = _mm256_set1_pd(k);
  Sums a{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
  __m256 mn = _mm256_set1_ps(first), mx = mn;
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
  return finish<float>(x + i, n - i, n, k, a, lo, hi);
}

// The sixteen lanes of a 16-bit type Src (stats_load8::F16 or BF16): lanes 0-7 and 8-15
// in two Sums, min and max by key; the plain loop over the chunk widened to float when a
// sum is not finite.
template <class Src>
ONNXRUN_AVX2 StatsPart half_stats(const uint16_t* x, size_t n) {
  constexpr size_t L16 = kStatsLanes16;
  const double k = static_cast<double>(Src::one(x));
  const __m256d kv = _mm256_set1_pd(k);
  Sums a{_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()}, b = a;
  stats_load8::Keys16 keys(x[0]);
  size_t i = 0;
  for (; i + L16 <= n; i += L16) {
    accumulate(a, widen(Src::eight(x + i)), kv);
    accumulate(b, widen(Src::eight(x + i + L)), kv);
    keys.add(stats_load8::load_bits16(x + i));
  }
  alignas(32) double s[L16], q[L16];
  _mm256_store_pd(s, a.s0);
  _mm256_store_pd(s + 4, a.s1);
  _mm256_store_pd(s + 8, b.s0);
  _mm256_store_pd(s + 12, b.s1);
  _mm256_store_pd(q, a.q0);
  _mm256_store_pd(q + 4, a.q1);
  _mm256_store_pd(q + 8, b.q0);
  _mm256_store_pd(q + 12, b.q1);
  int16_t lo, hi;
  keys.reduce(lo, hi);
  if (const std::optional<StatsPart> p = finish_lanes16<Src::to_float>(x + i, n - i, n, k, s, q, lo, hi)) return *p;
  return plain_stats16<Src::to_float>(x, n);
}

// The float lanes, or the plain loop when the chunk has a NaN or an infinity.
ONNXRUN_AVX2 StatsPart f32(const float* x, size_t n) {
  if (const std::optional<StatsPart> p = float_lanes(x, n)) return *p;
  return plain_stats(x, n);
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

ONNXRUN_AVX2 StatsPart f16(const uint16_t* x, size_t n) { return half_stats<stats_load8::F16>(x, n); }

ONNXRUN_AVX2 StatsPart bf16(const uint16_t* x, size_t n) { return half_stats<stats_load8::BF16>(x, n); }

}  // namespace

const StatsKernels& stats_avx2_kernels() {
  static const StatsKernels k{"avx2", IsaLevel::kAvx2, f32, f64, f16, bf16};
  return k;
}

}  // namespace onnxrun
