// `onnx-run MODEL ...`: run a model on given inputs, made-up inputs, or its test sets,
// and compare. Parses the options into a RunRequest for the run pipeline
// (suite/run.h), prints its report, and maps it to an exit code.
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/input_ranges.h"
#include "cli/named_values.h"
#include "cli/number_options.h"
#include "cli/shape_args.h"
#include "cli/stdout_check.h"
#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "io/tensor_format.h"
#include "io/tensor_text.h"
#include "io/test_data.h"
#include "model/print_graph.h"
#include "suite/case_runner.h"
#include "suite/discovery.h"
#include "suite/json_documents.h"
#include "suite/planned_graph.h"
#include "suite/run.h"

namespace fs = std::filesystem;

namespace onnxrun::cli {
namespace {

struct RunOptions {
  // What the request takes as given: MODEL, -i (its lists still marked: kListMark),
  // --npz, --seed, --expected, -o, --save-inputs, --dump-intermediates,
  // --expand-functions, --no-fuse, --full.
  RunRequest request;
  std::string test_dir;
  ToleranceArgs tol;                // --rtol, --atol, --check-error-stat
  bool print_graph = false;         // print the graph as it will run, then stop
  std::vector<std::string> shapes;  // --shape NAME=d0,d1,...
  bool random = false;              // --random: made-up inputs even when test sets exist
  std::vector<std::string> ranges;  // --range LO,HI and NAME:LO,HI (cli/input_ranges.h)
  std::string format = "pb";        // --format pb|npy|npz (for -o, --save-inputs, --dump-intermediates)
  bool json = false;                // --json: the report as JSON on stdout
  std::string exec_path = "auto";   // --exec-path auto|whole|blocks (hidden: for tests)
  CommonOptions common;
};

// CLI11 splits an option value written "[a,b]" into the values a and b, which would
// break `-i [1,2]`: such -i values are marked in argv so that CLI11 keeps them whole, and
// request_from_options takes the mark off.
constexpr char kListMark = '\x1e';  // ASCII record separator: never in a real argument

std::vector<std::string> mark_list_args(int argc, char** argv) {
  std::vector<std::string> out(argv, argv + argc);
  for (size_t k = 1; k < out.size(); ++k) {
    const bool after_flag = (out[k - 1] == "-i" || out[k - 1] == "--input") && !out[k].empty() && out[k][0] == '[';
    if (after_flag) out[k].insert(out[k].begin(), kListMark);
    else if (out[k].rfind("--input=[", 0) == 0) out[k].insert(8, 1, kListMark);
  }
  return out;
}

// The test data of the model, as `onnx-run test MODEL` finds it (or the one set of -d),
// as the pipeline takes it.
std::vector<TestSetSpec> test_sets_for(const RunOptions& o) {
  if (o.test_dir.empty()) return test_sets_of(test_of_model(o.request.model));
  const std::string& dir = o.test_dir;
  std::string label = fs::path(dir).filename().string();
  if (label.empty()) label = fs::path(dir).parent_path().filename().string();  // "-d set/"
  TestSetFiles files = list_test_set(dir);
  if (files.inputs.empty() && files.outputs.empty())
    fail(ErrorKind::kInput,
         "-d {}: not a test set: a test set folder (test_data_set_N) holds input_0.pb, input_1.pb, ... and "
         "output_0.pb, ...{}",
         dir,
         find_test_sets(dir).empty() ? "" : fmt::format(" (its test sets: {})", fmt::join(find_test_sets(dir), ", ")));
  return {{label, dir, std::move(files)}};
}

// The request the options make, all but the test sets beside the model: nothing here
// reads the file system, so check_run can call it alone.
RunRequest request_from_options(const RunOptions& o) {
  RunRequest r = o.request;
  for (std::string& arg : r.inputs)
    if (!arg.empty() && arg[0] == kListMark) arg.erase(0, 1);
  r.shapes = parse_shape_args(o.shapes);
  const InputRanges ranges = parse_input_ranges(o.ranges);
  std::tie(r.low, r.high) = ranges.all;
  r.ranges = ranges.named;
  r.tol = tolerance_from(o.tol);
  r.format = parse_tensor_format(o.format);
  r.threads = o.common.threads;
  r.digests = o.json || !o.common.verbosity.quiet;
  r.keep_tensors = false;  // printing and JSON read the digests
  r.path = o.exec_path == "whole" ? ExecPath::kWhole : o.exec_path == "blocks" ? ExecPath::kBlocks : ExecPath::kAuto;

  const bool given = !r.inputs.empty() || !r.npz.empty();
  if (given && !o.test_dir.empty())
    fail(ErrorKind::kUsage, "give inputs with -i/--npz or a test set with -d, not both");
  if (given && o.random) fail(ErrorKind::kUsage, "give inputs with -i/--npz or ask for --random ones, not both");
  if (given && !o.ranges.empty())
    fail(ErrorKind::kUsage, "--range {}: the inputs are given with -i/--npz; --range sets the values of made-up inputs",
         o.ranges.front());
  if (o.random && !o.test_dir.empty())
    fail(ErrorKind::kUsage, "give a test set with -d or ask for --random inputs, not both");
  if (!r.expected.empty() && !o.test_dir.empty())
    fail(ErrorKind::kUsage, "--expected with -d {}: a test set brings its own expected outputs", o.test_dir);
  r.source = given ? FeedSource::kGiven : o.random ? FeedSource::kRandom : FeedSource::kTestSets;
  return r;
}

RunRequest request_for(const RunOptions& o) {
  RunRequest r = request_from_options(o);
  if (r.source == FeedSource::kTestSets) {
    r.test_sets = test_sets_for(o);
    // No data at all: made-up inputs from the declared types and shapes.
    if (r.test_sets.empty()) r.source = FeedSource::kRandom;
    // A test set's inputs bring their shapes: a --shape would be ignored without a word.
    else if (!o.shapes.empty())
      fail(ErrorKind::kUsage,
           "--shape {}: test sets bring their own input shapes ({} here); --shape is for made-up inputs (add "
           "--random) and -i literals",
           o.shapes.front(), o.test_dir.empty() ? "the test data beside the model" : "-d " + o.test_dir);
    else if (!o.ranges.empty())
      fail(ErrorKind::kUsage,
           "--range {}: test sets bring their own inputs ({} here); --range is for made-up inputs (add --random)",
           o.ranges.front(), o.test_dir.empty() ? "the test data beside the model" : "-d " + o.test_dir);
  }
  return r;
}

// A set's inputs and outputs; with -q only the checks that failed, each with its error
// statistics. Values print from their digests (suite/value_digest.h), made by the run
// whichever way it ran: the same text from a streamed run as from a whole one.
void print_values(const SetRun& run, bool quiet) {
  if (quiet) {
    for (const OutputVerdict& c : run.checks)
      if (!c.comparison.ok) fmt::print("  {}\n{}", c.comparison.summary(c.name), c.comparison.error_report("    "));
    return;
  }
  for (const RunValue& v : run.inputs)
    fmt::print("input '{}': {} from {}\n  {}\n", printable(v.name), describe(v.digest), printable(v.source),
               format_stats(v.digest.stats));
  for (size_t k = 0; k < run.outputs.size(); ++k) {
    const ValueDigest& d = run.outputs[k].digest;
    fmt::print("output '{}': {}\n  {}\n", printable(run.outputs[k].name), describe(d), format_stats(d.stats));
    if (const OutputVerdict* check = run.check_for(run.outputs[k].name))
      fmt::print("  {}\n{}", check->comparison.verdict(), check->comparison.error_report("  "));
    fmt::print("{}\n", format_shown(d.shown, d.shape, d.print));
  }
}

void print_test_set(const SetRun& run, bool quiet, bool only_set) {
  if (run.error) {
    // The one line on stderr says it (run, below); a list of sets still shows where it failed.
    if (!only_set) fmt::print("{}: error: {}\n", run.label, run.error->what());
    return;
  }
  const bool passed = run.passed();
  if (quiet && passed) return;
  fmt::print("{}: {}\n", run.label, passed ? "passed" : "FAILED");
  print_values(run, quiet);
}

// A RunReport as the text `onnx-run MODEL` prints on stdout: each input with its type,
// shape, source and statistics; each output with its statistics, its comparison verdict
// when there are expected values, and its values as numpy prints them. Test sets are
// headed by their label and verdict. With `quiet`, only failures.
void print_run_text(const RunReport& report, bool quiet) {
  if (report.source != FeedSource::kTestSets) return print_values(report.runs.at(0), quiet);
  size_t passed = 0;
  for (size_t k = 0; k < report.runs.size(); ++k) {
    if (k > 0 && !quiet) fmt::print("\n");
    print_test_set(report.runs[k], quiet, report.runs.size() == 1);
    passed += report.runs[k].passed();
  }
  // -q prints only failures and errors (as the -i doors do), and then the tally with them.
  const bool all_passed = passed == report.runs.size();
  if (quiet ? !all_passed : report.runs.size() > 1)
    fmt::print("{} of {} test sets passed\n", passed, report.runs.size());
}

int exit_code_of(const RunReport& report) {
  int code = kExitOk;
  for (const SetRun& run : report.runs) {
    if (run.error) code = std::max<int>(code, exit_code_for(*run.error));
    else if (!run.passed()) code = std::max<int>(code, kExitMismatch);
  }
  return code;
}

int run(RunOptions& o) {
  if (o.print_graph) {
    const PlannedGraph planned = planned_graph(request_from_options(o));
    fmt::print("{}fusion\n{}", printable_lines(format_graph(planned.graph)),
               printable_lines(describe_fusion(planned.fusion)));
    return kExitOk;
  }
  RunReport report = run_model(request_for(o));
  if (!report.notice.empty()) log::warn("{}", report.notice);
  for (const std::string& w : report.warnings()) log::warn("{}", w);
  if (o.json) fmt::print("{}", run_json(report));
  else print_run_text(report, o.common.verbosity.quiet);
  const int code = exit_code_of(report);
  // Outputs appear only when everything, printing included, has succeeded.
  check_stdout();
  if (code == kExitOk) report.commit_outputs();
  // A test set that could not run is the one line on stderr (its exit code is 3); else a
  // mismatch is (exit 1), the full report being on stdout.
  for (const SetRun& run : report.runs)
    if (run.error) return report_error(run.labelled_error());
  if (code == kExitMismatch) return report_mismatch(report.mismatch_summary());
  return code;
}

const CommandDoc& run_doc() {
  static const CommandDoc doc{
      "onnx-run [run] MODEL [OPTIONS]",
      "Runs MODEL on given inputs (-i, --npz), on the test data beside it (its test_data_set_* folders, or "
      "for NAME.onnx the NAME_input_K.pb and NAME_output_K.pb beside it, as `onnx-run test` finds them), on one test "
      "set (-d), or, with neither, on inputs made up from the declared types and shapes, and compares "
      "the outputs with the expected ones where a test set gives them (or --expected, for given or made-up "
      "inputs). Outputs print as numpy prints "
      "them, with statistics; -o writes them as files, renamed into place only when the whole run has "
      "succeeded. `run` may be left out: `onnx-run MODEL` is `onnx-run run MODEL`.",
      {
          {"onnx-run model.onnx", "run every test_data_set_* beside the model and compare"},
          {"onnx-run model.onnx -i x=x.npy -o out --format npy", "run on a numpy array, write out/output_0.npy"},
          {"onnx-run model.onnx -i 'x=[[-1,0],[1,2]]'", "run on a literal"},
          {"onnx-run model.onnx --shape x=1,3,224,224 --seed 7 --json", "random input of a given shape, JSON report"},
          {"onnx-run model.onnx --random --range x:0,1 --save-inputs in -o out",
           "made-up x in [0,1], saved as in/input_0.pb beside out/output_0.pb (-i in/input_0.pb runs it again)"},
          {"onnx-run model.onnx -i x=x.npy --expected theirs.npz --atol y:1e-4",
           "compare with another runtime's outputs, y with its own atol"},
          {"onnx-run model.onnx --expand-functions --print-graph", "show LeakyRelu-16 expanded into its function body"},
          {"onnx-run model.onnx --print-graph", "show what the plan fuses (--no-fuse: run each node alone)"},
      },
      {
          {0, "success; every comparison passed"},
          {1,
           "an output did not match (--exact: its bits; --max-ulp: within N ULPs); the report is on stdout, one "
           "line on stderr says which output and by how much"},
          {2, "usage error (malformed command line; --shape where test sets bring their inputs)"},
          {3,
           "model or input rejected: invalid, unsupported, inputs that do not fit the graph, I/O failure, unsafe file"},
          {130,
           "interrupted by SIGINT (143: SIGTERM); the run's temporaries and outputs are removed and the files they "
           "replaced stand as they were (a signal after every output was in place leaves them all)"},
          {141, "stdout's reader went away (broken pipe)"},
      }};
  return doc;
}

void build_run_app(CLI::App& app, RunOptions& o) {
  describe_app(app, "onnx-run", run_doc());
  app.description("onnx-run: run ONNX models from the command line and check them against ONNX test data");
  add_common_options(app, o.common, "threads to split large tensors across (default: one per core)");
  app.add_option("MODEL", o.request.model, "the .onnx model file")->type_name("FILE")->required();
  app.add_option("-i,--input", o.request.inputs,
                 "an input: [NAME=]FILE (.pb TensorProto or .npy) or [NAME=][v0,v1,...] (nested lists for rank > 1); "
                 "without NAME, inputs bind in graph input order")
      ->type_name("[NAME=]FILE|LIST");
  app.add_option("-o,--output-dir", o.request.output_dir,
                 "write output k as DIR/output_<k>.pb (.npy; or DIR/outputs.npz)")
      ->type_name("DIR");
  app.add_option("-d,--test-dir", o.test_dir, "run this one test_data_set folder and compare")->type_name("DIR");
  add_tolerance_options(app, o.tol, "; for test sets, a data.json beside the model overrides");
  app.add_option("--expected", o.request.expected,
                 "compare the outputs with expected ones: an .npz (arrays by output name), a folder of output_K.pb "
                 "or NAME.npy files, or NAME=FILE for one output (repeatable); matched by name, else by position")
      ->type_name("FILE|DIR|NAME=FILE");
  app.add_flag("--expand-functions", o.request.expand_functions,
               "run operators ONNX defines by a function body (LeakyRelu-16) through that body, not the fused kernel");
  app.add_flag("--no-fuse", o.request.no_fuse,
               "run every node as the graph says: no function bodies recognised, no chains fused (same results)");
  app.add_flag("--print-graph", o.print_graph,
               "print the graph as it will run (model functions inlined; with --expand-functions, bodies expanded; "
               "fused unless --no-fuse) and exit without running");
  app.add_option("--npz", o.request.npz, "inputs from a numpy .npz: each array binds the input of its name")
      ->type_name("FILE");
  app.add_option("--shape", o.shapes,
                 "an input's shape, for made-up inputs, symbolic dims and -i literals (NAME= for a scalar)")
      ->type_name("NAME=d0,d1,...");
  app.add_flag("--random", o.random, "run on made-up inputs even when test sets exist");
  app.add_option("--seed", o.request.seed, "seed for made-up inputs")->capture_default_str()->check(whole_number(0));
  app.add_option(
         "--range", o.ranges,
         "made-up values are uniform in [LO,HI] (default -1,1; for example --range=-5,5); NAME:LO,HI sets one "
         "input's own (for example --range x:0,1); LO and HI finite, and within a float input's finite values; a usage "
         "error with inputs given or test sets")
      ->type_name("[NAME:]LO,HI");
  app.add_option("--save-inputs", o.request.save_inputs_dir,
                 "write the inputs the run used (made-up ones too) as DIR/input_<k>.pb (.npy; or DIR/inputs.npz), to "
                 "run again with -i or --npz")
      ->type_name("DIR");
  app.add_option("--format", o.format, "file format for -o, --save-inputs and --dump-intermediates")
      ->check(CLI::IsMember({"pb", "npy", "npz"}))
      ->capture_default_str();
  // Hidden: every path gives the same bits and text, and the tests prove it through here.
  app.add_option("--exec-path", o.exec_path, "run block by block when possible, or always whole")
      ->check(CLI::IsMember({"auto", "whole", "blocks"}))
      ->group("");
  app.add_flag("--full", o.request.print.full, "print every element (default: summarise tensors of more than 1000)");
  app.add_flag("--json", o.json, "print inputs, outputs, comparisons and timings as one JSON object");
  app.add_option("--dump-intermediates", o.request.dump_dir,
                 "write every value the run produces into DIR, named after it")
      ->type_name("DIR");
  app.footer(commands_overview() + "\n\n" + help_footer(run_doc()));
}

void check_run(RunOptions& o) { request_from_options(o); }

const CommandRow<RunOptions> kRunRow{"run",     "run a model (the default: `onnx-run MODEL` is `onnx-run run MODEL`)",
                                     run_doc,   build_run_app,
                                     check_run, run,
                                     nullptr,   mark_list_args};

}  // namespace

const Command& run_command() { return row_command<RunOptions, kRunRow>(); }

}  // namespace onnxrun::cli
