// --range LO,HI and NAME:LO,HI (cli/input_ranges.h): what each form gives, and each bad
// form refused as a usage error that shows the argument.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cli/input_ranges.h"
#include "core/error.h"

using namespace onnxrun;
using namespace onnxrun::cli;

namespace {

// The usage error parse_input_ranges throws for `args`, as its message.
std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse_input_ranges(args);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kUsage);
    return e.what();
  }
  FAIL("no error for " << args.front());
  return "";
}

}  // namespace

TEST_CASE("--range gives one range for every input and one per named input", "[input_ranges]") {
  const InputRanges none = parse_input_ranges({});
  CHECK(none.all == std::pair(-1.0, 1.0));
  CHECK(none.named.empty());

  const InputRanges r = parse_input_ranges({"x:0,1", "-5,5", "input:0:-2.5,1e3", "y:3,3"});
  CHECK(r.all == std::pair(-5.0, 5.0));
  REQUIRE(r.named.size() == 3);
  CHECK(r.named.at("x") == std::pair(0.0, 1.0));
  CHECK(r.named.at("input:0") == std::pair(-2.5, 1000.0));  // the name runs to the last ':'
  CHECK(r.named.at("y") == std::pair(3.0, 3.0));
}

TEST_CASE("a malformed --range is a usage error naming it", "[input_ranges]") {
  CHECK_THAT(usage_error({"1,0"}), Catch::Contains("--range 1,0") && Catch::Contains("LO <= HI"));
  CHECK_THAT(usage_error({"x:1,0"}), Catch::Contains("--range x:1,0") && Catch::Contains("[NAME:]LO,HI"));
  CHECK_THAT(usage_error({"x:a,1"}), Catch::Contains("--range x:a,1"));
  CHECK_THAT(usage_error({"x:0"}), Catch::Contains("--range x:0"));
  CHECK_THAT(usage_error({":0,1"}), Catch::Contains("--range :0,1"));
  CHECK_THAT(usage_error({"0,1", "0,2"}), Catch::Contains("given twice"));
  CHECK_THAT(usage_error({"x:0,1", "x:0,2"}), Catch::Contains("'x' twice"));
}

TEST_CASE("a --range bound that is not finite is a usage error", "[input_ranges]") {
  // -inf,inf made every value NaN; 1e999 reads as inf.
  for (const std::string arg : {"-inf,inf", "0,inf", "-inf,0", "nan,1", "0,1e999", "x:-inf,inf", "x:0,nan"})
    CHECK(usage_error({arg}) == "--range " + arg + ": LO and HI must be finite numbers");
}
