// Fields that ONNX added after the onnx.proto this build compiles (Debian's onnx 1.12):
// FunctionProto.attribute_proto (11, IR 9: attributes with defaults), FunctionProto.overload
// (13) and NodeProto.overload (8, IR 10). Protobuf keeps fields it does not know as
// unknown fields; these read them from there, so models from newer exporters load
// with their meaning intact.
#pragma once

#include <string>
#include <vector>

#include "onnx/onnx.pb.h"

namespace onnxrun {

struct FunctionProtoExtras {
  std::vector<onnx::AttributeProto> attribute_protos;
  std::string overload;
};

// Throws Error(kInvalid) when the unknown fields are malformed.
FunctionProtoExtras function_proto_extras(const onnx::FunctionProto& f);
std::string node_proto_overload(const onnx::NodeProto& n);

}  // namespace onnxrun
