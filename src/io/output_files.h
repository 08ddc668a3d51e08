// Writing a run's outputs as DIR/output_<k>.pb, each a TensorProto named after its
// graph output. The folder is created if missing. Each file is written atomically, into
// the live OutputTransaction (io/output_transaction.h) when there is one; otherwise this
// call makes its own, so that the files appear together or, on any failure, not at all.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_file.h"

namespace onnxrun {

// Creates `dir` (and its parents) if missing. Throws Error(kIo) when it cannot, or when
// `dir` is not a folder.
void make_output_dir(const std::string& dir);

// DIR/output_<k><ext> for k < count, each written by write_one(path, k), all or none as
// above. Returns the paths written.
std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const std::string&, size_t)>& write_one);

// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors);

}  // namespace onnxrun
