#include "io/crc32.h"

#include <zlib.h>

#include "core/hardware.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace onnxrun {
namespace {

#if defined(__x86_64__)

// Folds len bytes (len >= 64, a multiple of 16) into `crc`, which is zlib's CRC
// complemented (the register's value). The constants are the bit-reflected x^k mod P(x)
// for CRC-32's P(x) = 0x104C11DB7, and the Barrett pair for the final reduction, from the
// paper's appendix (as Chromium's zlib and Linux's crc32-pclmul use them).
// acc folded 128 bits ahead by the constants in k, plus next.
__attribute__((target("pclmul,sse4.1"))) inline __m128i fold16(__m128i acc, __m128i next, __m128i k) {
  const __m128i lo = _mm_clmulepi64_si128(acc, k, 0x00);
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(acc, k, 0x11), next), lo);
}

__attribute__((target("pclmul,sse4.1"))) inline __m128i load(const unsigned char* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

__attribute__((target("pclmul,sse4.1"))) uint32_t fold_pclmul(const unsigned char* buf, size_t len, uint32_t crc) {
  alignas(16) static const uint64_t k1k2[] = {0x0154442bd4, 0x01c6e41596};
  alignas(16) static const uint64_t k3k4[] = {0x01751997d0, 0x00ccaa009e};
  alignas(16) static const uint64_t k5k0[] = {0x0163cd6124, 0x0000000000};
  alignas(16) static const uint64_t poly[] = {0x01db710641, 0x01f7011641};

  __m128i x1 = load(buf + 0x00), x2 = load(buf + 0x10), x3 = load(buf + 0x20), x4 = load(buf + 0x30);
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x0 = _mm_load_si128(reinterpret_cast<const __m128i*>(k1k2));
  buf += 64;
  len -= 64;
  // Four lanes of 128 bits, each folded 512 bits ahead.
  while (len >= 64) {
    const __m128i x5 = _mm_clmulepi64_si128(x1, x0, 0x00), x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
    const __m128i x7 = _mm_clmulepi64_si128(x3, x0, 0x00), x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
    x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
    x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), load(buf + 0x00));
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), load(buf + 0x10));
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), load(buf + 0x20));
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), load(buf + 0x30));
    buf += 64;
    len -= 64;
  }
  // The four lanes into one.
  x0 = _mm_load_si128(reinterpret_cast<const __m128i*>(k3k4));
  x1 = fold16(x1, x2, x0);
  x1 = fold16(x1, x3, x0);
  x1 = fold16(x1, x4, x0);
  while (len >= 16) {
    x1 = fold16(x1, load(buf), x0);
    buf += 16;
    len -= 16;
  }
  // 128 bits to 64, then Barrett reduction to 32.
  x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
  x3 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
  x0 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(k5k0));
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, x3), x0, 0x00), x2);
  x0 = _mm_load_si128(reinterpret_cast<const __m128i*>(poly));
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, x3), x0, 0x10);
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, x3), x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return static_cast<uint32_t>(_mm_extract_epi32(x1, 1));
}

#endif

}  // namespace

uint32_t crc32_update(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
#if defined(__x86_64__)
  if (n >= 64 && hardware_config().pclmul) {
    const size_t folded = n & ~size_t{15};
    crc = ~fold_pclmul(p, folded, ~crc);
    p += folded;
    n -= folded;
  }
#endif
  return static_cast<uint32_t>(crc32_z(crc, p, n));
}

}  // namespace onnxrun
