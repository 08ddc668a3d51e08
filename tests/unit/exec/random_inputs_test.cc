// Made-up values (exec/random_inputs.h): uniform in [LO, HI] for every float type, the
// same bits as before for every range whose width is a double (a seed must keep making
// the same inputs) but where rounding to the type left the range, within [LO, HI] where
// the width overflows, and a range a type cannot hold refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/element.h"
#include "core/error.h"
#include "core/half.h"
#include "exec/random_inputs.h"

using namespace onnxrun;

namespace {

constexpr double kMax = std::numeric_limits<double>::max();

// The bits of what the code before made: std::uniform_real_distribution over the seed's
// mt19937_64, rounded to the type.
std::vector<uint64_t> old_bits(DType type, int64_t n, uint64_t seed, double low, double high) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(low, high);
  std::vector<uint64_t> out;
  for (int64_t k = 0; k < n; ++k) {
    const double v = real(rng);
    uint64_t b = 0;
    if (type == DType::kDouble) std::memcpy(&b, &v, sizeof v);
    if (type == DType::kFloat) {
      const auto f = static_cast<float>(v);
      std::memcpy(&b, &f, sizeof f);
    }
    if (type == DType::kFloat16) b = double_to_float16(v);
    if (type == DType::kBFloat16) b = double_to_bfloat16(v);
    out.push_back(b);
  }
  return out;
}

std::vector<uint64_t> bits_of(const Tensor& t) {
  std::vector<uint64_t> out;
  const size_t size = dtype_size(t.dtype());
  for (int64_t k = 0; k < t.numel(); ++k) {
    uint64_t b = 0;
    std::memcpy(&b, static_cast<const char*>(t.raw()) + k * size, size);
    out.push_back(b);
  }
  return out;
}

std::string usage_error(DType type, double low, double high) {
  try {
    random_tensor(type, {4}, 1, low, high);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    return e.what();
  }
  return "accepted";
}

const DType kFloatTypes[] = {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16};

}  // namespace

TEST_CASE("made-up floats are the bits std::uniform_real_distribution gave, for every range it could take",
          "[random-inputs]") {
  const std::vector<std::pair<double, double>> ranges = {{-1, 1},     {0, 1},        {-5, 5},
                                                         {-2.5, 1e3}, {3, 3},        {1e-300, 2e-300},
                                                         {-6e4, 6e4}, {-3e38, 3e38}, {-kMax / 2, kMax / 2}};
  for (DType type : kFloatTypes)
    for (const auto& [low, high] : ranges)
      for (uint64_t seed : {0u, 1u, 1000003u}) {
        if (type == DType::kFloat16 && high > 65504) continue;  // refused: see below
        if (type != DType::kDouble && high > 3e38) continue;
        INFO(dtype_name(type) << " [" << low << ", " << high << "] seed " << seed);
        const Tensor t = random_tensor(type, {1001}, seed, low, high);
        const std::vector<uint64_t> now = bits_of(t), before = old_bits(type, 1001, seed, low, high);
        // Where rounding to the type left the range (bfloat16 at its ends), the value is
        // the type's next one inside it; everywhere else the old bits.
        for (int64_t k = 0; k < t.numel(); ++k)
          if (now[k] != before[k])
            CHECK((element_as_double(t, k) >= low && element_as_double(t, k) <= high &&
                   (now[k] + 1 == before[k] || before[k] + 1 == now[k])));
        if (type == DType::kDouble || (type != DType::kBFloat16 && high < 1e4)) CHECK(now == before);
      }
}

// bfloat16 rounded 65504 to 65536 and float 0.1 to 0.100000001: made-up values beyond the
// range asked for.
TEST_CASE("made-up values rounded to their type stay within the range", "[random-inputs]") {
  for (DType type : kFloatTypes)
    for (const auto& [low, high] : std::vector<std::pair<double, double>>{{-65504, 65504}, {0, 0.1}, {-0.3, -0.1}}) {
      INFO(dtype_name(type) << " [" << low << ", " << high << "]");
      const Tensor t = random_tensor(type, {20000}, 5, low, high);
      for (int64_t k = 0; k < t.numel(); ++k) {
        const double v = element_as_double(t, k);
        if (!(v >= low && v <= high)) FAIL("element " << k << " is " << v);
      }
    }
}

TEST_CASE("made-up doubles stay within a range whose width overflows, spread across it", "[random-inputs]") {
  // HI - LO was +inf: every value was +inf.
  for (const auto& [low, high] : std::vector<std::pair<double, double>>{{-1.5e308, 1.5e308}, {-kMax, kMax}}) {
    INFO("[" << low << ", " << high << "]");
    const Tensor t = random_tensor(DType::kDouble, {1000}, 7, low, high);
    int negative = 0;
    double least = kMax, most = -kMax;
    for (int64_t k = 0; k < t.numel(); ++k) {
      const double v = element_as_double(t, k);
      CHECK((v >= low && v <= high));
      negative += v < 0;
      least = std::min(least, v);
      most = std::max(most, v);
    }
    CHECK((negative > 400 && negative < 600));
    CHECK(least < low / 2);
    CHECK(most > high / 2);
    CHECK(bits_of(t) == bits_of(random_tensor(DType::kDouble, {1000}, 7, low, high)));  // the seed decides
  }
  REQUIRE(std::isinf(1e300 - -kMax));
  const Tensor lopsided = random_tensor(DType::kDouble, {1000}, 3, -kMax, 1e300);
  for (int64_t k = 0; k < lopsided.numel(); ++k) CHECK(std::isfinite(element_as_double(lopsided, k)));
  for (int64_t k = 0; k < lopsided.numel(); ++k) CHECK(element_as_double(lopsided, k) <= 1e300);
}

TEST_CASE("a range that is not finite or goes beyond the type's finite values is a usage error", "[random-inputs]") {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (DType type : kFloatTypes) {
    INFO(dtype_name(type));
    CHECK(usage_error(type, -kInf, kInf) == "value range [-inf, inf]: LO and HI must be finite numbers");
    CHECK(usage_error(type, 0, std::nan("")) == "value range [0, nan]: LO and HI must be finite numbers");
  }
  CHECK(usage_error(DType::kFloat16, 0, 1e5) ==
        "value range [0, 100000] is beyond float16's finite values (largest 65504): values would round to infinity");
  CHECK(usage_error(DType::kFloat, -1e39, 0) ==
        "value range [-1e+39, 0] is beyond float's finite values (largest 3.4028234663852886e+38): values would round "
        "to infinity");
  CHECK_THAT(usage_error(DType::kBFloat16, -1e39, 1e39), Catch::Contains("beyond bfloat16's finite values"));
  CHECK_NOTHROW(random_tensor(DType::kFloat16, {4}, 1, -65504, 65504));  // the largest finite values themselves
}

// Found by the coverage build (no test made up an integer): the default [-1, 1] gave a
// uint8 255 and a uint64 2^64 - 1 (-1 cut to its low bits), and [-1000, 1000] an int8
// values wrapped around. A bool took no notice of the range at all.
TEST_CASE("made-up integers are those of the range their type holds, uniform over them", "[random-inputs]") {
  struct Case {
    DType type;
    double low, high, least, greatest;  // the integers expected: the range cut to the type
  };
  const Case cases[] = {{DType::kBool, -1, 1, 0, 1},
                        {DType::kBool, 1, 1, 1, 1},
                        {DType::kBool, -3, 0.5, 0, 0},
                        {DType::kUInt8, -1, 1, 0, 1},
                        {DType::kInt8, -1000, 1000, -128, 127},
                        {DType::kUInt16, -5.5, 3.5, 0, 3},
                        {DType::kInt16, -2.5, 2.5, -2, 2},
                        {DType::kUInt32, -1, 1, 0, 1},
                        {DType::kInt32, -1, 1, -1, 1},
                        {DType::kInt64, -3, 9.3e18, -3, 9223372036854775807.0},
                        {DType::kUInt64, -1, 1, 0, 1},
                        {DType::kUInt64, 1.8e19, 1e30, 1.8e19, 18446744073709551615.0}};
  for (const Case& c : cases) {
    INFO(dtype_name(c.type) << " [" << c.low << ", " << c.high << "]");
    const Tensor t = random_tensor(c.type, {4000}, 3, c.low, c.high);
    double least = INFINITY, greatest = -INFINITY;
    for (int64_t k = 0; k < t.numel(); ++k) {
      const double v = element_as_double(t, k);
      if (!(v >= c.least && v <= c.greatest && v == std::floor(v))) FAIL("element " << k << " is " << v);
      least = std::min(least, v);
      greatest = std::max(greatest, v);
    }
    if (c.greatest - c.least < 1000) {  // few values: 4000 draws meet the least and the greatest
      CHECK(least == c.least);
      CHECK(greatest == c.greatest);
    }
  }
  CHECK(usage_error(DType::kUInt8, -5, -1) == "value range [-5, -1] holds no uint8 value (0 to 255)");
  CHECK(usage_error(DType::kBool, 5, 6) == "value range [5, 6] holds no bool value (0 to 1)");
  CHECK(usage_error(DType::kInt8, 128, 300) == "value range [128, 300] holds no int8 value (-128 to 127)");
  CHECK(usage_error(DType::kInt64, 1e19, 1e30) ==
        "value range [1e+19, 1e+30] holds no int64 value (-9223372036854775808 to 9223372036854775807)");
  CHECK(usage_error(DType::kInt32, 0.25, 0.75) == "value range [0.25, 0.75] holds no integer");
}
