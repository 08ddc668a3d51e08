#include "cli/run_command.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "cli/app_common.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/print_tensor.h"
#include "cli/run_direct.h"
#include "core/error.h"
#include "exec/bind.h"
#include "exec/block_run.h"
#include "exec/executor.h"
#include "exec/thread_pool.h"
#include "io/input_file.h"
#include "io/tensor_format.h"
#include "io/output_files.h"
#include "io/output_transaction.h"
#include "io/raw_tensor_source.h"
#include "io/test_data.h"
#include "model/load.h"
#include "model/print_graph.h"
#include "suite/test_set.h"

namespace fs = std::filesystem;

namespace onnxrun::cli {

void add_run_options(CLI::App& app, RunOptions& o) {
  app.add_option("model", o.model, "the .onnx model file")->required();
  app.add_option("-i,--input", o.inputs,
                 "an input: [NAME=]FILE (.pb TensorProto or .npy) or [NAME=][v0,v1,...] (nested lists for rank > 1); "
                 "without NAME, inputs bind in graph input order")
      ->type_name("[NAME=]FILE|LIST");
  app.add_option("-o,--output-dir", o.output_dir, "write output k as DIR/output_<k>.pb (.npy; or DIR/outputs.npz)")
      ->type_name("DIR");
  app.add_option("-d,--test-dir", o.test_dir, "run this one test_data_set folder and compare")->type_name("DIR");
  app.add_option("--rtol", o.tol.rtol, "relative tolerance for comparisons")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--threads", o.threads, "threads to split large tensors across (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--atol", o.tol.atol, "absolute tolerance for comparisons")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_flag("--expand-functions", o.expand_functions,
               "run operators ONNX defines by a function body (LeakyRelu-16) through that body, not the fused kernel");
  app.add_flag("--print-graph", o.print_graph,
               "print the graph as it will run (model functions inlined; with --expand-functions, bodies expanded) "
               "and exit without running");
  add_run_extra_options(app, o.extra);
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
  for (const std::string& path : write_outputs_as(parse_tensor_format(o.extra.format), o.output_dir, output_names(g), outputs))
    spdlog::info("wrote {}", path);
}

// Outputs only to a file, nothing printed, a large input to an elementwise graph: the
// input is read, computed and written block by block through one buffer, so the run
// costs about what copying the file does (exec/block_run.h). nullopt: not such a run.
std::optional<int> run_in_blocks_if_it_pays(const RunOptions& o, const Executor& exec) {
  const Graph& g = exec.graph();
  if (o.output_dir.empty() || !o.quiet || o.inputs.size() != 1 || !o.extra.npz.empty() || o.extra.json ||
      !o.extra.dump_dir.empty() || o.extra.format != "pb" || !can_run_in_blocks(g))
    return std::nullopt;
  Feed f;
  f.origin = "-i " + o.inputs[0];
  std::string path;
  std::tie(f.name, path) = split_input_arg(o.inputs[0]);
  std::optional<RawTensorSource> src = open_raw_tensor(path);
  if (!src || src->tensor.nbytes() < kBlockRunMinBytes) return std::nullopt;
  f.tensor = src->tensor;
  std::vector<Feed> feeds;
  feeds.push_back(std::move(f));
  const auto bound = bind_inputs(g, std::move(feeds));  // checks type and shape; reads no data
  const auto& [name, x] = *bound.begin();
  const std::string out = write_streamed_output_file(o.output_dir, g.outputs[0].name, x.dtype(), x.shape(), [&](const ByteSink& sink) {
    run_in_blocks(exec, name, x.dtype(), x.shape(), src->read, kRunBlockBytes,
                  [&](const Tensor& block) { sink(block.raw(), block.nbytes()); });
  });
  spdlog::info("wrote {} (block by block)", out);
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
  const bool given = !o.inputs.empty() || !o.extra.npz.empty();
  if (given && !o.test_dir.empty()) fail(ErrorKind::kUsage, "give inputs with -i/--npz or a test set with -d, not both");
  if (given && o.extra.random) fail(ErrorKind::kUsage, "give inputs with -i/--npz or ask for --random ones, not both");
  const auto t0 = std::chrono::steady_clock::now();
  LoadOptions load_options;
  load_options.expand_schema_functions = o.expand_functions;
  Model model = load_model(o.model, load_options);
  if (o.print_graph) {
    fmt::print("{}", format_graph(model.graph));
    return kExitOk;
  }
  ThreadPool pool(static_cast<unsigned>(o.threads));
  Executor exec(std::move(model.graph), ExecOptions{&pool});
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!o.output_dir.empty())
    check_output_targets(parse_tensor_format(o.extra.format), o.output_dir, exec.graph().outputs.size());

  if (given && !o.extra.random)
    if (auto code = run_in_blocks_if_it_pays(o, exec)) return *code;
  if (given || o.extra.random) return run_direct(o, exec, o.extra.random, load_ms);
  const std::string model_dir = fs::path(o.model).parent_path().string();
  const auto sets = o.test_dir.empty() ? find_test_sets(model_dir.empty() ? "." : model_dir)
                                       : std::vector<std::string>{o.test_dir};
  // No data at all: made-up inputs from the declared types and shapes.
  if (sets.empty()) return run_direct(o, exec, !exec.graph().required_inputs().empty(), load_ms);
  if (o.extra.json || !o.extra.dump_dir.empty())
    fail(ErrorKind::kUsage, "--json and --dump-intermediates need one run: give inputs with -i/--npz or add --random "
                            "(for test sets: onnx-run test --json)");
  if (!o.test_dir.empty()) return run_one_set(o, exec, o.test_dir);
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
  CommonOptions common;
  add_common_options(app, common);
  add_run_options(app, run);
  app.footer(R"(Commands (onnx-run COMMAND --help for each):
  run MODEL ...   the default: run a model
  info MODEL      what the model is and how onnx-run resolves it
  test PATH...    run every model test under PATH and report (JSON, JUnit, baselines)
  bench MODEL ... time repeated runs (onnx-run bench --help)

Examples:
  onnx-run model.onnx                          run every test_data_set_* beside the model and compare
  onnx-run model.onnx -i x=x.npy -o out --format npy   run on a numpy array, write out/output_0.npy
  onnx-run model.onnx -i 'x=[[-1,0],[1,2]]'    run on a literal; without inputs or test sets, on random data
  onnx-run model.onnx --shape x=1,3,224,224 --seed 7 --json   random input of a given shape, JSON report
  onnx-run model.onnx --expand-functions --print-graph   show LeakyRelu-16 expanded into its function body

Exit codes: 0 ok, 1 an output did not match, 2 usage error, 3 model or input rejected.)");
  std::vector<std::string> args = mark_list_args(argc, argv);  // keeps `-i [1,2]` whole
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  if (auto code = parse_args(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return *code;
  run.quiet = common.verbosity.quiet;
  apply_common_options(common);
  // -o files wait here until the run has succeeded, printing included (DESIGN.md, "Files:").
  OutputTransaction outputs;
  const int code = run_command(run);
  if (code == kExitOk || code == kExitMismatch) {
    if (std::fflush(stdout) != 0 && errno != EPIPE) fail(ErrorKind::kIo, "stdout: {}", std::strerror(errno));
    outputs.commit();
  }
  return code;
}

}  // namespace onnxrun::cli
