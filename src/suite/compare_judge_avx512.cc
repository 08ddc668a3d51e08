// The AVX-512 judging of suite/compare_judge.h: eight floats at a time, widened to
// doubles in one vector, each quotient one vector division. A lane whose values are not
// both finite is only marked (compare_fast.cc judges it on its own); the tail of a run
// goes through judge_floats.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

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
  _mm512_storeu_pd(out.d + k, d);
  _mm512_storeu_pd(out.rel + k, rel);
  _mm512_storeu_pd(out.score + k, score);
  _mm512_storeu_pd(out.need_atol + k, _mm512_sub_pd(d, _mm512_mul_pd(rtol, abs_e)));
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

}  // namespace

JudgeFloats judge_floats_avx512() { return floats; }

}  // namespace onnxrun
