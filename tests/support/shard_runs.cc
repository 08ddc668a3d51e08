#include "support/shard_runs.h"

#include <catch2/catch.hpp>

#include <fstream>

#include "support/model_tree.h"

namespace onnxrun::test {

const std::vector<std::string>& shard_engines() {
  static const std::vector<std::string> all{"Bazel", "Kubernetes", "GitLab", "CircleCI", "Buildkite"};
  return all;
}

std::string bazel_status_file(const std::string& scratch, int k) {
  return scratch + "/bazel-status-" + std::to_string(k);
}
std::string bazel_xml_file(const std::string& scratch, int k) {
  return scratch + "/bazel-test-" + std::to_string(k) + ".xml";
}

std::vector<std::string> engine_env(const std::string& engine, int k, int n, const std::string& scratch) {
  const std::string zero = std::to_string(k - 1), one = std::to_string(k), total = std::to_string(n);
  if (engine == "Bazel")
    return {"TEST_TOTAL_SHARDS=" + total, "TEST_SHARD_INDEX=" + zero,
            "TEST_SHARD_STATUS_FILE=" + bazel_status_file(scratch, k), "XML_OUTPUT_FILE=" + bazel_xml_file(scratch, k),
            "TEST_TMPDIR=" + scratch};
  if (engine == "Kubernetes") return {"JOB_COMPLETION_INDEX=" + zero};
  if (engine == "GitLab") return {"CI_NODE_INDEX=" + one, "CI_NODE_TOTAL=" + total};
  if (engine == "CircleCI") return {"CIRCLE_NODE_INDEX=" + zero, "CIRCLE_NODE_TOTAL=" + total};
  if (engine == "Buildkite") return {"BUILDKITE_PARALLEL_JOB=" + zero, "BUILDKITE_PARALLEL_JOB_COUNT=" + total};
  FAIL("no such engine " << engine);
  return {};
}

std::vector<std::string> engine_args(const std::string& engine, int n) {
  if (engine == "Kubernetes") return {"--shard-count", std::to_string(n)};
  return {};
}

void write_mixed_corpus(const std::string& dir) {
  for (const char* n : {"a_1", "a_2", "a_10", "b_one", "b_two", "c_x", "c_y", "c_z"})
    write_leaky_test(dir + "/good/test_" + n);
  write_leaky_test(dir + "/bad/test_fail", -1.0f);
  write_leaky_test(dir + "/bad/test_fail_too", 2.0f);
  write_text_file(dir + "/bad/test_broken/model.onnx", "garbage");
  write_unknown_op_model(dir + "/other/test_conv/model.onnx", "Conv");
  write_unknown_op_model(dir + "/other/test_gemm/model.onnx", "Gemm");
  write_unknown_op_model(dir + "/other/test_conv_2/model.onnx", "Conv");
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  return nlohmann::json::parse(f);
}

std::map<std::string, std::string> outcomes(const std::string& path) {
  std::map<std::string, std::string> out;
  const nlohmann::json report = read_json_file(path);
  for (const auto& t : report["tests"]) out[t["name"]] = t["outcome"];
  return out;
}

std::vector<std::string> test_names(const nlohmann::json& report) {
  std::vector<std::string> names;
  for (const auto& t : report["tests"]) names.push_back(t["name"]);
  return names;
}

void check_same_tests(const nlohmann::json& merged, const nlohmann::json& full) {
  REQUIRE(test_names(merged) == test_names(full));
  for (size_t k = 0; k < full["tests"].size(); ++k) {
    const auto &m = merged["tests"][k], &f = full["tests"][k];
    INFO(f["name"]);
    for (const char* field : {"outcome", "message", "model", "sets", "causes", "signal"})
      CHECK(m.value(field, nlohmann::json()) == f.value(field, nlohmann::json()));
  }
  for (const auto& [outcome, n] : full["summary"].items())
    if (outcome != "seconds") CHECK(merged["summary"][outcome] == n);
  CHECK(merged["unsupported_causes"] == full["unsupported_causes"]);
}

}  // namespace onnxrun::test
