// A node attribute as the graph holds it, free of protobuf. Kinds mirror ONNX's
// AttributeProto types that onnx-run can carry; graph-valued attributes are refused
// by the loader (no op onnx-run implements takes one).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace onnxrun {

enum class AttrKind { kFloat, kInt, kString, kTensor, kFloats, kInts, kStrings };

std::string_view attr_kind_name(AttrKind k);

struct Attribute {
  AttrKind kind = AttrKind::kFloat;
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  // Set inside a function body: the value comes from the caller's attribute of this name.
  std::string ref_attr_name;
};

using AttributeMap = std::map<std::string, Attribute>;

// Attributes made in code (schema function bodies).
Attribute float_attr(float v);
Attribute tensor_attr(Tensor t);

// Typed reads that check the kind. A missing attribute gives nullopt; one of another
// kind throws Error(kInvalid) naming the attribute and both kinds.
std::optional<float> attr_float(const AttributeMap& attrs, const std::string& name);
std::optional<int64_t> attr_int(const AttributeMap& attrs, const std::string& name);

}  // namespace onnxrun
