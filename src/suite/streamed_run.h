// The run pipeline's block path (suite/run.h): a run on given input files or a test set
// of a pointwise graph, read, computed, summarised, compared and written block by block
// (exec/block_run.h) into the run's sinks (suite/run_sinks.h), so it costs about what
// copying the files does and holds a few blocks whatever their size. Every door that runs on files comes here first: printing,
// -q, --json, -o in each format, --dump-intermediates, --expected, -d and `onnx-run test`;
// the digests and verdicts it makes are the ones a whole-tensor run makes, bit for bit.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "exec/executor.h"
#include "suite/feeds.h"
#include "suite/run_request.h"
#include "suite/run_sinks.h"

namespace onnxrun {

class OutputSet;
class ThreadPool;

// Runs `r` on `inputs` (open_given_inputs, open_test_set_inputs, made_up_inputs) block by
// block when it can, filling `run` (values without tensors, with digests when asked for,
// and the checks) and, for --dump-intermediates, `values_dumped`; true then.
// False, having read and written nothing, when the run is not of that kind: an input in
// memory already (made up, a literal, a typed-field TensorProto read whole:
// io/tensor_stream.h), inputs of different shapes, a graph that is not pointwise
// (plan_block_run), a caller that wants the tensors, a --full print of a large tensor,
// bench; and, unless r.path is kBlocks, inputs too small for it to matter. The caller
// then reads `inputs` whole.
// `reopen` opens the same inputs again, for a later pass of the medians of the errors.
// `expected` (--expected, or the test set's outputs; empty for none) is called once the
// run is sure to go block by block, before anything is written: one per graph output;
// the outputs are compared with them block by block, as compare_tensors would.
// `outputs`: the run's output set (io/output_set.h), which receives the files of -o and
// --save-inputs; REQUIRES: not null when the request asks for either.
bool run_streamed(const RunRequest& r, const Executor& exec, ThreadPool* pool, const std::vector<InputSource>& inputs,
                  const std::function<std::vector<InputSource>()>& reopen,
                  const std::function<std::vector<ExpectedOutput>()>& expected, OutputSet* outputs, SetRun& run,
                  size_t& values_dumped);

}  // namespace onnxrun
