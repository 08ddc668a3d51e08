// LeakyRelu with AVX-512 (F, BW, VL; F16C for float16; optionally BF16). Compiled for
// that ISA by the target pragma below and called only when the hardware configuration
// has it (core/hardware.h). Bit-exact with leaky_relu_kernels.cc:
//  - float/double: the multiply is done only in negative lanes (masked), other lanes
//    keep their bits, so NaN, -0.0 and +inf pass through unchanged;
//  - float16: widened exactly (vcvtph2ps), multiplied exactly in float32, rounded once
//    (vcvtps2ph, nearest-even from the immediate, not MXCSR); other lanes keep x's bits;
//  - bfloat16: multiplied in float32 and rounded once, which is exact for any two
//    bfloat16 factors (leaky_relu_kernels.cc); see the bfloat16 section below for the
//    two roundings and for the lanes vcvtneps2bf16 needs redone. NaN products are
//    quieted keeping sign and top payload bits, as the portable code does.
// GCC 12 warns inside its own avx512fintrin.h (the "undefined" vector of maskz forms).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "ops/leaky_relu_paths.h"
#include "ops/leaky_relu_simd.h"

// Everything below is compiled for AVX-512; nothing from a header is instantiated here.
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,f16c,fma,avx2,avx512bf16")
#if defined(__clang__)  // clang ignores GCC's target pragma (the fuzz build is clang's)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,f16c,fma,avx2,avx512bf16"))), \
                             apply_to = function)
#endif

namespace onnxrun::leaky_relu_avx512 {
namespace {

using leaky_relu_simd::head_to_align;

// Lanes [0, k) of a 16- or 8-lane mask (k <= lanes).
template <typename M>
M first_lanes(size_t k) {
  return k >= sizeof(M) * 8 ? static_cast<M>(~0u) : static_cast<M>((1u << k) - 1);
}

// One 512-bit vector type and what the float and double loops need of it: the multiply
// is done only in negative lanes (masked), the others keep their bits.
struct F32 {
  using T = float;
  using V = __m512;
  using M = __mmask16;
  static constexpr size_t kLanes = 16;
  static V set1(T a) { return _mm512_set1_ps(a); }
  static V load(const T* p) { return _mm512_loadu_ps(p); }
  static V load(M m, const T* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void store(T* p, V v) { _mm512_storeu_ps(p, v); }
  static void store(M m, T* p, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static void stream(T* p, V v) { _mm512_stream_ps(p, v); }
  static V block(V v, V a) {
    return _mm512_mask_mul_ps(v, _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), v, a);
  }
};

struct F64 {
  using T = double;
  using V = __m512d;
  using M = __mmask8;
  static constexpr size_t kLanes = 8;
  static V set1(T a) { return _mm512_set1_pd(a); }
  static V load(const T* p) { return _mm512_loadu_pd(p); }
  static V load(M m, const T* p) { return _mm512_maskz_loadu_pd(m, p); }
  static void store(T* p, V v) { _mm512_storeu_pd(p, v); }
  static void store(M m, T* p, V v) { _mm512_mask_storeu_pd(p, m, v); }
  static void stream(T* p, V v) { _mm512_stream_pd(p, v); }
  static V block(V v, V a) {
    return _mm512_mask_mul_pd(v, _mm512_cmp_pd_mask(v, _mm512_setzero_pd(), _CMP_LT_OQ), v, a);
  }
};

// Two vectors a step; the head (to align streamed stores) and the tail masked.
template <typename L, bool kStream>
void float_run(const typename L::T* x, typename L::T* y, size_t n, typename L::T alpha) {
  using M = typename L::M;
  const typename L::V a = L::set1(alpha);
  size_t i = 0;
  if (kStream) {
    i = head_to_align<64>(y, n);
    const M m = first_lanes<M>(i);
    L::store(m, y, L::block(L::load(m, x), a));
  }
  for (; i + 2 * L::kLanes <= n; i += 2 * L::kLanes) {
    const typename L::V r0 = L::block(L::load(x + i), a);
    const typename L::V r1 = L::block(L::load(x + i + L::kLanes), a);
    if (kStream) {
      L::stream(y + i, r0);
      L::stream(y + i + L::kLanes, r1);
    } else {
      L::store(y + i, r0);
      L::store(y + i + L::kLanes, r1);
    }
  }
  for (; i < n; i += L::kLanes) {
    const M m = first_lanes<M>(n - i);
    L::store(m, y + i, L::block(L::load(m, x + i), a));
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
    const size_t h = head_to_align<64>(y, n);  // up to 31 elements
    for (; i < h; i += 16) {
      const __mmask16 m = first_lanes<__mmask16>(h - i);
      _mm256_mask_storeu_epi16(y + i, m, f16_block(_mm256_maskz_loadu_epi16(m, x + i), a));
    }
    i = h;
  }
  for (; i + 32 <= n; i += 32) {
    const __m256i r0 = f16_block(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), a);
    const __m256i r1 = f16_block(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 16)), a);
    const __m512i r = _mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1);
    if (kStream) _mm512_stream_si512(reinterpret_cast<__m512i*>(y + i), r);
    else _mm512_storeu_si512(y + i, r);
  }
  for (; i < n; i += 16) {
    const __mmask16 m = first_lanes<__mmask16>(n - i);
    _mm256_mask_storeu_epi16(y + i, m, f16_block(_mm256_maskz_loadu_epi16(m, x + i), a));
  }
  if (kStream) _mm_sfence();
}

// ---- bfloat16 ----
// Products are computed in float32 and rounded once to bfloat16, which is exact for
// every pair of bfloat16 factors (leaky_relu_kernels.cc says why). The avx512 path
// rounds with integer arithmetic; the avx512bf16 path with vcvtneps2bf16, which rounds
// the same way but reads float32 denormals as zero, so there lanes whose product lies
// below FLT_MIN are redone by the portable code.

// Nearest, ties to even, of 16 float32 lanes (a carry rolls into the exponent, up to
// infinity); NaN quieted keeping sign and top payload bits, as the portable code does.
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

// Negative lanes whose float32 product is a denormal (what vcvtneps2bf16 flushes).
inline __mmask16 bf16_denormal_products(__m512 p, __mmask16 neg) {
  const __m512 ap = _mm512_abs_ps(p);
  return _mm512_mask_cmp_ps_mask(neg, ap, _mm512_set1_ps(FLT_MIN), _CMP_LT_OQ) &
         _mm512_cmp_ps_mask(ap, _mm512_setzero_ps(), _CMP_NEQ_OQ);
}

// Redoes y[k] from x[k] with the portable code for each bit k set in `redo` (k < 32).
[[gnu::noinline, gnu::cold]] void bf16_redo(const uint16_t* x, uint16_t* y, uint32_t redo, uint16_t alpha_bits) {
  for (unsigned k = 0; k < 32; ++k)
    if (redo & (1u << k)) y[k] = leaky_relu_bfloat16_one(x[k], alpha_bits);
}

// Up to 16 lanes at a time, widened to float32, with masked loads and stores: any alpha
// (NaN, zero, infinite), heads and tails.
template <bool kNative>
void bf16_masked(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m512 a = _mm512_set1_ps(bfloat16_to_float(alpha_bits));
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = first_lanes<__mmask16>(n - i);
    const __m256i xh = _mm256_maskz_loadu_epi16(m, x + i);
    const __m512 v = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(xh), 16));
    const __mmask16 neg = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ) & m;
    const __m512 p = _mm512_maskz_mul_ps(neg, v, a);
    const __m256i r = _mm256_mask_blend_epi16(neg, xh, kNative ? bf16_round_native(p) : bf16_round_int(p));
    _mm256_mask_storeu_epi16(y + i, m, r);
    if (kNative) {
      if (const __mmask16 redo = bf16_denormal_products(p, neg)) {
        alignas(32) uint16_t xs[16];  // in place, x's lanes are gone
        _mm256_store_si256(reinterpret_cast<__m256i*>(xs), xh);
        bf16_redo(xs, y + i, redo, alpha_bits);
      }
    }
  }
}

// Rounds float32 bits to bfloat16 in the high half of each 32-bit lane (nearest, ties
// to even; the low half is left as garbage). Never given NaN.
inline __m512i bf16_round_high(__m512i p) {
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(p, 16), _mm512_set1_epi32(1));
  return _mm512_add_epi32(_mm512_add_epi32(p, _mm512_set1_epi32(0x7fff)), lsb);
}

// 32 bfloat16 lanes, none widened: each 32-bit word holds two values; its high half
// masked is the odd one as float32, the word shifted up the even one. Only for a
// finite, nonzero alpha, where no product is NaN.
//  - integer rounding: lanes that are not negative are not multiplied and come through
//    the rounding unchanged (their low 16 bits are zero, NaN included);
//  - vcvtne2ps2bf16 would quiet a signaling NaN of x, so every lane is multiplied and
//    the lanes that are not negative take x back (16-bit compare on the raw bits:
//    negative and not NaN or -0 is 0x8001..0xff80).
template <bool kNative>
inline __m512i bf16_pairs_block(__m512i u, __m512 a) {
  const __m512 odd = _mm512_castsi512_ps(_mm512_and_si512(u, _mm512_set1_epi32(int32_t(0xffff0000))));
  const __m512 even = _mm512_castsi512_ps(_mm512_slli_epi32(u, 16));
  if (kNative) {
    // Lanes 0-15 of the conversion are the even values, 16-31 the odd ones: interleave.
    __m512bh b = _mm512_cvtne2ps_pbh(_mm512_mul_ps(odd, a), _mm512_mul_ps(even, a));
    __m512i r;
    std::memcpy(&r, &b, sizeof r);
    const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                                           21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    const __mmask32 neg =
        _mm512_cmplt_epu16_mask(_mm512_sub_epi16(u, _mm512_set1_epi16(int16_t(0x8001))), _mm512_set1_epi16(0x7f80));
    return _mm512_mask_blend_epi16(neg, u, _mm512_permutexvar_epi16(order, r));
  }
  const __m512 p_odd = _mm512_mask_mul_ps(odd, _mm512_cmp_ps_mask(odd, _mm512_setzero_ps(), _CMP_LT_OQ), odd, a);
  const __m512 p_even = _mm512_mask_mul_ps(even, _mm512_cmp_ps_mask(even, _mm512_setzero_ps(), _CMP_LT_OQ), even, a);
  const __m512i r_odd = bf16_round_high(_mm512_castps_si512(p_odd));
  const __m512i r_even = _mm512_srli_epi32(bf16_round_high(_mm512_castps_si512(p_even)), 16);
  // (r_odd & 0xffff0000) | r_even
  return _mm512_ternarylogic_epi32(r_odd, r_even, _mm512_set1_epi32(int32_t(0xffff0000)), 0xec);
}

// Lanes of u whose magnitude bits lie in [1, denormal_max]: a superset of those whose
// product is a float32 denormal (a positive lane among them is redone harmlessly).
inline __mmask32 bf16_pairs_denormal(__m512i u, __m512i denormal_max) {
  const __m512i mag = _mm512_and_si512(u, _mm512_set1_epi16(0x7fff));
  return _mm512_cmplt_epu16_mask(_mm512_sub_epi16(mag, _mm512_set1_epi16(1)), denormal_max);
}

// The largest bfloat16 magnitude pattern m with |m| * |alpha| below FLT_MIN in float32
// (0 if none). The product grows with m, so a binary search finds it.
uint16_t bf16_denormal_max(uint16_t alpha_bits) {
  const float a = std::fabs(bfloat16_to_float(alpha_bits));
  uint16_t lo = 0, hi = 0x7f80;  // 0 * a = 0 is below FLT_MIN; +inf * a is not
  while (hi - lo > 1) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
    if (bfloat16_to_float(mid) * a < FLT_MIN) lo = mid;
    else hi = mid;
  }
  return lo;
}

// n: a multiple of 32; alpha finite and nonzero. Not inlined, and with no call in its
// loop, so that its constants stay in registers.
template <bool kNative, bool kStream>
[[gnu::noinline]] void bf16_pairs_loop(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  const __m512 a = _mm512_set1_ps(bfloat16_to_float(alpha_bits));
  const __m512i denormal_max = _mm512_set1_epi16(static_cast<int16_t>(kNative ? bf16_denormal_max(alpha_bits) : 0));
  for (size_t i = 0; i < n; i += 32) {
    const __m512i u = _mm512_loadu_si512(x + i);
    const __m512i r = bf16_pairs_block<kNative>(u, a);
    if (kStream) _mm512_stream_si512(reinterpret_cast<__m512i*>(y + i), r);
    else _mm512_storeu_si512(y + i, r);
    if (kNative) {
      if (const __mmask32 redo = bf16_pairs_denormal(u, denormal_max); __builtin_expect(redo != 0, 0)) {
        // In place, x's lanes are gone: the rare block is redone from its saved input.
        alignas(64) uint16_t xs[32];
        _mm512_store_si512(xs, u);
        bf16_redo(xs, y + i, redo, alpha_bits);
      }
    }
  }
}

template <bool kNative, bool kStream>
void bf16_run(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  size_t i = kStream ? head_to_align<64>(y, n) : 0;
  bf16_masked<kNative>(x, y, i, alpha_bits);
  const float alpha = bfloat16_to_float(alpha_bits);
  if (std::isfinite(alpha) && alpha != 0.0f) {
    const size_t whole = (n - i) / 32 * 32;
    bf16_pairs_loop<kNative, kStream>(x + i, y + i, whole, alpha_bits);
    i += whole;
  }
  if (kStream) _mm_sfence();
  bf16_masked<kNative>(x + i, y + i, n - i, alpha_bits);
}

}  // namespace

using leaky_relu_simd::with_stream_choice;

void f32(const float* x, float* y, size_t n, float alpha) {
  with_stream_choice(x, y, n, [&](auto stream) { float_run<F32, decltype(stream)::value>(x, y, n, alpha); });
}

void f64(const double* x, double* y, size_t n, double alpha) {
  with_stream_choice(x, y, n, [&](auto stream) { float_run<F64, decltype(stream)::value>(x, y, n, alpha); });
}

void f16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  with_stream_choice(x, y, n, [&](auto stream) { f16_run<decltype(stream)::value>(x, y, n, alpha_bits); });
}

void bf16(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  with_stream_choice(x, y, n, [&](auto stream) { bf16_run<false, decltype(stream)::value>(x, y, n, alpha_bits); });
}

void bf16_native(const uint16_t* x, uint16_t* y, size_t n, uint16_t alpha_bits) {
  with_stream_choice(x, y, n, [&](auto stream) { bf16_run<true, decltype(stream)::value>(x, y, n, alpha_bits); });
}

}  // namespace onnxrun::leaky_relu_avx512

#pragma GCC pop_options
#if defined(__clang__)
#pragma clang attribute pop
#endif
