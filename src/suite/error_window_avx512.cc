// The AVX-512 counting of suite/error_window.h: eight errors at a time, each case a mask
// counted into a lane of its own, and the rare errors inside the window compressed into
// place only where a vector holds one.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <immintrin.h>

#include <bit>

#include "suite/error_window.h"

#define ONNXRUN_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2")))

namespace onnxrun {
namespace {

ONNXRUN_AVX512 size_t count8(const double* v, size_t n, double lo, double hi, WindowCounts& counts, double* inside) {
  const __m512d l = _mm512_set1_pd(lo), h = _mm512_set1_pd(hi), zero = _mm512_setzero_pd();
  const __m512i one = _mm512_set1_epi64(1);
  __m512i below = _mm512_setzero_si512(), at_lo = below, at_hi = below, zeros = below;
  size_t m = 0, k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m512d x = _mm512_loadu_pd(v + k);
    below = _mm512_mask_add_epi64(below, _mm512_cmp_pd_mask(x, l, _CMP_LT_OQ), below, one);
    at_lo = _mm512_mask_add_epi64(at_lo, _mm512_cmp_pd_mask(x, l, _CMP_EQ_OQ), at_lo, one);
    at_hi = _mm512_mask_add_epi64(at_hi, _mm512_cmp_pd_mask(x, h, _CMP_EQ_OQ), at_hi, one);
    zeros = _mm512_mask_add_epi64(zeros, _mm512_cmp_pd_mask(x, zero, _CMP_EQ_OQ), zeros, one);
    const __mmask8 in = _mm512_cmp_pd_mask(x, l, _CMP_GT_OQ) & _mm512_cmp_pd_mask(x, h, _CMP_LT_OQ);
    if (in) [[unlikely]] {
      _mm512_storeu_pd(inside + m, _mm512_maskz_compress_pd(in, x));
      m += static_cast<size_t>(std::popcount(static_cast<unsigned>(in)));
    }
  }
  counts.below += static_cast<uint64_t>(_mm512_reduce_add_epi64(below));
  counts.at_lo += static_cast<uint64_t>(_mm512_reduce_add_epi64(at_lo));
  counts.at_hi += static_cast<uint64_t>(_mm512_reduce_add_epi64(at_hi));
  counts.zeros += static_cast<uint64_t>(_mm512_reduce_add_epi64(zeros));
  return m + count_window(v + k, n - k, lo, hi, counts, inside + m);
}

}  // namespace

CountWindow count_window_avx512() { return count8; }

CountWindow count_window_for(const HardwareConfig& config) {
  return config.has(IsaLevel::kAvx512) ? count8 : count_window;
}

}  // namespace onnxrun
