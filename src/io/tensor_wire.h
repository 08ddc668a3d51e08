// Reading a serialized TensorProto's wire format directly, far enough to find where its
// raw_data lies, so that a mapped file's tensor can be used in place with no copy and no
// protobuf parse (which also has a 2 GiB message limit). Every length is bounds-checked
// against the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onnxrun {

struct RawTensorLayout {
  std::string name;
  int32_t data_type = 0;
  std::vector<int64_t> dims;
  size_t raw_offset = 0;  // raw_data's bytes are [raw_offset, raw_offset + raw_size)
  size_t raw_size = 0;
};

// The layout when `bytes` is a TensorProto keeping its data in raw_data alone: no typed
// data field, no segment, no external data. Returns nullopt for any other well-formed
// message, which the caller then parses with protobuf. Repeated scalar fields follow
// protobuf's rule (the last one wins); unknown fields are skipped. Throws Error(kInvalid)
// when the bytes are not a well-formed message (truncated, bad wire type, a length past
// the end).
std::optional<RawTensorLayout> find_raw_tensor(const char* bytes, size_t size);

}  // namespace onnxrun
