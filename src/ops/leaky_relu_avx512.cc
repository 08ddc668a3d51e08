// LeakyRelu with AVX-512 (F, BW, VL; F16C for float16; optionally BF16). Compiled for
// that ISA by the target pragma below and called only when cpuid reports it
// (leaky_relu_paths.cc). Bit-exact with leaky_relu_kernels.cc:
//  - float/double: the multiply is done only in negative lanes (masked), other lanes
//    keep their bits, so NaN, -0.0 and +inf pass through unchanged;
//  - float16: widened exactly (vcvtph2ps), multiplied exactly in float32, rounded once
//    (vcvtps2ph, nearest-even from the immediate, not MXCSR); other lanes keep x's bits;
//  - bfloat16: widened exactly, multiplied in float32, which is exact for products above
//    FLT_MIN; lanes with 0 < |p| <= FLT_MIN may have been rounded already (and
//    vcvtneps2bf16 treats denormal inputs as zero) so they are redone one by one with
//    leaky_relu_bfloat16_one. NaN products are quieted keeping sign and top payload
//    bits, which is what both the reference and vcvtneps2bf16 do.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <cfloat>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "ops/leaky_relu_paths.h"

// Everything below is compiled for AVX-512; nothing from a header is instantiated here.
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,f16c,fma,avx2,avx512bf16")

namespace onnxrun::leaky_relu_avx512 {
namespace {

// Elements to process before y is 64-byte aligned (for streaming stores), or n.
template <typename T>
size_t head_to_align(const T* y, size_t n) {
  const uintptr_t mis = reinterpret_cast<uintptr_t>(y) & 63;
  if (mis == 0) return 0;
  if (mis % sizeof(T)) return n;  // never aligns: the caller does not stream
  const size_t k = (64 - mis) / sizeof(T);
  return k < n ? k : n;
}

template <typename T>
bool should_stream(const T* x, const T* y, size_t n) {
  return static_cast<const void*>(x) != static_cast<const void*>(y) && n * sizeof(T) >= kLeakyReluStreamBytes &&
         reinterpret_cast<uintptr_t>(y) % sizeof(T) == 0;
}

inline __m512 f32_block(__m512 v, __m512 a) {
  const __mmask16 neg = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_mul_ps(v, neg, v, a);
}

template <bool kStream>
void f32_run(const float* x, float* y, size_t n, float alpha) {
  const __m512 a = _mm512_set1_ps(alpha);
  size_t i = 0;
  if (kStream) {
    const size_t h = head_to_align(y, n);
    const __mmask16 m = static_cast<__mmask16>((1u << h) - 1);
    _mm512_mask_storeu_ps(y, m, f32_block(_mm512_maskz_loadu_ps(m, x), a));
    i = h;
  }
  for (; i + 32 <= n; i += 32) {
    const __m512 r0 = f32_block(_mm512_loadu_ps(x + i), a);
    const __m512 r1 = f32_block(_mm512_loadu_ps(x + i + 16), a);
    if (kStream) {
      _mm512_stream_ps(y + i, r0);
      _mm512_stream_ps(y + i + 16, r1);
    } else {
      _mm512_storeu_ps(y + i, r0);
      _mm512_storeu_ps(y + i + 16, r1);
    }
  }
  for (; i < n; i += 16) {
    const size_t left = n - i;
    const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
    _mm512_mask_storeu_ps(y + i, m, f32_block(_mm512_maskz_loadu_ps(m, x + i), a));
  }
  if (kStream) _mm_sfence();
}

inline __m512d f64_block(__m512d v, __m512d a) {
  const __mmask8 neg = _mm512_cmp_pd_mask(v, _mm512_setzero_pd(), _CMP_LT_OQ);
  return _mm512_mask_mul_pd(v, neg, v, a);
}

template <bool kStream>
void f64_run(const double* x, double* y, size_t n, double alpha) {
  const __m512d a = _mm512_set1_pd(alpha);
  size_t i = 0;
  if (kStream) {
    const size_t h = head_to_align(y, n);
    const __mmask8 m = static_cast<__mmask8>((1u << h) - 1);
    _mm512_mask_storeu_pd(y, m, f64_block(_mm512_maskz_loadu_pd(m, x), a));
    i = h;
  }
  for (; i + 16 <= n; i += 16) {
    const __m512d r0 = f64_block(_mm512_loadu_pd(x + i), a);
    const __m512d r1 = f64_block(_mm512_loadu_pd(x + i + 8), a);
    if (kStream) {
      _mm512_stream_pd(y + i, r0);
      _mm512_stream_pd(y + i + 8, r1);
    } else {
      _mm512_storeu_pd(y + i, r0);
      _mm512_storeu_pd(y + i + 8, r1);
    }
  }
  for (; i < n; i += 8) {
    const size_t left = n - i;
    const __mmask8 m = left >= 8 ? static_cast<__mmask8>(0xff) : static_cast<__mmask8>((1u << left) - 1);
    _mm512_mask_storeu_pd(y + i, m, f64_block(_mm512_maskz_loadu_pd(m, x + i), a));
  }
  if (kStream) _mm_sfence();
}

// 16 float16 lanes.
inline __m256i f16_block(__m256i xh, __m512 a) {
  const __m512 v = _mm512_cvtph_ps(xh);
  const __mmask16 neg = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m256i ph = _mm512_cvtps_ph(_mm512_mul_ps(v, a), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm256_mask_blend_epi16(neg, xh, ph);
}

template <bool kStream>
void f16_run(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m512 a = _mm512_set1_ps(float16_to_float(alpha_bits));
  size_t i = 0;
  if (kStream) {
    const size_t h = head_to_align(y, n);  // up to 31 elements
    for (; i < h; i += 16) {
      const size_t left = h - i;
      const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
      _mm256_mask_storeu_epi16(y + i, m, f16_block(_mm256_maskz_loadu_epi16(m, x + i), a));
    }
    i = h;
  }
  for (; i + 32 <= n; i += 32) {
    const __m256i r0 = f16_block(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), a);
    const __m256i r1 = f16_block(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 16)), a);
    const __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
    if (kStream)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(y + i), r);
    else
      _mm512_storeu_si512(y + i, r);
  }
  for (; i < n; i += 16) {
    const size_t left = n - i;
    const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
    _mm256_mask_storeu_epi16(y + i, m, f16_block(_mm256_maskz_loadu_epi16(m, x + i), a));
  }
  if (kStream) _mm_sfence();
}

// bfloat16 rounding of 16 float32 lanes with integer arithmetic: nearest, ties to even
// (a carry rolls into the exponent, up to infinity); NaN quieted keeping sign and payload.
inline __m256i bf16_round_int(__m512 p) {
  const __m512i u = _mm512_castps_si512(p);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  __m512i r = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  const __mmask16 nan = _mm512_cmp_ps_mask(p, p, _CMP_UNORD_Q);
  r = _mm512_mask_or_epi32(r, nan, _mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
  return _mm512_cvtepi32_epi16(r);
}

inline __m256i bf16_round_native(__m512 p) {
  __m256bh b = _mm512_cvtneps_pbh(p);
  __m256i r;
  std::memcpy(&r, &b, sizeof r);
  return r;
}

// 16 bfloat16 lanes; `tiny` gets the lanes to redo exactly.
template <bool kNative>
inline __m256i bf16_block(__m256i xh, __m512 a, __mmask16* tiny) {
  const __m512 v = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(xh), 16));
  const __mmask16 neg = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512 p = _mm512_maskz_mul_ps(neg, v, a);
  const __m512 ap = _mm512_abs_ps(p);
  *tiny = _mm512_mask_cmp_ps_mask(neg, ap, _mm512_set1_ps(FLT_MIN), _CMP_LE_OQ) &
          _mm512_cmp_ps_mask(ap, _mm512_setzero_ps(), _CMP_NEQ_OQ);
  const __m256i ph = kNative ? bf16_round_native(p) : bf16_round_int(p);
  return _mm256_mask_blend_epi16(neg, xh, ph);
}

// Redoes the lanes in `tiny` exactly (rare: products at or below FLT_MIN).
inline __m256i bf16_fix(__m256i xh, __m256i r, __mmask16 tiny, uint16_t alpha_bits) {
  alignas(32) uint16_t xs[16], rs[16];
  _mm256_store_si256(reinterpret_cast<__m256i*>(xs), xh);
  _mm256_store_si256(reinterpret_cast<__m256i*>(rs), r);
  for (unsigned k = 0; k < 16; ++k)
    if (tiny & (1u << k)) rs[k] = leaky_relu_bfloat16_one(xs[k], alpha_bits);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(rs));
}

// Up to 16 lanes with masked loads and stores: heads and tails only, since masked
// stores are slow on some CPUs.
template <bool kNative>
void bf16_masked(const uint16_t* x, uint16_t* y, size_t n, __m512 a, uint16_t alpha_bits) {
  for (size_t i = 0; i < n; i += 16) {
    const size_t left = n - i;
    const __mmask16 m = left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
    const __m256i xh = _mm256_maskz_loadu_epi16(m, x + i);
    __mmask16 tiny;
    __m256i r = bf16_block<kNative>(xh, a, &tiny);
    tiny &= m;
    if (tiny) r = bf16_fix(xh, r, tiny, alpha_bits);
    _mm256_mask_storeu_epi16(y + i, m, r);
  }
}

template <bool kNative, bool kStream>
void bf16_run(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m512 a = _mm512_set1_ps(bfloat16_to_float(alpha_bits));
  size_t i = 0;
  if (kStream) {
    i = head_to_align(y, n);
    bf16_masked<kNative>(x, y, i, a, alpha_bits);
  }
  for (; i + 32 <= n; i += 32) {
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 16));
    __mmask16 t0, t1;
    __m256i r0 = bf16_block<kNative>(x0, a, &t0);
    __m256i r1 = bf16_block<kNative>(x1, a, &t1);
    if (__builtin_expect((t0 | t1) != 0, 0)) {
      if (t0) r0 = bf16_fix(x0, r0, t0, alpha_bits);
      if (t1) r1 = bf16_fix(x1, r1, t1, alpha_bits);
    }
    const __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
    if (kStream)
      _mm512_stream_si512(reinterpret_cast<__m512i*>(y + i), r);
    else
      _mm512_storeu_si512(y + i, r);
  }
  if (kStream) _mm_sfence();
  bf16_masked<kNative>(x + i, y + i, n - i, a, alpha_bits);
}

}  // namespace

void f32(const float* x, float* y, size_t n, float alpha) {
  if (should_stream(x, y, n))
    f32_run<true>(x, y, n, alpha);
  else
    f32_run<false>(x, y, n, alpha);
}

void f64(const double* x, double* y, size_t n, double alpha) {
  if (should_stream(x, y, n))
    f64_run<true>(x, y, n, alpha);
  else
    f64_run<false>(x, y, n, alpha);
}

void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  if (should_stream(x, y, n))
    f16_run<true>(x, y, n, alpha_bits);
  else
    f16_run<false>(x, y, n, alpha_bits);
}

void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  if (should_stream(x, y, n))
    bf16_run<false, true>(x, y, n, alpha_bits);
  else
    bf16_run<false, false>(x, y, n, alpha_bits);
}

void bf16_native(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  if (should_stream(x, y, n))
    bf16_run<true, true>(x, y, n, alpha_bits);
  else
    bf16_run<true, false>(x, y, n, alpha_bits);
}

}  // namespace onnxrun::leaky_relu_avx512

#pragma GCC pop_options

namespace onnxrun::leaky_relu_avx512 {

// __builtin_cpu_supports checks XCR0 too, so the OS saves the AVX-512 state.
bool supported() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("f16c");
}
bool supported_bf16() { return supported() && __builtin_cpu_supports("avx512bf16"); }

}  // namespace onnxrun::leaky_relu_avx512
