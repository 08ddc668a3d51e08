// `onnx-run report merge R1.json R2.json ...`: the --json reports of the shards of one
// regression run merged into the report, the JUnit file and the closing text one run
// over all of them would have given (suite/report_merge.h), a baseline applied as
// `onnx-run test --baseline` applies it, and the same exit codes.
#include <unistd.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/number_options.h"
#include "cli/progress.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "io/atomic_file.h"
#include "io/output_set.h"
#include "suite/baseline.h"
#include "suite/closing_report.h"
#include "suite/discovery.h"
#include "suite/report.h"
#include "suite/report_file.h"
#include "suite/report_merge.h"

namespace onnxrun::cli {
namespace {

struct ReportArgs {
  std::string action;
  std::vector<std::string> reports;
  std::string json, junit;
  bool allow_missing = false;  // --allow-missing
  ClosingOptions closing;      // --slowest, --baseline (its path)
  CommonOptions common;
};

const CommandDoc& report_doc() {
  static const CommandDoc doc{
      "onnx-run report merge REPORT.json... [OPTIONS]",
      "Merges the --json reports of the shards of one `onnx-run test` run (--shard K/N or --shard auto) "
      "into one: the tests of all shards in the order one run gives them, the summary and the unsupported "
      "causes as one run prints them, and the --json and --junit reports one run would write. Refuses, "
      "with exit 2, a --json or --junit over a shard's report or the --baseline, reports of the same shard, of "
      "different shard counts, or of different settings "
      "(onnx-run version, --rtol, --atol, their NAME:V values, --check-error-stat, --exact, --max-ulp, --filter, "
      "--exclude, --strict, --no-fuse, --isolate, --timeout; a setting an older report did not record counts as "
      "different). A shard that no report holds, or a report that cannot be read, fails the "
      "merge (exit 3): a lost shard is not a pass. With --allow-missing they are left out, a warning says "
      "which, and the merged report records the missing shards.",
      {
          {"onnx-run report merge shard1.json shard2.json shard3.json --json all.json --junit all.xml",
           "one report of three shards"},
          {"onnx-run report merge shards/*.json --baseline yesterday.json", "exit 1 only for regressions"},
          {"onnx-run report merge shards/*.json --allow-missing --json partial.json",
           "merge what arrived, saying which shards are missing"},
      },
      {
          {0, "no test failed (with --baseline: no regression)"},
          {1,
           "a test failed, errored, timed out or crashed (unsupported and no data too when the shards ran with "
           "--strict; with --baseline: a regression)"},
          {2,
           "usage error (malformed command line; overlapping shards, different shard counts or settings; a "
           "--baseline none of whose tests is merged)"},
          {3,
           "a shard's report is missing (without --allow-missing), a report or baseline could not be read or is no "
           "onnx-run report, or a report could not be written"},
      }};
  return doc;
}

void build_report_app(CLI::App& app, ReportArgs& a) {
  describe_app(app, "onnx-run report", report_doc());
  app.description("onnx-run report merge: merge the --json reports of test shards into one");
  add_common_options(app, a.common, "accepted as everywhere; report runs nothing");
  app.add_option("ACTION", a.action, "what to do with the reports: merge")
      ->required()
      ->type_name("merge")
      ->check(CLI::IsMember({"merge"}));
  app.add_option("REPORT", a.reports, "`onnx-run test --json` reports of the shards (--shard K/N or auto)")
      ->required()
      ->type_name("REPORT.json");
  app.add_option("--json", a.json, "write the merged report as JSON (the schema of test --json)")->type_name("FILE");
  app.add_option("--junit", a.junit, "write the merged JUnit XML report")->type_name("FILE");
  app.add_option(
         "--baseline", a.closing.baseline_path,
         "an earlier --json report: exit 1 only for regressions, as `test --baseline` finds them (tests that "
         "passed there and not in the merge, tests that ran fewer test sets, tests the shards' run selects that "
         "are gone, new tests that do not pass)")
      ->type_name("FILE");
  app.add_flag("--allow-missing", a.allow_missing,
               "merge even when a shard's report is missing or cannot be read (a warning says which)");
  app.add_option("--slowest", a.closing.slowest, "how many of the slowest tests to list")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number(0));
}

// The shard reports that can be read. With --allow-missing one that cannot is left out
// (a warning names it, and its slice then shows as missing); without, it stops the merge.
std::vector<ReportFile> read_shards(const ReportArgs& a) {
  std::vector<ReportFile> shards;
  for (const std::string& path : a.reports) {
    try {
      shards.push_back(read_report_file(path, "report"));
    } catch (const Error& e) {
      if (!a.allow_missing || (e.kind() != ErrorKind::kIo && e.kind() != ErrorKind::kInvalid)) throw;
      log::warn("{}: left out (--allow-missing)", e.what());
    }
  }
  if (shards.empty()) fail(ErrorKind::kIo, "report merge: none of the {} reports could be read", a.reports.size());
  return shards;
}

// What the shards' run selected (baseline.h RunScope), as one run of the merged slices:
// its tests, its --filter and --exclude, and the slices merged (with --allow-missing,
// a missing slice's tests are not held against the baseline: nobody saw them).
RunScope merged_scope(const MergedReport& m) {
  RunScope scope;
  for (const TestResult& t : m.tests) scope.selected.push_back(identity_of(t));
  scope.paths = m.run.paths;
  scope.filter = m.run.filter;
  scope.exclude = m.run.exclude;
  scope.shard_count = m.merge.shard_count;
  for (const std::string& slice : m.merge.shards) {
    Selection s;
    parse_shard(slice, s);
    scope.shards.push_back(s.shard_index);
  }
  return scope;
}

// The merged tests, each as `test` printed it when it ran (its line, its warnings, a
// problem's message; with -q only problems): the shards ran with -q or in a CI log
// nobody merges, and "1 failed" must say which test and why.
void print_tests(const std::vector<TestResult>& tests, const ClosingOptions& closing) {
  TestProgress progress(stdout, tests.size(), ::isatty(STDOUT_FILENO) != 0, closing.quiet, closing.strict);
  for (size_t k = 0; k < tests.size(); ++k) progress.done(k, tests[k]);
  progress.finish();
}

int run_report(ReportArgs& a) {
  ClosingOptions& closing = a.closing;
  closing.quiet = a.common.verbosity.quiet;
  // A merged report over one of its shards or the baseline (or both reports in one file)
  // would destroy what it was made from, as `test` refuses: said before anything is read.
  std::vector<std::string> reads = a.reports;
  if (!closing.baseline_path.empty()) reads.push_back(closing.baseline_path);
  check_report_paths({{"--json", a.json}, {"--junit", a.junit}}, reads);
  Baseline baseline;
  if (!closing.baseline_path.empty()) baseline = read_baseline(closing.baseline_path);
  closing.baseline = std::move(baseline.tests);
  const MergedReport m = merge_reports(read_shards(a));
  // A lost shard is a run whose tests nobody saw: not a pass unless asked for.
  if (!m.merge.missing.empty()) {
    const std::string missing = fmt::format("{} of {} shards missing ({})", m.merge.missing.size(), m.merge.shard_count,
                                            fmt::join(m.merge.missing, ", "));
    if (!a.allow_missing) fail(ErrorKind::kIo, "report merge: {}; --allow-missing merges what is there", missing);
    log::warn("{}: their tests are not in the merged report (--allow-missing)", missing);
  }
  // As `test --baseline`: a baseline that meets none of the merged tests (none merged
  // included) would pass whatever happened.
  if (!closing.baseline.empty() && compare_with_baseline(m.tests, closing.baseline).matched == 0)
    fail(ErrorKind::kUsage, "--baseline {}: none of its {} tests is among the {} merged (tests match by model path)",
         closing.baseline_path, closing.baseline.size(), m.tests.size());
  for (const std::string* out : {&a.json, &a.junit})
    if (!out->empty()) check_writable_target(*out);

  closing.strict = m.run.strict;
  if (!closing.baseline_path.empty()) {
    closing.scope = merged_scope(m);
    closing.scope->baseline_paths = std::move(baseline.path_groups);
  }
  const ClosingReport c = closing_report(m.tests, m.summary, closing);
  OutputSet reports;  // both reports appear together, as `test`'s
  if (!a.json.empty()) write_json_report(reports.target(a.json), m.run, m.summary, m.tests, &m.merge, baseline_note(c));
  if (!a.junit.empty())
    write_junit_report(reports.target(a.junit), m.summary, m.tests, m.run.strict, report_stamp_now(), baseline_note(c));
  reports.commit();
  if (!closing.quiet)
    fmt::print("Merged {} of {} shards ({}): {}\n", m.merge.shards.size(), m.merge.shard_count,
               fmt::join(m.merge.shards, ", "),
               m.tests.size() == 1 ? "1 test" : fmt::format("{} tests", m.tests.size()));
  print_tests(m.tests, closing);
  fmt::print("{}", printable_lines(c.text));
  return c.failed ? report_mismatch(c.failure) : kExitOk;
}

const CommandRow<ReportArgs> kReportRow{"report",   "merge the --json reports of test shards into one (report merge)",
                                        report_doc, build_report_app,
                                        nullptr,    run_report};

}  // namespace

const Command& report_command() { return row_command<ReportArgs, kReportRow>(); }

}  // namespace onnxrun::cli
