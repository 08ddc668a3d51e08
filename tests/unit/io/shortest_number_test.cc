// shortest_in_type: the shortest decimal that reads back in the tensor's own type, for
// all four float types (every float16 and bfloat16 value checked), as numpy prints them.
#include "io/shortest_number.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/half.h"

using namespace onnxrun;

TEST_CASE("float and double print their own shortest digits", "[io][numbers]") {
  CHECK(shortest_in_type(static_cast<float>(-0.03), DType::kFloat) == "-0.03");
  CHECK(shortest_in_type(0.1f, DType::kFloat) == "0.1");
  CHECK(shortest_in_type(1.0 / 3, DType::kFloat) == "0.33333334");  // numpy: 0.33333334
  CHECK(shortest_in_type(1e-45, DType::kFloat) == "1e-45");         // the smallest denormal
  CHECK(shortest_in_type(3.4028235e38, DType::kFloat) == "3.4028235e+38");
  CHECK(shortest_in_type(1e39, DType::kFloat) == "inf");  // beyond float: rounds to inf
  CHECK(shortest_in_type(-0.0, DType::kFloat) == "-0");
  CHECK(shortest_in_type(0.1, DType::kDouble) == "0.1");
  CHECK(shortest_in_type(static_cast<double>(0.1f), DType::kDouble) == "0.10000000149011612");
  CHECK(shortest_in_type(std::nan(""), DType::kDouble) == "nan");
  CHECK(shortest_in_type(-INFINITY, DType::kFloat16) == "-inf");
  CHECK(shortest_in_type(7, DType::kInt64) == "7");
}

TEST_CASE("float16 prints as numpy prints it, and every value reads back", "[io][numbers]") {
  CHECK(shortest_in_type(0.1, DType::kFloat16) == "0.1");
  CHECK(shortest_in_type(-0.03, DType::kFloat16) == "-0.03");
  CHECK(shortest_in_type(1.0 / 3, DType::kFloat16) == "0.3333");  // numpy: 0.3333
  CHECK(shortest_in_type(65504, DType::kFloat16) == "65500");     // numpy: 65500.0
  CHECK(shortest_in_type(2049, DType::kFloat16) == "2048");
  CHECK(shortest_in_type(6e-8, DType::kFloat16) == "6e-08");  // the smallest denormal
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float v = float16_to_float(static_cast<uint16_t>(bits));
    if (!std::isfinite(v)) continue;
    const std::string s = shortest_in_type(v, DType::kFloat16);
    INFO(bits << " " << s);
    REQUIRE(double_to_float16(std::strtod(s.c_str(), nullptr)) == bits);
  }
}

TEST_CASE("bfloat16 prints its shortest digits, and every value reads back", "[io][numbers]") {
  CHECK(shortest_in_type(0.1, DType::kBFloat16) == "0.1");
  CHECK(shortest_in_type(3.14159, DType::kBFloat16) == "3.14");
  CHECK(shortest_in_type(1.0 / 3, DType::kBFloat16) == "0.334");  // 0.333984375
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float v = bfloat16_to_float(static_cast<uint16_t>(bits));
    if (!std::isfinite(v)) continue;
    const std::string s = shortest_in_type(v, DType::kBFloat16);
    INFO(bits << " " << s);
    REQUIRE(double_to_bfloat16(std::strtod(s.c_str(), nullptr)) == bits);
  }
}
