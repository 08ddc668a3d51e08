#include "core/attribute.h"

#include "core/error.h"
#include "core/fail.h"

namespace onnxrun {

std::string_view attr_kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::kFloat: return "float";
    case AttrKind::kInt: return "int";
    case AttrKind::kString: return "string";
    case AttrKind::kTensor: return "tensor";
    case AttrKind::kFloats: return "floats";
    case AttrKind::kInts: return "ints";
    case AttrKind::kStrings: return "strings";
  }
  return "unknown";
}

Attribute float_attr(float v) {
  Attribute a;
  a.kind = AttrKind::kFloat;
  a.f = v;
  return a;
}

Attribute tensor_attr(Tensor t) {
  Attribute a;
  a.kind = AttrKind::kTensor;
  a.t = std::move(t);
  return a;
}

namespace {
const Attribute* find_of_kind(const AttributeMap& attrs, const std::string& name, AttrKind want) {
  auto it = attrs.find(name);
  if (it == attrs.end()) return nullptr;
  if (it->second.kind != want)
    fail(ErrorKind::kInvalid, "attribute '{}' must be of type {}, got {}", name, attr_kind_name(want),
         attr_kind_name(it->second.kind));
  return &it->second;
}
}  // namespace

std::optional<float> attr_float(const AttributeMap& attrs, const std::string& name) {
  const Attribute* a = find_of_kind(attrs, name, AttrKind::kFloat);
  return a ? std::optional<float>(a->f) : std::nullopt;
}

std::optional<int64_t> attr_int(const AttributeMap& attrs, const std::string& name) {
  const Attribute* a = find_of_kind(attrs, name, AttrKind::kInt);
  return a ? std::optional<int64_t>(a->i) : std::nullopt;
}

}  // namespace onnxrun
