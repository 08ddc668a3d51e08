// Reading a tensor from a file given on the command line, whatever its format:
// numpy .npy (by extension; the tensor has no name) or ONNX TensorProto (.pb, and any
// other extension). One place to add formats.
#pragma once

#include <string>

#include "io/tensor_file.h"

namespace onnxrun {

NamedTensor read_input_file(const std::string& path);

}  // namespace onnxrun
