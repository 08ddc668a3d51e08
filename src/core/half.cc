#include "core/half.h"

#include <algorithm>
#include <bit>

namespace onnxrun {
namespace {

// Rounds a double into a binary format with kExpBits exponent bits and kManBits stored
// mantissa bits (IEEE layout, with subnormals), returning the encoded bits.
template <int kExpBits, int kManBits>
uint16_t round_double_to_small_float(double v) {
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr int kEmin = 1 - kBias;                      // least normal exponent
  constexpr uint32_t kExpField = (1u << kExpBits) - 1;  // all-ones: inf / NaN
  constexpr uint32_t kInfBits = kExpField << kManBits;
  constexpr int kSignShift = kExpBits + kManBits;

  const uint64_t b = std::bit_cast<uint64_t>(v);
  const uint32_t sign = static_cast<uint32_t>(b >> 63) << kSignShift;
  const int e = static_cast<int>((b >> 52) & 0x7ff);
  const uint64_t mant = b & ((uint64_t{1} << 52) - 1);

  if (e == 0x7ff) {
    if (mant == 0) return static_cast<uint16_t>(sign | kInfBits);
    // NaN: keep the top payload bits and force the quiet bit so it cannot become inf.
    uint32_t payload = static_cast<uint32_t>(mant >> (52 - kManBits));
    payload |= 1u << (kManBits - 1);
    return static_cast<uint16_t>(sign | kInfBits | payload);
  }
  if (e == 0 && mant == 0) return static_cast<uint16_t>(sign);

  // v = sig * 2^exp exactly, sig an integer below 2^53.
  const uint64_t sig = e ? (mant | (uint64_t{1} << 52)) : mant;
  const int exp = e ? e - 1023 - 52 : -1022 - 52;
  const int top = exp + 63 - std::countl_zero(sig);  // floor(log2(|v|))
  // Spacing of the target's representable values around |v|: 2^q.
  const int q = std::max(top, kEmin) - kManBits;
  const int shift = q - exp;

  uint64_t r;  // |v| rounded to a multiple of 2^q, in units of 2^q
  if (shift <= 0) {
    r = sig << -shift;  // exact (cannot overflow: sig then has at most kManBits+1 bits)
  } else if (shift >= 64) {
    r = 0;  // |v| < 2^(q-11): below half the spacing
  } else {
    r = sig >> shift;
    const uint64_t rem = sig & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
  }
  // Encoding: for a normal result r is in [2^M, 2^(M+1)] and the biased exponent is
  // q + M + bias; a carry to 2^(M+1) or out of the subnormal range rolls into the
  // exponent field by itself, so one addition covers every case.
  const uint64_t enc = (static_cast<uint64_t>(q - (kEmin - kManBits)) << kManBits) + r;
  if (enc >= kInfBits) return static_cast<uint16_t>(sign | kInfBits);
  return static_cast<uint16_t>(sign | static_cast<uint32_t>(enc));
}

}  // namespace

float float16_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise; the value is man * 2^-24.
    int e = -1;
    do {
      man <<= 1;
      ++e;
    } while ((man & 0x400) == 0);
    bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
  }
  return std::bit_cast<float>(bits);
}

uint16_t double_to_float16(double v) { return round_double_to_small_float<5, 10>(v); }
uint16_t double_to_bfloat16(double v) { return round_double_to_small_float<8, 7>(v); }

}  // namespace onnxrun
