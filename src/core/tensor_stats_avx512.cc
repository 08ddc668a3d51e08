// The AVX-512 chunk kernels of core/tensor_stats_chunk.h: the portable loop's eight lanes
// held in one vector of eight doubles per sum, element i of a chunk in lane i % 8 as there
// (sixteen lanes in two vectors for the 16-bit types).
// Eight elements are widened to double by one conversion, where AVX2 needs two and a lane
// split; that conversion is what bounds the AVX2 loop (docs/perf.md, "The AVX-512
// statistics path"). The 16-bit types skip the conversions: their bits become doubles by
// integer operations (F16Bits, BF16Bits). No fused multiply-add changes a rounding (the
// build has -ffp-contract=off, and the one written, deviations8's, rounds once what the
// portable loop's subtraction rounds once), so every path gives the same bits.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <optional>

#include "core/tensor_stats_chunk.h"
#include "core/tensor_stats_load8.h"

#define ONNXRUN_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx2,f16c,fma")))

namespace onnxrun {
namespace {

constexpr size_t L = kStatsLanes;
static_assert(L == 8, "one vector of eight doubles");

// The lanes' sums of d = x - k and d * d.
struct Sums {
  __m512d s, q;
};

ONNXRUN_AVX512 inline void add_deviations(Sums& a, __m512d d) {
  a.s = _mm512_add_pd(a.s, d);
  a.q = _mm512_add_pd(a.q, _mm512_mul_pd(d, d));
}

ONNXRUN_AVX512 inline void accumulate(Sums& a, __m512d x, __m512d k) { add_deviations(a, _mm512_sub_pd(x, k)); }

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

// A 16-bit float's bits, sign-extended to 64 and shifted left by kShift so that its
// exponent and mantissa fields fall on a double's, with the sign's copies between the
// fields cleared (kKeep), are the double x / kScale: kScale is 2 to the difference of
// the exponent biases, and a subnormal lands on a subnormal double of the same value
// over kScale. So every finite value maps exactly, and x - k is one fused multiply-add
// of that double by kScale and -k, rounded once as the portable loop's subtraction is.
// The widening costs no conversion, which bounded this loop (docs/perf.md, "16-bit
// statistics without conversions"). Infinities and NaNs map to finite doubles: the
// caller finds them by key.
struct F16Bits {
  static constexpr int kShift = 42;                          // 10 mantissa bits below bit 52
  static constexpr uint64_t kKeep = 0x81FF'FFFF'FFFF'FFFFu;  // bits 57-62 cleared
  static constexpr double kScale = 0x1p1008;                 // 2^(1023 - 15)
  static constexpr uint16_t kInf = 0x7C00;
};
struct BF16Bits {
  static constexpr int kShift = 45;                          // 7 mantissa bits below bit 52
  static constexpr uint64_t kKeep = 0x8FFF'FFFF'FFFF'FFFFu;  // bits 60-62 cleared
  static constexpr double kScale = 0x1p896;                  // 2^(1023 - 127)
  static constexpr uint16_t kInf = 0x7F80;
};

// x - k for the eight elements at x (neg_k: -k in every lane).
template <class Bits>
ONNXRUN_AVX512 inline __m512d deviations8(const uint16_t* x, __m512d scale, __m512d neg_k) {
  const __m512i wide = _mm512_cvtepi16_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  const __m512i bits = _mm512_and_si512(_mm512_slli_epi64(wide, Bits::kShift), _mm512_set1_epi64(Bits::kKeep));
  return _mm512_fmadd_pd(_mm512_castsi512_pd(bits), scale, neg_k);
}

// Sixteen elements at x into lanes 0-7 (a) and 8-15 (b).
template <class Bits>
ONNXRUN_AVX512 inline void add16(Sums& a, Sums& b, const uint16_t* x, __m512d scale, __m512d neg_k) {
  add_deviations(a, deviations8<Bits>(x, scale, neg_k));
  add_deviations(b, deviations8<Bits>(x + L, scale, neg_k));
}

// The running least and greatest half_order_key over 32 lanes; groups shorter than 32
// are filled with the chunk's first element, whose key is already in.
struct Keys32 {
  __m512i filler, lo, hi;

  ONNXRUN_AVX512 explicit Keys32(uint16_t first)
      : filler(_mm512_set1_epi16(static_cast<short>(first))), lo(_mm512_set1_epi16(half_order_key(first))), hi(lo) {}

  ONNXRUN_AVX512 void add(const uint16_t* x, __mmask32 present = ~__mmask32{0}) {
    const __m512i bits = _mm512_mask_loadu_epi16(filler, present, x);
    // bits ^ (sign ? 0x7FFF : 0), as half_order_key: ternary logic 0x78 is a ^ (b & c).
    const __m512i key = _mm512_ternarylogic_epi32(bits, _mm512_srai_epi16(bits, 15), _mm512_set1_epi16(0x7FFF), 0x78);
    lo = _mm512_min_epi16(lo, key);
    hi = _mm512_max_epi16(hi, key);
  }

  // Folded to sixteen lanes, then reduced as the AVX2 loop's keys are (through memory:
  // GCC 12's 256-bit extract intrinsics warn of their own uninitialised vector).
  ONNXRUN_AVX512 void reduce(int16_t& least, int16_t& greatest) const {
    alignas(64) int16_t l[32], h[32];
    _mm512_store_si512(l, lo);
    _mm512_store_si512(h, hi);
    const auto* l2 = reinterpret_cast<const __m256i*>(l);
    const auto* h2 = reinterpret_cast<const __m256i*>(h);
    stats_load8::Keys16 folded(0);
    folded.lo = _mm256_min_epi16(_mm256_load_si256(l2), _mm256_load_si256(l2 + 1));
    folded.hi = _mm256_max_epi16(_mm256_load_si256(h2), _mm256_load_si256(h2 + 1));
    folded.reduce(least, greatest);
  }
};

// The sixteen lanes of a 16-bit type (Src: stats_load8::F16 or BF16; Bits: its *Bits
// above): lanes 0-7 and 8-15 in two Sums, min and max by key; the plain loop over the
// chunk widened to float when a key is an infinity's or a NaN's, or a tail sum is not
// finite.
template <class Src, class Bits>
ONNXRUN_AVX512 StatsPart half_stats(const uint16_t* x, size_t n) {
  constexpr size_t L16 = kStatsLanes16;
  const double k = static_cast<double>(Src::one(x));
  const __m512d neg_k = _mm512_set1_pd(-k), scale = _mm512_set1_pd(Bits::kScale);
  Sums a{_mm512_setzero_pd(), _mm512_setzero_pd()}, b = a;
  Keys32 keys(x[0]);
  size_t i = 0;
  for (; i + 2 * L16 <= n; i += 2 * L16) {
    keys.add(x + i);
    add16<Bits>(a, b, x + i, scale, neg_k);
    add16<Bits>(a, b, x + i + L16, scale, neg_k);
  }
  if (i + L16 <= n) {
    keys.add(x + i, 0xFFFF);
    add16<Bits>(a, b, x + i, scale, neg_k);
    i += L16;
  }
  int16_t lo, hi;
  keys.reduce(lo, hi);
  if (lo <= half_order_key(Bits::kInf | 0x8000) || hi >= half_order_key(Bits::kInf))
    return plain_stats16<Src::to_float>(x, n);
  alignas(64) double s[L16], q[L16];
  _mm512_store_pd(s, a.s);
  _mm512_store_pd(s + L, b.s);
  _mm512_store_pd(q, a.q);
  _mm512_store_pd(q + L, b.q);
  if (const std::optional<StatsPart> p = finish_lanes16<Src::to_float>(x + i, n - i, n, k, s, q, lo, hi)) return *p;
  return plain_stats16<Src::to_float>(x, n);
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

ONNXRUN_AVX512 StatsPart f16(const uint16_t* x, size_t n) { return half_stats<stats_load8::F16, F16Bits>(x, n); }

ONNXRUN_AVX512 StatsPart bf16(const uint16_t* x, size_t n) { return half_stats<stats_load8::BF16, BF16Bits>(x, n); }

}  // namespace

const StatsKernels& stats_avx512_kernels() {
  static const StatsKernels k{"avx512", IsaLevel::kAvx512, f32, f64, f16, bf16};
  return k;
}

}  // namespace onnxrun
