#include "suite/closing_report.h"

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

// Appends the comparison with the baseline; returns true when something regressed.
bool append_baseline(std::string& out, const std::vector<TestResult>& results, const ClosingOptions& o) {
  const BaselineDiff d = compare_with_baseline(results, o.baseline);
  if (!d.regressions.empty()) {
    out += fmt::format("\nRegressions against {} ({}):\n", o.baseline_path, d.regressions.size());
    for (const BaselineChange& c : d.regressions)
      out += fmt::format("  {}: {} -> {}\n", c.name, outcome_name(c.before), outcome_name(c.now));
  }
  if (!d.newly_passing.empty()) {
    out += fmt::format("\nNewly passing against {} ({}):\n", o.baseline_path, d.newly_passing.size());
    for (const BaselineChange& c : d.newly_passing)
      out += fmt::format("  {}{}\n", c.name,
                         c.new_test ? " (new test)" : fmt::format(" (was {})", outcome_name(c.before)));
  }
  out += fmt::format("\nBaseline: {} regressions, {} newly passing{}\n", d.regressions.size(), d.newly_passing.size(),
                     d.not_run ? fmt::format(", {} baseline tests not run", d.not_run) : "");
  return !d.regressions.empty();
}

}  // namespace

ClosingReport closing_report(const std::vector<TestResult>& results, const Summary& summary, const ClosingOptions& o) {
  ClosingReport c;
  if (!o.quiet) append_causes_and_slowest(c.text, results, o);
  if (!o.baseline_path.empty()) {
    c.failed = append_baseline(c.text, results, o);
  } else {
    for (const TestResult& r : results) c.failed = c.failed || is_problem(r.outcome, o.strict);
  }
  if (results.empty()) c.text += "no tests selected\n";
  c.text += fmt::format("{}{}\n", o.quiet ? "" : "\n", summary_line(summary));
  return c;
}

}  // namespace onnxrun
