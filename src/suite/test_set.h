// Opening one ONNX test set for a model: its input_K.pb files bound to the graph's
// inputs (by TensorProto name when it names a graph input, else by position K), and
// its output_K.pb files matched to the graph's outputs (by name, else in order), each
// a source (io/tensor_stream.h) whose data is read as the run goes. Running and
// comparing is the run pipeline's (suite/run.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/graph.h"
#include "suite/feeds.h"
#include "suite/run_sinks.h"
#include "suite/tolerance.h"

namespace onnxrun {

struct TestSetFiles;

// Throw what the readers throw for an unreadable or invalid file; the caller names the
// set (Error::with_context). Inputs that do not fit are bind_inputs' to refuse.
std::vector<InputSource> open_test_set_inputs(const Graph& g, const TestSetFiles& files);
// One per graph output, in graph output order; also Error(kInvalid) when the files are
// not one per output.
std::vector<ExpectedOutput> open_test_set_expected(const Graph& g, const TestSetFiles& files);

// The graph output each of a test set's output files holds, from the files' TensorProto
// names (`names`, in file order): by name, else in order. Throws Error(kInvalid) when
// the files are not one per output.
std::vector<size_t> test_set_output_slots(const Graph& g, const TestSetFiles& files,
                                          const std::vector<std::string>& names);

// The input a test set's TensorProto named `proto_name` binds by name: that name when it
// is a graph input, else "" (bound by position): old exporters leave names empty or stale.
std::string test_set_input_name(const Graph& g, const std::string& proto_name);

// The data.json at `file`, its text; nullopt where there is no entry of that name. One that
// is there in any form but is no readable regular file (a dangling symbolic link, a folder,
// a FIFO, no read permission) throws Error(kIo) naming it and why: ignored, the test sets
// it speaks for would be judged with the looser command-line tolerance without a word.
// Never blocks (a FIFO is refused unopened for reading: io/read_open.h).
std::optional<std::string> read_data_json(const std::string& file);

// The tolerance the test sets of `model` are judged with, the same in every door that
// runs them (test-set mode, -d, `onnx-run test`): `base`, the command line's, overridden
// by "rtol" and "atol" in the data.json beside the model when there is one, each a
// number for every output or {"NAME": number} per output. Throws what read_data_json
// throws, Error(kInvalid) for a data.json that is not valid JSON or holds a tolerance that is not a non-negative
// number, and Error(kUsage) for a NAME that is none of the model's `outputs`: a typo would
// leave that output at the command line's tolerance without a word.
Tolerance test_set_tolerance(const std::string& model, Tolerance base, const std::vector<std::string>& outputs);

}  // namespace onnxrun
