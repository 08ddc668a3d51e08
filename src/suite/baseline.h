// Comparing a run with an earlier one (its --json report): a regression is a test that
// passed in the baseline and does not pass now. Tests missing from either side are not
// regressions (a filter or a shard may have left them out), but are counted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "suite/outcome.h"

namespace onnxrun {

// name -> outcome. Throws Error(kIo) when the file cannot be read, Error(kInvalid) when
// it is not a report (no "tests" array, an entry without name or known outcome).
std::map<std::string, Outcome> read_baseline(const std::string& path);

struct BaselineChange {
  std::string name;
  Outcome before = Outcome::kPassed;  // baseline outcome (for a new test: as now)
  Outcome now = Outcome::kPassed;
  bool new_test = false;  // absent from the baseline
};

struct BaselineDiff {
  std::vector<BaselineChange> regressions;    // passed before, not now (test order)
  std::vector<BaselineChange> newly_passing;  // passes now, did not before or was absent
  size_t not_run = 0;                         // baseline tests absent from this run
};

BaselineDiff compare_with_baseline(const std::vector<TestResult>& results,
                                   const std::map<std::string, Outcome>& baseline);

}  // namespace onnxrun
