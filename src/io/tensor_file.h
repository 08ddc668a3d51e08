// Tensor files: one serialized TensorProto per file (the ONNX test-data format).
#pragma once

#include <string>
#include <utility>

#include "core/tensor.h"
#include "io/mapped_file.h"
#include "io/tensor_wire.h"

namespace onnxrun {

struct NamedTensor {
  std::string name;  // the TensorProto's name; may be empty
  Tensor tensor;
};

// Throws Error(kIo) when the file cannot be read, Error(kInvalid) when it is not a
// valid TensorProto; the message names the file.
// A raw_data tensor (the usual form) is read by mapping the file and used where it lies
// when aligned for its element type (no copy, no 2 GiB limit); other files go through
// protobuf. The runs read tensor files as streams (io/tensor_stream.h), which come here
// for what they cannot read a range at a time.
NamedTensor read_tensor_file(const std::string& path);
// The file whose bytes read_tensor_file(path) takes as external data, or empty: none, or
// the file cannot be read (reading it for the run then reports why).
std::string tensor_file_data_file(const std::string& path);

// The tensor a raw_data TensorProto in `file` holds (find_raw_tensor's layout): a view of
// the mapping when its data is aligned for the element type, else a copy. Throws
// Error(kInvalid) / Error(kUnsupported) for a bad type, dims or data size.
Tensor raw_layout_tensor(const std::shared_ptr<const MappedFile>& file, const RawTensorLayout& raw);
// raw_layout_tensor's checks alone: the element type and shape, raw_data's size checked.
std::pair<DType, Shape> raw_layout_type(const RawTensorLayout& raw);

// What a tensor file holds before its data: a TensorProto of `dtype`, `shape` and `name`
// with raw_data's tag and length, so the file is this followed by the data bytes.
std::string tensor_file_header(DType dtype, const Shape& shape, const std::string& name);

}  // namespace onnxrun
