#include "model/proto_newer_fields.h"

#include <functional>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {
namespace {

using google::protobuf::internal::WireFormatLite;

// Calls on_bytes(field, bytes) for every length-delimited unknown field; skips others.
void for_each_bytes_field(const std::string& unknown, const char* what,
                          const std::function<void(uint32_t, const std::string&)>& on_bytes) {
  if (unknown.empty()) return;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(unknown.data()),
                                            static_cast<int>(unknown.size()));
  while (const uint32_t tag = in.ReadTag()) {
    const uint32_t field = WireFormatLite::GetTagFieldNumber(tag);
    if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t len = 0;
      std::string bytes;
      if (!in.ReadVarint32(&len) || !in.ReadString(&bytes, static_cast<int>(len)))
        fail(ErrorKind::kInvalid, "{}: malformed field {}", what, field);
      on_bytes(field, bytes);
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      fail(ErrorKind::kInvalid, "{}: malformed field {}", what, field);
    }
  }
  if (!in.ConsumedEntireMessage()) fail(ErrorKind::kInvalid, "{}: malformed unknown fields", what);
}

}  // namespace

FunctionProtoExtras function_proto_extras(const onnx::FunctionProto& f) {
  FunctionProtoExtras out;
  for_each_bytes_field(f.unknown_fields(), "function", [&](uint32_t field, const std::string& bytes) {
    if (field == 11) {
      onnx::AttributeProto a;
      if (!a.ParseFromString(bytes)) fail(ErrorKind::kInvalid, "function '{}': malformed attribute_proto", f.name());
      out.attribute_protos.push_back(std::move(a));
    } else if (field == 13) {
      out.overload = bytes;
    }
  });
  return out;
}

std::string node_proto_overload(const onnx::NodeProto& n) {
  std::string overload;
  for_each_bytes_field(n.unknown_fields(), "node", [&](uint32_t field, const std::string& bytes) {
    if (field == 8) overload = bytes;
  });
  return overload;
}

}  // namespace onnxrun
