// The inputs of a run on given or made-up data: `-i [NAME=]FILE|LIST` arguments and
// --npz archives read and bound to the graph's inputs, or inputs made up from the
// declared types and shapes. Test sets read their own (suite/test_set.h).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

struct RunRequest;
struct RunValue;

struct GatheredInputs {
  std::map<std::string, Tensor> bound;  // as bind_inputs returns them
  std::vector<RunValue> values;         // the same, in graph input order, with sources
};

// From request.inputs and request.npz. Throws Error(kInput) for inputs that do not fit
// the graph (bind_inputs), Error(kUsage) for malformed arguments.
GatheredInputs given_inputs(const Graph& g, const RunRequest& request);

// Made up from request.shapes, seed, low and high (exec/random_inputs.h).
GatheredInputs made_up_inputs(const Graph& g, const RunRequest& request);

// The type declared for the input a feed binds to: the one `name` names, else the
// required input at `position`; nullopt when there is none or it has no type. Given to
// the readers, which type numpy's bfloat16 bits by it (io/npy.h).
std::optional<DType> declared_input_type(const Graph& g, const std::string& name, size_t position);

// "-i [NAME=]VALUE" as {NAME or "", VALUE}; see suite/run.h. `option` names the option
// in the message for a malformed argument (Error(kUsage)).
std::pair<std::string, std::string> split_input_arg(const std::string& arg, const char* option = "-i");

}  // namespace onnxrun
