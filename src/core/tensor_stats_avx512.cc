// The AVX-512 chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight lanes
// held in one vector of eight doubles per sum, element i of a chunk in lane i % 8 as there
// (sixteen lanes in two vectors for the 16-bit types, widened sixteen at a time).
// Eight elements are widened to double by one conversion, where AVX2 needs two and a lane
// split; that conversion is what bounds the AVX2 loop (docs/perf.md, "The AVX-512
// statistics path"). No fused multiply-add (the build has -ffp-contract=off and none is
// written), so every path gives the same bits.
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

// The float lanes, 8 elements a step, then the tail of fewer than 8 one by one; nullopt
// as finish.
ONNXRUN_AVX512 std::optional<StatsPart> float_lanes(const float* x, size_t n) {
  const float first = x[0];
  const double k = static_cast<double>(first);
  const __m512d kv = _mm512_set1_pd(k);
  Sums a{_mm512_setzero_pd(), _mm512_setzero_pd()};
  __m256 mn = _mm256_set1_ps(first), mx = mn;
  size_t i = 0;
  for (; i + L <= n; i += L) {
    const __m256 v = _mm256_loadu_ps(x + i);
    accumulate(a, _mm512_cvtps_pd(v), kv);
    mn = _mm256_min_ps(v, mn);  // v < mn ? v : mn, as the portable loop
    mx = _mm256_max_ps(v, mx);
  }
  alignas(32) float lo[L], hi[L];
  _mm256_store_ps(lo, mn);
  _mm256_store_ps(hi, mx);
  return finish<float>(x + i, n - i, n, k, a, lo, hi);
}

// Sixteen 16-bit floats widened to float by one instruction.
struct F16x16 {
  ONNXRUN_AVX512 static __m512 widen(__m256i bits) { return _mm512_cvtph_ps(bits); }
};
struct BF16x16 {
  ONNXRUN_AVX512 static __m512 widen(__m256i bits) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
  }
};

// The sixteen lanes of a 16-bit type (Src: stats_load8::F16 or BF16; Wide: its x16 above):
// lanes 0-7 and 8-15 in two Sums, min and max by key; the plain loop over the chunk
// widened to float when a sum is not finite.
template <class Src, class Wide>
ONNXRUN_AVX512 StatsPart half_stats(const uint16_t* x, size_t n) {
  constexpr size_t L16 = kStatsLanes16;
  const double k = static_cast<double>(Src::one(x));
  const __m512d kv = _mm512_set1_pd(k);
  Sums a{_mm512_setzero_pd(), _mm512_setzero_pd()}, b = a;
  stats_load8::Keys16 keys(x[0]);
  size_t i = 0;
  for (; i + L16 <= n; i += L16) {
    const __m256i bits = stats_load8::load_bits16(x + i);
    const __m512 v = Wide::widen(bits);
    accumulate(a, _mm512_cvtps_pd(_mm512_castps512_ps256(v)), kv);
    accumulate(b, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))), kv);
    keys.add(bits);
  }
  alignas(64) double s[L16], q[L16];
  _mm512_store_pd(s, a.s);
  _mm512_store_pd(s + L, b.s);
  _mm512_store_pd(q, a.q);
  _mm512_store_pd(q + L, b.q);
  int16_t lo, hi;
  keys.reduce(lo, hi);
  if (const std::optional<StatsPart> p = finish_lanes16<Src::to_float>(x + i, n - i, n, k, s, q, lo, hi)) return *p;
  return plain_stats16<Src::to_float>(x, n);
}

bool supported() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
         cpu_has_f16c();
}

// The float lanes, or the plain loop when the chunk has a NaN or an infinity.
ONNXRUN_AVX512 StatsPart f32(const float* x, size_t n) {
  if (const std::optional<StatsPart> p = float_lanes(x, n)) return *p;
  return plain_stats(x, n);
}

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

ONNXRUN_AVX512 StatsPart f16(const uint16_t* x, size_t n) { return half_stats<stats_load8::F16, F16x16>(x, n); }

ONNXRUN_AVX512 StatsPart bf16(const uint16_t* x, size_t n) { return half_stats<stats_load8::BF16, BF16x16>(x, n); }

}  // namespace

const StatsKernels& stats_avx512_kernels() {
  static const StatsKernels k{"avx512", supported, f32, f64, f16, bf16};
  return k;
}

}  // namespace onnxrun
