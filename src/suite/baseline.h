// Comparing a run with an earlier one (its --json report): a regression is a test that
// passed in the baseline and does not pass now, one the baseline skipped (unsupported, no
// data) that now fails, errs, times out or crashes, a test that ran fewer test sets than the
// baseline recorded (a pass over less data is no pass), or a test the baseline does not
// know that does not pass now (it is not recorded as a known failure: IREE's
// expected-status files work the same way). A baseline test this run did not meet is a
// regression when the run would have selected it (it is gone: "missing", see RunScope),
// and otherwise only counted (a filter, a shard or the PATHs left it out).
//
// Tests are matched by what they are, not by how the command was typed: a test's names
// are relative to the PATH given, so `test tree/sub` names "good" what `test tree`
// named "sub/good". The identity is the model's path, compared from its end: a run test
// and a baseline test match when they share the longest common suffix of path
// components (the model file and its folders) that no other baseline test shares (of
// several, the one of the same name, unless another has it made unique elsewhere), and
// that suffix spans at least the shorter of their two names, and neither path names
// another folder within the other's longer name. So the same tree checked
// out elsewhere, or run from a parent or a child folder, matches test for test, while
// two tests of the same name in different folders never match each other by accident.
// A match of paths that differ says the tree moved. None moves a folder into or out of
// itself while a test below it is matched at its own path. One whose shared end is no
// more than the names is refused where it would move a folder into itself or out of
// itself, where a further-reaching match moves that folder elsewhere, or where another
// such match puts it in a place inside or above this one's (a tree is not both at T and
// inside T) and that move puts more run tests at a baseline test's path (as many: the
// higher place stands). A
// run test left without a match whose path, a move the matches show undone, is a
// baseline test's own is that test.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "suite/discovery.h"
#include "suite/outcome.h"

namespace onnxrun {

// A baseline as its report gives it: its tests, and the PATHs they were found below.
struct Baseline {
  std::vector<TestResult> tests;  // in the report's order
  // The PATHs its run typed, absolute (as reports write model paths), one group per PATH.
  // A merged report's PATHs are one group: its shards ran one command, perhaps in several
  // checkouts, and it does not say which of their PATHs are one. None where the report
  // does not say (an older one, a relative PATH without "cwd").
  std::vector<std::vector<std::string>> path_groups;
};

// The baseline in the report at `path`. Throws Error(kIo) when the file cannot be read,
// Error(kInvalid) when it is not a report (no "tests" array, an entry without name or
// known outcome).
Baseline read_baseline(const std::string& path);

// A test as the baseline matching sees it: its name and model path, as a TestResult
// records them (the data.json folder for a test without a model).
struct TestIdentity {
  std::string name;
  std::string model;
};
TestIdentity identity_of(const TestResult& r);
TestIdentity identity_of(const TestCase& t);

// For each of `tests`, the index of the baseline test it is (see above), or none.
std::vector<std::optional<size_t>> match_baseline(const std::vector<TestIdentity>& tests,
                                                  const std::vector<TestResult>& baseline);

// What a run would have run of the baseline's tests had they still been there. A
// baseline test this run did not meet is either gone from the corpus (deleted, its model
// moved or renamed: a regression, "missing") or one the run left out (another shard, a
// --filter, another PATH: not run, no regression). To tell them apart, the baseline's
// names are put in this run's terms (the tests both know show how the two runs' PATHs
// relate: `test tree` names "sub/x" what `test tree/sub` names "x"), then asked of the
// run's selection; one that no such relation names (a PATH that is a model folder
// teaches none) is put where this run would find it by its absolute model path and named
// as discovery names it below the PATH it lies under. A baseline test under none of the
// PATHs is not run.
struct RunScope {
  // The tests the run selected before sharding (its --filter and --exclude applied).
  std::vector<TestIdentity> selected;
  // The PATHs typed: a test that is a PATH itself (a model, a model folder) is named by
  // its own folder, not by a place below the PATH, and says nothing of the tree around it.
  std::vector<std::string> paths;
  std::string filter, exclude;  // --filter, --exclude
  int shard_count = 0;          // N of --shard K/N; 0: not sharded
  std::vector<int> shards;      // the slices K run (`report merge`: those merged)
  // The baseline's Baseline::path_groups. A baseline test found below a PATH of its run of
  // which this run matches no test is not run unless its path, moved as the tree moved,
  // lies below a PATH typed here, whatever its name says: `test t1 t2` names t2's x
  // "x#2", and a run of t1 alone must not take that for a name of its own.
  std::vector<std::vector<std::string>> baseline_paths;
};

// A baseline test gone from this run: as this run would have named it, with the model
// path and outcome the baseline recorded.
struct MissingTest {
  std::string name;           // in this run's terms
  std::string baseline_name;  // as the baseline names it
  std::string model;          // the baseline's
  Outcome before = Outcome::kPassed;
};

struct BaselineDiff {
  std::vector<BaselineChange> regressions;    // passed before, not now; or new and a problem (test order)
  std::vector<BaselineChange> newly_passing;  // passes now, did not before or was absent
  std::vector<MissingTest> missing;           // baseline tests the run selects that are gone (baseline order)
  size_t baseline_tests = 0;                  // tests in the baseline
  size_t matched = 0;                         // baseline tests matched by a test of this run
  size_t not_run = 0;                         // baseline tests absent from this run and not missing
};

// `strict`: unsupported and no-data new tests count as regressions too (is_problem).
// Without `scope`, no baseline test is missing: those not met are all not run.
BaselineDiff compare_with_baseline(const std::vector<TestResult>& results, const std::vector<TestResult>& baseline,
                                   bool strict = false, const RunScope* scope = nullptr);

// The baseline `--update-baseline` writes: every test of this run with its outcome now
// (and its count of test sets: more sets raise the count), except that updating never
// accepts a regression: a baseline test that regressed stays recorded as it was (passed,
// its count of sets), and a new test that is a regression (is_problem with `strict`)
// is left out, so that the next run against the update still fails on it. Then the
// baseline tests this run did not meet, as they were, except those missing in `scope`:
// a test deleted from the corpus is dropped (one deliberate ratchet step), and each kept
// test's model path is moved as the tests both know say the tree moved (a checkout
// elsewhere records them all in its own tree). So known failures stay recorded,
// newly passing tests are promoted, and new tests that pass (or are skipped without
// `strict`) are recorded as they are. Every test is named one way: as the baseline names
// them where it can name the run's (a baseline of `tree` updated by a run of `tree/sub`
// writes "sub/x"), else as the run does. With no baseline (`baseline` null) there is nothing
// to regress against: this run's outcomes, all of them. `kept_paths`, where given, gets
// the PATHs of the baseline's run (RunScope::baseline_paths) that hold the tests kept,
// moved as they are: the updated report records them beside this run's PATHs, so that a
// kept test lies below a PATH of the file that holds it.
std::vector<TestResult> updated_baseline(const std::vector<TestResult>& results,
                                         const std::vector<TestResult>* baseline, bool strict,
                                         const RunScope* scope = nullptr,
                                         std::vector<std::string>* kept_paths = nullptr);

}  // namespace onnxrun
