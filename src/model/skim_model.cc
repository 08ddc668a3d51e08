#include "model/skim_model.h"

#include <cstdint>
#include <optional>

namespace onnxrun {
namespace {

// onnx.proto field numbers on the path to the initializers' data.
constexpr uint32_t kModelGraph = 7;        // ModelProto.graph
constexpr uint32_t kGraphInitializer = 5;  // GraphProto.initializer
constexpr uint32_t kTensorRawData = 9;     // TensorProto.raw_data

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

// Calls `each(field, wire, start, body, end)` for the fields of the message in [0, size)
// of `bytes`: [start, end) is the whole field (tag included), for copying as it is;
// [body, end) a length-delimited field's contents (empty for the other wire types).
template <typename Each>
void for_each_field(const char* bytes, size_t size, const char* what, Each each) {
  WireReader r(bytes, size, what);
  while (!r.done()) {
    const size_t start = r.pos();
    const uint64_t tag = r.varint();
    const uint32_t field = static_cast<uint32_t>(tag >> 3), wire = static_cast<uint32_t>(tag & 7);
    if (field == 0) r.bad("field number 0");
    if (wire == kWireLen) {
      const uint64_t len = r.varint();
      const size_t at = r.skip(len);
      each(field, wire, start, at, at + static_cast<size_t>(len));
    } else {
      r.skip_value(wire);
      each(field, wire, start, r.pos(), r.pos());
    }
  }
}

void put_message(std::string& out, uint32_t field, const std::string& body) {
  put_varint(out, (uint64_t{field} << 3) | kWireLen);
  put_varint(out, body.size());
  out += body;
}

// The initializer at [0, size) of `bytes` (which lies at `offset` in the model), its
// raw_data left out when lifted.
std::string skim_tensor(const char* bytes, size_t size, size_t offset, size_t min_bytes, SkimmedModel& s) {
  const std::optional<RawTensorLayout> raw = find_raw_tensor(bytes, size);
  if (!raw || raw->raw_size < min_bytes) return std::string(bytes, size);
  RawTensorLayout at_file = *raw;
  at_file.raw_offset += offset;
  s.lifted.emplace(raw->name, std::move(at_file));
  std::string out;
  for_each_field(bytes, size, "TensorProto", [&](uint32_t field, uint32_t, size_t start, size_t, size_t end) {
    if (field != kTensorRawData) out.append(bytes + start, end - start);
  });
  return out;
}

std::string skim_graph(const char* bytes, size_t size, size_t offset, size_t min_bytes, SkimmedModel& s) {
  std::string out;
  for_each_field(bytes, size, "GraphProto", [&](uint32_t field, uint32_t wire, size_t start, size_t body, size_t end) {
    if (field == kGraphInitializer && wire == kWireLen)
      put_message(out, field, skim_tensor(bytes + body, end - body, offset + body, min_bytes, s));
    else out.append(bytes + start, end - start);
  });
  return out;
}

}  // namespace

SkimmedModel skim_model(const char* bytes, size_t size, size_t min_bytes) {
  SkimmedModel s;
  for_each_field(bytes, size, "ModelProto", [&](uint32_t field, uint32_t wire, size_t start, size_t body, size_t end) {
    if (field == kModelGraph && wire == kWireLen)
      put_message(s.bytes, field, skim_graph(bytes + body, end - body, body, min_bytes, s));
    else s.bytes.append(bytes + start, end - start);
  });
  return s;
}

}  // namespace onnxrun
