#include "cli/render_run.h"

#include <fmt/core.h>

#include "core/error.h"
#include "io/tensor_text.h"

namespace onnxrun::cli {
namespace {

// Values print from their digests (suite/value_digest.h), made by the run whichever way
// it ran: the same text from a streamed run as from a whole one.
void print_inputs(const SetRun& run) {
  for (const RunValue& v : run.inputs)
    fmt::print("input '{}': {} from {}\n  {}\n", printable(v.name), describe(v.digest), printable(v.source),
               format_stats(v.digest.stats));
}

void print_outputs(const SetRun& run) {
  for (size_t k = 0; k < run.outputs.size(); ++k) {
    const ValueDigest& d = run.outputs[k].digest;
    fmt::print("output '{}': {}\n  {}\n", printable(run.outputs[k].name), describe(d), format_stats(d.stats));
    if (const OutputVerdict* check = run.check_for(run.outputs[k].name))
      fmt::print("  {}\n{}", check->comparison.verdict(), check->comparison.error_report("  "));
    fmt::print("{}\n", format_shown(d.shown, d.shape, d.print));
  }
}

// -q: only the checks that failed, each with its error statistics.
void print_failed_checks(const SetRun& run) {
  for (const OutputVerdict& c : run.checks)
    if (!c.comparison.ok) fmt::print("  {}\n{}", c.comparison.summary(c.name), c.comparison.error_report("    "));
}

void print_test_set(const SetRun& run, const RenderOptions& o, bool only_set) {
  if (run.error) {
    // The one line on stderr says it (cli/run_command.cc); a list of sets still shows where it failed.
    if (!only_set) fmt::print("{}: error: {}\n", run.label, run.error->what());
    return;
  }
  const bool passed = run.passed();
  if (o.quiet && passed) return;
  fmt::print("{}: {}\n", run.label, passed ? "passed" : "FAILED");
  if (o.quiet) {
    print_failed_checks(run);
    return;
  }
  print_inputs(run);
  print_outputs(run);
}

}  // namespace

void print_run_text(const RunReport& report, const RenderOptions& o) {
  if (report.source != FeedSource::kTestSets) {
    if (o.quiet) {
      print_failed_checks(report.runs.at(0));
      return;
    }
    print_inputs(report.runs.at(0));
    print_outputs(report.runs.at(0));
    return;
  }
  size_t passed = 0;
  for (size_t k = 0; k < report.runs.size(); ++k) {
    if (k > 0 && !o.quiet) fmt::print("\n");
    print_test_set(report.runs[k], o, report.runs.size() == 1);
    passed += report.runs[k].passed();
  }
  // -q prints only failures and errors (as the -i doors do), and then the tally with them.
  const bool all_passed = passed == report.runs.size();
  if (o.quiet ? !all_passed : report.runs.size() > 1)
    fmt::print("{} of {} test sets passed\n", passed, report.runs.size());
}

}  // namespace onnxrun::cli
