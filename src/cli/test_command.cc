// `onnx-run test PATH...`: the regression runner's command line. Parses options, calls
// suite/ (discovery, runner, reports, baseline), prints progress and the closing report,
// and turns the outcome into the exit code. No test logic lives here.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/named_values.h"
#include "cli/number_options.h"
#include "cli/progress.h"
#include "cli/shard_env.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "io/atomic_file.h"
#include "io/output_names.h"
#include "io/output_set.h"
#include "suite/baseline.h"
#include "suite/closing_report.h"
#include "suite/discovery.h"
#include "suite/report.h"
#include "suite/runner.h"
#include "suite/tolerance.h"

namespace fs = std::filesystem;

namespace onnxrun::cli {
namespace {

struct TestOptions {
  std::vector<std::string> paths;
  Selection selection;
  std::string shard;         // "K/N", or "auto" until resolve_auto_shard
  int shard_count = 0;       // --shard-count (for --shard auto)
  std::string shard_source;  // the engine --shard auto found
  std::string selected;      // names_digest of the tests selected before sharding
  bool list = false;
  RunnerOptions runner;
  std::string json, junit;
  std::string update_baseline;  // --update-baseline F
  ClosingOptions closing;       // --slowest, --strict, --baseline (its path); -q
  ToleranceArgs tol;            // into runner.case_options.tol after parsing
  CommonOptions common;
};

// --shard auto: the slice from the environment (cli/shard_env.h) replaces "auto" in
// `o.shard`; with Bazel, a JUnit report goes to XML_OUTPUT_FILE unless --junit names one.
// Changes nothing outside `o` (check_test calls it too). Throws Error(kUsage).
std::optional<AutoShard> resolve_auto_shard(TestOptions& o) {
  if (o.shard != "auto") {
    if (o.shard_count > 0) fail(ErrorKind::kUsage, "--shard-count {} goes with --shard auto", o.shard_count);
    return std::nullopt;
  }
  AutoShard a = shard_from_environment(process_environment(), o.shard_count);
  o.shard = a.slice();
  o.shard_source = a.engine;
  if (o.junit.empty()) o.junit = a.xml_output_file;
  return a;
}

// What the engine asks of a test that runs its slice, once the run is sure to start:
// Bazel's status file touched (so Bazel knows the slices were honoured), scratch files
// (children of --isolate, any library's temporary) under TEST_TMPDIR.
void follow_engine_conventions(const AutoShard& a) {
  if (!a.tmpdir.empty()) ::setenv("TMPDIR", a.tmpdir.c_str(), 1);
  if (!a.status_file.empty() && !std::ofstream(a.status_file, std::ios::app))
    fail(ErrorKind::kIo, "cannot touch TEST_SHARD_STATUS_FILE {}", a.status_file);
}

// --filter, --exclude and --shard as one Selection. Throws Error(kUsage) for a bad --shard.
Selection selection_of(const TestOptions& o) {
  Selection s = o.selection;
  if (!o.shard.empty()) parse_shard(o.shard, s);
  return s;
}

// The "run" object of the reports this run writes (--json, --update-baseline).
RunInfo run_info(const TestOptions& o) {
  RunInfo info;
  info.generator = version_text();
  info.paths = o.paths;
  // Only as it is: a folder name that is not UTF-8 would read back as another (U+FFFD),
  // and the merge would resolve PATHs against a folder that is not there.
  std::error_code ec;
  if (const std::string cwd = std::filesystem::current_path(ec).string(); valid_utf8(cwd) == cwd) info.cwd = cwd;
  info.filter = o.selection.filter;
  info.exclude = o.selection.exclude;
  info.shard = o.shard;
  info.shard_source = o.shard_source;
  info.no_fuse = o.runner.case_options.no_fuse;
  // Every comparison setting, as parsed (so the same settings typed in another order
  // read the same): `report merge` refuses shards whose verdicts were decided differently.
  const Tolerance& tol = o.runner.case_options.tol;
  info.rtol = tol.rtol;
  info.atol = tol.atol;
  info.output_rtol = tol.output_rtol;
  info.output_atol = tol.output_atol;
  info.check_error_stat = error_stat_name(tol.stat);
  info.exact = tol.exact;
  std::vector<std::string> ulps;
  if (tol.max_ulp) ulps.push_back(fmt::format("{}", *tol.max_ulp));
  for (const auto& [name, n] : tol.output_max_ulp) ulps.push_back(fmt::format("{}:{}", name, n));
  info.max_ulp = fmt::format("{}", fmt::join(ulps, ","));
  info.jobs = o.runner.jobs;
  info.isolate = o.runner.isolate || o.runner.timeout > 0;
  info.timeout = o.runner.timeout;
  info.strict = o.closing.strict;
  info.selected = o.selected;
  return info;
}

// A baseline none of whose tests this run selects (any slice of it) was made of other
// tests, or keyed in a way this run cannot match, or --filter and --exclude left nothing
// to run: comparing with it would pass whatever happens. Throws Error(kUsage)
// before anything runs. (An empty baseline asks every test to pass: nothing to refuse.)
void check_baseline_matches(const std::vector<TestCase>& tests, const std::vector<TestResult>& baseline,
                            const std::string& path) {
  if (baseline.empty()) return;
  std::vector<TestIdentity> ids;
  for (const TestCase& t : tests) ids.push_back(identity_of(t));
  for (const auto& m : match_baseline(ids, baseline))
    if (m) return;
  fail(ErrorKind::kUsage,
       "--baseline {}: none of its {} tests is among the {} selected here (tests match by model path, from its end); "
       "is it the baseline of these tests?",
       path, baseline.size(), tests.size());
}

// What the run selects (baseline.h RunScope): `selected` before sharding, and its
// --filter, --exclude and --shard to ask of the baseline's tests.
RunScope run_scope(const std::vector<TestCase>& selected, const std::vector<std::string>& paths,
                   const Selection& selection) {
  RunScope scope;
  for (const TestCase& t : selected) scope.selected.push_back(identity_of(t));
  scope.paths = paths;
  scope.filter = selection.filter;
  scope.exclude = selection.exclude;
  scope.shard_count = selection.shard_count;
  if (selection.shard_count > 0) scope.shards = {selection.shard_index};
  return scope;
}

// The files the run reads that a report could land on: the models, a test's data.json,
// the data of NAME.onnx tests, and a test set's input_K.pb / output_K.pb where a report's
// file is named so (a set's folder is listed only when it runs).
std::vector<std::string> files_read_by(const std::vector<TestCase>& tests, const std::vector<std::string>& reports) {
  std::vector<std::string> names;  // the reports' file names that a test set's file could have
  for (const std::string& r : reports) {
    const std::optional<std::string> file = r.empty() ? std::nullopt : replaced_file(r);
    if (!file) continue;
    const fs::path name = fs::path(*file).filename();
    const std::string stem = name.stem().string();
    if (name.extension() == ".pb" &&
        (numbered_file_index(TensorRole::kInputs, stem) || numbered_file_index(TensorRole::kOutputs, stem)))
      names.push_back(name.string());
  }
  std::vector<std::string> reads;
  for (const TestCase& t : tests) {
    if (!t.model.empty()) reads.push_back(t.model);
    reads.push_back((fs::path(t.dir) / "data.json").string());
    reads.insert(reads.end(), t.files.inputs.begin(), t.files.inputs.end());
    reads.insert(reads.end(), t.files.outputs.begin(), t.files.outputs.end());
    for (const std::string& set : t.sets)
      for (const std::string& name : names) reads.push_back((fs::path(set) / name).string());
  }
  return reads;
}

// A --filter or --exclude that keeps none of the tests found is a typo until shown
// otherwise: run, it would pass with nothing tested (ctest's --no-tests=error, pytest's
// exit 5). Throws Error(kUsage) before anything runs. An empty --shard slice is no error:
// a CI matrix of more shards than tests makes them, and `report merge` checks the slices.
void check_selection_found_tests(const TestOptions& o, size_t found, size_t selected) {
  if (selected > 0 || (o.selection.filter.empty() && o.selection.exclude.empty())) return;
  std::vector<std::string> chosen;
  if (!o.selection.filter.empty()) chosen.push_back(fmt::format("--filter '{}'", o.selection.filter));
  if (!o.selection.exclude.empty()) chosen.push_back(fmt::format("--exclude '{}'", o.selection.exclude));
  fail(ErrorKind::kUsage, "{} selects none of the {} tests found under {}", fmt::join(chosen, " "), found,
       fmt::join(o.paths, " "));
}

// A data.json NAME that is no output of its model (a test's usage_error), or
// --rtol, --atol or --max-ulp NAME:V whose NAME is no output of any test run, is a typo
// that would leave the default tolerance in force: Error(kUsage), before any report or
// baseline is written. Outputs are known only from the models that loaded, so a run in
// which none did checks nothing; and a shard cannot know the others' outputs, so a run of
// one slice of several checks nothing either (the unsharded run, or any door on the
// model, says it).
void check_output_names(const TestOptions& o, const std::vector<TestResult>& results) {
  // A data.json's names are the model's own: checked in every slice.
  for (const TestResult& r : results)
    if (r.usage_error) fail(ErrorKind::kUsage, "{}", r.message);
  if (selection_of(o).shard_count > 1) return;
  std::set<std::string> outputs;
  for (const TestResult& r : results) outputs.insert(r.outputs.begin(), r.outputs.end());
  if (outputs.empty()) return;
  check_tolerance_names(o.runner.case_options.tol, {outputs.begin(), outputs.end()}, "the outputs of the tests run");
}

int run_test(TestOptions& o) {
  // One warning per model would bury the report: the loader's warnings only with -v.
  if (o.common.verbosity.verbose == 0) log::set_level(log::Level::kError);
  const std::optional<AutoShard> engine = resolve_auto_shard(o);
  if (engine) {
    log::info("--shard auto: shard {} from {} ({})", engine->slice(), engine->engine, engine->from);
    if (!engine->xml_output_file.empty() && o.junit == engine->xml_output_file)
      log::info("--shard auto: JUnit report to {} (XML_OUTPUT_FILE)", o.junit);
  }
  // The selection before sharding, then the slice: every shard records what the whole
  // selection was, so that `report merge` can check its shards cover one set of tests.
  Selection unsharded = selection_of(o), slice;
  std::swap(slice.shard_index, unsharded.shard_index);
  std::swap(slice.shard_count, unsharded.shard_count);
  const std::vector<TestCase> found = discover_tests(o.paths);
  const std::vector<TestCase> selected = select_tests(found, unsharded);
  std::vector<std::string> selected_names;
  for (const TestCase& t : selected) selected_names.push_back(t.name);
  o.selected = names_digest(std::move(selected_names));
  const std::vector<TestCase> tests = select_tests(selected, slice);
  if (!o.list && !o.closing.baseline_path.empty()) {
    // A bad baseline stops the run before it starts. It is held to what the run selected,
    // every slice of it: a baseline test gone from there is missing, a regression.
    Baseline baseline = read_baseline(o.closing.baseline_path);
    o.closing.baseline = std::move(baseline.tests);
    check_baseline_matches(selected, o.closing.baseline, o.closing.baseline_path);
    o.closing.scope = run_scope(selected, o.paths, selection_of(o));
    o.closing.scope->baseline_paths = std::move(baseline.path_groups);
  }
  check_selection_found_tests(o, found.size(), selected.size());
  if (o.list) {
    for (const TestCase& t : tests) fmt::print("{}\n", t.name);
    return kExitOk;
  }
  // An empty slice is no error (check_selection_found_tests), but is said as one.
  o.closing.no_tests = fmt::format(
      "shard {} holds none of the {} tests selected (more shards than tests); `report merge` checks that the shards "
      "hold them all",
      o.shard, selected.size());
  // So does a report that would replace another, or a file the run reads.
  // (XML_OUTPUT_FILE included, as --junit.) The baseline is read too, but updating it in
  // place is the ratchet: only the reports that record regressions may not replace it.
  check_report_paths({{"--json", o.json}, {"--junit", o.junit}, {"--update-baseline", o.update_baseline}},
                     files_read_by(tests, {o.json, o.junit, o.update_baseline}));
  if (!o.closing.baseline_path.empty())
    check_report_paths({{"--json", o.json}, {"--junit", o.junit}}, {o.closing.baseline_path});
  // And one that could not be written: better now than after a long run.
  for (const std::string* report : {&o.json, &o.junit, &o.update_baseline})
    if (!report->empty()) check_writable_target(*report);
  if (engine) follow_engine_conventions(*engine);

  const ReportStamp stamp = report_stamp_now();  // when the run started, as JUnit records it
  const auto start = std::chrono::steady_clock::now();
  TestProgress progress(stdout, tests.size(), ::isatty(STDOUT_FILENO) != 0, o.closing.quiet, o.closing.strict);
  const std::vector<TestResult> results =
      run_tests(tests, o.runner, [&](size_t i, const TestResult& r) { progress.done(i, r); });
  progress.finish();
  check_output_names(o, results);
  const Summary summary =
      summarize(results, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());

  const ClosingReport c = closing_report(results, summary, o.closing);
  // The run's reports appear together: a signal or a failed write leaves them all as
  // they were, never a new JSON beside an old JUnit.
  OutputSet reports;
  if (!o.json.empty())
    write_json_report(reports.target(o.json), run_info(o), summary, results, nullptr, baseline_note(c));
  if (!o.junit.empty())
    write_junit_report(reports.target(o.junit), summary, results, o.closing.strict, stamp, baseline_note(c));
  if (!o.update_baseline.empty()) {
    std::vector<std::string> kept_paths;
    const std::vector<TestResult> updated =
        updated_baseline(results, o.closing.baseline_path.empty() ? nullptr : &o.closing.baseline, o.closing.strict,
                         o.closing.scope ? &*o.closing.scope : nullptr, &kept_paths);
    RunInfo info = run_info(o);
    info.paths.insert(info.paths.end(), kept_paths.begin(), kept_paths.end());
    write_json_report(reports.target(o.update_baseline), info, summarize(updated, summary.seconds), updated);
  }
  reports.commit();
  fmt::print("{}", printable_lines(c.text));
  return c.failed ? report_mismatch(c.failure) : kExitOk;
}

const CommandDoc& test_doc() {
  static const CommandDoc doc{
      "onnx-run test PATH... [OPTIONS]",
      "Finds every model test under PATH... and runs them, in parallel, through the same pipeline as "
      "`onnx-run MODEL`. A test is a model.onnx beside test_data_set_*/ folders, or NAME.onnx beside "
      "NAME_output_K.pb. Outcomes: passed, failed, unsupported, no data (a model with no test data; "
      "skipped like unsupported, counted apart), error, timeout, crashed. The --json and --junit "
      "reports are checked writable before the first test runs. A --baseline matches tests by what they "
      "are: their model paths, compared from the end, so a baseline written from a parent folder or "
      "another checkout still matches; the closing report says how many baseline tests were matched.",
      {
          {"onnx-run test ../shared/onnx-tests -j 2 --json r.json --junit r.xml", "run a tree, write both reports"},
          {"onnx-run test tests/ --filter leakyrelu --exclude expanded --list", "list the tests a filter picks"},
          {"onnx-run test tests/ --shard 2/4 --json shard2.json", "the second of four slices, for a CI matrix"},
          {"onnx-run test tests/ --shard auto --json shard.json",
           "the slice Bazel, GitLab, CircleCI or Buildkite gives"},
          {"onnx-run test tests/ --baseline yesterday.json", "exit 1 only for regressions"},
          {"onnx-run test tests/ --baseline known.json --update-baseline known.json",
           "ratchet a baseline: newly passing tests are promoted"},
      },
      {
          {0, "no test failed (with --baseline: no regression)"},
          {1,
           "a test failed, errored, timed out or crashed (unsupported and no data too with --strict; with "
           "--baseline: a regression); the report is on stdout, and one line on stderr says why"},
          {2,
           "usage error (malformed command line, a PATH with no tests, a --filter or --exclude that selects none of "
           "the tests found (as ctest --no-tests=error; an empty --shard slice exits 0), --shard auto without a test "
           "engine's variables or with malformed ones, a --baseline none of whose tests is selected, a --rtol, --atol "
           "or "
           "--max-ulp NAME:V whose NAME is no output of the tests run, or a data.json NAME that is no output of its "
           "model: checked once they ran, before any report is written)"},
          {3, "a baseline or report file could not be read or written"},
      }};
  return doc;
}

void build_test_app(CLI::App& app, TestOptions& o) {
  describe_app(app, "onnx-run test", test_doc());
  app.description("onnx-run test: run every model test found under PATH... and report, for CI");
  add_common_options(app, o.common,
                     "threads each test splits large tensors across (default: 1, as -j runs tests side by side)");
  app.add_option("PATH", o.paths, "model files, model folders, or trees searched for model folders")
      ->required()
      ->type_name("PATH");
  o.runner.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  app.add_option("-j,--jobs", o.runner.jobs, "tests run at a time (default: the number of cores)")
      ->type_name("N")
      ->check(whole_number(1, 1024));
  app.add_option("--filter", o.selection.filter, "run only tests whose name matches this regex")->type_name("REGEX");
  app.add_option("--exclude", o.selection.exclude, "skip tests whose name matches this regex")->type_name("REGEX");
  app.add_option("--shard", o.shard,
                 "run the K-th of N stable slices of the tests (K from 1); auto: the slice the environment gives "
                 "(Bazel, Kubernetes Indexed Jobs with --shard-count, GitLab, CircleCI, Buildkite)")
      ->type_name("K/N|auto");
  app.add_option("--shard-count", o.shard_count,
                 "with --shard auto: the number of shards (a Kubernetes Indexed Job's completions)")
      ->type_name("N")
      ->check(whole_number(1, 999999));
  app.add_flag("--list", o.list, "print the names of the tests that would run, and stop");
  app.add_option("--json", o.json, "write every test's outcome and timing as JSON")->type_name("FILE");
  app.add_option("--junit", o.junit, "write a JUnit XML report (Jenkins xunit junit-10 schema)")->type_name("FILE");
  app.add_option("--baseline", o.closing.baseline_path,
                 "an earlier --json report: exit 1 only for regressions (tests that passed there and not now, tests "
                 "that ran fewer test sets than there, tests there that this run selects but are gone, and new tests "
                 "that do not pass); tests match by model path, whatever PATH was typed")
      ->type_name("FILE");
  app.add_option("--update-baseline", o.update_baseline,
                 "write the new baseline (a --json report): the --baseline updated by this run, newly passing tests "
                 "promoted, known failures and tests not run kept, tests gone from the run dropped, counts of test "
                 "sets raised, regressions not accepted")
      ->type_name("FILE");
  app.add_flag("--no-fuse", o.runner.case_options.no_fuse,
               "run every node as the graph says: no function bodies recognised, no chains fused");
  app.add_flag("--strict", o.closing.strict, "count unsupported and no-data tests as failures (not skipped)");
  app.add_option("--timeout", o.runner.timeout, "kill a test after S seconds and record a timeout (implies --isolate)")
      ->type_name("S")
      ->check(non_negative_number());
  app.add_flag("--isolate", o.runner.isolate, "run each test in a child process, so a crash is recorded, not fatal");
  add_tolerance_options(app, o.tol, "; a data.json beside a model overrides");
  app.add_option("--slowest", o.closing.slowest, "how many of the slowest tests to list")
      ->type_name("N")
      ->capture_default_str()
      ->check(whole_number(0));
  // Test-only hooks, hidden from --help: deliberately crash or hang the matching tests.
  app.add_option("--debug-crash-on", o.runner.case_options.crash_on)->group("");
  app.add_option("--debug-hang-on", o.runner.case_options.hang_on)->group("");
}

void check_test(TestOptions& o) {
  resolve_auto_shard(o);
  select_tests({}, selection_of(o));  // compiles --filter and --exclude
  NamePattern(o.runner.case_options.crash_on, "--debug-crash-on");
  NamePattern(o.runner.case_options.hang_on, "--debug-hang-on");
}

// What the parser alone knows: whether --threads was given (tests run one thread each
// unless it was).
void parsed_test_args(const CLI::App& app, TestOptions& o) {
  o.closing.quiet = o.common.verbosity.quiet;
  o.runner.case_options.tol = tolerance_from(o.tol);
  o.runner.case_options.threads = app.count("--threads") ? o.common.threads : 1;
}

const CommandRow<TestOptions> kTestRow{
    "test",          "run every model test under PATH... and report (JSON, JUnit, baselines)",
    test_doc,        build_test_app,
    check_test,      run_test,
    parsed_test_args};

}  // namespace

const Command& test_command() { return row_command<TestOptions, kTestRow>(); }

}  // namespace onnxrun::cli
