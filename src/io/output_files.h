// Writing a run's outputs as DIR/output_<k>.pb, each a TensorProto named after its
// graph output. The folder is created if missing. Each file is written atomically, into
// the live OutputTransaction (io/output_transaction.h) when there is one; otherwise this
// call makes its own, so that the files appear together or, on any failure, not at all.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_file.h"

namespace onnxrun {

// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors);

// DIR/output_0.pb for a graph with one output whose data is produced in order by
// `produce` (see write_tensor_file_streamed). Returns the path written.
std::string write_streamed_output_file(const std::string& dir, const std::string& name, DType dtype,
                                       const Shape& shape, const std::function<void(const ByteSink&)>& produce);

}  // namespace onnxrun
