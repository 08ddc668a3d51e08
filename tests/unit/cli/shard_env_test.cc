// --shard auto's reading of each engine's variables (cli/shard_env.h), from a made-up
// environment: every protocol's numbering, and each malformed value named.
#include <catch2/catch.hpp>

#include <map>

#include "cli/shard_env.h"
#include "core/error.h"

using onnxrun::Error;
using onnxrun::cli::AutoShard;
using onnxrun::cli::Environment;
using onnxrun::cli::shard_from_environment;

namespace {

Environment env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
}

// The message of the usage error that resolving `vars` throws ("" when none is thrown).
std::string usage_error(std::map<std::string, std::string> vars, int shard_count = 0) {
  try {
    shard_from_environment(env_of(std::move(vars)), shard_count);
  } catch (const Error& e) {
    CHECK(e.kind() == onnxrun::ErrorKind::kUsage);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("--shard auto reads each engine's numbering", "[unit][shard]") {
  struct Case {
    std::map<std::string, std::string> vars;
    int shard_count;
    const char* engine;
    const char* slice;
  };
  const Case cases[] = {
      {{{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "0"}}, 0, "Bazel", "1/3"},
      {{{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "2"}}, 0, "Bazel", "3/3"},
      {{{"JOB_COMPLETION_INDEX", "1"}}, 4, "Kubernetes", "2/4"},
      {{{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}}, 0, "GitLab", "1/2"},
      {{{"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "2"}}, 0, "GitLab", "2/2"},
      {{{"CI_NODE_TOTAL", "1"}}, 0, "GitLab", "1/1"},  // a job without parallel:
      {{{"CIRCLE_NODE_INDEX", "0"}, {"CIRCLE_NODE_TOTAL", "5"}}, 0, "CircleCI", "1/5"},
      {{{"BUILDKITE_PARALLEL_JOB", "4"}, {"BUILDKITE_PARALLEL_JOB_COUNT", "5"}}, 0, "Buildkite", "5/5"},
      // Bazel inside a GitLab job: the innermost engine, Bazel, gives the slice.
      {{{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}, {"TEST_TOTAL_SHARDS", "4"}, {"TEST_SHARD_INDEX", "3"}},
       0,
       "Bazel",
       "4/4"},
  };
  for (const Case& c : cases) {
    const AutoShard a = shard_from_environment(env_of(c.vars), c.shard_count);
    INFO(a.from);
    CHECK(a.engine == c.engine);
    CHECK(a.slice() == c.slice);
  }
}

TEST_CASE("--shard auto passes on Bazel's status file, XML output and scratch folder", "[unit][shard]") {
  const AutoShard a = shard_from_environment(env_of({{"TEST_TOTAL_SHARDS", "2"},
                                                     {"TEST_SHARD_INDEX", "1"},
                                                     {"TEST_SHARD_STATUS_FILE", "/o/status"},
                                                     {"XML_OUTPUT_FILE", "/o/test.xml"},
                                                     {"TEST_TMPDIR", "/o/tmp"}}),
                                             0);
  CHECK(a.status_file == "/o/status");
  CHECK(a.xml_output_file == "/o/test.xml");
  CHECK(a.tmpdir == "/o/tmp");
  CHECK(a.from == "TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=2");
  // Other engines' runs carry none of them, even if Bazel's side variables leak in.
  const AutoShard g = shard_from_environment(
      env_of({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}, {"XML_OUTPUT_FILE", "/o/test.xml"}}), 0);
  CHECK(g.xml_output_file.empty());
}

TEST_CASE("--shard auto with no engine's variables names every variable it looked for", "[unit][shard]") {
  const std::string m = usage_error({{"XML_OUTPUT_FILE", "/o/x.xml"}, {"CI_NODE_INDEX", ""}});
  for (const char* v : {"TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "JOB_COMPLETION_INDEX", "--shard-count",
                        "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL",
                        "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT"})
    CHECK_THAT(m, Catch::Contains(v));
}

TEST_CASE("--shard auto names the variable of a malformed value", "[unit][shard]") {
  CHECK_THAT(usage_error({{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "one"}}),
             Catch::Contains("TEST_SHARD_INDEX='one' is not a whole number"));
  CHECK_THAT(usage_error({{"TEST_TOTAL_SHARDS", "-3"}, {"TEST_SHARD_INDEX", "0"}}),
             Catch::Contains("TEST_TOTAL_SHARDS='-3' is not a whole number"));
  CHECK_THAT(usage_error({{"CIRCLE_NODE_INDEX", " 1"}, {"CIRCLE_NODE_TOTAL", "2"}}),
             Catch::Contains("CIRCLE_NODE_INDEX=' 1'"));
  CHECK_THAT(usage_error({{"BUILDKITE_PARALLEL_JOB", "0"}, {"BUILDKITE_PARALLEL_JOB_COUNT", "0"}}),
             Catch::Contains("BUILDKITE_PARALLEL_JOB_COUNT='0' must be at least 1"));
  CHECK_THAT(usage_error({{"JOB_COMPLETION_INDEX", "0x1"}}, 2), Catch::Contains("JOB_COMPLETION_INDEX='0x1'"));
}

TEST_CASE("--shard auto refuses an index out of its engine's range", "[unit][shard]") {
  CHECK_THAT(usage_error({{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "3"}}),
             Catch::Contains("TEST_SHARD_INDEX='3' is out of range: Bazel counts from 0 to 2"));
  CHECK_THAT(usage_error({{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "3"}}),
             Catch::Contains("CI_NODE_INDEX='0' is out of range: GitLab counts from 1 to 3"));
  CHECK_THAT(
      usage_error({{"JOB_COMPLETION_INDEX", "4"}}, 4),
      Catch::Contains("JOB_COMPLETION_INDEX='4' is out of range: Kubernetes counts from 0 to 3 (--shard-count 4)"));
}

TEST_CASE("--shard auto refuses half a protocol and a --shard-count at odds", "[unit][shard]") {
  CHECK_THAT(usage_error({{"TEST_SHARD_INDEX", "0"}}),
             Catch::Contains("TEST_SHARD_INDEX is set but TEST_TOTAL_SHARDS is not"));
  CHECK_THAT(usage_error({{"CIRCLE_NODE_TOTAL", "4"}}),
             Catch::Contains("CIRCLE_NODE_TOTAL is set but CIRCLE_NODE_INDEX is not"));
  CHECK_THAT(usage_error({{"JOB_COMPLETION_INDEX", "0"}}),
             Catch::Contains("give the Job's completions as --shard-count N"));
  CHECK_THAT(usage_error({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "3"}}, 4),
             Catch::Contains("--shard-count 4 disagrees with CI_NODE_TOTAL=3"));
}

// Issue 32: two CI engines' variables at once cannot both be right; which one is meant is
// not guessed (Bazel inside a job still wins: it is the innermost engine).
TEST_CASE("--shard auto refuses two CI engines' variables, naming both", "[unit][shard]") {
  const std::string e = usage_error(
      {{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}, {"CIRCLE_NODE_INDEX", "0"}, {"CIRCLE_NODE_TOTAL", "2"}});
  CHECK_THAT(e, Catch::Contains("GitLab") && Catch::Contains("CircleCI") && Catch::Contains("CI_NODE_INDEX") &&
                    Catch::Contains("CIRCLE_NODE_TOTAL"));
}
