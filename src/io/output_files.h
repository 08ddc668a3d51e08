// Writing a run's outputs as DIR/output_<k>.pb, each a TensorProto named after its
// graph output (or, for --save-inputs, the inputs it used as DIR/input_<k>.pb). The
// folder is created if missing and opened once (io/output_folder.h): each name's entry is
// replaced, never followed. Each file is written atomically, into
// the live OutputTransaction (io/output_transaction.h) when there is one; otherwise this
// call makes its own, so that the files appear together or, on any failure, not at all.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/output_folder.h"
#include "io/tensor_file.h"

namespace onnxrun {

// Whose files a folder receives: a run's outputs (output_<k>.<ext>, outputs.npz), or the
// inputs it used (--save-inputs: input_<k>.<ext>, inputs.npz), so that `-i DIR/input_0.pb`
// or `--npz DIR/inputs.npz` runs them again.
enum class TensorRole { kOutputs, kInputs };

// output_<k><ext> or input_<k><ext>.
std::string numbered_file_name(TensorRole role, size_t k, const std::string& ext);
// outputs.npz or inputs.npz.
std::string bundle_file_name(TensorRole role);

// numbered_file_name(role, k, ext) in `dir` (make_output_folder) for k < count, each
// written by write_one(target, k), all or none as above. Returns the paths written.
std::vector<std::string> write_numbered_outputs(const std::string& dir, const std::string& ext, size_t count,
                                                const std::function<void(const WriteTarget&, size_t)>& write_one,
                                                TensorRole role = TensorRole::kOutputs);

// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_output_files(const std::string& dir, const std::vector<std::string>& names,
                                            const std::vector<Tensor>& tensors, TensorRole role = TensorRole::kOutputs);

}  // namespace onnxrun
