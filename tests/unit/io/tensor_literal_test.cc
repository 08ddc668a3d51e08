// Tensors written on the command line (io/tensor_literal.h): values, shapes, and the
// usage errors malformed text gets.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/element.h"
#include "core/error.h"
#include "core/half.h"
#include "io/tensor_literal.h"

using namespace onnxrun;

TEST_CASE("literal lists give values and shape", "[literal]") {
  Tensor t = parse_tensor_literal("[[1, 2.5, -3], [4e1, nan, -inf]]", DType::kFloat, std::nullopt, "-i x");
  CHECK(t.shape() == Shape{2, 3});
  CHECK(element_as_double(t, 1) == 2.5);
  CHECK(element_as_double(t, 3) == 40);
  CHECK(std::isnan(element_as_double(t, 4)));
  CHECK(element_as_double(t, 5) == -std::numeric_limits<double>::infinity());
  // -nan keeps its sign, in every float type, as numpy's -np.nan does (it lost it).
  for (DType d : {DType::kFloat, DType::kDouble, DType::kFloat16, DType::kBFloat16}) {
    CAPTURE(dtype_name(d));
    const Tensor n = parse_tensor_literal("[-nan, nan]", d, std::nullopt, "x");
    CHECK((std::isnan(element_as_double(n, 0)) && std::signbit(element_as_double(n, 0))));
    CHECK((std::isnan(element_as_double(n, 1)) && !std::signbit(element_as_double(n, 1))));
  }
  CHECK(parse_tensor_literal("[]", DType::kInt64, std::nullopt, "x").shape() == Shape{0});
  CHECK(parse_tensor_literal("[[],[]]", DType::kInt64, std::nullopt, "x").shape() == Shape{2, 0});
  CHECK(parse_tensor_literal("[7]", DType::kInt32, Shape{}, "x").shape().empty());
  CHECK(parse_tensor_literal("[1,2,3,4,5,6]", DType::kInt8, Shape{2, 3}, "x").shape() == Shape{2, 3});
  // One correct rounding for 16-bit floats.
  CHECK(parse_tensor_literal("[0.1]", DType::kFloat16, std::nullopt, "x").data<uint16_t>()[0] ==
        double_to_float16(0.1));
  CHECK(parse_tensor_literal("[0.1]", DType::kBFloat16, std::nullopt, "x").data<uint16_t>()[0] ==
        double_to_bfloat16(0.1));
  CHECK(parse_tensor_literal("[true, false, 1]", DType::kBool, std::nullopt, "x").data<uint8_t>()[0] == 1);
}

// Found by the coverage build (no test wrote a 16- or 64-bit integer): read as doubles,
// 18446744073709551615 was 2^64 and became 0 in a uint64 (a cast out of range), and
// 2^53 + 1 became 2^53.
TEST_CASE("integer literals are exact, at every integer type's limits", "[literal]") {
  const Tensor u64 =
      parse_tensor_literal("[18446744073709551615, 9007199254740993, 0]", DType::kUInt64, std::nullopt, "x");
  CHECK(u64.data<uint64_t>()[0] == std::numeric_limits<uint64_t>::max());
  CHECK(u64.data<uint64_t>()[1] == (uint64_t{1} << 53) + 1);
  const Tensor i64 =
      parse_tensor_literal("[-9223372036854775808, 9223372036854775807, 1e3]", DType::kInt64, std::nullopt, "x");
  CHECK(i64.data<int64_t>()[0] == std::numeric_limits<int64_t>::min());
  CHECK(i64.data<int64_t>()[1] == std::numeric_limits<int64_t>::max());
  CHECK(i64.data<int64_t>()[2] == 1000);  // written as a number, not an integer: its value
  // Other ways of writing an integer are exact too (they went through a double).
  const Tensor forms =
      parse_tensor_literal("[+9007199254740993, 9007199254740993.0, 9.007199254740993e15, 0x20000000000001]",
                           DType::kInt64, std::nullopt, "x");
  for (int k = 0; k < 4; ++k) CHECK(forms.data<int64_t>()[k] == (int64_t{1} << 53) + 1);
  const Tensor more = parse_tensor_literal("[-0, 1.5e1, 150e-1, -9.223372036854775808E18, 0.0e5, 0007, -.0]",
                                           DType::kInt64, std::nullopt, "x");
  const int64_t want[] = {0, 15, 15, std::numeric_limits<int64_t>::min(), 0, 7, 0};
  for (int k = 0; k < 7; ++k) CHECK(more.data<int64_t>()[k] == want[k]);
  CHECK(parse_tensor_literal("[-0, -0.0]", DType::kUInt8, std::nullopt, "x").data<uint8_t>()[1] == 0);
  CHECK(parse_tensor_literal(
            "[0000000000000000000000000000000000000000000001, 0.00000000000000000000000000000000000000000012e44]",
            DType::kInt32, std::nullopt, "x")
            .data<int32_t>()[1] == 12);
  CHECK(parse_tensor_literal("[+18446744073709551615]", DType::kUInt64, std::nullopt, "x").data<uint64_t>()[0] ==
        std::numeric_limits<uint64_t>::max());
  CHECK(parse_tensor_literal("[-32768, 32767]", DType::kInt16, std::nullopt, "x").data<int16_t>()[0] == -32768);
  CHECK(parse_tensor_literal("[65535, -0]", DType::kUInt16, std::nullopt, "x").data<uint16_t>()[0] == 65535);
  CHECK(parse_tensor_literal("[4294967295]", DType::kUInt32, std::nullopt, "x").data<uint32_t>()[0] == 4294967295u);
  CHECK(parse_tensor_literal("[-128, 127]", DType::kInt8, std::nullopt, "x").data<int8_t>()[0] == -128);
}

TEST_CASE("malformed literals are usage errors naming the problem", "[literal]") {
  auto msg = [](const std::string& text, DType t, std::optional<Shape> s = std::nullopt) {
    try {
      parse_tensor_literal(text, t, s, "-i x=" + text);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(msg("[[1,2],[3]]", DType::kFloat), Catch::Contains("ragged"));
  CHECK_THAT(msg("[[1,2],3]", DType::kFloat), Catch::Contains("mixed"));
  CHECK_THAT(msg("[1,2", DType::kFloat), Catch::Contains("expected ',' or ']'"));
  CHECK_THAT(msg("[1,x]", DType::kFloat), Catch::Contains("expected a number"));
  CHECK_THAT(msg("[1] junk", DType::kFloat), Catch::Contains("after the closing"));
  CHECK_THAT(msg("[1.5]", DType::kInt32), Catch::Contains("not a int32 value"));
  CHECK_THAT(msg("[300]", DType::kUInt8), Catch::Contains("not a uint8 value"));
  CHECK(msg("[18446744073709551616]", DType::kUInt64) ==
        "-i x=[18446744073709551616]: 18446744073709551616 is not a uint64 value");
  CHECK(msg("[9223372036854775808]", DType::kInt64) ==
        "-i x=[9223372036854775808]: 9223372036854775808 is not a int64 value");
  CHECK_THAT(msg("[-1]", DType::kUInt32), Catch::Contains("-1 is not a uint32 value"));
  CHECK_THAT(msg("[2e19]", DType::kUInt64), Catch::Contains(": 2e19 is not a uint64 value"));
  CHECK_THAT(msg("[+18446744073709551616]", DType::kUInt64),
             Catch::Contains(": +18446744073709551616 is not a uint64 value"));
  CHECK_THAT(msg("[nan]", DType::kInt8), Catch::Contains(": nan is not a int8 value"));
  // A fraction past any float's precision is still a fraction (it was rounded away).
  CHECK_THAT(msg("[9223372036854775806.2]", DType::kInt64), Catch::Contains("is not a int64 value"));
  CHECK_THAT(msg("[18446744073709551614.6]", DType::kUInt64), Catch::Contains("is not a uint64 value"));
  CHECK_THAT(msg("[1.00000000000000000001]", DType::kInt8), Catch::Contains("is not a int8 value"));
  CHECK_THAT(msg("[1e-400]", DType::kInt32), Catch::Contains(": 1e-400 is not a int32 value"));
  CHECK_THAT(msg("[1e999999999999999999999]", DType::kInt32), Catch::Contains("is not a int32 value"));
  CHECK_THAT(msg("[1e-999999999999999999999]", DType::kInt32), Catch::Contains("is not a int32 value"));
  CHECK_THAT(msg("[32768]", DType::kInt16), Catch::Contains("32768 is not a int16 value"));
  CHECK_THAT(msg("[2]", DType::kBool), Catch::Contains("not a bool"));
  CHECK_THAT(msg("[1,2,3]", DType::kFloat, Shape{2, 2}), Catch::Contains("has 3 values but --shape [2,2] holds 4"));
  CHECK_THAT(msg("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", DType::kFloat),
             Catch::Contains("nested too deeply"));
}
