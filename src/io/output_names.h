// What onnx-run calls the files it names itself (DESIGN.md, "Files:"), in one place:
//   -o DIR             output_<k>.pb, output_<k>.npy, or outputs.npz
//   --save-inputs DIR  input_<k>.pb, input_<k>.npy, or inputs.npz
//   --dump-intermediates DIR   <value name, made safe>.pb or .npy, and values.tsv
// Every writer and the checks made before a run take their names from here, and so does
// `onnx-run compare` when it reads an -o folder back.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/tensor_format.h"

namespace onnxrun {

// Whose files a folder receives: a run's outputs (output_<k>.<ext>, outputs.npz), or the
// inputs it used (--save-inputs: input_<k>.<ext>, inputs.npz), so that `-i DIR/input_0.pb`
// or `--npz DIR/inputs.npz` runs them again.
enum class TensorRole { kOutputs, kInputs };

// output_<k><ext> or input_<k><ext>.
std::string numbered_file_name(TensorRole role, size_t k, std::string_view ext);
// outputs.npz or inputs.npz.
std::string bundle_file_name(TensorRole role);
// ".pb" or ".npy": the extension of one tensor's file in `format` (npz: ".npy", as a
// dump writes its values).
const char* single_file_extension(TensorFormat format);
// The files `count` tensors of `role` are written as in `format`: numbered_file_name for
// k < count (pb, npy), or the one bundle_file_name (npz).
std::vector<std::string> tensor_file_names(TensorFormat format, size_t count, TensorRole role);
// k when `stem` is numbered_file_name(role, k, "") (output_<k>, no extension), else nullopt.
std::optional<size_t> numbered_file_index(TensorRole role, std::string_view stem);

// A file name for a value name: characters other than letters, digits, '.', '_' and '-'
// become '_', a leading '.' gets a '_' before it, and an empty name becomes "_". A name
// longer than kMaxValueFileStem is cut, and ends in '_' and 16 hex digits of a hash of the
// whole value name, so that it fits with its extension, a clash's "~N" and the temporary's
// name around it (io/temp_names.h) in a file name (NAME_MAX, 255 bytes).
std::string file_name_for_value(const std::string& value_name);
inline constexpr size_t kMaxValueFileStem = 160;
// The index of a --dump-intermediates folder: "file<TAB>value name" lines.
inline constexpr const char* kDumpIndexName = "values.tsv";

}  // namespace onnxrun
