// Output comparison: tolerances as the ONNX backend tests apply them, strict NaN and
// infinity rules, exact dtype and shape, and the report of the worst element.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "core/half.h"
#include "suite/compare.h"
#include "suite/ulp.h"
#include "support/references.h"
#include "support/tensors.h"

using namespace onnxrun;
using Catch::Matchers::Contains;
using onnxrun::test::float_tensor;
using onnxrun::test::make_tensor;

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
  CHECK_THAT(s, Contains("2 of 4 elements differ") && Contains("worst (largest error for its tolerance) at [1,0]") &&
                    Contains("expected 3 (0x4200)") && Contains("got 3.5 (0x4300)") && Contains("rtol >="));
}

// Types without arithmetic are compared by their bytes: the worst element is told by its
// bits (it was "expected -9223372036854775808", a NaN cast to int64).
TEST_CASE("the worst element of a type without arithmetic is named by its bits", "[compare]") {
  Tensor e(DType::kComplex64, {2}), a(DType::kComplex64, {2});
  const float ev[] = {1, 2, 3, 4}, av[] = {1, 3, 3, 4};  // (1+2j, 3+4j) against (1+3j, 3+4j)
  std::memcpy(e.mutable_raw(), ev, sizeof ev);
  std::memcpy(a.mutable_raw(), av, sizeof av);
  Comparison c = compare_tensors(e, a, {});
  CHECK(c.expected_text == "0x400000003f800000");  // the imaginary part's bits first
  CHECK(c.expected_bits == c.expected_text);
  CHECK(c.actual_text == "0x404000003f800000");
  CHECK_THAT(c.summary("y"), Contains("expected 0x400000003f800000, got 0x404000003f800000"));
  Tensor e8(DType::kFloat8E4M3FN, {1}), a8(DType::kFloat8E4M3FN, {1});
  e8.mutable_data<uint8_t>()[0] = 0x40;
  a8.mutable_data<uint8_t>()[0] = 0x41;
  c = compare_tensors(e8, a8, {});
  CHECK(c.expected_text == "0x40");
  CHECK(c.actual_text == "0x41");
}

// With atol and rtol 0 every error is infinitely over its tolerance: the worst was the
// first element that differs, not the largest error. So it was for NaN beside a number,
// and for unequal integers, whose scores are infinite under every tolerance.
TEST_CASE("of elements equally over their tolerance, the largest error is the worst", "[compare]") {
  Tolerance zero;
  zero.atol = zero.rtol = 0;
  Comparison c = compare_tensors(make_tensor<double>(DType::kDouble, {4}, {1, 1, 1, 1}),
                                 make_tensor<double>(DType::kDouble, {4}, {1.1, 1.5, 1.2, 1.5}), zero);
  CHECK(c.worst_index == 1);  // of the two 0.5 errors, the first
  CHECK(c.abs_err == 0.5);
  c = compare_tensors(float_tensor({1, 1, 2}), float_tensor({1.1f, NAN, 9}), zero);
  CHECK(c.worst_index == 1);  // NaN beside numbers: its error is infinite
  c = compare_tensors(make_tensor<int32_t>(DType::kInt32, {3}, {5, 5, 5}),
                      make_tensor<int32_t>(DType::kInt32, {3}, {6, 9, 7}), {});
  CHECK(c.worst_index == 1);
  CHECK(c.abs_err == 4);
  // Differences that doubles round alike (2^60 and 2^60 + 1): the exact one decides.
  c = compare_tensors(make_tensor<uint64_t>(DType::kUInt64, {2}, {0, 0}),
                      make_tensor<uint64_t>(DType::kUInt64, {2}, {uint64_t{1} << 60, (uint64_t{1} << 60) + 1}), {});
  CHECK(c.worst_index == 1);
  CHECK(c.ulp == c.max_ulp);
  // Under --max-ulp 0, the element most ULPs apart (1e-30 against 2e-30, not 1000 against
  // its neighbour but one), as under --exact and --max-ulp 1.
  for (const std::optional<uint64_t> bound : {std::optional<uint64_t>{0}, std::optional<uint64_t>{1}}) {
    Tolerance t;
    t.max_ulp = bound;
    c = compare_tensors(float_tensor({1e-30f, 1000}),
                        float_tensor({2e-30f, std::nextafter(std::nextafter(1000.0f, 2e3f), 2e3f)}), t);
    CHECK(c.worst_index == 0);
    CHECK(c.ulp == c.max_ulp);
  }
}

TEST_CASE("integers compare exactly", "[compare]") {
  Tensor e(DType::kInt64, {1}), a(DType::kInt64, {1});
  e.mutable_data<int64_t>()[0] = (int64_t{1} << 60) + 1;
  a.mutable_data<int64_t>()[0] = (int64_t{1} << 60);
  CHECK_FALSE(compare_tensors(e, a, {1, 1}).ok);  // equal as doubles, not as integers
}

TEST_CASE("error statistics: max, mean and exact median of absolute and relative errors", "[compare][error-stats]") {
  // Errors 0, 0, 0.5, 1, 4 (abs) over expected 1, 2, 1, 4, 2: rel 0, 0, 0.5, 0.25, 2.
  const Comparison c = compare_tensors(float_tensor({1, 2, 1, 4, 2}), float_tensor({1, 2, 1.5f, 5, 6}), {});
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 3);
  CHECK(c.errors.count == 5);
  CHECK(c.errors.max_abs == 4);
  CHECK(c.errors.mean_abs == Approx(1.1));
  CHECK(c.errors.median_abs == 0.5);
  CHECK(c.errors.max_rel == 2);
  CHECK(c.errors.median_rel == 0.25);
  CHECK(c.errors.exact == 2);
  CHECK(c.errors.decades.at(-1) == 1);  // 0.5
  CHECK(c.errors.decades.at(0) == 2);   // 1 and 4
  // An even count: the mean of the two middle errors.
  const Comparison even = compare_tensors(float_tensor({0, 0, 0, 0}), float_tensor({0, 1, 3, 8}), {});
  CHECK(even.errors.median_abs == 2);
  CHECK(std::isinf(even.errors.median_rel));  // 1 and 3 over an expected 0
}

TEST_CASE("the histogram puts powers of ten in their own decade, NaN mismatches apart", "[compare][error-stats]") {
  const Comparison c =
      compare_tensors(float_tensor({0, 0, 0, 0}), float_tensor({1e-3f * 1.0001f, 0.01f * 1.0001f, 100, NAN}), {});
  CHECK(c.errors.decades.at(-3) == 1);
  CHECK(c.errors.decades.at(-2) == 1);
  CHECK(c.errors.decades.at(2) == 1);
  CHECK(c.errors.infinite == 1);
  CHECK(std::isinf(c.errors.max_abs));
  const std::string report = c.error_report("  ");
  CHECK_THAT(report, Contains("abs err: max inf") && Contains("4 of 4 beyond tolerance") &&
                         Contains("[1e-3, 1e-2) 1 #") && Contains("[1e0, 1e1) 0\n") && Contains("inf (NaN, inf) 1"));
  // Exact comparisons have nothing to report.
  CHECK(compare_tensors(float_tensor({1, 2}), float_tensor({1, 2}), {}).error_report("  ").empty());
}

TEST_CASE("--check-error-stat: an output fails only when the statistic exceeds both atol and rtol",
          "[compare][error-stat]") {
  // One large error among many exact elements: elemwise and max fail, median passes.
  std::vector<float> e(9, 1.0f), a(9, 1.0f);
  a[4] = 2;
  Tolerance tol;
  tol.stat = ErrorStat::kElemwise;
  CHECK_FALSE(compare_tensors(float_tensor(e), float_tensor(a), tol).ok);
  tol.stat = ErrorStat::kMax;
  const Comparison max = compare_tensors(float_tensor(e), float_tensor(a), tol);
  CHECK_FALSE(max.ok);
  CHECK_THAT(max.verdict(), Contains("max error too large: abs 1 > atol 1e-07 and rel 1 > rtol 0.001"));
  tol.stat = ErrorStat::kMedian;
  const Comparison median = compare_tensors(float_tensor(e), float_tensor(a), tol);
  CHECK(median.ok);
  CHECK(median.mismatches == 1);
  CHECK_THAT(median.verdict(), Contains("ok by median error") && Contains("1 of 9 elements beyond"));
  tol.stat = ErrorStat::kMean;  // mean abs 1/9 > atol; mean rel 1/9 > rtol
  CHECK_FALSE(compare_tensors(float_tensor(e), float_tensor(a), tol).ok);
  tol.rtol = 0.2;  // within rtol is enough
  CHECK(compare_tensors(float_tensor(e), float_tensor(a), tol).ok);
  // A NaN mismatch fails under every statistic.
  a[4] = NAN;
  tol.stat = ErrorStat::kMedian;
  const Comparison nan = compare_tensors(float_tensor(e), float_tensor(a), tol);
  CHECK_FALSE(nan.ok);
  CHECK_THAT(nan.verdict(), Contains("no tolerance fixes"));
}

// Found by black-box testing: under --check-error-stat the hint gave the worst
// element's tolerance (0.6 here), looser than the statistic needs.
TEST_CASE("--check-error-stat: the tolerances the verdict offers are the statistic's, and pass as printed",
          "[compare][error-stat]") {
  const Tensor e = float_tensor({1, 2, 3, 4, 5}), a = float_tensor({1.1f, 2.5f, 3.6f, 4, 5});
  for (const auto& [stat, offer] : {std::pair{ErrorStat::kMedian, "atol >= 0.101 or rtol >= 0.101"},
                                    std::pair{ErrorStat::kMean, "atol >= 0.24 or rtol >= 0.11"},
                                    std::pair{ErrorStat::kMax, "atol >= 0.6 or rtol >= 0.25"}}) {
    Tolerance tol{0, 0.01};
    tol.stat = stat;
    const Comparison c = compare_tensors(e, a, tol);
    INFO(c.verdict());
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.verdict(), Contains(std::string("would pass with ") + offer));
    tol.atol = std::stod(std::string(offer).substr(8));  // "atol >= A ..."
    CHECK(compare_tensors(e, a, tol).ok);
  }
}

TEST_CASE("per-output tolerances override the global ones for that output only", "[compare][tolerance]") {
  Tolerance tol;
  tol.output_atol["y"] = 0.5;
  tol.output_rtol["z"] = 0.25;
  CHECK(tol.for_output("y").atol == 0.5);
  CHECK(tol.for_output("y").rtol == 1e-3);
  CHECK(tol.for_output("z").rtol == 0.25);
  CHECK(tol.for_output("w").atol == 1e-7);
  CHECK(compare_tensors(float_tensor({1}), float_tensor({1.4f}), tol.for_output("y")).ok);
  CHECK_FALSE(compare_tensors(float_tensor({1}), float_tensor({1.4f}), tol.for_output("w")).ok);
  CHECK(parse_error_stat("median") == ErrorStat::kMedian);
  CHECK_FALSE(parse_error_stat("p99"));
  // Under a global --max-ulp, an output's own atol or rtol is what judges it (it was
  // judged by the ULP bound: `--max-ulp 5 --atol y:0` passed y 3 ULPs off); an output's
  // own --max-ulp still wins over its own atol.
  tol.max_ulp = 5;
  const Tensor one = float_tensor({1}),
               three_ulps = float_tensor({std::nextafter(std::nextafter(std::nextafter(1.f, 2.f), 2.f), 2.f)});
  CHECK_FALSE(tol.for_output("y").max_ulp);
  CHECK(tol.for_output("w").max_ulp == 5u);
  tol.output_atol["y"] = 0;
  tol.output_rtol["y"] = 0;
  CHECK_FALSE(compare_tensors(one, three_ulps, tol.for_output("y")).ok);
  CHECK(compare_tensors(one, three_ulps, tol.for_output("w")).ok);
  tol.output_max_ulp["y"] = 3;
  CHECK(compare_tensors(one, three_ulps, tol.for_output("y")).ok);
}

TEST_CASE("a comparison fed in blocks is the comparison of the whole tensor", "[compare][blocks]") {
  std::vector<float> e(1000), a(1000);
  for (size_t k = 0; k < e.size(); ++k) {
    e[k] = static_cast<float>(k) - 500;
    a[k] = e[k] + (k % 7 == 0 ? 0.01f * static_cast<float>(k) : 0);
  }
  a[321] = NAN;
  const Tensor expected = float_tensor(e), actual = float_tensor(a);
  const Comparison whole = compare_tensors(expected, actual, {});
  ComparisonBuilder b(expected, DType::kFloat, {1000}, {});
  for (int64_t begin = 0; begin < 1000; begin += 300) {
    const int64_t n = std::min<int64_t>(300, 1000 - begin);
    b.add(begin, float_tensor(std::vector<float>(a.begin() + begin, a.begin() + begin + n)));
  }
  const Comparison blocks = b.finish();
  CHECK(blocks.verdict() == whole.verdict());
  CHECK(blocks.error_report("") == whole.error_report(""));
  CHECK(blocks.errors.mean_abs == whole.errors.mean_abs);
  CHECK(blocks.errors.median_rel == whole.errors.median_rel);
  CHECK(blocks.worst_index == 321);
  CHECK(blocks.actual_bits == whole.actual_bits);
}

namespace {

Tolerance exact_tolerance() {
  Tolerance t;
  t.exact = true;
  return t;
}

Tolerance ulp_tolerance(uint64_t n) {
  Tolerance t;
  t.max_ulp = n;
  return t;
}

}  // namespace

TEST_CASE("exact means bit-identical: -0 for +0 is not exact, and fails under --exact", "[compare]") {
  const Tensor expected = float_tensor({0.0f, 0.0f}), actual = float_tensor({0.0f, -0.0f});
  Comparison c = compare_tensors(expected, actual, {0, 0});
  CHECK(c.ok);  // equal numbers: atol 0 and rtol 0 pass them
  CHECK(c.bit_differences == 1);
  CHECK(c.max_ulp == 0);
  CHECK_FALSE(c.bit_identical());
  CHECK_THAT(c.verdict(), !Contains("exact") && Contains("1 of 2 not bit-identical") && Contains("max ulp 0"));
  const Comparison strict = compare_tensors(expected, actual, exact_tolerance());
  CHECK_FALSE(strict.ok);
  CHECK(strict.mismatches == 1);
  CHECK_THAT(strict.verdict(), Contains("1 of 2 elements not bit-identical (--exact)"));
  CHECK(strict.brief() == "1 of 2 elements not bit-identical, max ulp 0");
  // Bit-identical tensors are exact, under every rule.
  for (const Tolerance& t : {Tolerance{}, exact_tolerance(), ulp_tolerance(0)}) {
    const Comparison same = compare_tensors(actual, actual, t);
    CHECK(same.ok);
    CHECK(same.verdict() == "ok (2 elements, exact)");
  }
}

TEST_CASE("NaN payloads count as bit differences, not as mismatches", "[compare]") {
  Tensor e(DType::kFloat, {1}), a(DType::kFloat, {1});
  e.mutable_data<uint32_t>()[0] = 0x7fc00000;
  a.mutable_data<uint32_t>()[0] = 0x7fc00001;
  const Comparison c = compare_tensors(e, a, {});
  CHECK(c.ok);
  CHECK_FALSE(c.bit_identical());
  CHECK_THAT(c.verdict(), !Contains("exact"));
  CHECK_FALSE(compare_tensors(e, a, exact_tolerance()).ok);
}

TEST_CASE("--max-ulp 1 accepts a 1-ULP difference that --exact refuses", "[compare]") {
  const float one_up = std::nextafter(1.0f, 2.0f), two_up = std::nextafter(one_up, 2.0f);
  const Tensor expected = float_tensor({1.0f, 2.0f}), near = float_tensor({one_up, 2.0f});
  const Comparison ulp1 = compare_tensors(expected, near, ulp_tolerance(1));
  CHECK(ulp1.ok);
  CHECK(ulp1.max_ulp == 1);
  CHECK_THAT(ulp1.verdict(), Contains("max ulp 1") && !Contains("exact"));
  CHECK_FALSE(compare_tensors(expected, near, exact_tolerance()).ok);
  CHECK_FALSE(compare_tensors(expected, near, ulp_tolerance(0)).ok);
  const Comparison far = compare_tensors(expected, float_tensor({two_up, 2.0f}), ulp_tolerance(1));
  CHECK_FALSE(far.ok);
  CHECK(far.max_ulp == 2);
  CHECK_THAT(far.verdict(), Contains("1 of 2 elements beyond 1 ULP;") && Contains("would pass with --max-ulp 2"));
  // A ULP bound is a tolerance of its own: atol and rtol do not widen it.
  CHECK_FALSE(compare_tensors(float_tensor({1.0f}), float_tensor({1.0001f}), ulp_tolerance(1)).ok);
  // Per output: NAME:N overrides the global bound.
  Tolerance per_output = ulp_tolerance(0);
  per_output.output_max_ulp["y"] = 1;
  CHECK(compare_tensors(expected, near, per_output.for_output("y")).ok);
  CHECK_FALSE(compare_tensors(expected, near, per_output.for_output("z")).ok);
}

TEST_CASE("every comparison reports the max ULP distance in the tensor's own type", "[compare]") {
  const Comparison c = compare_tensors(float_tensor({1, 100, 0}), float_tensor({1.0009f, 100.09f, 5e-8f}), {});
  CHECK(c.ok);
  // 0 to 5e-8f: every float between them, far more than between the other pairs.
  CHECK(c.max_ulp == 0x3356bf95);
  CHECK_THAT(c.verdict(), Contains("max ulp 861323157"));
  const Comparison nan = compare_tensors(float_tensor({NAN}), float_tensor({1}), {});
  CHECK(nan.max_ulp == kUlpInfinite);
  CHECK_THAT(nan.verdict(), Contains("max ulp inf"));
}

TEST_CASE("a mismatch that no rtol fixes says so, not rtol >= none", "[compare]") {
  const Comparison c = compare_tensors(float_tensor({0, 1}), float_tensor({6.22f, 1}), {});
  CHECK_FALSE(c.ok);
  CHECK_THAT(c.verdict(), Contains("would pass with atol >= 6.22 (no rtol would: an expected value there is 0)") &&
                              !Contains("none"));
}

TEST_CASE("the tolerances said to pass do pass, given back as they are", "[compare]") {
  // (d - atol) / |e| rounds, and fell an ULP short: rtol 0.019398048382243554 left this
  // element failing (atol + rtol * |e| < d as the verdict computes it).
  const Tensor e = float_tensor({-0.174796313f}), a = float_tensor({-0.178187042f});
  const Tolerance given{0.00055325172007661839, 2.2089806215170779e-08};
  for (const Comparison& c : {compare_tensors(e, a, given), compare_tensors_reference(e, a, given)}) {
    REQUIRE_FALSE(c.ok);
    CHECK(compare_tensors(e, a, {c.needed_rtol, given.atol}).ok);
    CHECK(compare_tensors(e, a, {given.rtol, c.needed_atol}).ok);
  }
  // Over many elements and tolerances, runs long enough for the vector judging and tally.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(1, 2), off(-0.1f, 0.1f);
  std::uniform_real_distribution<double> frac(0, 1);
  for (int round = 0; round < 60; ++round) {
    const int64_t n = round % 3 == 0 ? 3001 : 17;
    std::vector<float> ev(static_cast<size_t>(n)), av(static_cast<size_t>(n));
    for (size_t k = 0; k < ev.size(); ++k) {
      ev[k] = std::ldexp(unit(rng), static_cast<int>(rng() % 40) - 20) * (rng() % 2 ? 1 : -1);
      av[k] = k < 1024 && n > 1024 ? ev[k] : ev[k] * (1 + off(rng));  // then runs tallied at once
    }
    const Tensor et = float_tensor(ev), at = float_tensor(av);
    const Tolerance tol{std::ldexp(frac(rng), -static_cast<int>(rng() % 20)),
                        std::ldexp(frac(rng), -static_cast<int>(rng() % 30))};
    const Comparison c = compare_tensors(et, at, tol);
    INFO("round " << round << " needed atol " << c.needed_atol << " rtol " << c.needed_rtol);
    CHECK(compare_tensors(et, at, {c.needed_rtol, tol.atol}).ok);
    CHECK(compare_tensors(et, at, {tol.rtol, c.needed_atol}).ok);
  }
}

TEST_CASE("the tolerances the verdict prints are rounded up, so that they pass as printed", "[compare]") {
  // needed rtol 0.01934...: "rtol >= 0.0193" would fail as printed.
  const Tensor e = float_tensor({1}), a = float_tensor({1.0193404f});
  const Comparison c = compare_tensors(e, a, {1e-3, 0});
  CHECK_THAT(c.verdict(), Contains("would pass with atol >= 0.0184 or rtol >= 0.0194"));
  CHECK(compare_tensors(e, a, {0.0194, 0}).ok);
  CHECK(compare_tensors(e, a, {1e-3, 0.0184}).ok);
  CHECK_FALSE(compare_tensors(e, a, {0.0193, 0}).ok);
}

TEST_CASE("float64 values whose difference is beyond the double range are judged, not passed", "[compare]") {
  // |a - e| is 3.4e308, inf in double: inf / (1.5 * 1.7e308, inf too) was NaN, never over 1.
  Tensor e(DType::kDouble, {2}), a(DType::kDouble, {2});
  e.mutable_data<double>()[0] = 1.7e308;
  a.mutable_data<double>()[0] = -1.7e308;
  e.mutable_data<double>()[1] = a.mutable_data<double>()[1] = 1;
  for (const Comparison& c : {compare_tensors(e, a, {1.5, 0}), compare_tensors_reference(e, a, {1.5, 0})}) {
    CHECK_FALSE(c.ok);
    CHECK(c.mismatches == 1);
    CHECK(c.worst_index == 0);
    CHECK_FALSE(c.hard_mismatch);
    CHECK(c.needed_rtol == 2);
    CHECK_THAT(c.verdict(), Contains("would pass with rtol >= 2 (no atol would"));
  }
  CHECK(compare_tensors(e, a, {2, 0}).ok);              // 3.4e308 <= 2 * 1.7e308
  CHECK_FALSE(compare_tensors(e, a, {1.5, 1e307}).ok);  // 3.4e308 > 1e307 + 1.5 * 1.7e308
}
