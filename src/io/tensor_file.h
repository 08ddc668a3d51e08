// Tensor files: one serialized TensorProto per file (the ONNX test-data format).
#pragma once

#include <string>

#include "core/tensor.h"

namespace onnxrun {

struct NamedTensor {
  std::string name;  // the TensorProto's name; may be empty
  Tensor tensor;
};

// Throws Error(kIo) when the file cannot be read, Error(kInvalid) when it is not a
// valid TensorProto; the message names the file.
NamedTensor read_tensor_file(const std::string& path);

// Writes `t` as a TensorProto named `name` (raw_data), atomically. The header is
// serialized on its own and the data streamed straight from the tensor's buffer, so no
// serialized copy of the data is ever made.
void write_tensor_file(const std::string& path, const Tensor& t, const std::string& name);

// The protobuf wire bytes of a TensorProto holding `t` (for tests and in-memory use).
std::string serialize_tensor(const Tensor& t, const std::string& name);

}  // namespace onnxrun
