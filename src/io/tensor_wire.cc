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

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

class Reader {
 public:
  Reader(const char* p, size_t n) : p_(reinterpret_cast<const uint8_t*>(p)), n_(n) {}
  bool done() const { return pos_ == n_; }
  size_t pos() const { return pos_; }

  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= n_) bad("truncated varint");
      const uint8_t b = p_[pos_++];
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    bad("varint longer than 10 bytes");
  }
  // Skips `len` bytes, returning where they start.
  size_t skip(uint64_t len) {
    if (len > n_ - pos_) bad("a field runs past the end of the message");
    const size_t at = pos_;
    pos_ += static_cast<size_t>(len);
    return at;
  }
  [[noreturn]] static void bad(const char* what) { fail(ErrorKind::kInvalid, "not a valid TensorProto: {}", what); }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<RawTensorLayout> find_raw_tensor(const char* bytes, size_t size) {
  Reader r(bytes, size);
  RawTensorLayout out;
  bool has_raw = false, plain = true;
  while (!r.done()) {
    const uint64_t tag = r.varint();
    const uint32_t field = static_cast<uint32_t>(tag >> 3);
    const uint32_t wire = static_cast<uint32_t>(tag & 7);
    if (field == 0) Reader::bad("field number 0");
    if (field == kDims && wire == kVarint) {
      out.dims.push_back(static_cast<int64_t>(r.varint()));
      continue;
    }
    if (field == kDims && wire == kLen) {  // packed
      const uint64_t len = r.varint();
      const size_t at = r.skip(len);
      Reader packed(bytes + at, static_cast<size_t>(len));
      while (!packed.done()) out.dims.push_back(static_cast<int64_t>(packed.varint()));
      continue;
    }
    if (field == kDataType && wire == kVarint) {
      out.data_type = static_cast<int32_t>(r.varint());
      continue;
    }
    if (field == kName && wire == kLen) {
      const uint64_t len = r.varint();
      out.name.assign(bytes + r.skip(len), static_cast<size_t>(len));
      continue;
    }
    if (field == kRawData && wire == kLen) {
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
    switch (wire) {  // skip the value
      case kVarint: {
        const uint64_t v = r.varint();
        if (field == kDataLocation && v == kExternal) plain = false;
        break;
      }
      case kFixed64: r.skip(8); break;
      case kLen: r.skip(r.varint()); break;
      case kFixed32: r.skip(4); break;
      default: Reader::bad("unsupported wire type");
    }
  }
  if (!plain || !has_raw) return std::nullopt;
  return out;
}

}  // namespace onnxrun
