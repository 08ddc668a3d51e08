// The loops of elementwise_loops.h compiled for AVX2 by the target pragma below, used
// only at the hardware configuration's avx2 level or above (core/hardware.h). Same
// source, same bits: the pragma only lets the compiler use wider vectors. float16 and
// bfloat16 are written with intrinsics, 8 lanes a step, as LeakyRelu's are
// (leaky_relu_avx2.cc): widened to float32 exactly, compared or multiplied, a product
// rounded once (float16 by vcvtps2ph, bfloat16 by integer arithmetic, NaN quieted with
// its payload); tails element by element.
#include <immintrin.h>

#include "core/hardware.h"
#include "ops/elementwise_paths.h"
#include "ops/leaky_relu_simd.h"

#pragma GCC push_options
#pragma GCC target("avx2,f16c")
#if defined(__clang__)  // clang ignores GCC's target pragma (the fuzz build is clang's)
#pragma clang attribute push(__attribute__((target("avx2,f16c"))), apply_to = function)
#endif

#include "ops/elementwise_loops.h"

namespace onnxrun::elementwise_avx2 {
namespace {

struct F16x8 {
  using Portable = elementwise_loops::F16;
  static __m256 widen(__m128i h) { return _mm256_cvtph_ps(h); }
  static __m128i narrow(__m256 f) { return _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
};

struct BF16x8 {
  using Portable = elementwise_loops::BF16;
  static __m256 widen(__m128i h) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16)); }
  static __m128i narrow(__m256 p) {
    // Nearest, ties to even, carrying into the exponent; NaN quieted with its payload.
    const __m256i u = _mm256_castps_si256(p);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
    const __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
    const __m256i r = _mm256_blendv_epi8(rounded, quiet, _mm256_castps_si256(_mm256_cmp_ps(p, p, _CMP_UNORD_Q)));
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
  }
};

inline __m128i load8(const uint16_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

template <typename H>
void less_half(const uint16_t* a, const uint16_t* b, uint8_t* out, size_t n, Repeat r) {
  if (n == 0) return;
  const __m256 sa = H::widen(_mm_set1_epi16(static_cast<short>(a[0])));
  const __m256 sb = H::widen(_mm_set1_epi16(static_cast<short>(b[0])));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 va = r == Repeat::kA ? sa : H::widen(load8(a + i));
    const __m256 vb = r == Repeat::kB ? sb : H::widen(load8(b + i));
    const __m256i m = _mm256_castps_si256(_mm256_cmp_ps(va, vb, _CMP_LT_OQ));
    const __m128i m16 = _mm_packs_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    const __m128i m8 = _mm_and_si128(_mm_packs_epi16(m16, m16), _mm_set1_epi8(1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), m8);
  }
  elementwise_loops::less_half<typename H::Portable>(r == Repeat::kA ? a : a + i, r == Repeat::kB ? b : b + i, out + i,
                                                     n - i, r);
}

template <typename H>
void mul_half(const uint16_t* a, const uint16_t* b, uint16_t* out, size_t n, Repeat r) {
  if (n == 0) return;
  const __m256 sa = H::widen(_mm_set1_epi16(static_cast<short>(a[0])));
  const __m256 sb = H::widen(_mm_set1_epi16(static_cast<short>(b[0])));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 va = r == Repeat::kA ? sa : H::widen(load8(a + i));
    const __m256 vb = r == Repeat::kB ? sb : H::widen(load8(b + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), H::narrow(_mm256_mul_ps(va, vb)));
  }
  elementwise_loops::mul_half<typename H::Portable>(r == Repeat::kA ? a : a + i, r == Repeat::kB ? b : b + i, out + i,
                                                    n - i, r);
}

}  // namespace
}  // namespace onnxrun::elementwise_avx2

#pragma GCC pop_options
#if defined(__clang__)
#pragma clang attribute pop
#endif

namespace onnxrun {

const ElementwisePath* elementwise_avx2_path() {
  using namespace elementwise_avx2;
  static constexpr ElementwisePath kAvx2 =
      ONNXRUN_ELEMENTWISE_PATH("avx2", less_half<F16x8>, less_half<BF16x8>, mul_half<F16x8>, mul_half<BF16x8>);
  return cpu_hardware().has(IsaLevel::kAvx2) ? &kAvx2 : nullptr;
}

}  // namespace onnxrun
