// TensorProto <-> Tensor. Reads raw_data and every typed field ONNX defines for the
// types onnx-run can hold, checking that exactly one holds the data and that its length
// matches the dims; writes raw_data (little-endian, packed), the compact form.
#pragma once

#include <string>

#include "core/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onnxrun {

// REQUIRES: proto has no external data (the caller resolves that; see external_data.h).
Tensor tensor_from_proto(const onnx::TensorProto& proto);

// Bool elements, as raw bytes, are 0 or 1 (ONNX and numpy write no other): throws
// Error(kInvalid) "WHAT: bool element K is B, not 0 or 1", K counted from `offset`, for
// the first that is not. Every door that copies bool bytes as they lie calls it: .pb
// raw_data read whole, mapped or streamed, and .npy.
void check_bools(const void* data, size_t n, size_t offset, const std::string& what);

// The element type and dims a TensorProto declares, checked (known type, dims >= 0).
DType proto_dtype(const onnx::TensorProto& proto);
Shape proto_shape(const onnx::TensorProto& proto);

}  // namespace onnxrun
