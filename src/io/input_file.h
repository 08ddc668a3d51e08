// Reading a tensor from a file given on the command line, whatever its format:
// numpy .npy (by extension; the tensor has no name) or ONNX TensorProto (.pb, and any
// other extension). One place to add formats.
// `declared`: the type of the value the file is read for, when known; a .npy's uint16
// bits come back as bfloat16 where it is bfloat16 (numpy has none: io/npy.h).
#pragma once

#include <optional>
#include <string>

#include "io/tensor_file.h"

namespace onnxrun {

NamedTensor read_input_file(const std::string& path, std::optional<DType> declared = std::nullopt);

}  // namespace onnxrun
