// Writing a run's tensors as files in a folder: -o's outputs (output_<k>.pb, .npy, or one
// outputs.npz; a TensorProto is named after its graph output, an .npz member keyed by
// it) and --save-inputs' inputs (input_<k>..., inputs.npz), named by io/output_names.h.
// The folder is created if missing and opened once (io/output_folder.h): each name's
// entry is replaced, never followed. Every file is written atomically into the caller's
// OutputSet (io/output_set.h): it appears when the set commits, with the run's other
// files, or, when the run fails, not at all.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/output_folder.h"
#include "io/output_names.h"
#include "io/tensor_format.h"

namespace onnxrun {

class OutputSet;

// The tensors in `format` into `dir`, their files in `set` (see above), each tensor one
// block of io/streamed_outputs.h's writers; Error(kIo) when a
// file cannot be written (what was written stays in the set, which rolls it back).
// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_outputs_as(OutputSet& set, TensorFormat format, const std::string& dir,
                                          const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                          TensorRole role = TensorRole::kOutputs);

// Before a run: Error(kIo) when write_outputs_as(format, dir, <count tensors>, role) is
// sure to fail (dir is not a folder; a file's name is a folder; dir is not writable).
// Removes the temporaries killed runs left in dir (io/owned_temp.h).
void check_output_targets(TensorFormat format, const std::string& dir, size_t count,
                          TensorRole role = TensorRole::kOutputs);

}  // namespace onnxrun
