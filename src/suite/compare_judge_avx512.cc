// The AVX-512 judging and tally of suite/compare_judge.h: eight floats at a time, widened
// to doubles in one vector, each quotient one vector division. A lane whose values are
// not both finite is only marked (compare_fast.cc judges it on its own); the tail of a
// run goes through judge_floats. The tally keeps per lane what tally() keeps for the
// run (the greatest of each, and where the greatest score first is), then joins the
// lanes.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <limits>

#include "suite/compare_judge.h"

#define ONNXRUN_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2")))

namespace onnxrun {
namespace {

// Eight elements [k, k + 8) judged from their values as doubles.
ONNXRUN_AVX512 inline void judge8(__m512d e, __m512d a, __m512d atol, __m512d rtol, JudgedRun& out, size_t k) {
  const __m512d zero = _mm512_setzero_pd();
  const __m512d inf = _mm512_set1_pd(std::numeric_limits<double>::infinity());
  const __m512d most = _mm512_set1_pd(std::numeric_limits<double>::max());
  const __m512d d = _mm512_abs_pd(_mm512_sub_pd(a, e));
  const __m512d abs_e = _mm512_abs_pd(e);
  const __m512d allowed = _mm512_add_pd(atol, _mm512_mul_pd(rtol, abs_e));
  const __mmask8 finite =
      _mm512_cmp_pd_mask(abs_e, most, _CMP_LE_OQ) & _mm512_cmp_pd_mask(_mm512_abs_pd(a), most, _CMP_LE_OQ);
  const __mmask8 d_zero = _mm512_cmp_pd_mask(d, zero, _CMP_EQ_OQ);
  const __mmask8 e_nonzero = _mm512_cmp_pd_mask(e, zero, _CMP_NEQ_OQ);
  const __mmask8 allowed_positive = _mm512_cmp_pd_mask(allowed, zero, _CMP_GT_OQ);
  const __mmask8 within_atol = _mm512_cmp_pd_mask(d, atol, _CMP_LE_OQ);
  // d == 0 ? 0 : e != 0 ? d / |e| : inf
  __m512d rel = _mm512_mask_blend_pd(e_nonzero, inf, _mm512_div_pd(d, abs_e));
  rel = _mm512_mask_blend_pd(d_zero, rel, zero);
  // d == 0 ? 0 : allowed > 0 ? d / allowed : inf
  __m512d score = _mm512_mask_blend_pd(allowed_positive, inf, _mm512_div_pd(d, allowed));
  score = _mm512_mask_blend_pd(d_zero, score, zero);
  // d <= atol ? 0 : e != 0 ? (d - atol) / |e| : inf
  __m512d need_rtol = _mm512_mask_blend_pd(e_nonzero, inf, _mm512_div_pd(_mm512_sub_pd(d, atol), abs_e));
  need_rtol = _mm512_mask_blend_pd(within_atol, need_rtol, zero);
  // raise_rtol and raise_atol: an ULP up (the next double above a positive one: its bits
  // plus one) while atol + rtol * |e| falls short of d; rarely taken, once or twice.
  const __m512i one_ulp = _mm512_set1_epi64(1);
  const __m512d p = _mm512_mul_pd(rtol, abs_e);
  for (__mmask8 low = finite & ~within_atol & e_nonzero &
                      _mm512_cmp_pd_mask(_mm512_add_pd(atol, _mm512_mul_pd(need_rtol, abs_e)), d, _CMP_LT_OQ);
       low; low &= _mm512_cmp_pd_mask(_mm512_add_pd(atol, _mm512_mul_pd(need_rtol, abs_e)), d, _CMP_LT_OQ))
    need_rtol = _mm512_castsi512_pd(
        _mm512_mask_add_epi64(_mm512_castpd_si512(need_rtol), low, _mm512_castpd_si512(need_rtol), one_ulp));
  __m512d need_atol = _mm512_sub_pd(d, p);
  for (__mmask8 low = finite & _mm512_cmp_pd_mask(need_atol, zero, _CMP_GT_OQ) &
                      _mm512_cmp_pd_mask(_mm512_add_pd(need_atol, p), d, _CMP_LT_OQ);
       low; low &= _mm512_cmp_pd_mask(_mm512_add_pd(need_atol, p), d, _CMP_LT_OQ))
    need_atol = _mm512_castsi512_pd(
        _mm512_mask_add_epi64(_mm512_castpd_si512(need_atol), low, _mm512_castpd_si512(need_atol), one_ulp));
  _mm512_storeu_pd(out.d + k, d);
  _mm512_storeu_pd(out.rel + k, rel);
  _mm512_storeu_pd(out.score + k, score);
  _mm512_storeu_pd(out.need_atol + k, need_atol);
  _mm512_storeu_pd(out.need_rtol + k, need_rtol);
  for (int lane = 0; lane < 8; ++lane) out.finite[k + lane] = (finite >> lane) & 1;
}

ONNXRUN_AVX512 void floats(const char* expected, const char* actual, size_t n, double atol, double rtol,
                           JudgedRun& out) {
  const __m512d atol8 = _mm512_set1_pd(atol), rtol8 = _mm512_set1_pd(rtol);
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m512d e = _mm512_cvtps_pd(_mm256_loadu_ps(reinterpret_cast<const float*>(expected + k * 4)));
    const __m512d a = _mm512_cvtps_pd(_mm256_loadu_ps(reinterpret_cast<const float*>(actual + k * 4)));
    judge8(e, a, atol8, rtol8, out, k);
  }
  judge_floats(expected, actual, k, n, atol, rtol, out);
}

ONNXRUN_AVX512 void tally(const char* expected, const char* actual, const JudgedRun& run, size_t n, RunTally& out) {
  const __m512d minus_inf = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
  const __m512d one = _mm512_set1_pd(1);
  const __m512i magnitude = _mm512_set1_epi64(0x7fffffff), sign = _mm512_set1_epi64(0x80000000);
  const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  __m512d need_atol = minus_inf, need_rtol = minus_inf, worst = _mm512_set1_pd(-1), worst_d = minus_inf;
  __m512i worst_at = _mm512_setzero_si512(), max_ulp = _mm512_setzero_si512(), worst_ulp = _mm512_setzero_si512();
  int64_t differing = 0, failing = 0;
  for (size_t k = 0; k < n; k += 8) {
    const __mmask8 live = n - k >= 8 ? 0xff : static_cast<__mmask8>((1u << (n - k)) - 1);
    const __m256i e32 = _mm256_maskz_loadu_epi32(live, expected + k * 4);
    const __m256i a32 = _mm256_maskz_loadu_epi32(live, actual + k * 4);
    const __mmask8 differs = _mm256_cmpneq_epu32_mask(e32, a32);  // dead lanes are 0 on both sides
    const __m512i eb = _mm512_cvtepu32_epi64(e32), ab = _mm512_cvtepu32_epi64(a32);
    // float_ulps of finite values: the magnitudes' difference on one side of zero, their
    // sum across it.
    const __m512i me = _mm512_and_si512(eb, magnitude), ma = _mm512_and_si512(ab, magnitude);
    const __mmask8 one_side = _mm512_testn_epi64_mask(_mm512_xor_si512(eb, ab), sign);
    const __m512i ulps =
        _mm512_mask_blend_epi64(one_side, _mm512_add_epi64(me, ma), _mm512_abs_epi64(_mm512_sub_epi64(me, ma)));
    max_ulp = _mm512_mask_max_epu64(max_ulp, differs, max_ulp, ulps);
    differing += std::popcount(static_cast<unsigned>(differs));
    const __m512d score = _mm512_maskz_loadu_pd(live, run.score + k);  // dead lanes 0: never over 1 or the worst
    failing += std::popcount(static_cast<unsigned>(_mm512_cmp_pd_mask(score, one, _CMP_GT_OQ)));
    // std::max(so_far, x) per lane: x where so_far < x, never a NaN.
    const __m512d na = _mm512_loadu_pd(run.need_atol + k), nr = _mm512_loadu_pd(run.need_rtol + k);
    need_atol = _mm512_mask_mov_pd(need_atol, differs & _mm512_cmp_pd_mask(need_atol, na, _CMP_LT_OQ), na);
    need_rtol = _mm512_mask_mov_pd(need_rtol, differs & _mm512_cmp_pd_mask(need_rtol, nr, _CMP_LT_OQ), nr);
    // ranks_worse per lane: of elements equal in score, error and ULPs the first stays.
    const __m512d d = _mm512_maskz_loadu_pd(live, run.d + k);
    const __mmask8 same_score = _mm512_cmp_pd_mask(worst, score, _CMP_EQ_OQ);
    const __mmask8 same_d = _mm512_cmp_pd_mask(worst_d, d, _CMP_EQ_OQ);
    const __mmask8 worse = live & (_mm512_cmp_pd_mask(worst, score, _CMP_LT_OQ) |
                                   (same_score & (_mm512_cmp_pd_mask(worst_d, d, _CMP_LT_OQ) |
                                                  (same_d & _mm512_cmp_epu64_mask(worst_ulp, ulps, _MM_CMPINT_LT)))));
    worst = _mm512_mask_mov_pd(worst, worse, score);
    worst_d = _mm512_mask_mov_pd(worst_d, worse, d);
    worst_ulp = _mm512_mask_mov_epi64(worst_ulp, worse, ulps);
    worst_at =
        _mm512_mask_mov_epi64(worst_at, worse, _mm512_add_epi64(lanes, _mm512_set1_epi64(static_cast<int64_t>(k))));
  }
  alignas(64) double atol8[8], rtol8[8], worst8[8], d8[8];
  alignas(64) uint64_t ulp8[8], at8[8], worst_ulp8[8];
  _mm512_store_pd(atol8, need_atol);
  _mm512_store_pd(rtol8, need_rtol);
  _mm512_store_pd(worst8, worst);
  _mm512_store_pd(d8, worst_d);
  _mm512_store_si512(ulp8, max_ulp);
  _mm512_store_si512(at8, worst_at);
  _mm512_store_si512(worst_ulp8, worst_ulp);
  out = RunTally{};
  out.differing = differing;
  out.failing = failing;
  WorstRank rank{-1, -std::numeric_limits<double>::infinity(), 0};
  for (int lane = 0; lane < 8; ++lane) {
    out.need_atol = std::max(out.need_atol, atol8[lane]);
    out.need_rtol = std::max(out.need_rtol, rtol8[lane]);
    out.max_ulp = std::max(out.max_ulp, ulp8[lane]);
    // Of lanes equal in all three, the one whose element comes first.
    const WorstRank lane_rank{worst8[lane], d8[lane], worst_ulp8[lane]};
    const bool tie = !ranks_worse(rank, lane_rank) && at8[lane] < out.worst;
    if (ranks_worse(lane_rank, rank) || tie) {
      rank = lane_rank;
      out.worst_score = rank.score;
      out.worst = at8[lane];
    }
  }
}

}  // namespace

JudgeFloats judge_floats_avx512() { return floats; }
TallyFloats tally_floats_avx512() { return tally; }

}  // namespace onnxrun
