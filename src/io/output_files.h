// Writing a run's outputs as DIR/output_<k>.pb, each a TensorProto named after its
// graph output (or, for --save-inputs, the inputs it used as DIR/input_<k>.pb). The folder is created if missing. Each file is written atomically, into
// the live OutputTransaction (io/output_transaction.h) when there is one; otherwise this
// call makes its own, so that the files appear together or, on any failure, not at all.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/tensor_file.h"

namespace onnxrun {

// Whose files a folder receives: a run's outputs (output_<k>.<ext>, outputs.npz), or the
// inputs it used (--save-inputs: input_<k>.<ext>, inputs.npz), so that `-i DIR/input_0.pb`
// or `--npz DIR/inputs.npz` runs them again.
enum class TensorRole { kOutputs, kInputs };

// DIR/output_<k><ext> or DIR/input_<k><ext>.
std::string numbered_file_path(const std::string& dir, TensorRole role, size_t k, const std::string& ext);
// DIR/outputs.npz or DIR/inputs.npz.
std::string bundle_file_path(const std::string& dir, TensorRole role);

// Creates `dir` (and its parents) if missing. Throws Error(kIo) when it cannot, or when
// `dir` is not a folder.
void make_output_dir(const std::string& dir);

// numbered_file_path(dir, role, k, ext) for k < count, each written by write_one(path, k),
// all or none as above. Returns the paths written.
std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const std::string&, size_t)>& write_one,
                                                TensorRole role = TensorRole::kOutputs);

// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors, TensorRole role = TensorRole::kOutputs);

}  // namespace onnxrun
