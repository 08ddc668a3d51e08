#include "suite/streamed_run.h"

#include <chrono>
#include <map>
#include <optional>

#include "core/fail.h"
#include "core/thread_pool.h"
#include "exec/bind.h"
#include "exec/block_run.h"
#include "suite/run_sinks.h"

namespace onnxrun {
namespace {

using Clock = std::chrono::steady_clock;

// From one block of input up, blocks pay: each passes from the file through the kernels
// to the comparison in the caches, where a whole run writes and reads back every tensor
// (`onnx-run test` over 1e6-float sets: -j 1 54 ms against 60 ms whole, -j 2 31 ms
// against 36 ms; docs/perf.md). Below, one block is the whole tensor: a whole run is
// the same work.
constexpr size_t kStreamMinBytes = kRunBlockBytes;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

bool run_streamed(const RunRequest& r, const Executor& exec, ThreadPool* pool, const std::vector<InputSource>& feeds,
                  const std::function<std::vector<InputSource>()>& reopen,
                  const std::function<std::vector<ExpectedOutput>()>& read_expected, OutputSet* outputs, SetRun& run,
                  size_t& values_dumped) {
  const Graph& g = exec.graph();
  if (r.path == ExecPath::kWhole || r.keep_tensors || r.bench || !can_run_in_blocks(g)) return false;
  const auto t0 = Clock::now();
  if (feeds.empty()) return false;
  for (const InputSource& f : feeds)
    if (f.stream.held) return false;  // read whole already: blocks would gain nothing

  // Bind as a whole run would (same checks, same messages), then match streams to inputs.
  std::vector<Feed> to_bind;
  for (const InputSource& f : feeds) to_bind.push_back(f.feed);
  const std::map<std::string, Tensor> bound = bind_inputs(g, std::move(to_bind));
  std::vector<BlockInput> inputs;
  std::vector<std::pair<std::string, DType>> signature;
  std::vector<const InputSource*> feed_of;
  const Shape shape = feeds.front().feed.tensor.shape();
  size_t bytes = 0;
  for (const ValueInfo* v : g.required_inputs()) {
    const Tensor& placeholder = bound.at(v->name);
    const InputSource* f = nullptr;
    for (const InputSource& c : feeds)
      if (c.feed.tensor.buffer() == placeholder.buffer()) f = &c;
    if (!f || placeholder.shape() != shape) return false;  // broadcasting between inputs: whole
    inputs.push_back({v->name, placeholder.dtype(), f->stream.read, f->stream.any_order});
    signature.emplace_back(v->name, placeholder.dtype());
    feed_of.push_back(f);
    bytes += placeholder.nbytes();
  }
  if (r.path == ExecPath::kAuto && bytes < kStreamMinBytes) return false;
  if (r.digests && checked_numel(shown_shape(shape, r.print)) > kMaxShownElements) return false;
  const std::optional<BlockPlan> plan = plan_block_run(exec, signature, shape);
  if (!plan) return false;
  if (r.digests)
    for (const Shape& s : plan->output_shapes)
      if (checked_numel(shown_shape(s, r.print)) > kMaxShownElements) return false;

  // Sure to go block by block now: the expected outputs, opened before anything is written.
  std::vector<ExpectedOutput> expected = read_expected ? read_expected() : std::vector<ExpectedOutput>();
  std::vector<ValueSpec> in_specs, out_specs;
  for (const BlockInput& in : inputs) in_specs.push_back({in.name, in.dtype, shape});
  for (size_t k = 0; k < g.outputs.size(); ++k)
    out_specs.push_back({g.outputs[k].name, plan->output_dtypes[k], plan->output_shapes[k]});
  run.warnings = declared_shape_warnings(g, out_specs);
  RunSinks run_sinks(r, outputs, in_specs, out_specs, std::move(expected));
  std::optional<DumpSink> dump;
  if (!r.dump_dir.empty()) dump.emplace(r, &*plan);
  // With more than one thread, run_in_blocks runs blocks side by side, one per thread of
  // the pool, unless an input must be read in order or values are dumped in order; their
  // statistics are then taken on each block's own thread (the pool splits nothing inside
  // its own job: ThreadPool::in_job).
  BlockSinks sinks = run_sinks.block_sinks(pool);
  if (dump) sinks.value = [&](size_t begin, const std::string& name, const Tensor& t) { dump->value(begin, name, t); };
  run.block_lanes = run_in_blocks(exec, *plan, inputs, r.block_bytes, sinks, pool);
  run.block_passes = 1;
  // Past a million errors of an output, its exact medians want its blocks once more: the
  // input files are opened and read again (a stream passes once: an .npz member checks
  // its CRC-32 at the end) and the graph run again, for the checks alone, so that memory
  // stays bounded.
  while (std::optional<BlockSinks> more = run_sinks.next_pass()) {
    const std::vector<InputSource> reopened = reopen();
    if (reopened.size() != feeds.size()) fail(ErrorKind::kIo, "the input files changed during the run");
    for (size_t k = 0; k < inputs.size(); ++k)
      inputs[k].read = reopened[static_cast<size_t>(feed_of[k] - feeds.data())].stream.read;
    run_in_blocks(exec, *plan, inputs, r.block_bytes, *more, pool);
    ++run.block_passes;
  }
  if (dump) values_dumped = dump->finish();
  for (size_t k = 0; k < inputs.size(); ++k) run.inputs.push_back({inputs[k].name, Tensor(), feed_of[k]->source, {}});
  for (const ValueInfo& v : g.outputs) run.outputs.push_back({v.name, Tensor(), "computed", {}});
  run_sinks.finish(run);
  run.run_ms = ms_since(t0);
  return true;
}

}  // namespace onnxrun
