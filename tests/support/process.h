// Running the onnx-run binary (or any program) from a test and capturing what it says.
// Check exit codes with CHECK_EXIT / REQUIRE_EXIT (support/check_exit.h): a failure then
// prints the command, its exit code and its stderr, not `3 == 0`.
#pragma once

#include <string>
#include <vector>

namespace onnxrun::test {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by a signal
  std::string out;
  std::string err;
  std::vector<std::string> argv;  // what ran, for failure messages
};

// A process that has not ended after this long is killed (SIGKILL) and reported as
// hung: a wedged child fails its test instead of stopping the whole suite.
inline constexpr int kProcessLimitSeconds = 300;

ProcessResult run_process(const std::vector<std::string>& argv);
// Waits for `pid` (a child) for at most `seconds`; then kills it with SIGKILL and reaps
// it. Returns whether it ended by itself; `status` is waitpid's.
bool wait_bounded(int pid, int& status, int seconds = kProcessLimitSeconds);
// run_process({onnx_run_binary(), args...})
ProcessResult run_cli(const std::vector<std::string>& args);
// run_cli in an environment where every test engine's sharding variable (Bazel,
// Kubernetes, GitLab, CircleCI, Buildkite: cli/shard_env.h) is unset but `env`
// ("NAME=VALUE" each) is set, as that engine sets them; through /usr/bin/env, so a
// failure message shows the variables.
ProcessResult run_cli_env(const std::vector<std::string>& env, const std::vector<std::string>& args);

// The command line (shell-quoted where needed), the exit code, stderr and the head of
// stdout, on several lines: what a failed exit-code check shows.
std::string describe(const ProcessResult& r);

}  // namespace onnxrun::test
