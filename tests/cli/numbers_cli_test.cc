// Values in messages and reports are the shortest decimal that reads back in the
// tensor's own type, through every door: the run's text and JSON, -d, `onnx-run test`'s
// messages, its JSON and its JUnit report. A float32 never shows as a 17-digit double.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
using Catch::Matchers::Contains;

namespace {

// A number with more digits than any float32 needs (9 significant): a double's expansion.
// The errors and the tolerances that would pass are computed in double, not values of
// the tensor, and stay exact (a script may rerun with needed_atol): they are left out,
// with the error statistics ("max_abs_err", "median_rel_err", ...).
bool has_long_number(const std::string& s) {
  const std::string values =
      std::regex_replace(s, std::regex(R"re("(\w*abs_err|\w*rel_err|needed_atol|needed_rtol)": [^,\n]*)re"), "");
  return std::regex_search(values, std::regex(R"(\d\.\d{10,})"));
}

}  // namespace

TEST_CASE("mismatch reports print float32 values in float32's shortest digits, through every door", "[cli][numbers]") {
  TempDir d;
  write_leaky_test(d.file("t/bad"), 1.1f);  // expected outputs off by 10%
  const std::string model = d.file("t/bad/model.onnx");
  const auto text = run_cli({model});
  CHECK_EXIT(text, 1);
  CHECK_THAT(text.out, Contains("worst (largest error for its tolerance) at"));
  const auto json = run_cli({model, "--json"});
  CHECK_EXIT(json, 1);
  const auto dir = run_cli({model, "-d", d.file("t/bad/test_data_set_0"), "-q"});
  CHECK_EXIT(dir, 1);
  const auto test = run_cli({"test", d.file("t"), "--json", d.file("r.json"), "--junit", d.file("r.xml")});
  CHECK_EXIT(test, 1);
  for (const std::string& out :
       {text.out, json.out, dir.out, test.out, read_file(d.file("r.json")), read_file(d.file("r.xml"))}) {
    INFO(out);
    CHECK_FALSE(has_long_number(out));
    CHECK(std::regex_search(out, std::regex(R"(expected"?:? -?\d)")));
  }
}

TEST_CASE("JSON statistics are in the tensor's type", "[cli][numbers]") {
  const auto r = run_cli({testdata_dir() + "/quick/leaky_nxm.onnx", "-i", "x=[[-0.3,0.1]]", "--json"});
  CHECK_EXIT(r, 0);
  CHECK_FALSE(has_long_number(r.out));
  CHECK_THAT(r.out, Contains("\"min\": -0.3") && Contains("\"max\": 0.1"));
}

TEST_CASE("the std of doubles whose squares leave the double range, printed and in JSON on every path",
          "[cli][numbers]") {
  // Printed inf, 0 and 9.99994e-161 (the sums of squares overflowed or underflowed).
  const std::string model = testdata_dir() + "/quick/leaky_double.onnx";
  struct Case {
    std::string literal, json, text;
  };
  const std::vector<Case> cases = {{"x=[1e200,-1e200,1,2]", "7.071067811865475e+199", "7.07107e+199"},
                                   {"x=[1e-300,-1e-300,1e-300,-1e-300]", "1e-300", "1e-300"},
                                   {"x=[1e-160,3e-160,1e-160,3e-160]", "1e-160", "1e-160"}};
  for (const char* isa : {"ONNXRUN_ISA=scalar", "ONNXRUN_ISA=avx2", "ONNXRUN_ISA=avx512"})
    for (const Case& c : cases) {
      INFO(isa << " " << c.literal);
      const auto json = run_cli_env({isa}, {model, "-i", c.literal, "--json"});
      CHECK_EXIT(json, 0);
      CHECK_THAT(json.out, Contains("\"std\": " + c.json + ","));
      const auto text = run_cli_env({isa}, {model, "-i", c.literal});
      CHECK_THAT(text.out, Contains(" std " + c.text + " nan 0 inf 0"));
    }
}
