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

// Protobuf's wire types, as a field's tag carries them in its low three bits.
enum WireType : uint32_t { kWireVarint = 0, kWireFixed64 = 1, kWireLen = 2, kWireFixed32 = 5 };

// Reading a message's fields in wire format, every length checked against the buffer.
// `what` names the message in errors: Error(kInvalid) "not a valid WHAT: truncated varint".
class WireReader {
 public:
  WireReader(const char* p, size_t n, const char* what) : p_(reinterpret_cast<const uint8_t*>(p)), n_(n), what_(what) {}
  bool done() const { return pos_ == n_; }
  size_t pos() const { return pos_; }
  uint64_t varint();
  // Skips `len` bytes, returning where they start.
  size_t skip(uint64_t len);
  // Skips the value of a field of wire type `wire` (its tag already read).
  void skip_value(uint32_t wire);
  [[noreturn]] void bad(const char* why) const;

 private:
  const uint8_t* p_;
  size_t n_;
  size_t pos_ = 0;
  const char* what_;
};

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
