#include "suite/closing_report.h"

#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "suite/baseline.h"
#include "suite/report.h"

namespace onnxrun {
namespace {

void append_causes_and_slowest(std::string& out, const std::vector<TestResult>& results, const ClosingOptions& o) {
  const auto causes = unsupported_causes(results);
  if (!causes.empty() && o.causes > 0) {
    out += "\nUnsupported, by cause (tests):\n";
    for (size_t k = 0; k < causes.size() && k < o.causes; ++k)
      out += fmt::format("  {:>6}  {}\n", causes[k].second, causes[k].first);
    if (causes.size() > o.causes)
      out += fmt::format("  ... and {} more causes (all in --json)\n", causes.size() - o.causes);
  }
  const auto slow = slowest_tests(results, o.slowest);
  if (!slow.empty()) {
    out += "\nSlowest tests:\n";
    for (size_t i : slow)
      out +=
          fmt::format("  {:>9.3f} s  {} ({})\n", results[i].seconds, results[i].name, outcome_name(results[i].outcome));
  }
}

// "1 regression", "2 regressions".
std::string counted(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// The first few of `names`, then how many more: a line on stderr stays a line.
std::string first_few(const std::vector<std::string>& names) {
  constexpr size_t kShown = 3;
  std::string out;
  for (size_t k = 0; k < names.size() && k < kShown; ++k) out += (k ? ", " : "") + names[k];
  if (names.size() > kShown) out += fmt::format(" and {} more", names.size() - kShown);
  return out;
}

// The baseline tests gone from the run, as entries of the --json and --junit reports.
std::vector<TestResult> missing_results(const BaselineDiff& d, const std::string& baseline_path) {
  std::vector<TestResult> out;
  for (const MissingTest& m : d.missing) {
    TestResult r;
    r.name = m.name;
    r.model = m.model;
    r.outcome = m.before;
    r.message = fmt::format("{} in the baseline {} ({}), not found in this run: deleted, moved or renamed",
                            m.baseline_name, baseline_path, outcome_name(m.before));
    out.push_back(std::move(r));
  }
  return out;
}

// Appends the comparison with the baseline; returns the failure line ("" when nothing
// regressed) and, for the reports, the regressions and the baseline tests gone from the run.
std::pair<std::string, BaselineNote> append_baseline(std::string& out, const std::vector<TestResult>& results,
                                                     const ClosingOptions& o) {
  const BaselineDiff d = compare_with_baseline(results, o.baseline, o.strict, o.scope ? &*o.scope : nullptr);
  std::vector<std::string> regressed;
  if (!d.regressions.empty()) {
    out += fmt::format("\nRegressions against {} ({}):\n", o.baseline_path, d.regressions.size());
    for (const BaselineChange& c : d.regressions) {
      out += fmt::format("  {}: {}\n", c.name, describe_change(c));
      regressed.push_back(fmt::format("{} ({})", c.name, describe_change(c)));
    }
  }
  if (!d.missing.empty()) {
    out +=
        fmt::format("\nMissing: {} of the baseline {} that this run selects, not found (deleted, moved or renamed):\n",
                    counted(d.missing.size(), "test", "tests"), o.baseline_path);
    for (const MissingTest& m : d.missing) {
      out += fmt::format("  {} (was {})\n", m.name, outcome_name(m.before));
      regressed.push_back(fmt::format("{} ({} -> missing)", m.name, outcome_name(m.before)));
    }
  }
  if (!d.newly_passing.empty()) {
    out += fmt::format("\nNewly passing against {} ({}):\n", o.baseline_path, d.newly_passing.size());
    for (const BaselineChange& c : d.newly_passing)
      out += fmt::format("  {}{}\n", c.name,
                         c.new_test ? " (new test)" : fmt::format(" (was {})", outcome_name(c.before)));
  }
  // How many baseline tests this run met: a baseline keyed wrongly shows here, not as a pass.
  out +=
      fmt::format("\nBaseline: {}, {} newly passing{}; matched {} of its {}{}\n",
                  counted(d.regressions.size(), "regression", "regressions"), d.newly_passing.size(),
                  d.missing.empty() ? "" : fmt::format(", {} missing", d.missing.size()), d.matched,
                  counted(d.baseline_tests, "test", "tests"), d.not_run ? fmt::format(" ({} not run)", d.not_run) : "");
  BaselineNote note{o.baseline_path, d.regressions, missing_results(d, o.baseline_path)};
  if (regressed.empty()) return {"", std::move(note)};
  return {fmt::format("{} against {}: {}", counted(regressed.size(), "regression", "regressions"), o.baseline_path,
                      first_few(regressed)),
          std::move(note)};
}

// The failure line of a run without a baseline ("" when every test passed or was skipped).
std::string problems_line(const std::vector<TestResult>& results, bool strict) {
  std::vector<std::string> problems;
  for (const TestResult& r : results)
    if (is_problem(r.outcome, strict)) problems.push_back(fmt::format("{} ({})", r.name, outcome_name(r.outcome)));
  if (problems.empty()) return "";
  return fmt::format("{} of {} did not pass: {}", problems.size(), counted(results.size(), "test", "tests"),
                     first_few(problems));
}

}  // namespace

ClosingReport closing_report(const std::vector<TestResult>& results, const Summary& summary, const ClosingOptions& o) {
  ClosingReport c;
  if (!o.quiet) append_causes_and_slowest(c.text, results, o);
  if (o.baseline_path.empty()) c.failure = problems_line(results, o.strict);
  else std::tie(c.failure, c.baseline) = append_baseline(c.text, results, o);
  c.failed = !c.failure.empty();
  if (results.empty()) c.text += o.no_tests + "\n";
  c.text += fmt::format("{}{}\n", o.quiet ? "" : "\n", summary_line(summary));
  return c;
}

}  // namespace onnxrun
