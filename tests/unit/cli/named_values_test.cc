// NAME:VALUE options (cli/named_values.h): --atol 1e-5 --atol y:1e-3.
#include <catch2/catch.hpp>

#include <string>

#include "cli/named_values.h"
#include "core/error.h"

using namespace onnxrun;
using namespace onnxrun::cli;
using Catch::Matchers::Contains;

namespace {

// The message of the usage error `parse` throws, or "no error".
template <class Parse>
std::string usage_error_of(Parse parse) {
  try {
    parse();
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("NAME:V splits at the last colon, and V alone is for every name", "[named-values]") {
  CHECK(split_named_value("1e-3").name.empty());
  CHECK(split_named_value("y:1e-3").name == "y");
  CHECK(split_named_value("y:1e-3").value == "1e-3");
  CHECK(split_named_value("y:0:0.5").name == "y:0");  // TensorFlow-style names keep their colon
  const NamedNumbers n = parse_named_numbers({"1e-5", "y:1e-3", "z:0", "2e-5"}, "--atol");
  REQUIRE(n.all);
  CHECK(*n.all == 2e-5);  // the last global one wins
  CHECK(n.by_name.at("y") == 1e-3);
  CHECK(n.by_name.at("z") == 0);
}

TEST_CASE("a bad NAME:V is a usage error naming the option and the argument", "[named-values]") {
  auto message = [](const std::string& arg) { return usage_error_of([&] { parse_named_numbers({arg}, "--rtol"); }); };
  CHECK_THAT(message("y:-1"), Contains("--rtol") && Contains("'y:-1'"));
  CHECK_THAT(message(":1e-3"), Contains("a name before ':'"));
  CHECK_THAT(message("y:"), Contains("'y:'"));
  CHECK_THAT(message("abc"), Contains("'abc'"));
  CHECK_THAT(message("y:inf"), Contains("'y:inf'"));
}

TEST_CASE("tolerance_from puts global values over the base and per-output ones beside", "[named-values]") {
  ToleranceArgs a;
  a.rtol = {"y:0.5"};
  a.atol = {"1e-4"};
  a.stat = "median";
  const Tolerance t = tolerance_from(a);
  CHECK(t.rtol == 1e-3);
  CHECK(t.atol == 1e-4);
  CHECK(t.output_rtol.at("y") == 0.5);
  CHECK(t.stat == ErrorStat::kMedian);
  a.stat = "p50";
  CHECK_THROWS_AS(tolerance_from(a), Error);
}

TEST_CASE("--max-ulp takes whole numbers of ULPs, read as integers: no double rounds them", "[named-values]") {
  const NamedUlps n = parse_named_ulps({"9007199254740993", "y:9199999999999999999", "z:0"}, "--max-ulp");
  REQUIRE(n.all);
  CHECK(*n.all == 9007199254740993u);  // 2^53 + 1, which a double makes 2^53
  CHECK(n.by_name.at("y") == 9199999999999999999u);
  CHECK(n.by_name.at("z") == 0);
  ToleranceArgs a;
  a.max_ulp = {"9007199254740993", "y:3"};
  const Tolerance t = tolerance_from(a);
  REQUIRE(t.max_ulp);
  CHECK(*t.max_ulp == 9007199254740993u);
  CHECK(t.output_max_ulp.at("y") == 3);

  auto message = [](const std::string& arg) { return usage_error_of([&] { parse_named_ulps({arg}, "--max-ulp"); }); };
  for (const std::string bad : {"1e3", "1.0", "1.5", "-1", "+1", " 1", "1 ", "0x10", "", "y:1e3", "y:", "inf",
                                "9200000000000000000", "18446744073709551616", "99999999999999999999999"}) {
    INFO(bad);
    CHECK_THAT(message(bad), Contains("--max-ulp") && Contains("whole number") && Contains("'" + bad + "'"));
  }
  CHECK_THAT(message(":1"), Contains("a name before ':'"));
}
