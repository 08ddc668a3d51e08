#include "suite/run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "core/log.h"
#include "core/thread_pool.h"
#include "exec/executor.h"
#include "io/output_folder.h"
#include "io/output_set.h"
#include "io/streamed_outputs.h"
#include "io/tensor_file.h"
#include "io/tensor_format.h"
#include "io/tensor_literal.h"
#include "model/load.h"
#include "suite/expected_outputs.h"
#include "suite/feeds.h"
#include "suite/planned_graph.h"
#include "suite/run_log.h"
#include "suite/run_sinks.h"
#include "suite/streamed_run.h"
#include "suite/test_set.h"

namespace onnxrun {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

void check_request(const RunRequest& r) {
  if (!r.expected.empty() && r.source == FeedSource::kTestSets)
    fail(ErrorKind::kUsage,
         "--expected with the test data beside the model: a test set brings its own expected outputs (--expected "
         "is for inputs given with -i/--npz or made up: --random, or a model with no test data)");
  const bool one_run = r.source != FeedSource::kTestSets || r.test_sets.size() == 1;
  if (!one_run && !r.output_dir.empty())
    fail(ErrorKind::kUsage, "-o needs one run: the model has {} test sets; pick one with -d", r.test_sets.size());
  if (!one_run && !r.save_inputs_dir.empty())
    fail(ErrorKind::kUsage, "--save-inputs needs one run: the model has {} test sets; pick one with -d",
         r.test_sets.size());
  if (!one_run && !r.dump_dir.empty())
    fail(ErrorKind::kUsage, "--dump-intermediates needs one run: the model has {} test sets; pick one with -d",
         r.test_sets.size());
  // A dumped value is named after itself: one called output_0 or input_0 would be
  // replaced by -o's or --save-inputs' file of that name, and the dump would lie.
  for (const auto& [option, dir] : {std::pair{"-o", &r.output_dir}, std::pair{"--save-inputs", &r.save_inputs_dir}})
    if (!r.dump_dir.empty() && !dir->empty() && same_folder(r.dump_dir, *dir))
      fail(ErrorKind::kUsage, "--dump-intermediates {}: the folder of {} too; give the dump a folder of its own",
           r.dump_dir, option);
}

// The files the run reads, for the output files to keep off: the model and its
// initializers' external data, the inputs given as files, the .npz, the expected outputs
// (a folder's files), the test sets' inputs and outputs, and the external data of each
// tensor file among them.
std::vector<std::string> files_read(const RunRequest& r, const std::vector<std::string>& model_data) {
  std::vector<std::string> tensors;  // the tensor files given
  for (const std::string& arg : r.inputs)
    if (const std::string path = split_input_arg(arg).second; !is_tensor_literal(path)) tensors.push_back(path);
  for (const std::string& arg : r.expected) {
    const std::string path = split_input_arg(arg, "--expected").second;
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) tensors.push_back(path);
    else
      for (const auto& e : std::filesystem::directory_iterator(path, ec)) tensors.push_back(e.path().string());
  }
  for (const TestSetSpec& set : r.test_sets) {
    tensors.insert(tensors.end(), set.files.inputs.begin(), set.files.inputs.end());
    tensors.insert(tensors.end(), set.files.outputs.begin(), set.files.outputs.end());
  }
  std::vector<std::string> files = r.npz;
  files.push_back(r.model);
  files.insert(files.end(), model_data.begin(), model_data.end());
  files.insert(files.end(), tensors.begin(), tensors.end());
  for (const std::string& t : tensors)
    if (const std::string ext = std::filesystem::path(t).extension().string(); ext != ".npy" && ext != ".npz")
      if (std::string data = tensor_file_data_file(t); !data.empty()) files.push_back(std::move(data));
  return files;
}

// Expected tensors as the sinks take them (none, or one per output).
std::vector<ExpectedOutput> whole_expected(std::vector<Tensor> expected) {
  std::vector<ExpectedOutput> out(expected.size());
  for (size_t k = 0; k < expected.size(); ++k) out[k].whole = std::move(expected[k]);
  return out;
}

// The notice of a run on made-up inputs: what makes them again.
std::string made_up_notice(const RunRequest& r) {
  std::string ranges;
  for (const auto& [name, range] : r.ranges)
    ranges += fmt::format(", --range {}:{},{}", name, range.first, range.second);
  return fmt::format("no inputs given: made up random inputs (--seed {}, --range {},{}{})", r.seed, r.low, r.high,
                     ranges);
}

// Runs the graph whole on `bound` (which run.inputs shares, so that no kernel computes in
// an input's buffer), the dump watching each value; then hands every input and output to
// the run's sinks (suite/run_sinks.h) as one block: digests, checks against `expected`,
// and the -o and --save-inputs files, into `outputs`, the run's set.
void run_whole(const RunRequest& r, const Executor& exec, ThreadPool* pool, std::map<std::string, Tensor> bound,
               std::vector<ExpectedOutput> expected, SetRun& run, RunReport& report, OutputSet* outputs) {
  const Graph& g = exec.graph();
  std::optional<DumpSink> dump;
  if (!r.dump_dir.empty()) dump.emplace(r, nullptr);
  ValueObserver observer;
  if (dump) observer = [&](const std::string& name, const Tensor& t) { dump->value(0, name, t); };
  observer = traced(g, std::move(observer));
  const auto t0 = Clock::now();
  std::vector<Tensor> results = exec.run(std::move(bound), observer);
  run.run_ms = ms_since(t0);
  if (dump) {
    report.values_dumped = dump->finish();
    log::info("wrote {} values into {}", report.values_dumped, r.dump_dir);
  }
  std::vector<ValueSpec> in_specs, out_specs;
  std::vector<Tensor> inputs;
  for (const RunValue& v : run.inputs) {
    in_specs.push_back({v.name, v.tensor.dtype(), v.tensor.shape()});
    inputs.push_back(v.tensor);
  }
  for (size_t k = 0; k < results.size(); ++k) {
    out_specs.push_back({g.outputs[k].name, results[k].dtype(), results[k].shape()});
    run.outputs.push_back({g.outputs[k].name, results[k], "computed"});
  }
  run.warnings = declared_shape_warnings(g, out_specs);
  RunSinks sinks(r, outputs, std::move(in_specs), std::move(out_specs), std::move(expected));
  sinks.add_whole(inputs, results, pool);
  sinks.finish(run);
}

// A run that went block by block, as the log tells it.
void log_streamed(const RunRequest& r, const SetRun& run, size_t values_dumped) {
  if (run.block_lanes > 1)
    log::info("ran block by block ({} KiB blocks, {} side by side)", r.block_bytes >> 10, run.block_lanes);
  else log::info("ran block by block ({} KiB blocks)", r.block_bytes >> 10);
  if (run.block_passes > 1)
    log::info("read the inputs and ran the graph {} times, for the exact medians of more errors than are kept",
              run.block_passes);
  if (!r.dump_dir.empty()) log::info("wrote {} values into {}", values_dumped, r.dump_dir);
}

// One run on opened inputs: block by block when it can (suite/streamed_run.h), else the
// same inputs read whole. `open_inputs` opens them (again for a later pass of the
// medians); `expected` gives the expected outputs, once, before anything is written.
void run_inputs(const RunRequest& r, const Executor& exec, ThreadPool* pool,
                const std::function<std::vector<InputSource>()>& open_inputs,
                const std::function<std::vector<ExpectedOutput>()>& expected, SetRun& run, RunReport& report,
                OutputSet* outputs) {
  const auto t0 = Clock::now();
  std::vector<InputSource> inputs = open_inputs();
  if (run_streamed(r, exec, pool, inputs, open_inputs, expected, outputs, run, report.values_dumped)) {
    report.streamed = true;
    log_streamed(r, run, report.values_dumped);
    return;
  }
  GatheredInputs in = read_inputs(exec.graph(), std::move(inputs));
  run.input_ms = ms_since(t0);
  run.inputs = std::move(in.values);
  if (r.bench) report.bench = bench_executor(exec, in.bound, *r.bench);
  run_whole(r, exec, pool, std::move(in.bound), expected ? expected() : std::vector<ExpectedOutput>(), run, report,
            outputs);
}

void run_test_set(const RunRequest& r, const Executor& exec, ThreadPool* pool, const TestSetSpec& set, SetRun& run,
                  RunReport& report, OutputSet* outputs) {
  const Graph& g = exec.graph();
  run.label = set.label;
  run.dir = set.dir;
  try {
    run_inputs(
        r, exec, pool, [&] { return open_test_set_inputs(g, set.files); },
        [&] { return open_test_set_expected(g, set.files); }, run, report, outputs);
    log_timings(set.label, run.input_ms, run.run_ms);
    if (!r.keep_tensors) {  // `onnx-run test` holds one set's tensors at a time
      for (RunValue& v : run.inputs) v.tensor = Tensor();
      for (RunValue& v : run.outputs) v.tensor = Tensor();
    }
  } catch (const Error& e) {
    // A set that cannot be run is that set's result; files it wrote are the run's and
    // go when the report does.
    run = SetRun{};
    run.label = set.label;
    run.dir = set.dir;
    run.error = e;
  }
}

}  // namespace

const OutputVerdict* SetRun::check_for(const std::string& name) const {
  for (const OutputVerdict& c : checks)
    if (c.name == name) return &c;
  return nullptr;
}

Error SetRun::labelled_error() const { return label.empty() ? *error : error->with_context(label); }

bool SetRun::passed() const {
  if (error) return false;
  for (const OutputVerdict& c : checks)
    if (!c.comparison.ok) return false;
  return true;
}

std::string SetRun::mismatch_summary() const {
  std::vector<std::string> failed;
  for (const OutputVerdict& c : checks)
    if (!c.comparison.ok) failed.push_back(fmt::format("{}: {}", c.name, c.comparison.brief()));
  if (failed.empty()) return "";
  return fmt::format("{} of {} output{} differ{} ({})", failed.size(), checks.size(), checks.size() == 1 ? "" : "s",
                     failed.size() == 1 ? "s" : "", fmt::join(failed, "; "));
}

RunReport::RunReport() = default;
RunReport::RunReport(RunReport&&) noexcept = default;
RunReport& RunReport::operator=(RunReport&&) noexcept = default;
RunReport::~RunReport() = default;

std::string RunReport::mismatch_summary() const {
  if (source != FeedSource::kTestSets) return runs.empty() ? "" : runs[0].mismatch_summary();
  std::vector<const SetRun*> failed;
  for (const SetRun& s : runs)
    if (!s.error && !s.mismatch_summary().empty()) failed.push_back(&s);
  if (failed.empty()) return "";
  const std::string first = fmt::format("{}: {}", failed[0]->label, failed[0]->mismatch_summary());
  if (runs.size() == 1) return first;
  return fmt::format("{} of {} test sets failed ({}{})", failed.size(), runs.size(), first,
                     failed.size() > 1 ? fmt::format("; and {} more", failed.size() - 1) : "");
}

std::vector<std::string> RunReport::warnings() const {
  std::vector<std::string> lines;
  for (const SetRun& s : runs)
    for (const std::string& w : s.warnings)
      if (std::find(lines.begin(), lines.end(), w) == lines.end()) lines.push_back(w);
  return lines;
}

std::vector<std::string> RunReport::commit_outputs() {
  if (!outputs_) return {};
  std::vector<std::string> paths = outputs_->commit();
  outputs_.reset();
  for (const std::string& p : paths) log::info("wrote {}", p);
  return paths;
}

RunReport run_model(const RunRequest& r) {
  check_request(r);
  RunReport report;
  report.model = r.model;
  report.source = r.source;
  const auto t0 = Clock::now();
  LoadOptions load_options;
  load_options.expand_schema_functions = r.expand_functions;
  Model model = load_model(r.model, load_options);
  log_loaded(r.model, model, ms_since(t0));
  // Only a run that writes files needs them (each tensor file is opened once more for its
  // external data): a test's run does not pay for it.
  const bool writes = !r.output_dir.empty() || !r.save_inputs_dir.empty() || !r.dump_dir.empty();
  const std::vector<std::string> reads = writes ? files_read(r, model.data_files) : std::vector<std::string>{};
  ThreadPool pool(r.threads);
  report.threads = pool.size();
  Executor exec(std::move(model.graph), exec_options_for(r, &pool));
  report.load_ms = ms_since(t0);
  log_execution(exec, pool.size());
  const Graph& g = exec.graph();
  report.output_names = g.output_names();

  if (r.check_tolerance_names) check_tolerance_names(r.tol, report.output_names, "the model's outputs");

  // Output files are written under temporary names and appear only on commit; a folder
  // they cannot go to is refused before anything runs.
  if (!r.output_dir.empty())
    check_output_targets(r.format, r.output_dir, g.outputs.size(), TensorRole::kOutputs, reads, "-o");
  if (!r.save_inputs_dir.empty())
    check_output_targets(r.format, r.save_inputs_dir, g.required_inputs().size(), TensorRole::kInputs, reads,
                         "--save-inputs");
  // A dumped value is named after itself, so any file beside one the run reads could be
  // replaced: the dump needs a folder of its own here too, as beside -o's.
  if (!r.dump_dir.empty())
    for (const std::string& read : reads)
      if (const std::filesystem::path in = std::filesystem::path(read).parent_path();
          same_folder(in.empty() ? "." : in.string(), r.dump_dir))
        fail(ErrorKind::kUsage,
             "--dump-intermediates {}: the folder of {}, a file this run reads; give the dump a folder of its own",
             r.dump_dir, read);
  // The run's output set: every file it writes for -o and --save-inputs goes into it.
  if (!r.output_dir.empty() || !r.save_inputs_dir.empty()) report.outputs_ = std::make_unique<OutputSet>();

  if (r.source == FeedSource::kTestSets) {
    // Judged with the data.json beside the model over the command line's tolerance, in
    // every door that runs test sets (a copy of the request: small beside the run).
    RunRequest judged = r;
    judged.tol = test_set_tolerance(r.model, r.tol, report.output_names);
    for (const TestSetSpec& set : r.test_sets) {
      report.runs.emplace_back();
      run_test_set(judged, exec, &pool, set, report.runs.back(), report, report.outputs_.get());
    }
    return report;
  }

  // Read before anything runs: a bad file stops the run with nothing written.
  std::vector<Tensor> expected = r.expected.empty() ? std::vector<Tensor>() : read_expected_outputs(g, r.expected);
  report.runs.emplace_back();
  SetRun& run = report.runs.back();
  const bool made_up = r.source == FeedSource::kRandom;
  if (made_up && !g.required_inputs().empty()) report.notice = made_up_notice(r);
  run_inputs(
      r, exec, &pool, [&] { return made_up ? made_up_inputs(g, r) : open_given_inputs(g, r); },
      [&] { return whole_expected(std::move(expected)); }, run, report, report.outputs_.get());
  if (!report.streamed) log_timings(made_up ? "made-up inputs" : "given inputs", run.input_ms, run.run_ms);
  return report;
}

}  // namespace onnxrun
