// The whole ONNX test-data tree through `onnx-run test`: nothing may crash, no test may
// fail or error, and every LeakyRelu test that the implemented ops allow must pass (a
// LeakyRelu test may be unsupported only because of other ops, as the *_expanded ones
// are while Constant, CastLike, Less, Mul or Where are missing).
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;

TEST_CASE("onnx-run test over ../shared/onnx-tests: no crash, LeakyRelu passes", "[onnx-tests]") {
  TempDir d;
  const auto r = run_cli({"test", shared_tests_dir(), "-j", "2", "-q", "--json", d.file("r.json"), "--junit",
                          d.file("r.xml")});
  INFO(r.out.substr(0, 4000) << r.err);
  REQUIRE(r.exit_code < 128);  // not killed by a signal
  std::ifstream f(d.file("r.json"));
  const auto j = nlohmann::json::parse(f);
  CHECK(j["summary"]["total"].get<int>() >= 1802);
  CHECK(j["summary"]["crashed"] == 0);
  CHECK(j["summary"]["timeout"] == 0);
  int leaky = 0, leaky_passed = 0;
  for (const auto& t : j["tests"]) {
    const std::string name = t["name"], outcome = t["outcome"];
    INFO(name << ": " << outcome << ": " << t["message"].get<std::string>());
    CHECK(outcome != "crashed");
    if (name.find("leakyrelu") == std::string::npos) continue;
    ++leaky;
    if (outcome == "passed") {
      ++leaky_passed;
      continue;
    }
    REQUIRE(outcome == "unsupported");
    for (const auto& cause : t["causes"]) CHECK(cause.get<std::string>().find("LeakyRelu") == std::string::npos);
  }
  CHECK(leaky >= 6);
  CHECK(leaky_passed >= 3);  // test_leakyrelu, _default, _example need only LeakyRelu
  CHECK(r.exit_code == (j["summary"]["failed"] == 0 && j["summary"]["error"] == 0 ? 0 : 1));
}
