// The outcome of one test (one model with its test sets) in a regression run, and the
// counts a run sums up to. Plain values: no files, no terminal.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxrun {

enum class Outcome {
  kPassed,       // every output of every test set matched
  kFailed,       // an output mismatched (the message names set, output, worst element)
  kUnsupported,  // an op, version, type or feature onnx-run does not implement
  kError,        // the model or its data is invalid, or a test set could not be run
  kTimeout,      // still running after --timeout seconds; killed
  kCrashed,      // the isolated child died (signal) without reporting a result
  kNoData,       // a model with no test data to run it on: skipped (as onnx_test_runner does)
};
inline constexpr int kOutcomeCount = 7;

// "passed", "failed", "unsupported", "error", "timeout", "crashed", "no data": the JSON spelling.
std::string_view outcome_name(Outcome o);
std::optional<Outcome> parse_outcome(std::string_view name);

// True for outcomes that make a run fail without a baseline (unsupported and no data
// only when strict).
bool is_problem(Outcome o, bool strict);

inline constexpr int kSetsNotRecorded = -1;

struct TestResult {
  std::string name;  // stable test name (see discovery.h)
  // The JUnit classname, where it is not the folder part of the name (the name is then
  // the test case's name whole): verify's operator, whose node names hold '/' of their own.
  std::string junit_class;
  std::string model;  // the model file (or folder when the model is absent)
  Outcome outcome = Outcome::kError;
  double seconds = 0;
  std::string message;              // empty for a pass; may hold several lines
  std::vector<std::string> causes;  // unsupported: the ops/types/features responsible
  int signal = 0;                   // crashed: the signal that killed the child
  // Test sets compared; kSetsNotRecorded in a report of an older onnx-run, which did
  // not record them (a baseline then has no count to hold a run to).
  int sets = 0;
  // The model's output names, once it loaded (empty when it did not); for checking
  // --atol NAME:V and the like against them. Not written to reports.
  std::vector<std::string> outputs;
  // What the user should see of a test that ran, pass or fail, each line once
  // (RunReport::warnings: an output computed in a shape other than the declared one).
  std::vector<std::string> warnings;
  // The test's own files misuse an option's terms (a data.json NAME that is no output of
  // the model): the whole run is a usage error, as that option typed would be. Not
  // written to reports.
  bool usage_error = false;
};

struct Summary {
  std::array<size_t, kOutcomeCount> counts{};
  size_t total = 0;
  double seconds = 0;  // wall time of the whole run
  size_t count(Outcome o) const { return counts[static_cast<int>(o)]; }
};

Summary summarize(const std::vector<TestResult>& results, double wall_seconds);

// "N passed, N failed, N unsupported, N errors, N timeouts, N crashed (T tests in S s)",
// with ", N no data" after unsupported when there are such tests; "1 error", "1 timeout",
// "1 test" in the singular.
std::string summary_line(const Summary& s);

// A test's change against a baseline (suite/baseline.h), as the reports say it.
struct BaselineChange {
  std::string name;
  Outcome before = Outcome::kPassed;  // baseline outcome (for a new test: as now)
  Outcome now = Outcome::kPassed;
  bool new_test = false;  // absent from the baseline
  // Fewer test sets ran than the baseline recorded (sets deleted, or all of them: no
  // data): a regression whatever the outcome. Both counts then; 0 otherwise.
  int sets = 0, baseline_sets = 0;
};
// "passed -> failed", "passed -> passed, ran 1 of the baseline's 2 test sets", "new test,
// error": what changed, as every report says it.
std::string describe_change(const BaselineChange& c);

}  // namespace onnxrun
