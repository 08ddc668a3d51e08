// `onnx-run report merge` as a CI job's last step runs it: shard reports merged into the
// full run's report, text, -q, --json and --junit; a baseline applied as `test
// --baseline` does; a missing shard a failure (3) unless --allow-missing, which says
// what is missing; and each refusal (shards at odds, settings that decide verdicts
// differing or unrecorded on one side) a one-line usage error (2), each unreadable
// report exit 3, with nothing written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "support/check_exit.h"
#include "support/model_builder.h"
#include "support/model_tree.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shard_runs.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

// The corpus in d/corpus, its full run in d/full.json (text output returned), and its
// shards k/3 in d/s<k>.json.
struct Sharded {
  TempDir d;
  ProcessResult full;
  Sharded(const std::vector<std::string>& extra = {}) {
    write_mixed_corpus(d.file("corpus"));
    std::vector<std::string> args{"test", d.file("corpus"), "-j", "1", "--json", d.file("full.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    full = run_cli(args);
    REQUIRE_NO_SIGNAL(full);
    for (int k = 1; k <= 3; ++k) shard(k, 3, d.file("s" + std::to_string(k) + ".json"), extra);
  }
  void shard(int k, int n, const std::string& json, const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args{
        "test", d.file("corpus"), "-q", "--shard", std::to_string(k) + "/" + std::to_string(n), "--json", json};
    args.insert(args.end(), extra.begin(), extra.end());
    REQUIRE_NO_SIGNAL(run_cli(args));
  }
  std::vector<std::string> merge(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"report", "merge", d.file("s1.json"), d.file("s2.json"), d.file("s3.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

// From the closing report on: the unsupported causes and the summary line, times blanked.
std::string closing_text(const std::string& out) {
  const size_t from = out.find("\nUnsupported, by cause");
  std::string tail = from == std::string::npos ? out : out.substr(from);
  const size_t slow = tail.find("\nSlowest tests:");
  const size_t after = tail.find("\n\n", slow + 1);
  if (slow != std::string::npos) tail.erase(slow, after - slow);
  return std::regex_replace(tail, std::regex(R"(\d+\.\d+ s)"), "T s");
}

// The tests' lines as `test` prints them in a pipe ("[ 3/14] failed      bad/test_fail
// (T s)" and the lines indented under one), times blanked: the closing report left out.
std::string test_lines(const std::string& out) {
  std::string lines;
  std::istringstream in(out);
  bool under_test = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind('[', 0) == 0) under_test = true;
    else if (line.rfind("    ", 0) != 0) under_test = false;
    if (under_test) lines += line + "\n";
  }
  return std::regex_replace(lines, std::regex(R"(\(\d+\.\d+ s\))"), "(T s)");
}

// How many tests test_lines holds: its lines that begin with '['.
size_t tests_in(const std::string& lines) {
  size_t n = 0;
  for (size_t at = 0; at < lines.size(); at = lines.find('\n', at) + 1) n += lines[at] == '[';
  return n;
}

void rewrite_json(const std::string& path, const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json j = read_json_file(path);
  change(j);
  std::ofstream(path) << j.dump(1);
}

// Four one-LeakyRelu tests a..d in d/tree; c's expected output is off by 1e-4 relative
// in one element, so c fails at --atol 0 --rtol 0 and passes under a lenient setting
// (--check-error-stat median, --atol y:1). Returns the shard of 2 that holds c.
int write_one_off_corpus(const TempDir& d) {
  for (const char* n : {"a", "b", "c", "d"}) write_leaky_test(d.file(std::string("tree/") + n));
  std::vector<float> y = leaky({-2.0f, -0.5f, 0.0f, 3.0f}, 0.1f);
  y[3] = 3.0003f;
  write_float_tensor(d.file("tree/c/test_data_set_0/output_0.pb"), y, "y");
  for (int k = 1; k <= 2; ++k) {
    const auto list = run_cli({"test", d.file("tree"), "--list", "--shard", std::to_string(k) + "/2"});
    REQUIRE_EXIT(list, 0);
    if (list.out.find("c\n") != std::string::npos) return k;
  }
  FAIL("no shard holds c");
  return 0;
}

}  // namespace

TEST_CASE("report merge of all shards equals the full run: --json, --junit, text", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli(s.merge({"--json", s.d.file("all.json"), "--junit", s.d.file("all.xml")}));
  CHECK(r.exit_code == s.full.exit_code);
  CHECK_EXIT(r, 1);  // the corpus has failing and broken tests
  check_same_tests(read_json_file(s.d.file("all.json")), read_json_file(s.d.file("full.json")));
  CHECK_THAT(r.out, Catch::StartsWith("Merged 3 of 3 shards (1/3, 2/3, 3/3): 14 tests\n"));
  CHECK(closing_text(r.out) == closing_text(s.full.out));
  CHECK_THAT(r.out, Catch::Contains("Unsupported, by cause (tests):\n       2  Conv\n       1  Gemm\n"));
  const auto merged = read_json_file(s.d.file("all.json"));
  CHECK(merged["merge"]["shard_count"] == 3);
  CHECK(merged["merge"]["shards"] == nlohmann::json::array({"1/3", "2/3", "3/3"}));
  CHECK(merged["run"]["shard"] == "");
  tinyxml2::XMLDocument xml;
  REQUIRE(xml.LoadFile(s.d.file("all.xml").c_str()) == tinyxml2::XML_SUCCESS);
  const auto* suite = xml.FirstChildElement("testsuites")->FirstChildElement("testsuite");
  CHECK(suite->IntAttribute("tests") == 14);
  CHECK(suite->IntAttribute("failures") == 2);
  CHECK(suite->IntAttribute("errors") == 1);
  CHECK(suite->IntAttribute("skipped") == 3);
}

TEST_CASE("report merge prints every test as one run prints it: its line, a problem's message", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli(s.merge());
  CHECK_EXIT(r, 1);
  const std::string lines = test_lines(r.out);
  CHECK(lines == test_lines(s.full.out));
  CHECK(tests_in(lines) == 14);
  // Why the run failed, in the merge step's log: the failed test and its worst element.
  CHECK_THAT(lines, Catch::Contains("] failed      bad/test_fail (T s)\n    test_data_set_0: output 'y'"));
  CHECK(r.out.find("] passed      good/test_a_1") > r.out.find("Merged 3 of 3 shards"));
  CHECK(r.out.find("] passed      good/test_a_1") < r.out.find(" passed, 2 failed"));
}

TEST_CASE("report merge -q prints what test -q prints: the problems and the summary line", "[cli][merge]") {
  Sharded s;
  const auto full_quiet = run_cli({"test", s.d.file("corpus"), "-j", "1", "-q"});
  const auto r = run_cli(s.merge({"-q"}));
  CHECK_EXIT(r, 1);
  CHECK(test_lines(r.out) == test_lines(full_quiet.out));
  CHECK(tests_in(test_lines(r.out)) == 3);  // two failed, one error
  const std::string summary = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  CHECK(std::regex_match(
      summary,
      std::regex(R"(8 passed, 2 failed, 3 unsupported, 1 error, 0 timeouts, 0 crashed \(14 tests in \d+\.\d\d s\)
)")));
  CHECK(r.out.find("Merged") == std::string::npos);
}

TEST_CASE("report merge of passing shards exits 0", "[cli][merge]") {
  TempDir d;
  for (const char* n : {"t1", "t2", "t3", "t4", "t5"}) write_leaky_test(d.file(std::string("ok/") + n));
  std::vector<std::string> args{"report", "merge"};
  for (int k = 1; k <= 2; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    REQUIRE_EXIT(run_cli({"test", d.file("ok"), "-q", "--shard", std::to_string(k) + "/2", "--json", json}), 0);
    args.push_back(json);
  }
  const auto r = run_cli(args);
  CHECK_EXIT(r, 0);
  CHECK_THAT(r.out, Catch::Contains("5 passed, 0 failed"));
  // One of two, accepted: exit 0, and a warning says what is missing.
  const auto half = run_cli({"report", "merge", args[2], "--allow-missing"});
  CHECK_EXIT(half, 0);
  CHECK(half.err ==
        "onnx-run: warning: 1 of 2 shards missing (2/2): their tests are not in the merged report (--allow-missing)\n");
  CHECK_EXIT(run_cli({"report", "merge", args[2]}), 3);
}

TEST_CASE("report merge of shards of a tree whose folder name is not UTF-8 exits 0", "[cli][merge]") {
  TempDir d;
  write_leaky_test(d.file("t/caf\xe9"));
  write_leaky_test(d.file("t/ok"));
  std::vector<std::string> args{"report", "merge"};
  for (int k = 1; k <= 2; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--shard", std::to_string(k) + "/2", "--json", json}), 0);
    args.push_back(json);
  }
  args.insert(args.end(), {"--json", d.file("m.json")});
  const auto r = run_cli(args);
  CHECK_EXIT(r, 0);  // it exited 3: the shards' names no longer made up the selection
  CHECK_THAT(r.out, Catch::Contains("2 passed, 0 failed"));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("full.json")}), 0);
  check_same_tests(read_json_file(d.file("m.json")), read_json_file(d.file("full.json")));
}

TEST_CASE("report merge applies a baseline as test --baseline does", "[cli][merge]") {
  Sharded s;
  // The full run as baseline: nothing regressed, exit 0 though tests fail.
  const auto same = run_cli(s.merge({"--baseline", s.d.file("full.json")}));
  CHECK_EXIT(same, 0);
  const auto same_test = run_cli({"test", s.d.file("corpus"), "--baseline", s.d.file("full.json")});
  CHECK_EXIT(same_test, 0);
  CHECK_THAT(same.out, Catch::Contains("Baseline: 0 regressions, 0 newly passing"));
  // A baseline where the failing test passed: a regression, exit 1, as `test` says it.
  rewrite_json(s.d.file("full.json"), [](nlohmann::json& j) {
    for (auto& t : j["tests"])
      if (t["name"] == "bad/test_fail") t["outcome"] = "passed";
  });
  const auto worse = run_cli(s.merge({"--baseline", s.d.file("full.json")}));
  CHECK_EXIT(worse, 1);
  const auto worse_test = run_cli({"test", s.d.file("corpus"), "--baseline", s.d.file("full.json")});
  CHECK_THAT(worse.out, Catch::Contains("Regressions against " + s.d.file("full.json") +
                                        " (1):\n  bad/test_fail: passed -> failed\n"));
  CHECK(closing_text(worse.out) == closing_text(worse_test.out));
}

TEST_CASE("report merge of 2 of 3 shards fails, one line, nothing written", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli({"report", "merge", s.d.file("s1.json"), s.d.file("s3.json"), "--json", s.d.file("m.json")});
  CHECK_EXIT(r, 3);  // it exited 0 with a warning: a lost shard upload turned CI green
  CHECK(r.err == "onnx-run: report merge: 1 of 3 shards missing (2/3); --allow-missing merges what is there\n");
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
}

TEST_CASE("report merge --allow-missing says which shards are missing, on stderr and in the report", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli(
      {"report", "merge", s.d.file("s1.json"), s.d.file("s3.json"), "--allow-missing", "--json", s.d.file("m.json")});
  REQUIRE_NO_SIGNAL(r);
  // Folded into the one failure line (the corpus has failing tests), else a warning of its own.
  CHECK_THAT(r.err, Catch::Contains("1 of 3 shards missing (2/3): their tests are not in the merged report "
                                    "(--allow-missing)"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_THAT(r.out, Catch::StartsWith("Merged 2 of 3 shards (1/3, 3/3):"));
  const auto m = read_json_file(s.d.file("m.json"));
  CHECK(m["merge"]["missing"] == nlohmann::json::array({"2/3"}));
  const size_t two = read_json_file(s.d.file("s2.json"))["tests"].size();
  CHECK(m["tests"].size() + two == 14);
}

TEST_CASE("report merge --allow-missing leaves out a shard that cannot be read, and says so", "[cli][merge]") {
  Sharded s;
  write_text_file(s.d.file("s2.json"), "{\"truncated");
  const auto strict = run_cli(s.merge());
  CHECK_EXIT(strict, 3);
  CHECK(std::count(strict.err.begin(), strict.err.end(), '\n') == 1);
  const auto r = run_cli(s.merge({"--allow-missing", "--json", s.d.file("m.json")}));
  REQUIRE_NO_SIGNAL(r);
  CHECK_THAT(r.err, Catch::Contains(s.d.file("s2.json")) && Catch::Contains("left out (--allow-missing)") &&
                        Catch::Contains("1 of 3 shards missing (2/3)"));
  CHECK(read_json_file(s.d.file("m.json"))["merge"]["missing"] == nlohmann::json::array({"2/3"}));
}

TEST_CASE("report merge refuses two reports of the same shard", "[cli][merge]") {
  Sharded s;
  fs::copy_file(s.d.file("s2.json"), s.d.file("again.json"));
  const auto r = run_cli({"report", "merge", s.d.file("s1.json"), s.d.file("s2.json"), s.d.file("again.json"), "--json",
                          s.d.file("m.json")});
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: report merge: " + s.d.file("s2.json") + " and " + s.d.file("again.json") +
                     " both hold shard 2/3: overlapping shards\n");
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
}

TEST_CASE("report merge refuses a test in two reports", "[cli][merge]") {
  Sharded s;
  rewrite_json(s.d.file("s3.json"),
               [&](nlohmann::json& j) { j["tests"].push_back(read_json_file(s.d.file("s1.json"))["tests"][0]); });
  const auto r = run_cli(s.merge());
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("overlapping shards"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("report merge refuses shards of different counts", "[cli][merge]") {
  Sharded s;
  s.shard(1, 2, s.d.file("half.json"));
  const auto r = run_cli({"report", "merge", s.d.file("s1.json"), s.d.file("half.json")});
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: report merge: " + s.d.file("half.json") + " holds shard 1/2 but " + s.d.file("s1.json") +
                     " holds shard 1/3: different shard counts\n");
}

TEST_CASE("report merge refuses reports run with different tolerances", "[cli][merge]") {
  Sharded s;
  s.shard(2, 3, s.d.file("s2.json"), {"--rtol", "0.01"});
  const auto r = run_cli(s.merge({"--junit", s.d.file("m.xml")}));
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: report merge: " + s.d.file("s2.json") + " ran with --rtol '0.01' but " +
                     s.d.file("s1.json") + " with '0.001': reports of different settings\n");
  CHECK_FALSE(fs::exists(s.d.file("m.xml")));
  s.shard(2, 3, s.d.file("s2.json"), {"--atol", "0"});
  CHECK_THAT(run_cli(s.merge()).err, Catch::Contains("ran with --atol '0' but"));
}

TEST_CASE("report merge refuses shards judged by a different error statistic or per-output tolerance", "[cli][merge]") {
  // The regression that turned green: the full run fails c, but the shard holding c ran
  // with a lenient setting the report did not record, and the merge said "4 passed".
  TempDir d;
  const int kc = write_one_off_corpus(d);
  const std::vector<std::string> exact_tol{"--atol", "0", "--rtol", "0"};
  auto shard = [&](int k, const std::string& json, std::vector<std::string> extra) {
    std::vector<std::string> args{"test", d.file("tree"), "-q", "--shard", std::to_string(k) + "/2", "--json", json};
    args.insert(args.end(), exact_tol.begin(), exact_tol.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  std::vector<std::string> full{"test", d.file("tree"), "-q"};
  full.insert(full.end(), exact_tol.begin(), exact_tol.end());
  REQUIRE_EXIT(run_cli(full), 1);
  const std::string lenient = d.file("lenient.json"), plain = d.file("plain.json");
  REQUIRE_EXIT(shard(3 - kc, plain, {}), 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--check-error-stat", "median"}, "--check-error-stat 'elemwise' but " + lenient + " with 'median'"},
      {{"--atol", "y:1"}, "per-output --atol '' but " + lenient + " with 'y:1'"},
      {{"--rtol", "y:0.5"}, "per-output --rtol '' but " + lenient + " with 'y:0.5'"},
  };
  for (const auto& [extra, said] : cases) {
    INFO(extra.front() << " " << extra.back());
    REQUIRE_EXIT(shard(kc, lenient, extra), 0);  // c passes there
    const auto r = run_cli({"report", "merge", lenient, plain, "--json", d.file("m.json")});
    CHECK_EXIT(r, 2);
    CHECK(r.err == "onnx-run: report merge: " + plain + " ran with " + said + ": reports of different settings\n");
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(d.file("m.json")));
  }
  // The report records them.
  REQUIRE_EXIT(shard(kc, lenient, {"--check-error-stat", "median", "--atol", "y:1", "--atol", "1e-3"}), 0);
  const auto run = read_json_file(lenient)["run"];
  CHECK(run["check_error_stat"] == "median");
  CHECK(run["output_atol"] == nlohmann::json({{"y", 1.0}}));
  CHECK(run["output_rtol"] == nlohmann::json::object());
  CHECK(run["atol"] == 0.001);
  // The same settings typed in another order are the same settings: merged (c fails).
  REQUIRE_EXIT(shard(kc, lenient, {"--max-ulp", "y:1", "--max-ulp", "2"}), 1);
  REQUIRE_EXIT(shard(3 - kc, plain, {"--max-ulp", "2", "--max-ulp", "y:1"}), 0);
  CHECK(read_json_file(plain)["run"]["max_ulp"] == "2,y:1");
  CHECK_EXIT(run_cli({"report", "merge", lenient, plain}), 1);
}

TEST_CASE("report merge refuses a report that did not record a setting beside one that did", "[cli][merge]") {
  Sharded s;
  // An older onnx-run recorded neither the error statistic nor per-output tolerances.
  rewrite_json(s.d.file("s3.json"), [](nlohmann::json& j) { j["run"].erase("check_error_stat"); });
  const auto r = run_cli(s.merge());
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: report merge: " + s.d.file("s3.json") +
                     " ran with --check-error-stat '(not recorded: an older report)' but " + s.d.file("s1.json") +
                     " with 'elemwise': reports of different settings\n");
  rewrite_json(s.d.file("s2.json"), [](nlohmann::json& j) { j["run"]["output_atol"] = nullptr; });
  CHECK_THAT(run_cli(s.merge()).err,
             Catch::Contains(" ran with per-output --atol '(not recorded: an older report)' but " +
                             s.d.file("s1.json") + " with '': reports of different settings"));
  // Reports that all lack a setting are merged as before (exit 1: the corpus fails).
  for (const char* f : {"s1.json", "s2.json", "s3.json"})
    rewrite_json(s.d.file(f), [](nlohmann::json& j) {
      for (const char* field : {"check_error_stat", "output_rtol", "output_atol"}) j["run"].erase(field);
    });
  CHECK_EXIT(run_cli(s.merge()), 1);
}

TEST_CASE("report merge of shards that selected no test refuses a baseline, as test does", "[cli][merge]") {
  TempDir d;
  for (const char* n : {"one", "two"}) write_leaky_test(d.file(std::string("t/") + n));
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", d.file("base.json")}), 0);
  std::vector<std::string> args{"report", "merge"};
  for (int k = 1; k <= 2; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    // `test --filter zzz` refuses to select nothing now (exit 2): such shards, as an
    // older onnx-run wrote them, made by hand.
    REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--shard", std::to_string(k) + "/2", "--json", json}), 0);
    rewrite_json(json, [](nlohmann::json& j) {
      j["tests"] = nlohmann::json::array();
      j["run"]["filter"] = "zzz";
      j["run"]["selected"] = "0 tests, digest 14650fb0739d0383";  // names_digest({})
    });
    args.push_back(json);
  }
  CHECK_EXIT(run_cli(args), 0);  // no baseline: nothing ran, nothing failed
  args.insert(args.end(), {"--baseline", d.file("base.json"), "--json", d.file("m.json")});
  const auto r = run_cli(args);
  CHECK_EXIT(r, 2);  // it exited 0: "matched 0 of its 2 tests (2 not run)"
  CHECK(r.err == "onnx-run: --baseline " + d.file("base.json") +
                     ": none of its 2 tests is among the 0 merged (tests match by model path)\n");
  CHECK_FALSE(fs::exists(d.file("m.json")));
}

TEST_CASE("report merge refuses reports of other onnx-run versions", "[cli][merge]") {
  Sharded s;
  rewrite_json(s.d.file("s3.json"), [](nlohmann::json& j) { j["generator"] = "onnx-run 0.0.1 (old)"; });
  const auto r = run_cli(s.merge());
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("ran with onnx-run version 'onnx-run 0.0.1 (old)' but"));
}

TEST_CASE("report merge refuses reports run with different options", "[cli][merge]") {
  Sharded s;
  s.shard(3, 3, s.d.file("s3.json"), {"--no-fuse"});
  const auto r = run_cli(s.merge());
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("ran with --no-fuse 'on' but"));
  s.shard(3, 3, s.d.file("s3.json"), {"--strict"});
  CHECK_THAT(run_cli(s.merge()).err, Catch::Contains("ran with --strict 'on' but"));
  s.shard(3, 3, s.d.file("s3.json"), {"--exclude", "zzz"});
  CHECK_THAT(run_cli(s.merge()).err, Catch::Contains("ran with --exclude 'zzz' but"));
}

TEST_CASE("report merge refuses a merged report among its inputs", "[cli][merge]") {
  Sharded s;
  REQUIRE_NO_SIGNAL(run_cli(s.merge({"-q", "--json", s.d.file("all.json")})));
  const auto r = run_cli({"report", "merge", s.d.file("all.json")});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("is itself a merged report"));
}

// As `test` refuses them: a report over the baseline it reads would make this merge's
// regressions the next run's known failures; one over a shard would lose that shard.
TEST_CASE("report merge refuses a report over a file it reads: a shard or the baseline", "[cli][merge]") {
  Sharded s;
  const std::string base = read_file(s.d.file("full.json")), shard = read_file(s.d.file("s2.json"));
  for (const char* report : {"--json", "--junit"}) {
    for (const std::string& read : {s.d.file("full.json"), s.d.file("s2.json")}) {
      const auto r = run_cli(s.merge({"-q", "--baseline", s.d.file("full.json"), report, read}));
      CHECK_EXIT(r, 2);
      CHECK(r.err ==
            fmt::format("onnx-run: {}: {} is a file this command reads; the report would replace it\n", report, read));
      CHECK(r.out.empty());
    }
  }
  CHECK(read_file(s.d.file("full.json")) == base);
  CHECK(read_file(s.d.file("s2.json")) == shard);
  const auto same = run_cli(s.merge({"--json", s.d.file("m.out"), "--junit", s.d.file("m.out")}));
  CHECK_EXIT(same, 2);
  CHECK(same.err ==
        "onnx-run: --junit " + s.d.file("m.out") + ": the same file as --json; each report needs its own\n");
  CHECK_FALSE(fs::exists(s.d.file("m.out")));
}

TEST_CASE("report merge of a file that is no report exits 3", "[cli][merge]") {
  Sharded s;
  write_text_file(s.d.file("junk.json"), "{\"tests\": 5}");
  const auto r = run_cli({"report", "merge", s.d.file("s1.json"), s.d.file("junk.json"), "--json", s.d.file("m.json")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: report " + s.d.file("junk.json") + ": not an onnx-run report (no \"tests\" array)\n");
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
}

// Found by a report-only pass hunting silently changed numbers: nlohmann's get<int> read
// "jobs": 4294967297 as 1 and 2.9 as 2, and took -5, so such a report merged as if it
// had run with those.
TEST_CASE("report merge refuses a report whose \"run\" count is no whole number", "[cli][merge]") {
  for (const char* jobs : {"4294967297", "2.9", "-5", "1e20", "\"2\""}) {
    INFO(jobs);
    Sharded s;
    rewrite_json(s.d.file("s2.json"), [&](nlohmann::json& j) { j["run"]["jobs"] = nlohmann::json::parse(jobs); });
    const auto r = run_cli(s.merge({"--json", s.d.file("m.json")}));
    CHECK_EXIT(r, 3);
    CHECK_THAT(r.err, Catch::Contains("\"run\".\"jobs\" is " + nlohmann::json::parse(jobs).dump() +
                                      ", not a whole number from 0 to 2147483647"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(s.d.file("m.json")));
  }
  // A whole number written as a float (Python's json, after a float) is that number.
  Sharded s;
  const double jobs = read_json_file(s.d.file("s1.json"))["run"]["jobs"].get<double>();
  rewrite_json(s.d.file("s2.json"), [&](nlohmann::json& j) { j["run"]["jobs"] = jobs; });
  REQUIRE(read_file(s.d.file("s2.json")).find(fmt::format("\"jobs\": {:.1f}", jobs)) != std::string::npos);
  const auto merged = run_cli(s.merge({"--json", s.d.file("m.json")}));
  CHECK_EXIT(merged, 1);  // the corpus's own failures, merged
  CHECK_THAT(merged.out, Catch::StartsWith("Merged 3 of 3 shards"));
}

TEST_CASE("report merge of a missing report exits 3", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli({"report", "merge", s.d.file("s1.json"), s.d.file("nowhere.json")});
  CHECK_EXIT(r, 3);
  CHECK(r.err == "onnx-run: report: cannot open " + s.d.file("nowhere.json") + ": No such file or directory\n");
}

TEST_CASE("report merge with an unreadable baseline exits 3", "[cli][merge]") {
  Sharded s;
  const auto r = run_cli(s.merge({"--baseline", s.d.file("nowhere.json"), "--json", s.d.file("m.json")}));
  CHECK_EXIT(r, 3);
  CHECK_THAT(r.err, Catch::Contains("baseline: cannot open " + s.d.file("nowhere.json")));
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
}

TEST_CASE("report without merge, or merge without reports, is a usage error", "[cli][merge]") {
  const auto other = run_cli({"report", "split", "a.json"});
  CHECK_EXIT(other, 2);
  CHECK(std::count(other.err.begin(), other.err.end(), '\n') == 1);
  CHECK_THAT(other.err, Catch::Contains("split"));
  const auto none = run_cli({"report", "merge"});
  CHECK_EXIT(none, 2);
  CHECK(std::count(none.err.begin(), none.err.end(), '\n') == 1);
}

TEST_CASE("report merge refuses shards run over different test sets: a checkout missing a test", "[cli][merge]") {
  // Shard 2's machine checked out the corpus without one of its tests (a folder not
  // fetched, another revision): its slice lacks that test, and so does the merge.
  Sharded s;
  const std::vector<std::string> two = test_names(read_json_file(s.d.file("s2.json")));
  REQUIRE_FALSE(two.empty());
  fs::copy(s.d.file("corpus"), s.d.file("partial"), fs::copy_options::recursive);
  fs::remove_all(s.d.file("partial/" + two.front()));
  REQUIRE_NO_SIGNAL(run_cli({"test", s.d.file("partial"), "-q", "--shard", "2/3", "--json", s.d.file("s2.json")}));
  REQUIRE(test_names(read_json_file(s.d.file("s2.json"))).size() == two.size() - 1);
  const auto r = run_cli(s.merge({"--json", s.d.file("m.json")}));
  CHECK_EXIT(r, 2);  // it merged the rest: two.front() was in no report and nobody said so
  CHECK_THAT(r.err, Catch::StartsWith("onnx-run: report merge: " + s.d.file("s2.json") + " ran over ") &&
                        Catch::EndsWith(": shards of different test sets (another corpus, filter or checkout)\n"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
  // Each report records what its run selected before slicing it.
  CHECK_THAT(std::string(read_json_file(s.d.file("s1.json"))["run"]["selected"]),
             Catch::Matches(std::to_string(test_names(read_json_file(s.d.file("full.json"))).size()) +
                            " tests, digest [0-9a-f]{16}"));
}

TEST_CASE("report merge refuses shards that hold fewer tests than their run selected", "[cli][merge]") {
  Sharded s;
  // A shard's report that lost a test (written by hand, cut short): every shard is there.
  rewrite_json(s.d.file("s3.json"), [](nlohmann::json& j) { j["tests"].erase(0); });
  const auto r = run_cli(s.merge({"--json", s.d.file("m.json")}));
  CHECK_EXIT(r, 3);  // it exited 1 with the test missing from the merged report
  CHECK_THAT(r.err,
             Catch::StartsWith("onnx-run: report merge: the shards hold ") && Catch::EndsWith(": tests are missing\n"));
  CHECK_FALSE(fs::exists(s.d.file("m.json")));
  // A test moved into another shard's report: not the report that shard's run wrote.
  Sharded t;
  rewrite_json(t.d.file("s1.json"), [&](nlohmann::json& j) {
    nlohmann::json three = read_json_file(t.d.file("s3.json"));
    j["tests"].push_back(three["tests"][0]);
    three["tests"].erase(0);
    std::ofstream(t.d.file("s3.json")) << three.dump(1);
  });
  const auto moved = run_cli(t.merge());
  CHECK_EXIT(moved, 3);
  CHECK_THAT(moved.err, Catch::Contains(" holds shard 1/3 but its test ") && Catch::Contains(" belongs to shard 3/3"));
}

TEST_CASE("report merge --baseline finds a test gone from the corpus as one run does", "[cli][merge][baseline]") {
  TempDir d;
  for (const char* n : {"a", "b", "c", "d", "e", "gone"}) write_leaky_test(d.file(std::string("t/") + n));
  const std::string base = d.file("base.json");
  REQUIRE_EXIT(run_cli({"test", d.file("t"), "-q", "--json", base}), 0);
  fs::remove_all(d.file("t/gone"));
  const auto one = run_cli({"test", d.file("t"), "-q", "--baseline", base});
  REQUIRE_EXIT(one, 1);
  std::vector<std::string> args{"report", "merge", "--baseline", base};
  int holder = 0;  // the slice "gone" belonged to
  for (int k = 1; k <= 3; ++k) {
    const std::string json = d.file("s" + std::to_string(k) + ".json");
    const auto r =
        run_cli({"test", d.file("t"), "-q", "--shard", std::to_string(k) + "/3", "--baseline", base, "--json", json});
    if (r.exit_code == 1) holder = k;
    args.push_back(json);
  }
  REQUIRE(holder != 0);
  CHECK(read_json_file(d.file("s" + std::to_string(holder) + ".json"))["baseline"]["missing"][0]["name"] == "gone");
  auto merge = args;
  merge.insert(merge.end(), {"--json", d.file("m.json"), "--junit", d.file("m.xml")});
  const auto r = run_cli(merge);
  CHECK_EXIT(r, 1);  // it exited 0
  CHECK(r.err == one.err);
  CHECK(read_json_file(d.file("m.json"))["baseline"]["missing"][0]["name"] == "gone");
  CHECK_THAT(read_file(d.file("m.xml")), Catch::Contains("name=\"gone\"") && Catch::Contains("type=\"missing\""));
  // Without the shard that held it (--allow-missing), nobody saw its tests: not counted.
  args.erase(args.begin() + 4 + holder - 1);
  args.push_back("--allow-missing");
  const auto part = run_cli(args);
  CHECK_EXIT(part, 0);
  CHECK_THAT(part.out, !Catch::Contains("Missing:"));
}

TEST_CASE("report merge run elsewhere finds the shards' relative PATHs where they typed them",
          "[cli][merge][baseline]") {
  // `cd work && onnx-run test m --shard K/2` for m a model folder with a test below it,
  // then the merge from work's parent: "m" is not there, and the deleted m/sub was "not
  // run" (exit 0).
  TempDir d;
  write_leaky_test(d.file("work/m"));
  write_leaky_test(d.file("work/m/sub"));
  auto in_work = [&](const std::string& args) {
    return run_process({"/bin/sh", "-c", "cd " + d.file("work") + " && " + onnx_run_binary() + " " + args});
  };
  REQUIRE_EXIT(in_work("test m -q --json ../base.json"), 0);
  fs::remove_all(d.file("work/m/sub"));
  for (const char* k : {"1", "2"}) in_work(std::string("test m -q --shard ") + k + "/2 --json ../s" + k + ".json");
  const auto r = run_cli({"report", "merge", d.file("s1.json"), d.file("s2.json"), "--baseline", d.file("base.json"),
                          "-q", "--json", d.file("m.json")});
  CHECK_EXIT(r, 1);
  CHECK(r.err == "onnx-run: 1 regression against " + d.file("base.json") + ": sub (passed -> missing)\n");
  CHECK(read_json_file(d.file("m.json"))["run"]["paths"] == nlohmann::json::array({d.file("work/m")}));
}

TEST_CASE("a shard run in a folder whose name is not UTF-8 records no cwd, and a merge there finds its PATHs",
          "[cli][merge][baseline]") {
  // "cwd" read back as caf\ufffd, a folder that is not there: the deleted m/sub was "not
  // run" (exit 0), even merged from inside the folder.
  TempDir d;
  const std::string work = d.file("caf\xe9");
  write_leaky_test(work + "/m");
  write_leaky_test(work + "/m/sub");
  auto in_work = [&](const std::string& args) {
    return run_process({"/bin/sh", "-c", "cd '" + work + "' && " + onnx_run_binary() + " " + args});
  };
  REQUIRE_EXIT(in_work("test m -q --json ../base.json"), 0);
  fs::remove_all(work + "/m/sub");
  for (const char* k : {"1", "2"}) in_work(std::string("test m -q --shard ") + k + "/2 --json ../s" + k + ".json");
  CHECK(read_json_file(d.file("s1.json"))["run"]["cwd"] == "");
  const auto r = in_work("report merge ../s1.json ../s2.json --baseline ../base.json -q");
  CHECK_EXIT(r, 1);
  CHECK_THAT(r.err, Catch::Contains("sub (passed -> missing)"));
}
