#include "support/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/paths.h"

extern char** environ;

namespace onnxrun::test {
namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

bool wait_bounded(int pid, int& status, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  auto pause = std::chrono::microseconds(100);
  while (true) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) throw std::runtime_error("waitpid failed");
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
}

ProcessResult run_process(const std::vector<std::string>& argv) {
  TempDir tmp;
  const std::string out = tmp.file("stdout"), err = tmp.file("stderr");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ) != 0)
    throw std::runtime_error("cannot start " + argv[0]);
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  const bool ended = wait_bounded(pid, status);
  ProcessResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  if (!ended) r.err += "\n(the test killed it: no exit after " + std::to_string(kProcessLimitSeconds) + " s)\n";
  r.argv = argv;
  return r;
}

namespace {
std::string shell_quote(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") ==
                        std::string::npos)
    return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// At most `limit` bytes of `s`, saying how much was left out.
std::string head(const std::string& s, size_t limit) {
  if (s.size() <= limit) return s;
  return s.substr(0, limit) + "\n... (" + std::to_string(s.size() - limit) + " more bytes)";
}
}  // namespace

std::string describe(const ProcessResult& r) {
  std::string cmd;
  for (const std::string& a : r.argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  std::string s = "command: " + cmd + "\nexit code: " + std::to_string(r.exit_code);
  s += r.err.empty() ? "\nstderr: (empty)" : "\nstderr:\n" + head(r.err, 4000);
  if (!r.out.empty()) s += "\nstdout:\n" + head(r.out, 1000);
  return s;
}

ProcessResult run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv{onnx_run_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

}  // namespace onnxrun::test

namespace onnxrun::test {

ProcessResult run_cli_env(const std::vector<std::string>& env, const std::vector<std::string>& args) {
  static const char* const kEngineVariables[] = {
      "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX",     "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE",
      "TEST_TMPDIR",       "JOB_COMPLETION_INDEX", "CI_NODE_INDEX",          "CI_NODE_TOTAL",
      "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL",    "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT"};
  std::vector<std::string> argv{"/usr/bin/env"};
  for (const char* v : kEngineVariables) argv.insert(argv.end(), {"-u", v});
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(onnx_run_binary());
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

}  // namespace onnxrun::test
