// Where one run's values go, whichever way the run goes (DESIGN.md, "Blocks are the
// pipeline"): the digests that printing and JSON read, each output's comparison with its
// expected value, the -o and --save-inputs files, and the --dump-intermediates folder. A
// run block by block (exec/block_run.h) hands them every block as it passes; a whole
// run hands them each value once, whole. The files are written by the same writers
// either way (io/streamed_outputs.h, io/value_dump.h), and the digests and comparisons
// come from one builder each (suite/value_digest.h, suite/compare.h), whose whole and
// block entries the tests hold to the same bits.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "exec/block_run.h"
#include "io/tensor_stream.h"
#include "suite/run_request.h"
#include "suite/value_digest.h"

namespace onnxrun {

class OutputSet;
class OutputCheck;
class StreamedOutputs;
class ThreadPool;
class ValueDump;

// One output's expected value: a stream, read a block at a time as the output's blocks
// pass (a test set's output_K.pb in a run block by block), or a whole tensor; neither:
// the output is not compared.
struct ExpectedOutput {
  Tensor whole;
  std::optional<TensorStream> stream;
};

// One line per output whose computed shape (`outputs`, graph order) is not the one `g`
// declares: the run still succeeds and writes it, as onnxruntime does, but says so.
std::vector<std::string> declared_shape_warnings(const Graph& g, const std::vector<ValueSpec>& outputs);

class RunSinks {
 public:
  // The sinks `r` asks for over these inputs and outputs (graph order). `expected`: one
  // per output, or empty. `set`: the run's output set, which receives the -o and
  // --save-inputs files; REQUIRES: not null when `r` asks for either. Opens every file
  // (Error(kIo) as StreamedOutputs does).
  RunSinks(const RunRequest& r, OutputSet* set, std::vector<ValueSpec> inputs, std::vector<ValueSpec> outputs,
           std::vector<ExpectedOutput> expected);
  ~RunSinks();
  RunSinks(const RunSinks&) = delete;
  RunSinks& operator=(const RunSinks&) = delete;

  // A run block by block: the sinks to hand run_in_blocks. `digest_pool` helps with the
  // digests' statistics (blocks run side by side on its threads take none of its help:
  // ThreadPool::in_job).
  // REQUIRES: this object outlives the run. Either this or add_whole, once.
  BlockSinks block_sinks(ThreadPool* digest_pool);
  // After a run block by block: the sinks of one more run over the same blocks, in order,
  // which only the checks whose medians want it take; nullopt when none does. Ask again
  // after each such run.
  std::optional<BlockSinks> next_pass();
  // A whole run: every input and output, once each, whole (the tensors of `inputs` and
  // `outputs` given to the constructor, in order).
  void add_whole(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs, ThreadPool* pool);
  // After every element: the files handed to the set, and the digests and checks into
  // `run`, whose inputs and outputs are these values, in order.
  void finish(SetRun& run);

 private:
  const RunRequest& r_;
  std::vector<ValueSpec> inputs_, outputs_;
  std::vector<std::unique_ptr<DigestBuilder>> in_digests_, out_digests_;  // blocks
  std::vector<ValueDigest> in_whole_, out_whole_;                         // a whole run's
  std::vector<std::unique_ptr<OutputCheck>> checks_;
  std::unique_ptr<StreamedOutputs> files_, saved_inputs_;
};

// --dump-intermediates, for either kind of run: every value the nodes produce, in the
// order a whole run produces them. Given a plan (a run block by block), a value of the
// blocks' size is streamed into its file from its first block to its last, and a value
// made from constants alone (the same in every block) written once; without, each value
// is written whole.
class DumpSink {
 public:
  DumpSink(const RunRequest& r, const BlockPlan* plan);
  ~DumpSink();
  void value(size_t begin, const std::string& name, const Tensor& t);
  // Ends the streamed values and writes values.tsv. Returns how many values were written.
  size_t finish();

 private:
  const BlockPlan* plan_;
  std::unique_ptr<ValueDump> dump_;
  std::map<std::string, size_t> dumping_;  // value name -> ValueDump id
};

}  // namespace onnxrun
