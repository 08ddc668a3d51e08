// The text that closes a regression run's output: the table of unsupported causes and
// the slowest tests, the comparison with a baseline, the summary line. `onnx-run test`
// prints it after its run, `onnx-run report merge` after merging shards, so merged
// shards close exactly as one run of all of them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suite/baseline.h"
#include "suite/outcome.h"
#include "suite/report.h"

namespace onnxrun {

// How the closing text is made: `onnx-run test` and `onnx-run report merge` (which
// closes merged shards exactly as one run of all of them) pass their options here.
struct ClosingOptions {
  size_t slowest = 5;  // how many of the slowest tests to list
  size_t causes = 15;  // how many unsupported causes to list
  bool quiet = false;  // only the baseline comparison and the summary line
  bool strict = false;
  std::string no_tests = "no tests selected";  // the line said when there were no tests
  std::string baseline_path;                   // empty: no baseline
  std::vector<TestResult> baseline;            // read_baseline(baseline_path)
  // What the run selected, to tell the baseline tests gone from it (regressions) from
  // those it left out; none: every baseline test not met is not run.
  std::optional<RunScope> scope;
};
struct ClosingReport {
  std::string text;
  bool failed = false;  // the run fails (exit 1): a problem, or with a baseline a regression
  // When failed: the one line that says why, for stderr ("2 of 6 tests did not pass:
  // bad/test_fail (failed), ..."; "1 regression against base.json: good (passed -> failed)").
  std::string failure;
  // With a baseline: its regressions and the baseline tests gone from the run, for the
  // --json and --junit reports (path empty: none).
  BaselineNote baseline;
};
ClosingReport closing_report(const std::vector<TestResult>& results, const Summary& summary,
                             const ClosingOptions& options);
// What the reports say of the baseline: null without one.
inline const BaselineNote* baseline_note(const ClosingReport& c) {
  return c.baseline.path.empty() ? nullptr : &c.baseline;
}

}  // namespace onnxrun
