// What a regression run reports once it is over: the table of unsupported causes, the
// slowest tests, and the --json and --junit files (the closing text: closing_report.h). Files are written atomically (a
// temporary, then rename), so a CI job never reads half a report.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/output_folder.h"
#include "suite/outcome.h"

namespace onnxrun {

// (cause, number of tests it made unsupported), most common first, ties by name.
std::vector<std::pair<std::string, size_t>> unsupported_causes(const std::vector<TestResult>& results);

// Indices of the `n` slowest tests, slowest first (ties in test order).
std::vector<size_t> slowest_tests(const std::vector<TestResult>& results, size_t n);

// Facts about the run recorded at the top of the JSON report: enough for `report merge`
// to tell which slice a report holds and whether two reports ran with the same settings.
struct RunInfo {
  std::string generator;  // "onnx-run 0.1.0 (...)"
  std::vector<std::string> paths;
  // The folder relative `paths` were typed in, so that `report merge` run elsewhere
  // finds them; empty: not recorded (an older report; a folder name that is not UTF-8; a
  // merge, whose PATHs are absolute).
  std::string cwd;
  std::string filter, exclude;
  std::string shard;         // the slice run, "K/N" (as resolved by --shard auto too); empty: all tests
  std::string shard_source;  // where --shard auto found it ("Bazel", "GitLab", ...); empty: --shard K/N or none
  double rtol = 0, atol = 0;
  // --rtol/--atol NAME:V, per output name; nullopt: not recorded (a report of an older
  // onnx-run, which recorded the global values alone).
  std::optional<std::map<std::string, double>> output_rtol, output_atol;
  std::string check_error_stat;  // "elemwise", "max", "mean", "median"; empty: not recorded (older report)
  bool exact = false;            // --exact
  std::string max_ulp;           // --max-ulp: "N", "y:N", comma-separated (the global bound first); empty: none
  int jobs = 0;
  bool isolate = false, strict = false, no_fuse = false;
  double timeout = 0;
  // The tests selected before sharding (--filter, --exclude), as names_digest gives them
  // (suite/discovery.h); empty: not recorded (an older report).
  std::string selected;
};

// A merged report's record of what it was made from (`onnx-run report merge`).
struct MergeInfo {
  int shard_count = 0;               // N of the shards' K/N
  std::vector<std::string> reports;  // the shard reports, in the order given
  std::vector<std::string> shards;   // their slices, "K/N", in that order
  std::vector<std::string> missing;  // slices of 1..N that no report holds, "K/N"
};

// A run compared with a baseline (closing_report.h): its regressions, which a test's own
// outcome may not show (a pass over fewer test sets than the baseline's, a skip where the
// baseline passed), and the baseline tests gone from the run (a regression each), which
// its tests cannot show.
struct BaselineNote {
  std::string path;                         // the --baseline
  std::vector<BaselineChange> regressions;  // of the run's tests, in their order
  std::vector<TestResult> missing;          // named in the run's terms, with the baseline's outcome
};

// The --json report (test_report_json, suite/json_documents.h), written atomically: in
// place at once, or into the target's output set (io/output_set.h), which a command
// writing several reports commits as one, so that a signal leaves all old or all new.
// A merged report also carries `merge` (null: a single run's report); a run against a
// baseline, `baseline` (null: none).
void write_json_report(const WriteTarget& target, const RunInfo& info, const Summary& summary,
                       const std::vector<TestResult>& results, const MergeInfo* merge = nullptr,
                       const BaselineNote* baseline = nullptr);

// When and where a run ran, for the JUnit report.
struct ReportStamp {
  std::string timestamp;  // ISO 8601 local time without zone, as JUnit writers give it: "2026-12-01T15:04:05"
  std::string hostname;
};
// Now, on this machine.
ReportStamp report_stamp_now();

// JUnit XML as the Jenkins xunit plugin's junit-10.xsd defines it (python3-junitparser
// reads it too): <testsuites> with totals (no `skipped`: that schema allows it on a
// <testsuite> only), one <testsuite name="onnx-run"> with timestamp and hostname; each
// test a <testcase> whose classname is the folder part of its name ("." for a test at
// the top) and whose name is the rest; failed -> <failure>, error/timeout/crashed ->
// <error> (type says which), unsupported and no data -> <skipped> (<error> if strict).
// Against a baseline, a regressed test that would be a pass or a skip is a <failure
// type="regression"> saying what changed, so that the report is as red as the exit
// status; a baseline test gone from the run (`missing`) is a <testcase> too, whose
// <failure type="missing"> says so: a test deleted from the corpus does not vanish from
// CI's view.
std::string junit_report(const Summary& summary, const std::vector<TestResult>& results, bool strict,
                         const ReportStamp& stamp, const BaselineNote* baseline = nullptr);
// Written as write_json_report's.
void write_junit_report(const WriteTarget& target, const Summary& summary, const std::vector<TestResult>& results,
                        bool strict, const ReportStamp& stamp, const BaselineNote* baseline = nullptr);

}  // namespace onnxrun
