#include "cli/run_command.h"

#include <filesystem>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/memory_flag.h"
#include "cli/print_tensor.h"
#include "core/error.h"
#include "exec/bind.h"
#include "exec/executor.h"
#include "io/input_file.h"
#include "io/output_files.h"
#include "io/test_data.h"
#include "model/load.h"
#include "suite/test_set.h"

namespace fs = std::filesystem;

namespace onnxrun::cli {

void add_run_options(CLI::App& app, RunOptions& o) {
  app.add_option("model", o.model, "the .onnx model file")->required();
  app.add_option("-i,--input", o.inputs,
                 "an input tensor, [NAME=]FILE.pb; without NAME, inputs bind in graph input order")
      ->type_name("[NAME=]FILE");
  app.add_option("-o,--output-dir", o.output_dir, "write output k as DIR/output_<k>.pb")->type_name("DIR");
  app.add_option("-d,--test-dir", o.test_dir, "run this one test_data_set folder and compare")->type_name("DIR");
  app.add_option("--rtol", o.tol.rtol, "relative tolerance for comparisons")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--atol", o.tol.atol, "absolute tolerance for comparisons")->capture_default_str()->check(CLI::NonNegativeNumber);
}

namespace {

std::vector<std::string> output_names(const Graph& g) {
  std::vector<std::string> names;
  for (const ValueInfo& v : g.outputs) names.push_back(v.name);
  return names;
}

void print_values(const char* kind, const std::vector<const ValueInfo*>& decls, const std::vector<Tensor>& ts) {
  for (size_t k = 0; k < ts.size() && k < decls.size(); ++k)
    fmt::print("  {} '{}': {}\n", kind, decls[k]->name, format_tensor_short(ts[k]));
}

std::vector<const ValueInfo*> pointers(const std::vector<ValueInfo>& vs) {
  std::vector<const ValueInfo*> out;
  for (const ValueInfo& v : vs) out.push_back(&v);
  return out;
}

void write_outputs(const RunOptions& o, const Graph& g, const std::vector<Tensor>& outputs) {
  if (o.output_dir.empty()) return;
  for (const std::string& path : write_output_files(o.output_dir, output_names(g), outputs))
    spdlog::info("wrote {}", path);
}

// A feed from "-i [NAME=]FILE". The text before '=' is a name unless it looks like a path.
Feed feed_from_arg(const std::string& arg, size_t position) {
  Feed f;
  std::string path = arg;
  const size_t eq = arg.find('=');
  if (eq != std::string::npos && arg.find('/') > eq) {
    f.name = arg.substr(0, eq);
    path = arg.substr(eq + 1);
    if (f.name.empty() || path.empty()) fail(ErrorKind::kUsage, "-i {}: expected [NAME=]FILE", arg);
  }
  f.position = position;
  f.origin = "-i " + arg;
  f.tensor = read_input_file(path).tensor;
  return f;
}

int run_with_inputs(const RunOptions& o, const Executor& exec) {
  const Graph& g = exec.graph();
  std::vector<Feed> feeds;
  for (size_t k = 0; k < o.inputs.size(); ++k) feeds.push_back(feed_from_arg(o.inputs[k], k));
  auto bound = bind_inputs(g, std::move(feeds));
  std::vector<Tensor> inputs;
  for (const ValueInfo* v : g.required_inputs()) inputs.push_back(bound.at(v->name));
  std::vector<Tensor> outputs = exec.run(std::move(bound));
  write_outputs(o, g, outputs);
  if (!o.quiet) {
    print_values("input", g.required_inputs(), inputs);
    print_values("output", pointers(g.outputs), outputs);
  }
  return kExitOk;
}

// Runs one test set; prints its result; returns its exit code.
int run_one_set(const RunOptions& o, const Executor& exec, const std::string& dir) {
  const std::string label = fs::path(dir).filename().string();
  TestSetResult r;
  try {
    r = run_test_set(exec, dir, o.tol);
  } catch (const Error& e) {
    return report_error(e.with_context(label));
  }
  write_outputs(o, exec.graph(), r.outputs);
  const bool passed = r.passed();
  if (!o.quiet || !passed) {
    fmt::print("{}: {}\n", label, passed ? "passed" : "FAILED");
    if (!o.quiet) print_values("input", exec.graph().required_inputs(), r.inputs);
    for (const OutputCheck& c : r.checks)
      if (!o.quiet || !c.comparison.ok) fmt::print("  {}\n", c.comparison.summary(c.name));
    if (!o.quiet) print_values("output", pointers(exec.graph().outputs), r.outputs);
  }
  return passed ? kExitOk : kExitMismatch;
}

}  // namespace

int run_command(const RunOptions& o) {
  if (!o.inputs.empty() && !o.test_dir.empty()) fail(ErrorKind::kUsage, "give inputs with -i or a test set with -d, not both");
  Model model = load_model(o.model);
  Executor exec(std::move(model.graph));

  if (!o.inputs.empty()) return run_with_inputs(o, exec);
  if (!o.test_dir.empty()) return run_one_set(o, exec, o.test_dir);

  const std::string model_dir = fs::path(o.model).parent_path().string();
  const auto sets = find_test_sets(model_dir.empty() ? "." : model_dir);
  if (sets.empty()) {
    if (exec.graph().required_inputs().empty()) return run_with_inputs(o, exec);
    fail(ErrorKind::kUsage, "{}: no inputs given and no test_data_set_* beside the model; give inputs with -i [NAME=]FILE.pb",
         o.model);
  }
  if (!o.output_dir.empty() && sets.size() > 1)
    fail(ErrorKind::kUsage, "-o needs one run: the model has {} test sets; pick one with -d", sets.size());
  int worst = kExitOk;
  size_t passed = 0;
  for (const std::string& dir : sets) {
    const int code = run_one_set(o, exec, dir);
    passed += code == kExitOk;
    worst = std::max(worst, code);
  }
  if (sets.size() > 1 || o.quiet) fmt::print("{} of {} test sets passed\n", passed, sets.size());
  return worst;
}

int run_main(int argc, char** argv) {
  CLI::App app{"onnx-run: run ONNX models from the command line and check them against ONNX test data"};
  app.name("onnx-run");
  app.set_version_flag("--version", version_text());
  RunOptions run;
  Verbosity verbosity;
  add_verbosity_flags(app, verbosity);
  add_run_options(app, run);
  std::string max_memory;
  add_max_memory_option(app, max_memory);
  app.footer(R"(Commands (onnx-run COMMAND --help for each):
  run MODEL ...   the default: run a model

Examples:
  onnx-run model.onnx                      run every test_data_set_* beside the model and compare
  onnx-run model.onnx -d test_data_set_0   run one test set
  onnx-run model.onnx -i x=x.pb -o out     run on an input, write out/output_0.pb

Exit codes: 0 ok, 1 an output did not match, 2 usage error, 3 model or input rejected.)");
  if (auto code = parse_args(app, argc, argv)) return *code;
  run.quiet = verbosity.quiet;
  setup_logging(verbosity);
  apply_max_memory(max_memory);
  return run_command(run);
}

}  // namespace onnxrun::cli
