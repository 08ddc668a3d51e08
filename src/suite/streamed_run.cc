#include "suite/streamed_run.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "core/thread_pool.h"
#include "exec/bind.h"
#include "exec/block_run.h"
#include "io/streamed_outputs.h"
#include "io/tensor_file.h"
#include "io/tensor_literal.h"
#include "io/tensor_stream.h"
#include "io/value_dump.h"
#include "suite/feeds.h"
#include "suite/test_set.h"

namespace onnxrun {
namespace {

using Clock = std::chrono::steady_clock;

// Below this much input a whole run costs the same: not worth the plan's probe runs.
constexpr size_t kStreamMinBytes = size_t{4} << 20;

struct StreamFeed {
  TensorStream stream;
  Feed feed;           // the stream's type and shape, for binding (no data)
  std::string source;  // for the report: the file
};

// A Feed of the stream's type and shape (as a whole read of its file would give it) whose
// buffer is never read: bind_inputs checks types and shapes only.
Feed placeholder_feed(const TensorStream& s, std::string name, size_t position, std::string origin) {
  Feed f;
  f.name = std::move(name);
  f.position = position;
  f.origin = std::move(origin);
  f.tensor = Tensor(s.dtype, s.shape, Buffer::borrow(nullptr, s.nbytes(), nullptr, false));
  return f;
}

// The streams of a test set's input_K.pb files, bound as read_test_set binds them (by
// TensorProto name when it names a graph input, else by position), or nullopt when one
// of them cannot be streamed.
std::optional<std::vector<StreamFeed>> open_test_set_feeds(const Graph& g, const TestSetFiles& files) {
  std::vector<StreamFeed> feeds;
  for (size_t k = 0; k < files.inputs.size(); ++k) {
    std::optional<TensorStream> s = open_tensor_stream(files.inputs[k]);
    if (!s) return std::nullopt;
    const std::string file = std::filesystem::path(files.inputs[k]).filename().string();
    Feed f = placeholder_feed(*s, test_set_input_name(g, s->name), k, file);
    feeds.push_back({std::move(*s), std::move(f), file});
  }
  return feeds;
}

// The streams for -i and --npz, or nullopt when one of them cannot be streamed.
std::optional<std::vector<StreamFeed>> open_feeds(const Graph& g, const RunRequest& r) {
  std::vector<StreamFeed> feeds;
  for (size_t k = 0; k < r.inputs.size(); ++k) {
    const auto [name, value] = split_input_arg(r.inputs[k]);
    if (is_tensor_literal(value)) return std::nullopt;
    std::optional<TensorStream> s = open_tensor_stream(value, declared_input_type(g, name, k));
    if (!s) return std::nullopt;
    Feed f = placeholder_feed(*s, name, k, "-i " + r.inputs[k]);
    feeds.push_back({std::move(*s), std::move(f), value});
  }
  for (const std::string& path : r.npz) {
    std::optional<std::vector<TensorStream>> members =
        open_npz_streams(path, [&](const std::string& member) { return declared_input_type(g, member, 0); });
    if (!members) return std::nullopt;
    for (TensorStream& s : *members) {
      Feed f = placeholder_feed(s, s.name, 0, "--npz " + path);
      feeds.push_back({std::move(s), std::move(f), path});
    }
  }
  return feeds;
}

// One output compared as its blocks pass, which they do once: with a whole expected
// tensor (read where it lies), or with an expected stream, read a block at a time beside
// the output's, so that neither side is ever held whole.
class OutputCheck {
 public:
  OutputCheck(ExpectedOutput expected, DType dtype, const Shape& shape, const Tolerance& tol)
      : whole_(std::move(expected.whole)),
        stream_(std::move(expected.stream)),
        builder_(stream_ ? ComparisonBuilder(stream_->dtype, stream_->shape, dtype, shape, tol)
                         : ComparisonBuilder(whole_, dtype, shape, tol)),
        comparable_(!stream_ || (stream_->dtype == dtype && stream_->shape == shape)) {
    builder_.keep_errors(0);
  }
  void add(size_t begin, const Tensor& block) {
    if (!stream_) return builder_.add(static_cast<int64_t>(begin), block);
    if (!comparable_) return;  // the builder's problem: it reads nothing
    if (!buffer_.valid() || buffer_.nbytes() < block.nbytes()) buffer_ = Tensor(block.dtype(), block.shape());
    stream_->read(begin * dtype_size(block.dtype()), buffer_.mutable_raw(), block.nbytes());
    builder_.add(static_cast<int64_t>(begin), Tensor(block.dtype(), block.shape(), buffer_.buffer()), block);
  }
  Comparison finish() { return builder_.finish(); }

 private:
  Tensor whole_;  // kept alive for the builder, which reads it
  std::optional<TensorStream> stream_;
  ComparisonBuilder builder_;
  bool comparable_;
  Tensor buffer_;  // the expected block, when streamed
};

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

std::vector<ExpectedOutput> open_test_set_expected(const Graph& g, const TestSetFiles& files) {
  test_set_output_slots(g, files);
  std::vector<ExpectedOutput> opened;
  std::vector<std::string> names;
  for (const std::string& path : files.outputs) {
    ExpectedOutput e;
    if ((e.stream = open_tensor_stream(path))) {
      names.push_back(e.stream->name);
    } else {
      NamedTensor nt = read_tensor_file(path, true, /*any_alignment=*/true);
      e.whole = std::move(nt.tensor);
      names.push_back(nt.name);
    }
    opened.push_back(std::move(e));
  }
  const std::vector<size_t> slot = test_set_output_slots(g, files, names);
  std::vector<ExpectedOutput> expected(g.outputs.size());
  for (size_t k = 0; k < opened.size(); ++k) expected[slot[k]] = std::move(opened[k]);
  return expected;
}

bool run_streamed(const RunRequest& r, const Executor& exec, ThreadPool* pool, const TestSetSpec* set,
                  const std::function<std::vector<ExpectedOutput>()>& read_expected, OutputSet* outputs, SetRun& run,
                  size_t& values_dumped) {
  const Graph& g = exec.graph();
  if (r.source == FeedSource::kRandom || r.path == ExecPath::kWhole || r.keep_tensors || r.bench ||
      !can_run_in_blocks(g))
    return false;
  const auto t0 = Clock::now();
  std::optional<std::vector<StreamFeed>> feeds = set ? open_test_set_feeds(g, set->files) : open_feeds(g, r);
  if (!feeds || feeds->empty()) return false;

  // Bind as a whole run would (same checks, same messages), then match streams to inputs.
  std::vector<Feed> to_bind;
  for (const StreamFeed& f : *feeds) to_bind.push_back(f.feed);
  const std::map<std::string, Tensor> bound = bind_inputs(g, std::move(to_bind));
  std::vector<BlockInput> inputs;
  std::vector<std::pair<std::string, DType>> signature;
  std::vector<const StreamFeed*> feed_of;
  const Shape shape = feeds->front().feed.tensor.shape();
  size_t bytes = 0;
  for (const ValueInfo* v : g.required_inputs()) {
    const Tensor& placeholder = bound.at(v->name);
    const StreamFeed* f = nullptr;
    for (const StreamFeed& c : *feeds)
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

  std::deque<DigestBuilder> in_digests, out_digests;  // not movable: they may be fed from several threads
  if (r.digests) {
    for (const BlockInput& in : inputs) in_digests.emplace_back(in.dtype, shape, r.print);
    for (size_t k = 0; k < plan->output_dtypes.size(); ++k)
      out_digests.emplace_back(plan->output_dtypes[k], plan->output_shapes[k], r.print);
  }
  std::vector<std::unique_ptr<OutputCheck>> checks(g.outputs.size());
  for (size_t k = 0; k < expected.size() && k < g.outputs.size(); ++k)
    if (expected[k].whole.valid() || expected[k].stream)
      checks[k] = std::make_unique<OutputCheck>(std::move(expected[k]), plan->output_dtypes[k], plan->output_shapes[k],
                                                r.tol.for_output(g.outputs[k].name));
  const bool compared = std::any_of(checks.begin(), checks.end(), [](const auto& c) { return c != nullptr; });
  std::optional<StreamedOutputs> files;
  if (!r.output_dir.empty()) {
    std::vector<std::string> names;
    for (const ValueInfo& v : g.outputs) names.push_back(v.name);
    files.emplace(*outputs, r.format, r.output_dir, names, plan->output_dtypes, plan->output_shapes);
  }
  // --save-inputs: the input blocks as they are read, byte for byte what a whole run saves.
  std::optional<StreamedOutputs> saved_inputs;
  if (!r.save_inputs_dir.empty()) {
    std::vector<std::string> names;
    std::vector<DType> dtypes;
    for (const BlockInput& in : inputs) {
      names.push_back(in.name);
      dtypes.push_back(in.dtype);
    }
    saved_inputs.emplace(*outputs, r.format, r.save_inputs_dir, names, dtypes, std::vector<Shape>(inputs.size(), shape),
                         TensorRole::kInputs);
  }
  // --dump-intermediates: each value of the blocks' size streamed into its file, begun
  // at the first block (so values.tsv lists them in the order a whole run produces them);
  // a constant's value written once.
  std::optional<ValueDump> dump;
  std::map<std::string, size_t> dumping;  // value name -> ValueDump id
  if (!r.dump_dir.empty()) dump.emplace(r.dump_dir, r.format);
  BlockSinks sinks;
  if (dump)
    sinks.value = [&](size_t begin, const std::string& name, const Tensor& t) {
      const BlockPlan::Value& v = plan->values.at(name);
      if (!v.block_sized) {
        if (begin == 0) dump->write(name, t);
        return;
      }
      if (begin == 0) dumping[name] = dump->begin_value(name, t.dtype(), v.shape);
      dump->append(dumping.at(name), t.raw(), t.nbytes());
    };
  // With more than one thread, blocks are run side by side, one per thread (run_in_blocks'
  // lanes), unless an input must be read in order or values are dumped in order; their
  // statistics are then taken on each block's own thread, without the pool.
  const unsigned lanes = pool && can_run_side_by_side(inputs, dump.has_value()) ? pool->size() : 1;
  ThreadPool* const digest_pool = lanes > 1 ? nullptr : pool;
  if (r.digests) {
    sinks.inputs_any_order = [&](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) in_digests[k].add(begin, blocks[k], digest_pool);
    };
    sinks.outputs_any_order = [&](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) out_digests[k].add(begin, blocks[k], digest_pool);
    };
  }
  if (saved_inputs)
    sinks.inputs = [&](size_t, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) saved_inputs->append(k, blocks[k].raw(), blocks[k].nbytes());
    };
  if (files || compared)
    sinks.outputs = [&](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) {
        if (checks[k]) checks[k]->add(begin, blocks[k]);
        if (files) files->append(k, blocks[k].raw(), blocks[k].nbytes());
      }
    };
  run.block_lanes = run_in_blocks(exec, *plan, inputs, r.block_bytes, sinks, lanes);
  if (dump) {
    for (const auto& [name, id] : dumping) dump->end_value(id);
    values_dumped = dump->finish();
  }
  if (saved_inputs) saved_inputs->finish();
  if (files) files->finish();  // into the run's output set: they appear on its commit
  run.run_ms = ms_since(t0);

  for (size_t k = 0; k < inputs.size(); ++k) {
    RunValue v{inputs[k].name, Tensor(), feed_of[k]->source, {}};
    if (r.digests) v.digest = in_digests[k].finish();
    run.inputs.push_back(std::move(v));
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    RunValue v{g.outputs[k].name, Tensor(), "computed", {}};
    if (r.digests) v.digest = out_digests[k].finish();
    run.outputs.push_back(std::move(v));
    if (checks[k]) run.checks.push_back({g.outputs[k].name, checks[k]->finish()});
  }
  return true;
}

}  // namespace onnxrun
