#include "suite/outcome.h"

#include <fmt/format.h>

namespace onnxrun {

namespace {
constexpr std::array<std::string_view, kOutcomeCount> kNames = {"passed",  "failed",  "unsupported", "error",
                                                                "timeout", "crashed", "no data"};
}

std::string_view outcome_name(Outcome o) { return kNames[static_cast<int>(o)]; }

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (int k = 0; k < kOutcomeCount; ++k)
    if (kNames[k] == name) return static_cast<Outcome>(k);
  return std::nullopt;
}

bool is_problem(Outcome o, bool strict) {
  return o != Outcome::kPassed && ((o != Outcome::kUnsupported && o != Outcome::kNoData) || strict);
}

Summary summarize(const std::vector<TestResult>& results, double wall_seconds) {
  Summary s;
  for (const TestResult& r : results) ++s.counts[static_cast<int>(r.outcome)];
  s.total = results.size();
  s.seconds = wall_seconds;
  return s;
}

std::string summary_line(const Summary& s) {
  // "1 error", "2 errors": a count and its noun agree.
  auto count = [](size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); };
  const size_t no_data = s.count(Outcome::kNoData);
  return fmt::format(
      "{} passed, {} failed, {} unsupported{}, {}, {}, {} crashed ({} in {:.2f} s)", s.count(Outcome::kPassed),
      s.count(Outcome::kFailed), s.count(Outcome::kUnsupported), no_data ? fmt::format(", {} no data", no_data) : "",
      count(s.count(Outcome::kError), "error", "errors"), count(s.count(Outcome::kTimeout), "timeout", "timeouts"),
      s.count(Outcome::kCrashed), count(s.total, "test", "tests"), s.seconds);
}

std::string describe_change(const BaselineChange& c) {
  if (c.new_test) return fmt::format("new test, {}", outcome_name(c.now));
  const std::string outcomes = fmt::format("{} -> {}", outcome_name(c.before), outcome_name(c.now));
  if (c.baseline_sets == 0) return outcomes;
  return fmt::format("{}, ran {} of the baseline's {} test sets", outcomes, c.sets, c.baseline_sets);
}

}  // namespace onnxrun
