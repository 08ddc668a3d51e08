// Output comparison: tolerances as the ONNX backend tests apply them, strict NaN and
// infinity rules, exact dtype and shape, and the report of the worst element.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/half.h"
#include "suite/compare.h"
#include "support/tensors.h"

using namespace onnxrun;
using Catch::Matchers::Contains;
using onnxrun::test::float_tensor;

TEST_CASE("values within atol + rtol*|expected| pass", "[compare]") {
  Comparison c = compare_tensors(float_tensor({1, 100, 0}), float_tensor({1.0009f, 100.09f, 5e-8f}), {});
  CHECK(c.ok);
  CHECK(c.mismatches == 0);
  c = compare_tensors(float_tensor({1, 100, 0}), float_tensor({1.002f, 100, 0}), {});
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 1);
  CHECK(c.worst_index == 0);
  CHECK(c.abs_err == Approx(0.002).epsilon(1e-3));
  CHECK(c.needed_rtol == Approx(0.002 - 1e-7).epsilon(1e-3));
  CHECK(c.needed_atol == Approx(0.001).epsilon(1e-2));
  // The needed tolerances would indeed pass.
  CHECK(compare_tensors(float_tensor({1, 100, 0}), float_tensor({1.002f, 100, 0}), {c.needed_rtol * 1.0001, 1e-7}).ok);
  CHECK(compare_tensors(float_tensor({1, 100, 0}), float_tensor({1.002f, 100, 0}), {1e-3, c.needed_atol * 1.0001}).ok);
}

TEST_CASE("NaN matches only NaN and infinities must match in sign", "[compare]") {
  CHECK(compare_tensors(float_tensor({NAN, INFINITY, -INFINITY}), float_tensor({NAN, INFINITY, -INFINITY}), {}).ok);
  Comparison c = compare_tensors(float_tensor({NAN, 1}), float_tensor({1, 1}), {});
  CHECK_FALSE(c.ok);
  CHECK(std::isinf(c.needed_atol));
  CHECK_FALSE(compare_tensors(float_tensor({1}), float_tensor({NAN}), {}).ok);
  CHECK_FALSE(compare_tensors(float_tensor({INFINITY}), float_tensor({-INFINITY}), {1e9, 1e9}).ok);
  CHECK_FALSE(compare_tensors(float_tensor({INFINITY}), float_tensor({3e38f}), {1e9, 1e9}).ok);
}

TEST_CASE("dtype and shape must match exactly", "[compare]") {
  Comparison c = compare_tensors(float_tensor({1, 2}), Tensor(DType::kDouble, {2}), {});
  CHECK_FALSE(c.ok);
  CHECK_THAT(c.summary("y"), Contains("expected float[2], got double[2]"));
  Tensor reshaped(DType::kFloat, {1, 2});
  CHECK_FALSE(compare_tensors(float_tensor({1, 2}), reshaped, {}).ok);
}

TEST_CASE("the report names the worst element with its bits and the tolerances that would pass", "[compare]") {
  Tensor e(DType::kFloat16, {2, 2}), a(DType::kFloat16, {2, 2});
  const float ev[] = {1, 2, 3, 4}, av[] = {1, 2, 3.5f, 4.01f};
  for (int k = 0; k < 4; ++k) {
    e.mutable_data<uint16_t>()[k] = float_to_float16(ev[k]);
    a.mutable_data<uint16_t>()[k] = float_to_float16(av[k]);
  }
  Comparison c = compare_tensors(e, a, {});
  CHECK(c.mismatches == 2);
  CHECK(c.worst_position == "[1,0]");
  const std::string s = c.summary("y");
  CHECK_THAT(s, Contains("2 of 4 elements differ") && Contains("worst at [1,0]") && Contains("expected 3 (0x4200)") &&
                    Contains("got 3.5 (0x4300)") && Contains("rtol >="));
}

TEST_CASE("integers compare exactly", "[compare]") {
  Tensor e(DType::kInt64, {1}), a(DType::kInt64, {1});
  e.mutable_data<int64_t>()[0] = (int64_t{1} << 60) + 1;
  a.mutable_data<int64_t>()[0] = (int64_t{1} << 60);
  CHECK_FALSE(compare_tensors(e, a, {1, 1}).ok);  // equal as doubles, not as integers
}
