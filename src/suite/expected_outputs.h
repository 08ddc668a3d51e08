// The expected outputs of a run on given or made-up inputs (--expected): each argument
// a result set (an .npz, a folder of output_K.pb or NAME.npy files, one file; see
// io/result_files.h) or NAME=FILE for one output. Tensors bind to the graph's outputs by
// name, else by position, as a test set's output_K.pb files do.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "model/graph.h"

namespace onnxrun {

// One per graph output, in output order; !valid() for an output nothing was given for
// (it is not compared). Throws Error(kInput) for a name that is no output, an output
// given twice, or more tensors than outputs; Error(kUsage) for a malformed NAME=FILE;
// what read_result_files throws.
std::vector<Tensor> read_expected_outputs(const Graph& g, const std::vector<std::string>& args);

}  // namespace onnxrun
