// ULP distances in each type's own units: neighbours are 1 apart, zeros of either sign 0,
// the distance across zero is the sum of the magnitudes' steps, NaN and infinities as
// suite/ulp.h documents them, integers by their difference.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/half.h"
#include "suite/ulp.h"

using namespace onnxrun;

namespace {

uint64_t float_ulps(float a, float b) { return ulp_distance(DType::kFloat, &a, &b); }
uint64_t double_ulps(double a, double b) { return ulp_distance(DType::kDouble, &a, &b); }

}  // namespace

TEST_CASE("float and double: neighbours 1 apart, zeros 0 apart, across zero the sum", "[ulp]") {
  CHECK(float_ulps(1.0f, 1.0f) == 0);
  CHECK(float_ulps(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  CHECK(float_ulps(std::nextafter(1.0f, 2.0f), 1.0f) == 1);
  CHECK(float_ulps(0.0f, -0.0f) == 0);
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(float_ulps(tiny, -tiny) == 2);
  CHECK(float_ulps(-1.0f, 1.0f) == 2 * 0x3f800000ull);
  CHECK(double_ulps(1.0, std::nextafter(1.0, 2.0)) == 1);
  CHECK(double_ulps(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()) ==
        2 * 0x7fefffffffffffffull);
}

TEST_CASE("NaN and infinity: NaN to NaN 0, anything else no bound passes", "[ulp]") {
  float nan1 = NAN, nan2;
  const uint32_t payload = 0x7fc00001;
  std::memcpy(&nan2, &payload, 4);
  CHECK(float_ulps(nan1, nan2) == 0);
  CHECK(float_ulps(nan1, 1.0f) == kUlpInfinite);
  CHECK(float_ulps(INFINITY, INFINITY) == 0);
  CHECK(float_ulps(INFINITY, -INFINITY) == kUlpInfinite);
  CHECK(float_ulps(INFINITY, std::numeric_limits<float>::max()) == kUlpInfinite);
  CHECK(ulp_text(kUlpInfinite) == "inf");
  CHECK(ulp_text(12) == "12");
}

TEST_CASE("16-bit floats in their own units", "[ulp]") {
  const uint16_t one = float_to_float16(1.0f), next = static_cast<uint16_t>(one + 1);
  CHECK(ulp_distance(DType::kFloat16, &one, &next) == 1);
  const uint16_t b_one = float_to_bfloat16(1.0f), b_two = float_to_bfloat16(2.0f);
  CHECK(ulp_distance(DType::kBFloat16, &b_one, &b_two) == 128);  // 7 mantissa bits
  const uint16_t h_nan = 0x7e00, h_inf = 0x7c00;
  CHECK(ulp_distance(DType::kFloat16, &h_nan, &one) == kUlpInfinite);
  CHECK(ulp_distance(DType::kFloat16, &h_inf, &h_inf) == 0);
}

TEST_CASE("integers: the difference, exact at the extremes", "[ulp]") {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  CHECK(ulp_distance(DType::kInt64, &lo, &hi) == UINT64_MAX);  // 2^64 - 1, exact: kUlpInfinite's bits
  CHECK(ulp_text(UINT64_MAX, true) == "18446744073709551615");
  CHECK(ulp_text(UINT64_MAX) == "inf");
  const int32_t a = -3, b = 4;
  CHECK(ulp_distance(DType::kInt32, &a, &b) == 7);
  const uint8_t x = 250, y = 5;
  CHECK(ulp_distance(DType::kUInt8, &x, &y) == 245);
}
