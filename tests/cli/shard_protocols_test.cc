// `onnx-run test --shard auto` under each engine's protocol, with the variables set as
// the engine sets them (support/shard_runs.h): every slice is the one --shard K/N gives,
// the slices partition a full run, their merge equals the full run's report test by test
// (on a corpus made here and on ../shared/onnx-tests), -v says which engine and slice,
// Bazel's conventions are kept, and each bad environment is a one-line usage error.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include <tinyxml2.h>

#include "support/check_exit.h"
#include "support/paths.h"
#include "support/process.h"
#include "support/shard_runs.h"

using namespace onnxrun::test;
namespace fs = std::filesystem;

namespace {

// Runs `tree` as each of `n` shards of every engine (and as one full run), merges each
// engine's shards, and checks: shard K holds what --shard K/N holds, the shards are
// disjoint and together the full run, and the merge is the full run test by test.
void check_every_engine(const std::string& tree, int n, const std::vector<std::string>& extra) {
  TempDir d;
  std::vector<std::string> full_args{"test", tree, "-q", "--json", d.file("full.json")};
  full_args.insert(full_args.end(), extra.begin(), extra.end());
  const auto full = run_cli(full_args);
  REQUIRE_NO_SIGNAL(full);
  const auto full_report = read_json_file(d.file("full.json"));
  for (const std::string& engine : shard_engines()) {
    INFO(engine);
    const std::string scratch = d.file(engine);
    fs::create_directories(scratch);
    std::vector<std::string> merge{"report", "merge"};
    std::multiset<std::string> union_of_slices;
    for (int k = 1; k <= n; ++k) {
      const std::string json = scratch + "/shard" + std::to_string(k) + ".json";
      std::vector<std::string> args{"test", tree, "-v", "--shard", "auto", "--json", json};
      args.insert(args.end(), extra.begin(), extra.end());
      const auto extra_engine = engine_args(engine, n);
      args.insert(args.end(), extra_engine.begin(), extra_engine.end());
      const auto r = run_cli_env(engine_env(engine, k, n, scratch), args);
      CHECK(r.exit_code == full.exit_code);
      const std::string slice = std::to_string(k) + "/" + std::to_string(n);
      CHECK_THAT(r.err, Catch::Contains("--shard auto: shard " + slice + " from " + engine + " ("));
      const auto report = read_json_file(json);
      CHECK(report["run"]["shard"] == slice);
      CHECK(report["run"]["shard_source"] == engine);
      // The same slice as --shard K/N names.
      std::vector<std::string> explicit_args{"test", tree, "--list", "--shard", slice};
      explicit_args.insert(explicit_args.end(), extra.begin(), extra.end());
      const auto listed = run_cli(explicit_args);
      REQUIRE_EXIT(listed, 0);
      std::string names;
      for (const std::string& t : test_names(report)) {
        names += t + "\n";
        union_of_slices.insert(t);
      }
      CHECK(names == listed.out);
      if (engine == "Bazel") {
        CHECK(fs::exists(bazel_status_file(scratch, k)));
        tinyxml2::XMLDocument xml;
        REQUIRE(xml.LoadFile(bazel_xml_file(scratch, k).c_str()) == tinyxml2::XML_SUCCESS);
        CHECK(xml.FirstChildElement("testsuites")->IntAttribute("tests") == static_cast<int>(report["tests"].size()));
      }
      merge.push_back(json);
    }
    const auto names = test_names(full_report);
    CHECK(union_of_slices == std::multiset<std::string>(names.begin(), names.end()));
    merge.insert(merge.end(), {"--json", scratch + "/merged.json"});
    const auto merged = run_cli(merge);
    CHECK(merged.exit_code == full.exit_code);
    const auto merged_report = read_json_file(scratch + "/merged.json");
    check_same_tests(merged_report, full_report);
    CHECK(merged_report["merge"]["missing"].empty());
  }
}

}  // namespace

TEST_CASE("--shard auto: every engine's shards partition a made-up corpus and merge to its full run", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  check_every_engine(d.path(), 3, {});
}

TEST_CASE("--shard auto: every engine's shards of the ONNX tree merge to its full run", "[onnx-tests][shard]") {
  check_every_engine(shared_tests_dir(), 3, {"-j", "2"});
}

TEST_CASE("--shard auto with no engine in the environment is a usage error naming what it looked for", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto r = run_cli_env({}, {"test", d.path(), "--shard", "auto", "--json", d.file("r.json")});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::StartsWith("onnx-run: --shard auto: no test engine's shard found in the environment "
                                      "(looked for TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel), JOB_COMPLETION_INDEX"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(d.file("r.json")));
}

TEST_CASE("--shard auto with a malformed engine variable is a usage error naming it", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto r = run_cli_env({"CI_NODE_INDEX=first", "CI_NODE_TOTAL=3"},
                             {"test", d.path(), "--shard", "auto", "--json", d.file("r.json")});
  CHECK_EXIT(r, 2);
  CHECK(r.err ==
        "onnx-run: --shard auto: CI_NODE_INDEX='first' is not a whole number (GitLab's shard index, from 1)\n");
  CHECK_FALSE(fs::exists(d.file("r.json")));
}

TEST_CASE("--shard auto with an index out of range is a usage error naming the variable", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto r =
      run_cli_env({"TEST_TOTAL_SHARDS=2", "TEST_SHARD_INDEX=2", "TEST_SHARD_STATUS_FILE=" + d.file("status")},
                  {"test", d.path(), "--shard", "auto"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("TEST_SHARD_INDEX='2' is out of range: Bazel counts from 0 to 1"));
  CHECK_FALSE(fs::exists(d.file("status")));  // nothing written, Bazel's status file included
}

TEST_CASE("--shard auto under a Kubernetes Indexed Job requires --shard-count", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto r = run_cli_env({"JOB_COMPLETION_INDEX=0"}, {"test", d.path(), "--shard", "auto"});
  CHECK_EXIT(r, 2);
  CHECK_THAT(r.err, Catch::Contains("JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job): give the Job's "
                                    "completions as --shard-count N"));
}

TEST_CASE("--shard-count without --shard auto is a usage error", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto r = run_cli_env({"JOB_COMPLETION_INDEX=0"}, {"test", d.path(), "--shard", "1/2", "--shard-count", "2"});
  CHECK_EXIT(r, 2);
  CHECK(r.err == "onnx-run: --shard-count 2 goes with --shard auto\n");
}

TEST_CASE("an explicit --shard K/N wins over the engine's variables", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const auto listed = run_cli({"test", d.path(), "--list", "--shard", "2/3"});
  REQUIRE_EXIT(listed, 0);
  const auto r =
      run_cli_env({"CIRCLE_NODE_INDEX=0", "CIRCLE_NODE_TOTAL=2"}, {"test", d.path(), "--list", "--shard", "2/3"});
  CHECK_EXIT(r, 0);
  CHECK(r.out == listed.out);
  const auto json = run_cli_env({"CIRCLE_NODE_INDEX=0", "CIRCLE_NODE_TOTAL=2"},
                                {"test", d.path(), "-q", "--shard", "2/3", "--json", d.file("r.json")});
  REQUIRE_NO_SIGNAL(json);
  const auto report = read_json_file(d.file("r.json"));
  CHECK(report["run"]["shard"] == "2/3");
  CHECK(report["run"]["shard_source"] == "");
}

TEST_CASE("--shard auto works through --list, -q and the text output alike", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path());
  const std::vector<std::string> env{"BUILDKITE_PARALLEL_JOB=1", "BUILDKITE_PARALLEL_JOB_COUNT=3"};
  const auto listed = run_cli({"test", d.path(), "--list", "--shard", "2/3"});
  REQUIRE_EXIT(listed, 0);
  const auto list = run_cli_env(env, {"test", d.path(), "--list", "--shard", "auto"});
  CHECK_EXIT(list, 0);
  CHECK(list.out == listed.out);
  const auto text = run_cli_env(env, {"test", d.path(), "--shard", "auto", "-j", "1"});
  const auto text_explicit = run_cli({"test", d.path(), "--shard", "2/3", "-j", "1"});
  CHECK(text.exit_code == text_explicit.exit_code);
  const size_t lines = static_cast<size_t>(std::count(listed.out.begin(), listed.out.end(), '\n'));
  CHECK_THAT(text.out, Catch::Contains("(" + std::to_string(lines) + " tests in"));
  const auto quiet = run_cli_env(env, {"test", d.path(), "--shard", "auto", "-q"});
  CHECK(quiet.exit_code == text_explicit.exit_code);
  CHECK_THAT(quiet.out, Catch::Contains("(" + std::to_string(lines) + " tests in"));
  CHECK(quiet.err.find("from Buildkite") == std::string::npos);  // which engine only with -v
}

TEST_CASE("--shard auto under Bazel: --junit given wins over XML_OUTPUT_FILE", "[cli][shard]") {
  TempDir d;
  write_mixed_corpus(d.path() + "/corpus");
  const auto r = run_cli_env(engine_env("Bazel", 1, 2, d.path()),
                             {"test", d.file("corpus"), "-q", "--shard", "auto", "--junit", d.file("mine.xml")});
  REQUIRE_NO_SIGNAL(r);
  CHECK(fs::exists(d.file("mine.xml")));
  CHECK_FALSE(fs::exists(bazel_xml_file(d.path(), 1)));
  CHECK(fs::exists(bazel_status_file(d.path(), 1)));
}
