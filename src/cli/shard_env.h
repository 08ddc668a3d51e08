// `onnx-run test --shard auto`: the slice a test engine hands this process through its
// environment. The one place that reads those variables (cli/ alone knows the process
// environment, as it alone knows argv); what it resolves goes down as a plain K/N.
//
// Engines, looked for in this order (the innermost first: a Bazel test run inside a
// GitLab job is Bazel's shard):
//   Bazel       TEST_TOTAL_SHARDS, TEST_SHARD_INDEX (0-based); TEST_SHARD_STATUS_FILE is
//               touched to say the test shards; XML_OUTPUT_FILE gets the JUnit report;
//               TEST_TMPDIR is where scratch files go
//   Kubernetes  JOB_COMPLETION_INDEX (0-based) of an Indexed Job; the count is the Job's
//               `completions`, given as --shard-count N
//   GitLab      CI_NODE_INDEX (1-based), CI_NODE_TOTAL (`parallel:`; CI_NODE_TOTAL=1
//               alone is a job without `parallel:`, the whole run)
//   CircleCI    CIRCLE_NODE_INDEX (0-based), CIRCLE_NODE_TOTAL
//   Buildkite   BUILDKITE_PARALLEL_JOB (0-based), BUILDKITE_PARALLEL_JOB_COUNT
// An empty variable counts as unset, as shells treat `VAR=`.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace onnxrun::cli {

// A variable's value, or nullopt when unset (or empty).
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
// getenv.
Environment process_environment();

struct AutoShard {
  std::string engine;  // "Bazel", "Kubernetes", "GitLab", "CircleCI", "Buildkite"
  int index = 1;       // K of K/N, 1-based as --shard K/N counts
  int count = 1;       // N
  std::string from;    // the variables read, "TEST_SHARD_INDEX=1 TEST_TOTAL_SHARDS=3", for -v
  // Bazel's other conventions (empty when unset or another engine).
  std::string status_file, xml_output_file, tmpdir;

  std::string slice() const;  // "K/N"
};

// The slice the environment gives; `shard_count` is --shard-count (0: not given), needed
// for Kubernetes and otherwise required to agree with the engine's count. Throws
// Error(kUsage) when no engine is found (naming every variable looked for), or naming
// the variable whose value is malformed or out of range.
AutoShard shard_from_environment(const Environment& env, int shard_count);

}  // namespace onnxrun::cli
