// The whole ONNX test-data tree through `onnx-run test`: nothing may crash, and every
// LeakyRelu test that the implemented ops allow must pass (a LeakyRelu test may be
// unsupported only because of other ops, as the *_expanded ones are while Constant,
// CastLike, Less, Mul or Where are missing). The tree runs twice, in threads (the
// default) and --isolate'd, and both must agree test by test; the isolated run names any
// test that crashes.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;

namespace {

nlohmann::json run_tree(const TempDir& d, const std::string& report, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"test", shared_tests_dir(), "-j", "2", "-q", "--json", d.file(report)};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  INFO(r.out.substr(0, 4000) << r.err);
  REQUIRE_NO_SIGNAL(r);
  std::ifstream f(d.file(report));
  const auto j = nlohmann::json::parse(f);
  const bool all_passed = j["summary"]["failed"] == 0 && j["summary"]["error"] == 0 && j["summary"]["crashed"] == 0 &&
                          j["summary"]["timeout"] == 0;
  CHECK_EXIT(r, all_passed ? 0 : 1);
  return j;
}

}  // namespace

TEST_CASE("onnx-run test over ../shared/onnx-tests: no crash, LeakyRelu passes", "[onnx-tests]") {
  TempDir d;
  const auto isolated = run_tree(d, "isolated.json", {"--isolate", "--timeout", "60"});
  const auto j = run_tree(d, "threads.json", {"--junit", d.file("r.xml")});
  CHECK(j["summary"]["total"].get<int>() >= 1802);
  for (const auto& t : isolated["tests"]) {
    INFO(t["name"].get<std::string>() << ": " << t["message"].get<std::string>());
    CHECK(t["outcome"] != "crashed");
    CHECK(t["outcome"] != "timeout");
  }
  REQUIRE(isolated["tests"].size() == j["tests"].size());
  for (size_t k = 0; k < j["tests"].size(); ++k) {
    INFO(j["tests"][k]["name"].get<std::string>());
    CHECK(isolated["tests"][k]["name"] == j["tests"][k]["name"]);
    CHECK(isolated["tests"][k]["outcome"] == j["tests"][k]["outcome"]);
  }
  int leaky = 0, leaky_passed = 0;
  for (const auto& t : j["tests"]) {
    const std::string name = t["name"], outcome = t["outcome"];
    if (name.find("leakyrelu") == std::string::npos) continue;
    INFO(name << ": " << outcome << ": " << t["message"].get<std::string>());
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
}
