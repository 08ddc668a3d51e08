// `onnx-run test` as a user runs it: exit codes, stable output in a pipe, --list,
// reports on disk parsed back, the baseline workflow, --isolate with a crashing child,
// and one-line usage errors with exit code 2.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <tinyxml2.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

// good/test_{1,2,10}, bad/test_fail, bad/test_broken, other/test_unsup.
void make_tree(const TempDir& d) {
  for (const char* n : {"test_1", "test_2", "test_10"}) write_leaky_test(d.file(std::string("good/") + n));
  write_leaky_test(d.file("bad/test_fail"), -1.0f);
  write_text_file(d.file("bad/test_broken/model.onnx"), "garbage");
  write_unknown_op_model(d.file("other/test_unsup/model.onnx"), "Conv");
}

// The per-test lines ("[k/n] ..." and their indented messages), timings blanked: the
// part of the output that must not depend on -j (the slowest-tests list may).
std::string test_lines(const std::string& s) {
  std::string out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l) && !l.empty();) out += l + "\n";  // up to the closing report
  return std::regex_replace(out, std::regex(R"(\d+\.\d+ s)"), "T s");
}

}  // namespace

TEST_CASE("onnx-run test runs a tree, exits 1 on failures and writes JSON and JUnit", "[cli]") {
  TempDir d;
  make_tree(d);
  const auto r = run_cli({"test", d.file("good"), d.file("bad"), d.file("other"), "-j", "2", "--json", d.file("r.json"),
                          "--junit", d.file("r.xml")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Catch::Contains("3 passed, 1 failed, 1 unsupported, 1 error, 0 timeouts, 0 crashed (6 tests in"));
  CHECK_THAT(r.out, Catch::Contains("Unsupported, by cause (tests):") && Catch::Contains("1  Conv"));
  CHECK_THAT(r.out, Catch::Contains("Slowest tests:"));
  const auto j = read_json(d.file("r.json"));
  REQUIRE(j["tests"].size() == 6);
  std::vector<std::string> names;
  for (const auto& t : j["tests"]) names.push_back(t["name"]);
  CHECK(names == std::vector<std::string>{"test_1", "test_2", "test_10", "test_broken", "test_fail", "test_unsup"});
  CHECK(j["tests"][4]["outcome"] == "failed");
  CHECK(j["summary"]["failed"] == 1);
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(d.file("r.xml").c_str()) == tinyxml2::XML_SUCCESS);
  const auto* suite = doc.FirstChildElement("testsuites")->FirstChildElement("testsuite");
  CHECK(suite->IntAttribute("tests") == 6);
  CHECK(suite->IntAttribute("failures") == 1);
  CHECK(suite->IntAttribute("errors") == 1);
  CHECK(suite->IntAttribute("skipped") == 1);
}

TEST_CASE("in a pipe the lines come in the tests' order whatever -j", "[cli]") {
  TempDir d;
  make_tree(d);
  const auto one = run_cli({"test", d.path(), "-j", "1"});
  const auto four = run_cli({"test", d.path(), "-j", "4"});
  CHECK_EXIT(one, 1);
  CHECK(test_lines(one.out) == test_lines(four.out));
  CHECK(std::count(one.out.begin(), one.out.end(), '[') >= 6);
  CHECK_THAT(one.out, Catch::Contains("[3/6] passed      good/test_1 ("));
  CHECK(one.out.find("\033[") == std::string::npos);  // no terminal control codes in a pipe
  // -q keeps only the problems and the summary.
  const auto quiet = run_cli({"test", d.path(), "-q"});
  CHECK_THAT(quiet.out, !Catch::Contains("good/test_1"));
  CHECK_THAT(quiet.out, Catch::Contains("failed      bad/test_fail"));
}

TEST_CASE("--list, --filter, --exclude and --shard choose the tests", "[cli]") {
  TempDir d;
  make_tree(d);
  auto list = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"test", d.path(), "--list"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    REQUIRE_EXIT(r, 0);
    return r.out;
  };
  CHECK(list({}) == "bad/test_broken\nbad/test_fail\ngood/test_1\ngood/test_2\ngood/test_10\nother/test_unsup\n");
  CHECK(list({"--filter", "good", "--exclude", "_1$"}) == "good/test_2\ngood/test_10\n");
  std::string all;
  for (int k = 1; k <= 3; ++k) all += list({"--shard", std::to_string(k) + "/3"});
  std::vector<std::string> lines;
  std::istringstream in(all);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  CHECK(lines == std::vector<std::string>{"bad/test_broken", "bad/test_fail", "good/test_1", "good/test_10",
                                          "good/test_2", "other/test_unsup"});
}

TEST_CASE("a --filter or --exclude that selects no test is a usage error: one line, nothing written", "[cli]") {
  TempDir d;
  make_tree(d);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--filter", "leakyrelu"}, "--filter 'leakyrelu'"},
      {{"--exclude", "test"}, "--exclude 'test'"},
      {{"--filter", "good", "--exclude", "good"}, "--filter 'good' --exclude 'good'"},
  };
  for (const auto& [select, named] : cases) {
    for (const char* door : {"--json", "--junit", "--update-baseline", "--list"}) {
      std::vector<std::string> args{"test", d.path(), door};
      if (std::string(door) != "--list") args.push_back(d.file("r.out"));
      args.insert(args.end(), select.begin(), select.end());
      const auto r = run_cli(args);
      INFO(named << " " << door);
      CHECK_EXIT(r, 2);  // it exited 0, "0 passed ... (0 tests ...)": a typo in CI stayed green
      CHECK(r.out.empty());
      CHECK(r.err == "onnx-run: " + named + " selects none of the 6 tests found under " + d.path() + "\n");
      CHECK_FALSE(fs::exists(d.file("r.out")));
    }
  }
}

TEST_CASE("an empty --shard slice exits 0 and says so: CI matrices make them", "[cli]") {
  TempDir d;
  write_leaky_test(d.file("t/only"));
  // Of 3 slices, the one test lands in one: the others are empty.
  int empty = 0;
  for (int k = 1; k <= 3; ++k) {
    const std::string slice = fmt::format("{}/3", k);
    const auto r =
        run_cli({"test", d.file("t"), "--shard", slice, "--json", d.file("r.json"), "--junit", d.file("r.xml")});
    CHECK_EXIT(r, 0);
    if (read_json(d.file("r.json"))["tests"].size() != 0) continue;
    ++empty;
    CHECK_THAT(r.out, Catch::Contains("shard " + slice +
                                      " holds none of the 1 tests selected (more shards than tests); `report merge` "
                                      "checks that the shards hold them all\n"));
    CHECK_THAT(read_file(d.file("r.xml")), Catch::Contains("tests=\"0\""));
  }
  CHECK(empty == 2);
}

TEST_CASE("baseline workflow: a regression exits 1, a fix is listed as newly passing", "[cli]") {
  TempDir d;
  make_tree(d);
  const auto first = run_cli({"test", d.path(), "--json", d.file("base.json")});
  CHECK_EXIT(first, 1);  // test_fail and test_broken, without a baseline
  // Same state against its own baseline: nothing regressed.
  const auto same = run_cli({"test", d.path(), "--baseline", d.file("base.json")});
  CHECK_EXIT(same, 0);
  CHECK_THAT(same.out, Catch::Contains("Baseline: 0 regressions, 0 newly passing"));
  // Break a passing test and fix the failing one.
  write_leaky_test(d.file("good/test_2"), 3.0f);
  write_leaky_test(d.file("bad/test_fail"));
  const auto after = run_cli({"test", d.path(), "--baseline", d.file("base.json"), "--json", d.file("now.json")});
  CHECK_EXIT(after, 1);
  CHECK_THAT(after.out, Catch::Contains("Regressions against") && Catch::Contains("good/test_2: passed -> failed"));
  CHECK_THAT(after.out, Catch::Contains("Newly passing against") && Catch::Contains("bad/test_fail (was failed)"));
  // Only the fix: exit 0 although test_broken still errors.
  write_leaky_test(d.file("good/test_2"));
  const auto fixed = run_cli({"test", d.path(), "--baseline", d.file("base.json")});
  CHECK_EXIT(fixed, 0);
  CHECK_THAT(fixed.out, Catch::Contains("1 newly passing"));
}

TEST_CASE("--strict counts unsupported tests as failures", "[cli]") {
  TempDir d;
  write_leaky_test(d.file("ok"));
  write_unknown_op_model(d.file("unsup/model.onnx"), "Conv");
  CHECK_EXIT(run_cli({"test", d.path()}), 0);
  CHECK_EXIT(run_cli({"test", d.path(), "--strict"}), 1);
}

TEST_CASE("--isolate records a crashing child with its signal, the run goes on", "[cli]") {
  TempDir d;
  make_tree(d);
  const auto r =
      run_cli({"test", d.path(), "--isolate", "-j", "2", "--debug-crash-on", "test_2$", "--json", d.file("r.json")});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Catch::Contains("crashed     good/test_2") && Catch::Contains("SIGSEGV"));
  CHECK_THAT(r.out, Catch::Contains("1 crashed (6 tests"));
  const auto j = read_json(d.file("r.json"));
  for (const auto& t : j["tests"]) {
    if (t["name"] == "good/test_2") {
      CHECK(t["outcome"] == "crashed");
      CHECK(t["signal"] == 11);
    } else if (t["name"] == "good/test_10") {
      CHECK(t["outcome"] == "passed");
    }
  }
  CHECK(j["summary"]["passed"] == 2);
}

// [serial]: test a must pass within the 0.5 s timeout, so it runs alone (tests/CMakeLists.txt).
TEST_CASE("--timeout kills a hanging test and records it", "[cli][serial]") {
  TempDir d;
  write_leaky_test(d.file("a"));
  write_leaky_test(d.file("b"));
  const auto r = run_cli({"test", d.path(), "--timeout", "0.5", "--debug-hang-on", "^b$"});
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.out, Catch::Contains("timeout     b") &&
                        Catch::Contains("1 passed, 0 failed, 0 unsupported, 0 errors, 1 timeout"));
}

TEST_CASE("usage errors are one line with exit code 2, nothing is written", "[cli]") {
  TempDir d;
  make_tree(d);
  const std::vector<std::vector<std::string>> cases = {
      {"test", d.file("missing")},
      {"test", d.path(), "--shard", "4/3"},
      {"test", d.path(), "--shard", "x"},
      {"test", d.path(), "--filter", "("},
      {"test", d.path(), "-j", "0"},
      {"test"},
      {"test", d.file("good/test_1/test_data_set_0")},
  };
  for (auto args : cases) {
    args.push_back("--json");
    args.push_back(d.file("r.json"));
    const auto r = run_cli(args);
    INFO(args[1]);
    CHECK_EXIT(r, 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, Catch::StartsWith("onnx-run: "));
    CHECK(!fs::exists(d.file("r.json")));
  }
}

TEST_CASE("two reports naming one file are a usage error: neither would be what it says", "[cli]") {
  TempDir d;
  make_tree(d);
  REQUIRE_EXIT(run_cli({"test", d.file("good"), "-q", "--json", d.file("base.json")}), 0);
  write_leaky_test(d.file("good/test_1"), 2.0f);  // a regression against base.json
  // The --json written first, then the updated baseline over it: the regression read
  // "passed" in the report CI reads, and "summary" said 0 failed.
  const auto r = run_cli({"test", d.file("good"), "--baseline", d.file("base.json"), "--json", d.file("r.json"),
                          "--update-baseline", d.path() + "/./r.json"});
  CHECK_EXIT(r, 2);
  CHECK(r.err ==
        "onnx-run: --update-baseline " + d.path() + "/./r.json: the same file as --json; each report needs its own\n");
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(d.file("r.json")));
  const auto x = run_cli({"test", d.file("good"), "--json", d.file("r.out"), "--junit", d.file("r.out")});
  CHECK_EXIT(x, 2);
  CHECK_THAT(x.err, Catch::StartsWith("onnx-run: --junit ") && Catch::Contains("the same file as --json"));
  CHECK_FALSE(fs::exists(d.file("r.out")));
  // A report over the baseline it reads: the next run would take this run's regression
  // as known. Updating it in place is the ratchet, and stays allowed.
  const std::string base = read_file(d.file("base.json"));
  for (const char* report : {"--json", "--junit"}) {
    const auto b = run_cli({"test", d.file("good"), "--baseline", d.file("base.json"), report, d.file("base.json")});
    CHECK_EXIT(b, 2);
    CHECK(b.err == fmt::format("onnx-run: {}: {} is a file this command reads; the report would replace it\n", report,
                               d.file("base.json")));
    CHECK(read_file(d.file("base.json")) == base);
  }
  CHECK_EXIT(
      run_cli({"test", d.file("good"), "--baseline", d.file("base.json"), "--update-baseline", d.file("base.json")}),
      1);  // the regression, reported; the baseline kept as it was for that test
}

TEST_CASE("a report that cannot be written stops the run before it starts (exit 3)", "[cli]") {
  TempDir d;
  make_tree(d);
  const auto r = run_cli({"test", d.path(), "--junit", d.file("no/such/dir/r.xml")});
  CHECK_EXIT(r, 3);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("onnx-run: cannot write") && Catch::Contains("does not exist"));
}

TEST_CASE("an unreadable baseline stops the run before it starts (exit 3)", "[cli]") {
  TempDir d;
  make_tree(d);
  write_text_file(d.file("base.json"), "{\"tests\": 3}");
  const auto r = run_cli({"test", d.path(), "--baseline", d.file("base.json"), "--json", d.file("r.json")});
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("not an onnx-run report"));
  CHECK(!fs::exists(d.file("r.json")));
}
