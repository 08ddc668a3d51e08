// Running one corpus the way each test engine shards it, for the tests of `--shard auto`
// and `onnx-run report merge`: the variables each engine sets for shard K of N, the
// shard runs themselves, and the test-by-test comparison of two --json reports.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace onnxrun::test {

// "Bazel", "Kubernetes", "GitLab", "CircleCI", "Buildkite".
const std::vector<std::string>& shard_engines();

// The environment `engine` gives shard k (1-based) of n, "NAME=VALUE" each; Bazel's
// status file, XML output and TEST_TMPDIR are under `scratch` (bazel_status_file and
// bazel_xml_file name them).
std::vector<std::string> engine_env(const std::string& engine, int k, int n, const std::string& scratch);
// What the command line adds for `engine`: --shard-count n for a Kubernetes Indexed Job.
std::vector<std::string> engine_args(const std::string& engine, int n);
std::string bazel_status_file(const std::string& scratch, int k);
std::string bazel_xml_file(const std::string& scratch, int k);

// A small corpus with every kind of outcome: passing, failing, unsupported (two causes)
// and broken models, in three folders, enough that three shards all hold some tests.
void write_mixed_corpus(const std::string& dir);

nlohmann::json read_json_file(const std::string& path);
std::vector<std::string> test_names(const nlohmann::json& report);
// name -> outcome of the --json report at `path`.
std::map<std::string, std::string> outcomes(const std::string& path);

// Checks (Catch2 CHECKs) that two reports hold the same tests in the same order with the
// same outcome, message, causes, sets and model, and the same summary counts and causes.
void check_same_tests(const nlohmann::json& merged, const nlohmann::json& full);

}  // namespace onnxrun::test
