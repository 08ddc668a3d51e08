// float16 / bfloat16 conversions against the plain reference, exhaustively over the bit
// patterns and over every midpoint between neighbouring values.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "core/half.h"
#include "support/reference_float.h"

using namespace onnxrun;
using namespace onnxrun::test;

namespace {
uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

struct Format {
  const char* name;
  SmallFloatFormat ref;
  float (*to_float)(uint16_t);
  uint16_t (*from_double)(double);
  uint16_t (*from_float)(float);
};
const Format kFormats[] = {
    {"float16", kF16, float16_to_float, double_to_float16, float_to_float16},
    {"bfloat16", kBF16, bfloat16_to_float, double_to_bfloat16, float_to_bfloat16},
};
}  // namespace

TEST_CASE("16-bit floats widen exactly and round-trip, all 65536 patterns", "[half]") {
  for (const Format& f : kFormats) {
    INFO(f.name);
    for (uint32_t b = 0; b < 65536; ++b) {
      const uint16_t h = static_cast<uint16_t>(b);
      const double want = ref_decode(f.ref, h);
      const float got = f.to_float(h);
      if (std::isnan(want)) {
        REQUIRE(std::isnan(got));
        REQUIRE(ref_is_nan(f.ref, f.from_float(got)));
        REQUIRE((f.from_float(got) & 0x8000) == (h & 0x8000));
      } else {
        REQUIRE(static_cast<double>(got) == want);
        REQUIRE(std::signbit(got) == std::signbit(want));
        REQUIRE(f.from_float(got) == h);
      }
    }
  }
}

TEST_CASE("rounding into 16-bit floats matches the reference at and around every midpoint", "[half]") {
  for (const Format& f : kFormats) {
    INFO(f.name);
    for (uint32_t b = 0; b < 0x8000; ++b) {
      const double lo = ref_decode(f.ref, static_cast<uint16_t>(b));
      const double hi = ref_decode(f.ref, static_cast<uint16_t>(b + 1));
      if (std::isnan(lo) || std::isnan(hi) || std::isinf(lo)) continue;
      const double mid = lo + (hi - lo) / 2;  // exact in double
      for (double v :
           {mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY), lo, -mid, -std::nextafter(mid, INFINITY)}) {
        INFO("v = " << v);
        REQUIRE(f.from_double(v) == ref_round(f.ref, v));
        const float vf = static_cast<float>(v);
        if (static_cast<double>(vf) == v) REQUIRE(f.from_float(vf) == ref_round(f.ref, v));
      }
    }
  }
}

TEST_CASE("rounding into 16-bit floats matches the reference on random doubles and floats", "[half]") {
  std::mt19937_64 rng(42);
  for (const Format& f : kFormats) {
    INFO(f.name);
    for (int k = 0; k < 200000; ++k) {
      uint64_t r = rng();
      double d;
      std::memcpy(&d, &r, 8);
      if (std::isnan(d)) continue;
      // Bring most values into the format's range so that every region is exercised.
      int unused_exp;
      d = std::ldexp(std::frexp(d, &unused_exp), static_cast<int>(rng() % 320) - 170);
      REQUIRE(f.from_double(d) == ref_round(f.ref, d));
      const float x = static_cast<float>(d);
      REQUIRE(f.from_float(x) == ref_round(f.ref, x));
    }
  }
}

TEST_CASE("special values convert as IEEE says", "[half]") {
  REQUIRE(float_to_float16(INFINITY) == 0x7c00);
  REQUIRE(float_to_float16(-INFINITY) == 0xfc00);
  REQUIRE(float_to_float16(65504.0f) == 0x7bff);
  REQUIRE(float_to_float16(65519.99f) == 0x7bff);
  REQUIRE(float_to_float16(65520.0f) == 0x7c00);  // the tie rounds up to infinity
  REQUIRE(float_to_float16(-0.0f) == 0x8000);
  REQUIRE(float_to_float16(std::ldexp(1.0f, -25)) == 0x0000);  // half the least subnormal: ties to even 0
  REQUIRE(float_to_float16(std::ldexp(1.5f, -25)) == 0x0001);
  REQUIRE(float_to_bfloat16(std::nanf("")) != 0);
  REQUIRE((float_to_bfloat16(std::nanf("")) & 0x7f80) == 0x7f80);
  REQUIRE(float_bits(bfloat16_to_float(0x3f80)) == 0x3f800000u);
  REQUIRE(float_to_bfloat16(0.01f) == 0x3c24);
  REQUIRE(float_to_float16(0.01f) == 0x211f);
}
