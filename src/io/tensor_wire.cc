#include "io/tensor_wire.h"

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

// TensorProto field numbers (onnx.proto).
enum Field : uint32_t {
  kDims = 1,
  kDataType = 2,
  kSegment = 3,
  kFloatData = 4,
  kInt32Data = 5,
  kStringData = 6,
  kInt64Data = 7,
  kName = 8,
  kRawData = 9,
  kDoubleData = 10,
  kUint64Data = 11,
  kExternalData = 13,
  kDataLocation = 14,
};
constexpr uint64_t kExternal = 1;  // TensorProto.DataLocation.EXTERNAL

}  // namespace

uint64_t WireReader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= n_) bad("truncated varint");
    const uint8_t b = p_[pos_++];
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  bad("varint longer than 10 bytes");
}

size_t WireReader::skip(uint64_t len) {
  if (len > n_ - pos_) bad("a field runs past the end of the message");
  const size_t at = pos_;
  pos_ += static_cast<size_t>(len);
  return at;
}

void WireReader::skip_value(uint32_t wire) {
  switch (wire) {
    case kWireVarint: varint(); break;
    case kWireFixed64: skip(8); break;
    case kWireLen: skip(varint()); break;
    case kWireFixed32: skip(4); break;
    default: bad("unsupported wire type");
  }
}

void WireReader::bad(const char* why) const { fail(ErrorKind::kInvalid, "not a valid {}: {}", what_, why); }

std::optional<RawTensorLayout> find_raw_tensor(const char* bytes, size_t size) {
  WireReader r(bytes, size, "TensorProto");
  RawTensorLayout out;
  bool has_raw = false, plain = true;
  while (!r.done()) {
    const uint64_t tag = r.varint();
    const uint32_t field = static_cast<uint32_t>(tag >> 3);
    const uint32_t wire = static_cast<uint32_t>(tag & 7);
    if (field == 0) r.bad("field number 0");
    if (field == kDims && wire == kWireVarint) {
      out.dims.push_back(static_cast<int64_t>(r.varint()));
      continue;
    }
    if (field == kDims && wire == kWireLen) {  // packed
      const uint64_t len = r.varint();
      const size_t at = r.skip(len);
      WireReader packed(bytes + at, static_cast<size_t>(len), "TensorProto");
      while (!packed.done()) out.dims.push_back(static_cast<int64_t>(packed.varint()));
      continue;
    }
    if (field == kDataType && wire == kWireVarint) {
      out.data_type = static_cast<int32_t>(r.varint());
      continue;
    }
    if (field == kName && wire == kWireLen) {
      const uint64_t len = r.varint();
      out.name.assign(bytes + r.skip(len), static_cast<size_t>(len));
      continue;
    }
    if (field == kRawData && wire == kWireLen) {
      out.raw_size = static_cast<size_t>(r.varint());
      out.raw_offset = r.skip(out.raw_size);
      has_raw = true;
      continue;
    }
    switch (field) {
      case kSegment:
      case kFloatData:
      case kInt32Data:
      case kStringData:
      case kInt64Data:
      case kDoubleData:
      case kUint64Data:
      case kExternalData:
      case kDims:  // with an unexpected wire type: let protobuf judge it
      case kDataType:
      case kName:
      case kRawData: plain = false; break;
      default: break;
    }
    if (wire == kWireVarint) {
      if (r.varint() == kExternal && field == kDataLocation) plain = false;
    } else {
      r.skip_value(wire);
    }
  }
  if (!plain || !has_raw) return std::nullopt;
  return out;
}

}  // namespace onnxrun
