#include "ops/registry.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/fail.h"
#include "ops/dtype_dispatch.h"

namespace onnxrun {

void OpKernel::compute_elements(DType, const void*, void*, size_t) const {
  fail(ErrorKind::kInternal, "this kernel has no elementwise entry point");
}

std::unique_ptr<OpKernel> OpKernel::then(const OpKernel&) const { return nullptr; }

const TypeConstraint* OpDef::constraint(const std::string& name) const {
  for (const TypeConstraint& c : constraints)
    if (c.name == name) return &c;
  return nullptr;
}

std::string OpDef::version_range() const {
  if (until == kOpenEnded) return fmt::format("v{} ({}+)", since, since);
  if (until == since) return fmt::format("v{} ({})", since, since);
  return fmt::format("v{} ({}-{})", since, since, until);
}

std::string canonical_domain(const std::string& domain) { return domain == "ai.onnx" ? "" : domain; }

OpRegistry::OpRegistry(std::vector<OpDef> rows) : defs_(std::move(rows)) {
  for (OpDef& d : defs_) {
    d.domain = canonical_domain(d.domain);
    if (d.op_type.empty() || d.since < 1) fail(ErrorKind::kInternal, "an operator row needs op_type and since");
    if (d.until != kOpenEnded) fail(ErrorKind::kInternal, "{} v{}: until is derived, not written", d.op_type, d.since);
  }
  std::sort(defs_.begin(), defs_.end(), [](const OpDef& a, const OpDef& b) {
    return std::tie(a.domain, a.op_type, a.since) < std::tie(b.domain, b.op_type, b.since);
  });
  for (size_t k = 0; k + 1 < defs_.size(); ++k) {
    OpDef& d = defs_[k];
    const OpDef& next = defs_[k + 1];
    if (next.domain != d.domain || next.op_type != d.op_type) continue;
    if (next.since == d.since) fail(ErrorKind::kInternal, "{} v{} has two rows", d.op_type, d.since);
    d.until = next.since - 1;
  }
}

const OpDef* OpRegistry::find(const std::string& domain, const std::string& op_type, int64_t opset) const {
  const std::string dom = canonical_domain(domain);
  for (const OpDef& d : defs_)
    if (d.domain == dom && d.op_type == op_type && d.since <= opset && opset <= d.until) return &d;
  return nullptr;
}

std::vector<const OpDef*> OpRegistry::versions(const std::string& domain, const std::string& op_type) const {
  const std::string dom = canonical_domain(domain);
  std::vector<const OpDef*> out;
  for (const OpDef& d : defs_)
    if (d.domain == dom && d.op_type == op_type) out.push_back(&d);
  std::sort(out.begin(), out.end(), [](const OpDef* a, const OpDef* b) { return a->since < b->since; });
  return out;
}

bool OpRegistry::has_domain(const std::string& domain) const {
  const std::string dom = canonical_domain(domain);
  return std::any_of(defs_.begin(), defs_.end(), [&](const OpDef& d) { return d.domain == dom; });
}

std::vector<std::string> OpRegistry::domains() const {
  std::vector<std::string> out;
  for (const OpDef& d : defs_)
    if (std::find(out.begin(), out.end(), d.domain) == out.end()) out.push_back(d.domain);
  return out;
}

namespace {
std::string type_list(const std::vector<DType>& types) {
  std::vector<std::string_view> names;
  for (DType t : types) names.push_back(dtype_name(t));
  return fmt::format("{}", fmt::join(names, ", "));
}
}  // namespace

void check_input_types(const OpDef& def, const std::vector<std::optional<DType>>& inputs) {
  // No map and no allocation: this runs before every kernel call, and a node has a
  // handful of inputs, so an earlier input of the same constraint is found by a scan.
  for (size_t k = 0; k < inputs.size() && k < def.inputs.size(); ++k) {
    if (!inputs[k]) continue;
    const std::string& cname = def.inputs[k];
    const TypeConstraint* c = def.constraint(cname);
    if (!c) continue;
    // A row's types are ONNX's for its version, but for the element types onnx-run does
    // not implement at all: a type outside them is the model's fault (LeakyRelu on int32
    // is invalid, not a gap to skip), unless it is one of those.
    if (std::find(c->types.begin(), c->types.end(), *inputs[k]) == c->types.end()) {
      const std::string refused = fmt::format("input {} has type {}; {} {} allows {}", k, dtype_name(*inputs[k]),
                                              def.op_type, def.version_range(), type_list(c->types));
      if (dtype_out_of_scope(*inputs[k]))
        fail_unsupported(Cause{Cause::Kind::kType, def.op_type, def.domain, 0, std::string(dtype_name(*inputs[k])), ""},
                         "{} (float8, 4-bit, 2-bit, string and complex tensors are not implemented)", refused);
      fail(ErrorKind::kInvalid, "{}", refused);
    }
    for (size_t j = 0; j < k; ++j)
      if (inputs[j] && def.inputs[j] == cname && *inputs[j] != *inputs[k])
        fail(ErrorKind::kInvalid, "input {} has type {} but an earlier input of type {} has {}", k,
             dtype_name(*inputs[k]), cname, dtype_name(*inputs[j]));
  }
}

std::vector<std::optional<DType>> check_and_infer_types(const OpDef& def,
                                                        const std::vector<std::optional<DType>>& inputs,
                                                        const AttributeMap& attrs) {
  check_input_types(def, inputs);
  if (def.infer_types) return def.infer_types(def, inputs, attrs);
  auto bound_type = [&](const std::string& cname) -> std::optional<DType> {
    for (size_t k = 0; k < inputs.size() && k < def.inputs.size(); ++k)
      if (inputs[k] && def.inputs[k] == cname) return inputs[k];
    return std::nullopt;
  };
  std::vector<std::optional<DType>> out;
  for (const std::string& cname : def.outputs) {
    const TypeConstraint* c = def.constraint(cname);
    if (std::optional<DType> t = bound_type(cname); t && c) out.push_back(t);
    else if (c && c->types.size() == 1) out.push_back(c->types[0]);
    else out.push_back(std::nullopt);
  }
  return out;
}

void check_attributes(const OpDef& def, const AttributeMap& attrs) {
  for (const auto& [name, attr] : attrs) {
    // By value: clang 14 cannot capture a structured binding.
    auto spec = std::find_if(def.attrs.begin(), def.attrs.end(), [n = name](const AttrSpec& s) { return s.name == n; });
    if (spec == def.attrs.end()) {
      std::vector<std::string> known;
      for (const AttrSpec& s : def.attrs) known.push_back(s.name);
      fail(ErrorKind::kInvalid, "attribute '{}' is not defined by {} {} (it defines: {})", name, def.op_type,
           def.version_range(), known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", ")));
    }
    if (spec->kind != attr.kind && attr.ref_attr_name.empty())
      fail(ErrorKind::kInvalid, "attribute '{}' must be of type {}, got {}", name, attr_kind_name(spec->kind),
           attr_kind_name(attr.kind));
  }
}

}  // namespace onnxrun
