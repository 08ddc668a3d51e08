// Statistics of a tensor (core/tensor_stats.h): NaN and inf counted apart, left out of
// mean and std.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/tensor_stats.h"
#include "io/tensor_text.h"  // format_stats, the printed form
#include "support/tensors.h"

using namespace onnxrun;
using onnxrun::test::float_tensor;

TEST_CASE("statistics count NaN and inf apart and ignore them in mean and std", "[stats]") {
  const double inf = std::numeric_limits<double>::infinity();
  TensorStats s = tensor_stats(float_tensor({6}, {1, 2, 3, NAN, static_cast<float>(inf), static_cast<float>(-inf)}));
  CHECK(s.nan == 1);
  CHECK(s.pos_inf == 1);
  CHECK(s.neg_inf == 1);
  CHECK(s.min == -inf);
  CHECK(s.max == inf);
  CHECK(s.mean == 2);
  CHECK(s.std == Approx(std::sqrt(2.0 / 3.0)));
  TensorStats all_nan = tensor_stats(float_tensor({2}, {NAN, NAN}));
  CHECK(std::isnan(all_nan.mean));
  CHECK(format_stats(all_nan) == "no finite values, nan 2 inf 0");  // no NaN statistics
  CHECK(format_stats(s) == "min -inf max inf mean 2 std 0.816497 (finite values) nan 1 inf 2");
  CHECK(format_stats(tensor_stats(float_tensor({2}, {-1, 3}))) == "min -1 max 3 mean 1 std 2 nan 0 inf 0");
}
