// What a regression run reports once it is over: the closing text (the table of
// unsupported causes, the slowest tests, the baseline comparison, the summary line), and
// the --json and --junit files. Files are written atomically (a
// temporary, then rename), so a CI job never reads half a report.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "suite/outcome.h"

namespace onnxrun {

// (cause, number of tests it made unsupported), most common first, ties by name.
std::vector<std::pair<std::string, size_t>> unsupported_causes(const std::vector<TestResult>& results);

// Indices of the `n` slowest tests, slowest first (ties in test order).
std::vector<size_t> slowest_tests(const std::vector<TestResult>& results, size_t n);

// How the closing text is made: `onnx-run test` and `onnx-run report merge` (which
// closes merged shards exactly as one run of all of them) pass their options here.
struct ClosingOptions {
  size_t slowest = 5;  // how many of the slowest tests to list
  size_t causes = 15;  // how many unsupported causes to list
  bool quiet = false;  // only the baseline comparison and the summary line
  bool strict = false;
  std::string baseline_path;                // empty: no baseline
  std::map<std::string, Outcome> baseline;  // read_baseline(baseline_path)
};
struct ClosingReport {
  std::string text;
  bool failed = false;  // the run fails (exit 1): a problem, or with a baseline a regression
};
ClosingReport closing_report(const std::vector<TestResult>& results, const Summary& summary,
                             const ClosingOptions& options);

// Facts about the run recorded at the top of the JSON report: enough for `report merge`
// to tell which slice a report holds and whether two reports ran with the same settings.
struct RunInfo {
  std::string generator;  // "onnx-run 0.1.0 (...)"
  std::vector<std::string> paths;
  std::string filter, exclude;
  std::string shard;         // the slice run, "K/N" (as resolved by --shard auto too); empty: all tests
  std::string shard_source;  // where --shard auto found it ("Bazel", "GitLab", ...); empty: --shard K/N or none
  double rtol = 0, atol = 0;
  int jobs = 0;
  bool isolate = false, strict = false, no_fuse = false;
  double timeout = 0;
};

// A merged report's record of what it was made from (`onnx-run report merge`).
struct MergeInfo {
  int shard_count = 0;               // N of the shards' K/N
  std::vector<std::string> reports;  // the shard reports, in the order given
  std::vector<std::string> shards;   // their slices, "K/N", in that order
  std::vector<std::string> missing;  // slices of 1..N that no report holds, "K/N"
};

// The --json report (test_report_json, suite/json_documents.h), written atomically.
// A merged report also carries `merge` (null: a single run's report).
void write_json_report(const std::string& path, const RunInfo& info, const Summary& summary,
                       const std::vector<TestResult>& results, const MergeInfo* merge = nullptr);

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
std::string junit_report(const Summary& summary, const std::vector<TestResult>& results, bool strict,
                         const ReportStamp& stamp);
void write_junit_report(const std::string& path, const Summary& summary, const std::vector<TestResult>& results,
                        bool strict, const ReportStamp& stamp);

}  // namespace onnxrun
