// The AVX-512 chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight lanes
// held in one vector of eight doubles per sum, element i of a chunk in lane i % 8 as there.
// Eight elements are widened to double by one conversion, where AVX2 needs two and a lane
// split; that conversion is what bounds the AVX2 loop (docs/perf.md, "Statistics"). No
// fused multiply-add (the build has -ffp-contract=off and none is written), so every path
// gives the same bits.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <optional>

#include "core/cpu_features.h"
#include "core/tensor_stats_chunk.h"
#include "core/tensor_stats_load8.h"

#define ONNXRUN_AVX512 __attribute__((target("avx512f,avx512vl,avx2,f16c")))

namespace onnxrun {
namespace {

constexpr size_t L = kStatsLanes;
static_assert(L == 8, "one vector of eight doubles");

// The lanes' sums of d = x - k and d * d.
struct Sums {
  __m512d s, q;
};

ONNXRUN_AVX512 inline void accumulate(Sums& a, __m512d x, __m512d k) {
  const __m512d d = _mm512_sub_pd(x, k);
  a.s = _mm512_add_pd(a.s, d);
  a.q = _mm512_add_pd(a.q, _mm512_mul_pd(d, d));
}

// finish_lanes over the lanes in vectors: nullopt when a sum is not finite.
template <class T>
ONNXRUN_AVX512 std::optional<StatsPart> finish(const T* tail, size_t tail_n, size_t n, double k, const Sums& a, T* lo,
                                               T* hi) {
  alignas(64) double s[L], q[L];
  _mm512_store_pd(s, a.s);
  _mm512_store_pd(q, a.q);
  return finish_lanes(tail, tail_n, n, k, s, q, lo, hi);
}

// The float lanes over the elements of Src (stats_load8), 8 a step, then the tail of
// fewer than 8 one by one; nullopt as finish.
template <class Src>
ONNXRUN_AVX512 std::optional<StatsPart> float_lanes(const typename Src::T* x, size_t n) {
  const float first = Src::one(x);
  const double k = static_cast<double>(first);
  const __m512d kv = _mm512_set1_pd(k);
  Sums a{_mm512_setzero_pd(), _mm512_setzero_pd()};
  __m256 mn = _mm256_set1_ps(first), mx = mn;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const __m256 v = Src::eight(x + i);
    accumulate(a, _mm512_cvtps_pd(v), kv);
    mn = _mm256_min_ps(v, mn);  // v < mn ? v : mn, as the portable loop
    mx = _mm256_max_ps(v, mx);
  }
  alignas(32) float lo[L], hi[L], tail[L];
  _mm256_store_ps(lo, mn);
  _mm256_store_ps(hi, mx);
  for (size_t l = 0; i + l < n; ++l) tail[l] = Src::one(x + i + l);
  return finish<float>(tail, n - i, n, k, a, lo, hi);
}

// The statistics of a chunk of Src: the lanes, or the plain loop over the chunk widened
// to float when the chunk has a NaN or an infinity.
template <class Src>
ONNXRUN_AVX512 StatsPart float_stats(const typename Src::T* x, size_t n) {
  if (const std::optional<StatsPart> p = float_lanes<Src>(x, n)) return *p;
  float w[kStatsChunk];
  for (size_t i = 0; i < n; ++i) w[i] = Src::one(x + i);
  return plain_stats(w, n);
}

bool supported() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
         cpu_has_f16c();
}

ONNXRUN_AVX512 StatsPart f32(const float* x, size_t n) { return float_stats<stats_load8::F32>(x, n); }

ONNXRUN_AVX512 StatsPart f64(const double* x, size_t n) {
  const double k = x[0];
  const __m512d kv = _mm512_set1_pd(k);
  Sums a{_mm512_setzero_pd(), _mm512_setzero_pd()};
  __m512d mn = _mm512_set1_pd(k), mx = mn;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const __m512d v = _mm512_loadu_pd(x + i);
    accumulate(a, v, kv);
    mn = _mm512_min_pd(v, mn);
    mx = _mm512_max_pd(v, mx);
  }
  alignas(64) double lo[L], hi[L];
  _mm512_store_pd(lo, mn);
  _mm512_store_pd(hi, mx);
  if (const std::optional<StatsPart> p = finish<double>(x + i, n - i, n, k, a, lo, hi)) return *p;
  return plain_stats(x, n);
}

ONNXRUN_AVX512 StatsPart f16(const uint16_t* x, size_t n) { return float_stats<stats_load8::F16>(x, n); }

ONNXRUN_AVX512 StatsPart bf16(const uint16_t* x, size_t n) { return float_stats<stats_load8::BF16>(x, n); }

}  // namespace

const StatsKernels& stats_avx512_kernels() {
  static const StatsKernels k{"avx512", supported, f32, f64, f16, bf16};
  return k;
}

}  // namespace onnxrun
