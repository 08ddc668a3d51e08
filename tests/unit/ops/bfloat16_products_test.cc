// bfloat16 products are computed in float32 and rounded once (leaky_relu_kernels.cc,
// Mul). That is exact where float32 is normal (16 significant bits at most); below
// FLT_MIN float32 rounds too, and this checks, for every pair of bfloat16 factors whose
// product lies there, that the result is still the exact product rounded once. The
// exact rounding is done here in integers: a product of bfloat16 values is M * 2^E with
// M < 2^16, and below FLT_MIN bfloat16 keeps multiples of 2^-133.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "core/half.h"
#include "ops/leaky_relu_kernels.h"
#include "support/reference_float.h"

using namespace onnxrun;

namespace {

struct Exact {
  uint32_t m;  // value = m * 2^e
  int e;
};

Exact decode(uint16_t magnitude_bits) {
  const int exp = (magnitude_bits >> 7) & 0xff;
  const uint32_t frac = magnitude_bits & 0x7f;
  if (exp == 0) return {frac, -133};  // subnormal: frac * 2^-126 * 2^-7
  return {0x80u | frac, exp - 127 - 7};
}

// The bfloat16 magnitude bits of m * 2^e, rounded to nearest even; REQUIRES a value
// below 2^-126, where bfloat16 keeps multiples of 2^-133 (a result of 2^-126 itself is
// bits 0x0080, the least normal, which this encoding reaches by carrying).
uint16_t round_below_flt_min(uint64_t m, int e) {
  const int shift = -133 - e;  // m * 2^e = (m >> shift) * 2^-133
  if (shift <= 0) return static_cast<uint16_t>(m << -shift);
  if (shift > 40) return 0;
  const uint64_t q = m >> shift, rest = m & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
  return static_cast<uint16_t>(q + (rest > half || (rest == half && (q & 1))));
}

bool below_flt_min(uint64_t m, int e) {
  // m * 2^e < 2^-126  <=>  m < 2^(-126 - e)
  const int k = -126 - e;
  return k > 63 || (k >= 0 && m < (uint64_t{1} << k));
}

}  // namespace

TEST_CASE("bfloat16 products below FLT_MIN round once, for every pair of factors", "[leaky_relu][kernels][bfloat16]") {
  uint64_t pairs = 0;
  for (uint32_t bx = 1; bx < 0x7f80; ++bx) {
    const Exact x = decode(static_cast<uint16_t>(bx));
    for (uint32_t ba = 1; ba < 0x7f80; ++ba) {
      const Exact a = decode(static_cast<uint16_t>(ba));
      const uint64_t m = uint64_t{x.m} * a.m;
      if (!below_flt_min(m, x.e + a.e)) break;  // larger alphas give larger products
      ++pairs;
      const uint16_t want = static_cast<uint16_t>(0x8000 | round_below_flt_min(m, x.e + a.e));
      const uint16_t got = leaky_relu_bfloat16_one(static_cast<uint16_t>(0x8000 | bx), static_cast<uint16_t>(ba));
      if (got != want) {
        INFO("x bits 0x8000|" << std::hex << bx << ", alpha bits " << ba << ": want " << want << " got " << got);
        REQUIRE(got == want);
      }
    }
  }
  // Every factor pattern meets the region (down to the smallest alphas).
  CHECK(pairs > 100'000'000);
  WARN(pairs << " pairs of bfloat16 factors with products below FLT_MIN checked");
}

TEST_CASE("bfloat16 products above FLT_MIN are exact in float32 (random pairs)", "[leaky_relu][kernels][bfloat16]") {
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> bits(0, 0xffff);
  for (int i = 0; i < 1'000'000; ++i) {
    const uint16_t x = static_cast<uint16_t>(bits(rng) | 0x8000), a = static_cast<uint16_t>(bits(rng));
    const double p = test::ref_decode(test::kBF16, x) * test::ref_decode(test::kBF16, a);
    if (std::isnan(p) || !(std::fabs(p) >= 0x1p-126)) continue;
    INFO("x bits " << std::hex << x << ", alpha bits " << a);
    REQUIRE(leaky_relu_bfloat16_one(x, a) == test::ref_round(test::kBF16, p));
  }
}
