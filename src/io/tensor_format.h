// The file formats onnx-run writes tensors in (--format): ONNX TensorProto (.pb, the
// default), numpy .npy, or one numpy .npz holding them all.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "io/output_files.h"

namespace onnxrun {

enum class TensorFormat { kPb, kNpy, kNpz };

// "pb", "npy", "npz"; Error(kUsage) otherwise.
TensorFormat parse_tensor_format(const std::string& name);

// Writes a run's outputs into `dir` (created if missing): pb as output_<k>.pb (see
// output_files.h), npy as output_<k>.npy, npz as outputs.npz with one array per output,
// keyed by output name. Atomic per file; on failure nothing this call wrote is left.
// TensorRole::kInputs names them input_<k> and inputs.npz instead (io/output_files.h).
// REQUIRES: names.size() == tensors.size(). Returns the paths written.
std::vector<std::string> write_outputs_as(TensorFormat format, const std::string& dir,
                                          const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                          TensorRole role = TensorRole::kOutputs);

// Before a run: Error(kIo) when write_outputs_as(format, dir, <count tensors>, role) is
// sure to fail (dir is not a folder; a file's name is a folder; dir is not writable).
// Removes the temporaries killed runs left in dir (io/owned_temp.h).
void check_output_targets(TensorFormat format, const std::string& dir, size_t count,
                          TensorRole role = TensorRole::kOutputs);

// A file name for a value name: characters other than letters, digits, '.', '_' and '-'
// become '_', a leading '.' gets a '_' before it, and an empty name becomes "_".
std::string file_name_for_value(const std::string& value_name);

}  // namespace onnxrun
