// `onnx-run verify MODEL VALUES... [--json] [--junit F] [--require-all]`: another runtime's
// dumped values checked node by node against the definition (suite/verify.h); exit 0 when
// every checked node agrees, 1 when one differs or none could be checked.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/named_values.h"
#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/output_names.h"
#include "suite/json_documents.h"
#include "suite/tolerance.h"
#include "suite/verify.h"
#include "suite/verify_report.h"

namespace fs = std::filesystem;

namespace onnxrun::cli {
namespace {

struct VerifyArgs {
  std::string model;
  std::vector<std::string> values;
  bool json = false;
  std::string junit;
  bool require_all = false;
  ToleranceArgs tol;
  CommonOptions common;
};

const CommandDoc& verify_doc() {
  static const CommandDoc doc{
      "onnx-run verify MODEL VALUES... [OPTIONS]",
      "Checks the values another runtime computed for a model's intermediate and output tensors, node by "
      "node, against the ONNX definition. Every node onnx-run runs (LeakyRelu of every version, the "
      "function-body ops Constant, CastLike, Less, Mul and Where, and model-local functions after "
      "inlining) whose inputs and outputs are all in VALUES is computed again on exactly the dumped "
      "inputs, and its outputs compared bit for bit with the dumped ones (--max-ulp, --atol/--rtol, per "
      "output NAME:V, as in compare). Each node is reported exact, differing (the worst element with its "
      "inputs, expected and got values and their bits, the ULP distance, how many differ) or not checked "
      "with the reason: an operator onnx-run does not run (Conv, say), a value VALUES lacks, a type or "
      "shape that is not the graph's. The summary names the first differing node in graph order. VALUES "
      "mix folders of NAME.pb / NAME.npy (a --dump-intermediates folder, whose values.tsv names those it "
      "lists), "
      "onnxruntime's node dump folders (NAME.tensorproto), .npz archives keyed by value name and "
      "Polygraphy's --save-outputs JSON (its first runner, first iteration); values are read per node, "
      "so memory holds one node's tensors. `onnx-run info MODEL --verify` lists what would be checked "
      "and the values needed.",
      {
          {"onnx-run verify model.onnx dump/", "check a dump folder (.pb/.npy, values.tsv)"},
          {"polygraphy run model.onnx --onnxrt --onnx-outputs mark all --save-outputs out.json && onnx-run verify "
           "model.onnx out.json inputs.npz",
           "check onnxruntime's values, the graph inputs from an .npz"},
          {"onnx-run verify model.onnx vals.npz --max-ulp 1 --junit verify.xml", "within one ULP; a JUnit report"},
          {"onnx-run verify model.onnx dump/ --require-all --json", "every LeakyRelu must be checked; JSON"},
      },
      {
          {0, "every checked node agrees, and at least one node was checked"},
          {1,
           "a node differs, no node could be checked (values of another type or shape than the graph's, names that "
           "match none of its values), or (--require-all) a node onnx-run runs was not checked; one line on stderr "
           "says which"},
          {2, "usage error (malformed command line, a path that does not exist)"},
          {3,
           "a model or value file that cannot be read or is not what it should be, or a folder holding one value "
           "twice"},
      }};
  return doc;
}

// Verify's tolerances where none is given: exact (compare's are atol 1e-7, rtol 1e-3).
Tolerance verify_defaults() {
  Tolerance t;
  t.atol = 0;
  t.rtol = 0;
  return t;
}

void build_verify_app(CLI::App& app, VerifyArgs& a) {
  describe_app(app, "onnx-run verify", verify_doc());
  app.description("onnx-run verify: check another runtime's dumped values node by node against the ONNX definition");
  add_common_options(app, a.common, "accepted as everywhere; verify computes one node at a time");
  app.add_option("MODEL", a.model, "the .onnx model the values were computed with")->type_name("FILE")->required();
  app.add_option("VALUES", a.values,
                 "the dumped values: folders of NAME.pb/.npy/.tensorproto files (--dump-intermediates, onnxruntime's "
                 "node dump), .npz archives, Polygraphy --save-outputs/--save-inputs JSON, single tensor files")
      ->type_name("PATH")
      ->required();
  app.add_flag("--json", a.json, "print one JSON object instead of text");
  app.add_option("--junit", a.junit, "write a JUnit XML report, one test case per checked node")->type_name("FILE");
  app.add_flag("--require-all", a.require_all,
               "fail when a node onnx-run runs (LeakyRelu, the function-body ops; not Constant) cannot be checked");
  add_tolerance_options(app, a.tol, " (verify's default: bit-exact, as --exact; one not given stays 0)",
                        verify_defaults());
}

// Bit-exact unless a tolerance is asked for (the definition leaves no room): a global one
// applies to every output, NAME:V ones to theirs while the others stay exact. A tolerance
// not given keeps its exact value, atol 0 and rtol 0, not compare's 1e-7 and 1e-3: `--atol
// 0` alone, or `--check-error-stat median` alone, must not bring in an rtol nobody asked for.
VerifyOptions verify_options(const VerifyArgs& a) {
  VerifyOptions o;
  o.tolerance = tolerance_from(a.tol, verify_defaults());  // --exact is verify's default said aloud
  o.exact_by_default =
      !(parse_named_numbers(a.tol.rtol, "--rtol").all || parse_named_numbers(a.tol.atol, "--atol").all ||
        parse_named_ulps(a.tol.max_ulp, "--max-ulp").all || a.tol.stat != "elemwise");
  o.require_all = a.require_all;
  return o;
}

int run_verify(VerifyArgs& a) {
  const VerifyOptions options = verify_options(a);
  check_exists(a.model);
  for (const std::string& v : a.values) check_exists(v);
  if (!a.junit.empty()) {
    // The report may not replace the model or a value it checks (a file given, or a
    // tensor file or values.tsv a folder given holds), and must be writable: better said
    // now than after the checks.
    std::vector<std::string> reads = {a.model};
    const std::optional<std::string> junit = replaced_file(a.junit);
    const fs::path name = junit ? fs::path(*junit).filename() : fs::path();
    const std::string ext = name.extension().string();
    const bool tensor_name =
        ext == ".pb" || ext == ".npy" || ext == ".tensorproto" || ext == ".npz" || name == kDumpIndexName;
    for (const std::string& v : a.values) {
      reads.push_back(v);
      if (tensor_name && fs::is_directory(v)) reads.push_back((fs::path(v) / name).string());
    }
    check_report_paths({{"--junit", a.junit}}, reads);
    check_writable_target(a.junit);
  }
  const VerifyReport r = verify_model(a.model, a.values, options);
  std::vector<std::string> names;
  for (const NodeCheck& c : r.nodes)
    for (const VerifiedOutput& o : c.outputs) names.push_back(o.value.name);
  check_tolerance_names(options.tolerance, names, "the nodes' outputs");
  if (!a.junit.empty()) write_text_file_now(a.junit, verify_junit(r, report_stamp_now()));
  if (a.json) fmt::print("{}", verify_json(r));
  else fmt::print("{}", printable_lines(verify_text(r, a.common.verbosity.quiet)));
  return r.passed() ? kExitOk : report_mismatch(r.failure_summary());
}

void check_verify(VerifyArgs& a) { verify_options(a); }

const CommandRow<VerifyArgs> kVerifyRow{
    "verify",     "check another runtime's dumped values node by node against the definition",
    verify_doc,   build_verify_app,
    check_verify, run_verify};

}  // namespace

const Command& verify_command() { return row_command<VerifyArgs, kVerifyRow>(); }

}  // namespace onnxrun::cli
