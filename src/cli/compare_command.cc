// `onnx-run compare A B [--model M] [--json]`: two result sets compared as a run's
// outputs are (suite/compare_sets.h); exit 0 when they agree, 1 when they differ.
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "cli/app_common.h"
#include "cli/command_row.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/help_text.h"
#include "cli/named_values.h"
#include "cli/progress.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "suite/compare_sets.h"
#include "suite/json_documents.h"
#include "suite/tolerance.h"

namespace onnxrun::cli {
namespace {

struct CompareArgs {
  std::string a, b, model;
  bool json = false;
  ToleranceArgs tol;
  CommonOptions common;
};

const CommandDoc& compare_doc() {
  static const CommandDoc doc{
      "onnx-run compare A B [OPTIONS]",
      "Compares two result sets: folders of TensorProto (.pb, .tensorproto) and numpy .npy files (a test "
      "set's output_K.pb, NAME.npy, a --dump-intermediates folder, whose values.tsv names the values it "
      "lists (every other tensor file in it is compared too, under its own name), "
      "onnxruntime's node dump), .npz "
      "archives or single tensor files, in any mix. Tensors pair by name, else by position, and each "
      "pair is compared as a run compares its outputs: the worst element, the error statistics and a "
      "histogram of the absolute error. With --model, values are listed in the graph's order, and the "
      "first that differs is named.",
      {
          {"onnx-run compare ours/ theirs.npz", "compare our outputs with another runtime's"},
          {"onnx-run compare dump_a/ dump_b/ --model model.onnx", "where two runs' intermediates part"},
          {"onnx-run compare a/ b/ --atol y:1e-3 --check-error-stat median --json", "tolerances per output, JSON"},
          {"onnx-run compare ours/ theirs/ --max-ulp 1", "every element within one ULP (--exact: bit-identical)"},
      },
      {
          {0, "every value agrees"},
          {1, "a value differs, or is in one set only (one line on stderr says which)"},
          {2, "usage error (malformed command line, a path that does not exist)"},
          {3, "a file that cannot be read or is not a tensor, or a model that cannot be loaded"},
      }};
  return doc;
}

void build_compare_app(CLI::App& app, CompareArgs& a) {
  describe_app(app, "onnx-run compare", compare_doc());
  app.description("onnx-run compare: compare two sets of result tensors, as a run compares its outputs");
  add_common_options(app, a.common, "threads that compare a large pair (at most 4; default: one per core)");
  app.add_option("A", a.a, "a result set: a folder of .pb/.tensorproto/.npy files, an .npz, or one tensor file")
      ->type_name("PATH")
      ->required();
  app.add_option("B", a.b, "the result set to compare with A")->type_name("PATH")->required();
  app.add_option("--model", a.model,
                 "list the values in this model's graph order (two --dump-intermediates folders: the first one "
                 "that differs is where the runs part)")
      ->type_name("FILE");
  app.add_flag("--json", a.json, "print one JSON object instead of text");
  add_tolerance_options(app, a.tol);
}

void print_text(const SetsComparison& s, bool quiet) {
  size_t same = 0;
  for (const ValuePair& p : s.values) {
    same += p.same();
    if (quiet && p.same()) continue;
    const std::string name = p.name.empty() ? "(unnamed)" : "'" + p.name + "'";
    if (!p.comparison) {
      fmt::print("{}: only in {} ({})\n", printable(name), p.file_a.empty() ? "B" : "A",
                 printable(p.file_a.empty() ? p.file_b : p.file_a));
      continue;
    }
    fmt::print("{}: {} vs {}\n  {}\n{}", printable(name), printable(p.file_a), printable(p.file_b),
               p.comparison->verdict(), p.comparison->error_report("  "));
  }
  if (s.first_divergent) {
    const ValuePair& first = s.values[*s.first_divergent];
    fmt::print(
        "first divergent value{}: {}\n", s.model.empty() ? "" : " in graph order",
        printable(first.name.empty() ? first.file_a.empty() ? first.file_b : first.file_a : "'" + first.name + "'"));
  }
  fmt::print("{} of {} values agree\n", same, s.values.size());
}

int run_compare(CompareArgs& a) {
  const Tolerance tol = tolerance_from(a.tol);
  for (const std::string* p : {&a.a, &a.b, &a.model})
    if (!p->empty()) check_exists(*p);
  // A large pair takes a while: its progress on a terminal, as `test` shows its own.
  CompareProgressLine progress(stdout, ::isatty(STDOUT_FILENO) != 0);
  ThreadPool pool(a.common.threads);
  const SetsComparison s = compare_result_sets(
      a.a, a.b, tol, a.model,
      [&](const std::string& value, int pass, int64_t done, int64_t numel) {
        progress.update(value, pass, done, numel);
      },
      &pool);
  progress.finish();
  std::vector<std::string> names;
  for (const ValuePair& v : s.values) names.push_back(v.name);
  check_tolerance_names(tol, names, "the compared values");
  if (a.json) fmt::print("{}", compare_json(s));
  else print_text(s, a.common.verbosity.quiet);
  return s.equal() ? kExitOk : report_mismatch(s.mismatch_summary());
}

void check_compare(CompareArgs& a) { tolerance_from(a.tol); }

const CommandRow<CompareArgs> kCompareRow{"compare",     "compare two sets of result tensors (folders, .npz)",
                                          compare_doc,   build_compare_app,
                                          check_compare, run_compare};

}  // namespace

const Command& compare_command() { return row_command<CompareArgs, kCompareRow>(); }

}  // namespace onnxrun::cli
