#include "cli/shard_env.h"

#include <cstdlib>

#include <fmt/core.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun::cli {
namespace {

// One engine's pair of variables: the index (0- or 1-based) and the total. Kubernetes
// has no total variable: `total` is null and --shard-count stands for it.
struct Protocol {
  const char* engine;
  const char* index;
  const char* total;
  int base;  // what the first shard's index is
};

const Protocol kProtocols[] = {
    {"Bazel", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", 0},
    {"Kubernetes", "JOB_COMPLETION_INDEX", nullptr, 0},
    {"GitLab", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1},
    {"CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0},
    {"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0},
};

// A whole number of at most 6 digits (as --shard K/N takes), nothing else: no sign, no
// spaces, no "0x". Throws Error(kUsage) naming the variable.
int shard_number(const std::string& name, const std::string& value, const char* engine, const char* what) {
  const bool digits = !value.empty() && value.size() <= 6 && value.find_first_not_of("0123456789") == std::string::npos;
  if (!digits)
    fail(ErrorKind::kUsage, "--shard auto: {}='{}' is not a whole number ({}'s {})", name, value, engine, what);
  return std::stoi(value);
}

std::string looked_for() {
  std::string s;
  for (const Protocol& p : kProtocols) {
    if (!s.empty()) s += ", ";
    s += p.total ? fmt::format("{}/{} ({})", p.index, p.total, p.engine)
                 : fmt::format("{} ({}, with --shard-count N)", p.index, p.engine);
  }
  return s;
}

bool sets_any(const Environment& env, const Protocol& p) { return env(p.index) || (p.total && env(p.total)); }

// "CI_NODE_INDEX/CI_NODE_TOTAL (GitLab)", naming the variables that are set.
std::string set_variables(const Environment& env, const Protocol& p) {
  std::string names;
  for (const char* v : {p.index, p.total})
    if (v && env(v)) names += (names.empty() ? "" : " and ") + std::string(v);
  return fmt::format("{} ({})", names, p.engine);
}

}  // namespace

Environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (!v || !*v) return std::nullopt;
    return std::string(v);
  };
}

std::string AutoShard::slice() const { return fmt::format("{}/{}", index, count); }

AutoShard shard_from_environment(const Environment& env, int shard_count) {
  // Bazel runs inside a CI job, so its variables (the innermost engine's) win over the
  // job's. Two CI engines at once cannot both be right: which one is meant is not guessed.
  const Protocol* ci = nullptr;
  for (const Protocol& p : kProtocols) {
    if (std::string(p.engine) == "Bazel" || !sets_any(env, p)) continue;
    if (ci && !sets_any(env, kProtocols[0]))
      fail(ErrorKind::kUsage,
           "--shard auto: two test engines' shard variables are set, {} and {}; unset one, or give --shard K/N",
           set_variables(env, *ci), set_variables(env, p));
    if (!ci) ci = &p;
  }
  for (const Protocol& p : kProtocols) {
    const auto index = env(p.index);
    const auto total = p.total ? env(p.total) : std::nullopt;
    if (!index && !total) continue;
    AutoShard a;
    a.engine = p.engine;
    if (p.total) {
      if (!total) fail(ErrorKind::kUsage, "--shard auto: {} is set but {} is not ({})", p.index, p.total, p.engine);
      a.count = shard_number(p.total, *total, p.engine, "shard count");
      if (a.count < 1)
        fail(ErrorKind::kUsage, "--shard auto: {}='{}' must be at least 1 ({})", p.total, *total, p.engine);
      if (!index && a.count > 1)
        fail(ErrorKind::kUsage, "--shard auto: {} is set but {} is not ({})", p.total, p.index, p.engine);
      a.from = fmt::format("{}={}", p.total, *total);
    } else {
      if (shard_count < 1)
        fail(ErrorKind::kUsage,
             "--shard auto: {} is set ({} Indexed Job): give the Job's completions as --shard-count N", p.index,
             p.engine);
      a.count = shard_count;
    }
    a.index = 1;  // GitLab's CI_NODE_TOTAL=1 without an index: a job without `parallel:`
    if (index) {
      const int k = shard_number(p.index, *index, p.engine, p.base ? "shard index, from 1" : "shard index, from 0");
      if (k < p.base || k > a.count - 1 + p.base)
        fail(ErrorKind::kUsage, "--shard auto: {}='{}' is out of range: {} counts from {} to {} ({})", p.index, *index,
             p.engine, p.base, a.count - 1 + p.base,
             p.total ? fmt::format("{}={}", p.total, a.count) : fmt::format("--shard-count {}", a.count));
      a.index = k - p.base + 1;
      a.from = fmt::format("{}={}{}{}", p.index, *index, a.from.empty() ? "" : " ", a.from);
    }
    if (p.total && shard_count > 0 && shard_count != a.count)
      fail(ErrorKind::kUsage, "--shard auto: --shard-count {} disagrees with {}={} ({})", shard_count, p.total, a.count,
           p.engine);
    if (a.engine == "Bazel") {
      a.status_file = env("TEST_SHARD_STATUS_FILE").value_or("");
      a.xml_output_file = env("XML_OUTPUT_FILE").value_or("");
      a.tmpdir = env("TEST_TMPDIR").value_or("");
    }
    return a;
  }
  fail(ErrorKind::kUsage, "--shard auto: no test engine's shard found in the environment (looked for {})",
       looked_for());
}

}  // namespace onnxrun::cli
