#include "suite/run_sinks.h"

#include <utility>

#include <fmt/format.h>

#include "io/output_names.h"
#include "io/streamed_outputs.h"
#include "io/value_dump.h"
#include "suite/compare.h"

namespace onnxrun {

std::vector<std::string> declared_shape_warnings(const Graph& g, const std::vector<ValueSpec>& outputs) {
  std::vector<std::string> lines;
  for (size_t k = 0; k < outputs.size() && k < g.outputs.size(); ++k)
    if (!shape_fits(g.outputs[k], outputs[k].shape))
      lines.push_back(fmt::format("graph output '{}' is declared {} but computed as {}{}", outputs[k].name,
                                  describe(g.outputs[k]), dtype_name(outputs[k].dtype),
                                  shape_to_string(outputs[k].shape)));
  return lines;
}

// One output's comparison with its expected value, block by block: with a whole expected
// tensor (read where it lies) or with an expected stream (a .pb file, read by pread at
// any offset, as often as asked), read a block at a time beside the output's, so that
// neither side is ever held whole. The medians of the errors keep a bounded number of
// them and want the blocks once more past that (begin_next_pass). A whole output is
// compared by compare_tensors, which passes over it again itself.
class OutputCheck {
 public:
  OutputCheck(ExpectedOutput expected, const ValueSpec& output, const Tolerance& tol)
      : expected_(std::move(expected)), output_(output), tol_(tol) {}

  void add(size_t begin, const Tensor& block) {
    if (!builder_) {
      const TensorStream* s = expected_.stream ? &*expected_.stream : nullptr;
      builder_.emplace(s ? ComparisonBuilder(s->dtype, s->shape, output_.dtype, output_.shape, tol_)
                         : ComparisonBuilder(expected_.whole, output_.dtype, output_.shape, tol_));
      comparable_ = !s || (s->dtype == output_.dtype && s->shape == output_.shape);
    }
    if (!expected_.stream) return builder_->add(static_cast<int64_t>(begin), block);
    if (!comparable_) return;  // the builder's problem: it reads nothing
    if (!buffer_.valid() || buffer_.nbytes() < block.nbytes()) buffer_ = Tensor(block.dtype(), block.shape());
    expected_.stream->read(begin * dtype_size(block.dtype()), buffer_.mutable_raw(), block.nbytes());
    builder_->add(static_cast<int64_t>(begin), Tensor(block.dtype(), block.shape(), buffer_.buffer()), block);
  }
  // An expected stream is read whole first (a test set's output_K.pb in a whole run).
  void add_whole(const Tensor& output, ThreadPool* pool) {
    if (expected_.stream) expected_.whole = read_whole(*std::exchange(expected_.stream, std::nullopt));
    whole_ = compare_tensors(expected_.whole, output, tol_, pool);
  }
  bool begin_next_pass() { return builder_ && builder_->begin_next_pass(); }
  Comparison finish() { return whole_ ? std::move(*whole_) : builder_->finish(); }

 private:
  ExpectedOutput expected_;
  ValueSpec output_;
  Tolerance tol_;
  std::optional<ComparisonBuilder> builder_;
  bool comparable_ = true;
  Tensor buffer_;  // the expected block, when streamed
  std::optional<Comparison> whole_;
};

RunSinks::RunSinks(const RunRequest& r, OutputSet* set, std::vector<ValueSpec> inputs, std::vector<ValueSpec> outputs,
                   std::vector<ExpectedOutput> expected)
    : r_(r), inputs_(std::move(inputs)), outputs_(std::move(outputs)), checks_(outputs_.size()) {
  for (size_t k = 0; k < expected.size() && k < outputs_.size(); ++k)
    if (expected[k].whole.valid() || expected[k].stream)
      checks_[k] =
          std::make_unique<OutputCheck>(std::move(expected[k]), outputs_[k], r.tol.for_output(outputs_[k].name));
  // --save-inputs, then -o: the inputs as the run reads them, the outputs as it makes them.
  if (!r.save_inputs_dir.empty())
    saved_inputs_ = std::make_unique<StreamedOutputs>(*set, r.format, r.save_inputs_dir, inputs_, TensorRole::kInputs);
  if (!r.output_dir.empty()) files_ = std::make_unique<StreamedOutputs>(*set, r.format, r.output_dir, outputs_);
}

RunSinks::~RunSinks() = default;  // files not finished: their temporaries go

BlockSinks RunSinks::block_sinks(ThreadPool* digest_pool) {
  BlockSinks sinks;
  if (r_.digests) {
    for (const ValueSpec& v : inputs_)
      in_digests_.push_back(std::make_unique<DigestBuilder>(v.dtype, v.shape, r_.print));
    for (const ValueSpec& v : outputs_)
      out_digests_.push_back(std::make_unique<DigestBuilder>(v.dtype, v.shape, r_.print));
    sinks.inputs_any_order = [this, digest_pool](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) in_digests_[k]->add(begin, blocks[k], digest_pool);
    };
    sinks.outputs_any_order = [this, digest_pool](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) out_digests_[k]->add(begin, blocks[k], digest_pool);
    };
  }
  if (saved_inputs_)
    sinks.inputs = [this](size_t, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) saved_inputs_->append(k, blocks[k].raw(), blocks[k].nbytes());
    };
  bool compared = false;
  for (const auto& c : checks_) compared |= c != nullptr;
  if (files_ || compared)
    sinks.outputs = [this](size_t begin, const std::vector<Tensor>& blocks) {
      for (size_t k = 0; k < blocks.size(); ++k) {
        if (checks_[k]) checks_[k]->add(begin, blocks[k]);
        if (files_) files_->append(k, blocks[k].raw(), blocks[k].nbytes());
      }
    };
  return sinks;
}

std::optional<BlockSinks> RunSinks::next_pass() {
  std::vector<bool> passing(checks_.size());
  bool any = false;
  for (size_t k = 0; k < checks_.size(); ++k) any |= passing[k] = checks_[k] && checks_[k]->begin_next_pass();
  if (!any) return std::nullopt;
  BlockSinks sinks;
  sinks.outputs = [this, passing](size_t begin, const std::vector<Tensor>& blocks) {
    for (size_t k = 0; k < blocks.size(); ++k)
      if (passing[k]) checks_[k]->add(begin, blocks[k]);
  };
  return sinks;
}

void RunSinks::add_whole(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs, ThreadPool* pool) {
  if (saved_inputs_)
    for (size_t k = 0; k < inputs.size(); ++k) saved_inputs_->append(k, inputs[k].raw(), inputs[k].nbytes());
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (checks_[k]) checks_[k]->add_whole(outputs[k], pool);
    if (files_) files_->append(k, outputs[k].raw(), outputs[k].nbytes());
  }
  if (!r_.digests) return;
  for (const Tensor& t : inputs) in_whole_.push_back(digest_of(t, r_.print, pool));
  for (const Tensor& t : outputs) out_whole_.push_back(digest_of(t, r_.print, pool));
}

void RunSinks::finish(SetRun& run) {
  if (saved_inputs_) saved_inputs_->finish();  // into the run's output set: they appear on its commit
  if (files_) files_->finish();
  if (r_.digests) {
    for (size_t k = 0; k < run.inputs.size(); ++k)
      run.inputs[k].digest = in_digests_.empty() ? std::move(in_whole_[k]) : in_digests_[k]->finish();
    for (size_t k = 0; k < run.outputs.size(); ++k)
      run.outputs[k].digest = out_digests_.empty() ? std::move(out_whole_[k]) : out_digests_[k]->finish();
  }
  for (size_t k = 0; k < outputs_.size(); ++k)
    if (checks_[k]) run.checks.push_back({outputs_[k].name, checks_[k]->finish()});
}

DumpSink::DumpSink(const RunRequest& r, const BlockPlan* plan)
    : plan_(plan), dump_(std::make_unique<ValueDump>(r.dump_dir, r.format)) {}

DumpSink::~DumpSink() = default;

void DumpSink::value(size_t begin, const std::string& name, const Tensor& t) {
  const BlockPlan::Value* v = plan_ ? &plan_->values.at(name) : nullptr;
  if (!v || !v->block_sized) {
    if (begin == 0) dump_->write(name, t);
    return;
  }
  if (begin == 0) dumping_[name] = dump_->begin_value(name, t.dtype(), v->shape);
  dump_->append(dumping_.at(name), t.raw(), t.nbytes());
}

size_t DumpSink::finish() {
  for (const auto& [name, id] : dumping_) dump_->end_value(id);
  return dump_->finish();
}

}  // namespace onnxrun
