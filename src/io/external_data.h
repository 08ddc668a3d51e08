// Tensors whose data lives in another file (TensorProto.data_location = EXTERNAL), as
// ONNX defines it: `external_data` holds key/value strings `location` (a path relative
// to the model's folder, required), `offset` (bytes, default 0), `length` (bytes,
// default: to the end of the file) and `checksum` (SHA-1; accepted, not verified).
// Any other key, a key given twice, or a number that is not a plain non-negative
// decimal is refused.
//
// The file is opened with open_beneath (safe_open.h: no escape from the folder, no
// links), and the range must lie inside it and hold exactly the bytes that the dims and
// type need. The data is mapped, not copied: the tensor borrows a read-only view of the
// mapping, which stays alive as long as the tensor does. Only when the offset is not a
// multiple of the element size (a view would be misaligned) is it copied.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onnxrun {

struct ExternalDataRef {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;  // nullopt: to the end of the file
};

// True when the proto says its data is external.
bool has_external_data(const onnx::TensorProto& proto);

// The checked keys of an external TensorProto. Throws Error(kSecurity) for an unknown
// or repeated key, a malformed or negative number, or a missing location.
ExternalDataRef parse_external_data(const onnx::TensorProto& proto);

// The file a tensor's external data is read from (`base_dir`/location), for the checks
// that keep a run's output files off the files it reads; empty when its data is not
// external or its keys are bad (reading it reports that).
std::string external_data_file(const onnx::TensorProto& proto, const std::string& base_dir);

// Reads an external tensor whose location is relative to `base_dir`. An empty
// `base_dir` means the tensor came without a folder (bytes in memory): refused.
Tensor load_external_tensor(const onnx::TensorProto& proto, const std::string& base_dir);

// The one call where tensors are read from protos: external data from `base_dir`,
// everything else through tensor_from_proto.
Tensor tensor_from_proto_in(const onnx::TensorProto& proto, const std::string& base_dir);

}  // namespace onnxrun
