// The inputs of a run, opened: `-i [NAME=]FILE|LIST` arguments and --npz archives (a
// test set's input_K.pb files: suite/test_set.h), each a source (io/tensor_stream.h) with the Feed that binds it
// to a graph input. A run reads them block by block (suite/streamed_run.h) or whole
// (read_inputs), the same sources either way. Made-up inputs are sources in memory.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "exec/bind.h"
#include "io/tensor_stream.h"
#include "model/graph.h"

namespace onnxrun {

struct RunRequest;
struct RunValue;

// One input as opened: its data, and a Feed of its type and shape that binds it (a
// placeholder whose buffer is never read: bind_inputs checks types and shapes only).
struct InputSource {
  TensorStream stream;
  Feed feed;
  std::string source;  // for the report: the file, or "literal"
};

// `stream` bound as a Feed would bind it (by `name`, else by `position`); `origin` names
// it in messages, `source` in the report.
InputSource input_source(TensorStream stream, std::string name, size_t position, std::string origin,
                         std::string source);

struct GatheredInputs {
  std::map<std::string, Tensor> bound;  // as bind_inputs returns them
  std::vector<RunValue> values;         // the same, in graph input order, with sources
};

// request.inputs, then request.npz's members. A literal is typed and shaped by the graph
// input it binds to, or by request.shapes. Throws Error(kUsage) for malformed arguments,
// Error(kInput) for a literal no input takes, and what the readers throw for a file.
std::vector<InputSource> open_given_inputs(const Graph& g, const RunRequest& request);

// The inputs read whole and bound. Throws Error(kInput) for inputs that do not fit the
// graph (bind_inputs).
GatheredInputs read_inputs(const Graph& g, std::vector<InputSource> inputs);

// Made up from request.shapes, seed, low and high (exec/random_inputs.h): one in-memory
// source per required input, bound by its name.
std::vector<InputSource> made_up_inputs(const Graph& g, const RunRequest& request);

// The type declared for the input a feed binds to: the one `name` names, else the
// required input at `position`; nullopt when there is none or it has no type. Given to
// the readers, which type numpy's bfloat16 bits by it (io/npy.h).
std::optional<DType> declared_input_type(const Graph& g, const std::string& name, size_t position);

// "-i [NAME=]VALUE" as {NAME or "", VALUE}; see suite/run.h. `option` names the option
// in the message for a malformed argument (Error(kUsage)).
std::pair<std::string, std::string> split_input_arg(const std::string& arg, const char* option = "-i");

}  // namespace onnxrun
