// Writing a run's outputs as DIR/output_<k>.pb, each a TensorProto named after its
// graph output. The folder is created if missing. Each file is written atomically, and
// if any write fails the files already written by this call are removed, so a failed
// run leaves no outputs behind.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors);

}  // namespace onnxrun
