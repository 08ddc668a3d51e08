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

// numpy has no bfloat16: a uint16 array read from a .npy file or an .npz archive (`file`)
// and fed to an input declared bfloat16 carries its bits (io/npy.h), and comes back so
// retyped. The input is the one `name` binds to, else the required input at `position`.
// Any other tensor comes back as it is (a .pb says its own type).
Tensor numpy_bfloat16_as_declared(const Graph& g, const std::string& file, Tensor t, const std::string& name,
                                  size_t position);

// "-i [NAME=]VALUE" as {NAME or "", VALUE}; see suite/run.h. `option` names the option
// in the message for a malformed argument (Error(kUsage)).
std::pair<std::string, std::string> split_input_arg(const std::string& arg, const char* option = "-i");

}  // namespace onnxrun
