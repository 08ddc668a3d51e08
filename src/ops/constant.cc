// Constant, versions 1, 9, 11, 12, 13, 19, 21, 23, 24, 25: its output is the value of
// its one value attribute. `value` (a tensor) in every version; v12+ also
// `value_float(s)` (float32, 0-d / 1-d) and `value_int(s)` (int64, 0-d / 1-d). String
// values (`value_string(s)`, string tensors) and `sparse_value` are refused: onnx-run
// has no string or sparse tensors. The output's element type comes from the attribute
// (OpDef::infer_types), so a Constant's type is known at load.
#include <algorithm>

#include "core/error.h"
#include "core/fail.h"
#include "ops/dtype_dispatch.h"
#include "ops/op_families.h"
#include "ops/registry.h"

namespace onnxrun {
namespace {

const char* const kValueAttrs[] = {"value",      "value_float",  "value_floats",  "value_int",
                                   "value_ints", "value_string", "value_strings", "sparse_value"};

// The one value attribute of `attrs`, checked.
const std::pair<const std::string, Attribute>& value_attr(const AttributeMap& attrs) {
  const std::pair<const std::string, Attribute>* found = nullptr;
  for (const char* name : kValueAttrs) {
    auto it = attrs.find(name);
    if (it == attrs.end()) continue;
    if (found)
      fail(ErrorKind::kInvalid, "Constant takes exactly one value attribute, got '{}' and '{}'", found->first, name);
    found = &*it;
  }
  if (!found) fail(ErrorKind::kInvalid, "Constant needs a value attribute (value, value_float(s) or value_int(s))");
  if (found->first == "value_string" || found->first == "value_strings")
    fail_unsupported(Cause{Cause::Kind::kType, "", "", 0, "string", ""},
                     "Constant: '{}' is not supported (onnx-run has no string tensors)", found->first);
  if (found->first == "sparse_value")
    fail_unsupported(Cause{Cause::Kind::kFeature, "", "", 0, "", "sparse tensors"},
                     "Constant: 'sparse_value' is not supported (onnx-run has no sparse tensors)");
  return *found;
}

Tensor constant_value(const AttributeMap& attrs) {
  const auto& [name, a] = value_attr(attrs);
  if (name == "value") {
    if (!a.t.valid()) fail(ErrorKind::kInvalid, "Constant: attribute 'value' holds no tensor");
    return a.t;
  }
  if (name == "value_float") {
    Tensor t(DType::kFloat, {});
    *t.mutable_data<float>() = a.f;
    return t;
  }
  if (name == "value_int") {
    Tensor t(DType::kInt64, {});
    *t.mutable_data<int64_t>() = a.i;
    return t;
  }
  if (name == "value_floats") {
    Tensor t(DType::kFloat, {static_cast<int64_t>(a.floats.size())});
    std::copy(a.floats.begin(), a.floats.end(), t.mutable_data<float>());
    return t;
  }
  Tensor t(DType::kInt64, {static_cast<int64_t>(a.ints.size())});
  std::copy(a.ints.begin(), a.ints.end(), t.mutable_data<int64_t>());
  return t;
}

// The output's element type, checked against what the version allows.
DType constant_type(const AttributeMap& attrs, const std::vector<DType>& allowed) {
  const auto& [name, a] = value_attr(attrs);
  DType t = DType::kFloat;
  if (name == "value") {
    if (!a.t.valid()) fail(ErrorKind::kInvalid, "Constant: attribute 'value' holds no tensor");
    t = a.t.dtype();
  } else if (name == "value_int" || name == "value_ints") {
    t = DType::kInt64;
  }
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
    fail_unsupported(Cause{Cause::Kind::kType, "Constant", "", 0, std::string(dtype_name(t)), ""},
                     "Constant of type {} is not {}", dtype_name(t),
                     dtype_out_of_scope(t)
                         ? "implemented (onnx-run has no float8, 4-bit, 2-bit, string or complex tensors)"
                         : "allowed by this version");
  return t;
}

class ConstantKernel final : public OpKernel {
 public:
  explicit ConstantKernel(Tensor value) : value_(std::move(value)) {}
  // Hands out a shared reference: the kernel keeps one, so no consumer can overwrite it.
  void compute(OpContext& ctx) const override { ctx.outputs[0] = value_; }

 private:
  Tensor value_;
};

}  // namespace

std::vector<OpDef> constant_ops() {
  const std::vector<DType> v9 = join_types({kFloatTypes, kSignedIntTypes, kUnsignedIntTypes, {DType::kBool}});
  const std::vector<DType> v13 = join_types({v9, {DType::kBFloat16}});
  const AttrSpec value{"value", AttrKind::kTensor};
  // sparse_value and the string forms are defined (so that they are refused with a
  // clear message rather than as unknown attributes); their kinds onnx-run never loads.
  const AttrSpec sparse{"sparse_value", AttrKind::kTensor};
  const std::vector<AttrSpec> v12 = {value,
                                     sparse,
                                     {"value_float", AttrKind::kFloat},
                                     {"value_floats", AttrKind::kFloats},
                                     {"value_int", AttrKind::kInt},
                                     {"value_ints", AttrKind::kInts},
                                     {"value_string", AttrKind::kString},
                                     {"value_strings", AttrKind::kStrings}};
  return op_versions({.op_type = "Constant",
                      .outputs = {"T"},
                      .make_kernel =
                          [](const OpDef& d, const AttributeMap& a) {
                            constant_type(a, d.constraint("T")->types);
                            return std::make_unique<ConstantKernel>(constant_value(a));
                          },
                      .infer_types =
                          [](const OpDef& d, const std::vector<std::optional<DType>>&, const AttributeMap& a) {
                            return std::vector<std::optional<DType>>{constant_type(a, d.constraint("T")->types)};
                          },
                      .constant = true},
                     {
                         {.since = 1, .attrs = {value}, .constraints = {{"T", kFloatTypes}}},
                         {.since = 9, .attrs = {value}, .constraints = {{"T", v9}}},
                         {.since = 11, .attrs = {value, sparse}, .constraints = {{"T", v9}}},
                         {.since = 12, .attrs = v12, .constraints = {{"T", v9}}},
                         {.since = 13, .attrs = v12, .constraints = {{"T", v13}}},
                         {.since = 19, .attrs = v12, .constraints = {{"T", v13}}},
                         {.since = 21, .attrs = v12, .constraints = {{"T", v13}}},
                         {.since = 23, .attrs = v12, .constraints = {{"T", v13}}},
                         {.since = 24, .attrs = v12, .constraints = {{"T", v13}}},
                         {.since = 25, .attrs = v12, .constraints = {{"T", v13}}},
                     });
}

}  // namespace onnxrun
